"""Political and scripted events (spec §2.11) and the victory checks (§2.14). Functions mutate a state copy."""
from __future__ import annotations

import random

from .board import BRITAIN_CASCADE, PARIS_CASCADE
from .state import GameState, draw_up_to

ALLIED_WIN_PROVINCES = ("berlin", "ruhr")
VP_TO_WIN = 70


def transfer_province(st: GameState, key: str, new: str) -> None:
    """Control changes outside a battle (B-29): province cards follow, ops holding the new owner's card are cancelled."""
    prov = st.provinces[key]
    old = prov.control
    if old in st.sides and key in st.sides[old].in_front:
        st.sides[old].in_front.remove(key)
        st.sides[old].province_deck.append(key)
    side = st.sides[new]
    for op in [o for o in side.operations if o.target == key]:
        cancel_op(st, new, op.slot)
    if key in side.province_deck:
        side.province_deck.remove(key)
    if key not in side.in_front:
        side.in_front.append(key)
    prov.control = new
    prov.neutrality_token = False


def cancel_op(st: GameState, side: str, slot: str) -> None:
    """Province card back to the province deck, battle cards to discard (§2.4 #3)."""
    s = st.sides[side]
    op = s.op(slot)
    s.operations.remove(op)
    s.province_deck.append(op.target)
    s.discard.extend(c.shown(False) for c in op.cards)


def cascade(st: GameState, fallen: str) -> list[str]:
    """First fall of Paris or Britain: listed provinces pass to the Axis, Allied cards there to discard."""
    flag = f"{fallen}_cascade_done"
    if st.flags.get(flag) or fallen not in ("paris", "britain"):
        return []
    st.flags[flag] = True
    moved = []
    for key in PARIS_CASCADE if fallen == "paris" else BRITAIN_CASCADE:
        if key not in st.provinces or st.provinces[key].control == "axis":
            continue
        prov = st.provinces[key]
        st.sides["allies"].discard.extend(c.shown(False) for c in prov.defence["allies"])
        prov.defence["allies"] = []
        transfer_province(st, key, "axis")
        moved.append(key)
    return moved


def ussr_provinces(st: GameState) -> list[str]:
    return [k for k in st.provinces if st.is_ussr(k)]


def ussr_enters(st: GameState, *, mid_year: bool, rng: random.Random | None = None) -> list[str]:
    """USSR at war: neutral USSR provinces become Allied, the Ural/USSR cards join the Allies (B-12)."""
    if st.flags["ussr_at_war"]:
        return []
    st.flags["ussr_at_war"] = True
    moved = [k for k in ussr_provinces(st) if st.provinces[k].control == "neutral"]
    for k in moved:
        transfer_province(st, k, "allies")
    allies = st.sides["allies"]
    cards = allies.special_sets.pop("ussr", [])
    if mid_year:
        was_empty = not allies.deck
        allies.deck.extend(cards)
        (rng or random.Random()).shuffle(allies.deck)
        if was_empty:
            draw_up_to(allies)
    else:
        allies.discard.extend(cards)
    return moved


def usa_enters(st: GameState) -> int:
    """End of 1941: the USA cards join the Allied discard before the new deck is formed."""
    st.flags["usa_at_war"] = True
    cards = st.sides["allies"].special_sets.pop("usa", [])
    st.sides["allies"].discard.extend(cards)
    return len(cards)


def balkans_year_end(st: GameState) -> str:
    """End of 1940: attacked and not Axis-held -> Allies; otherwise an Axis control token (neutral card stays)."""
    if "balkans" not in st.provinces:
        return "unknown"
    prov = st.provinces["balkans"]
    if prov.control == "axis":
        return "axis"
    new = "allies" if st.flags["axis_attacked_balkans_1940"] else "axis"
    transfer_province(st, "balkans", new)
    return new


def finish(st: GameState, winner: str, reason: str) -> None:
    st.winner, st.win_reason, st.phase = winner, reason, "finished"


def check_allied_win(st: GameState) -> bool:
    """§2.14.1: the Allies control Berlin and Ruhr (a quagmire there keeps its controller, B-33)."""
    if all(k in st.provinces and st.provinces[k].control == "allies" for k in ALLIED_WIN_PROVINCES):
        finish(st, "allies", "berlin_and_ruhr")
        return True
    return False


def check_vp_win(st: GameState) -> bool:
    if st.sides["axis"].vp >= VP_TO_WIN:
        finish(st, "axis", "vp_70")
        return True
    return False


def objectives_winner(st: GameState) -> str | None:
    """§2.14.3: the Axis wins if it controls both kept objective provinces; ``None`` if they are not entered."""
    kept = [o.province for o in st.objectives if o.location == "axis_kept"]
    if len(kept) != 2 or None in kept:
        return None
    return "axis" if all(st.provinces.get(p) and st.provinces[p].control == "axis" for p in kept) else "allies"

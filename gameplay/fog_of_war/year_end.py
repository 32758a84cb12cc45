"""Year-end procedure (spec §2.13) as ordered, individually callable steps."""
from __future__ import annotations

import random

from gameplay.common import Outcome

from .board import SIDES, other
from .cards import Card
from .events import (balkans_year_end, cancel_op, check_vp_win, finish, objectives_winner, usa_enters,
                     ussr_enters)
from .state import START, GameState, draw_up_to
from .texts import ok, refuse

YEAR_END_STEPS = (
    ("3.1", "score_vp"), ("3.2", "split_wins"), ("3.3", "refresh_intel"),
    ("3.4-3.5", "spend_production"), ("3.6", "recall"), ("3.7", "balkans_step"), ("3.8", "usa_step"),
    ("3.9", "ussr_step"), ("3.10", "new_decks"), ("3.11", "advance_year"), ("3.12", "add_reinforcements"),
    ("then", "start_new_year"),
)
LAST_YEAR = 1944


def _begin(state: GameState, step: str) -> tuple[GameState | None, Outcome | None]:
    if state.winner:
        return None, refuse("game_over")
    if state.phase != "year_end":
        return None, refuse("wrong_phase", phase=state.phase)
    return state.copy(), None


def _done(st: GameState, key: str) -> None:
    st.year_end.setdefault("done", []).append(key)


def _ordered(st: GameState, step: str, side: str) -> Outcome | None:
    """Side-ordered steps (3.5, 3.6): the side without superiority first, each once."""
    done = st.year_end.get("done", [])
    if f"{step}:{side}" in done:
        return refuse("ye_already", step=step, side=side)
    if side == st.superiority and f"{step}:{other(side)}" not in done:
        return refuse("ye_order", step=step)
    return None


def _income_provinces(st: GameState, side: str) -> list[str]:
    keys = st.sides[side].in_front
    if st.settings.unsupplied_effects in ("no_income", "origin_and_income"):
        keys = [k for k in keys if not st.provinces[k].no_supply]
    return keys


def _vp_provinces(st: GameState) -> list[str]:
    keys = _income_provinces(st, "axis")
    if st.settings.vp_scope == "conquered_only":
        keys = [k for k in keys if k not in START["axis"]["provinces"]]
    return keys


def unknown_income(st: GameState, side: str, fact: str) -> list[str] | None:
    """The provinces counted at year end whose ``fact`` (``vp`` / ``resources``) the map leaves blank;
    None without a map (every value is asked)."""
    if st.board is None:
        return None
    keys = _vp_provinces(st) if fact == "vp" else _income_provinces(st, side)
    return [k for k in keys if k not in st.board.provinces or fact in st.pdef(k).unknown]


def known_income(st: GameState, side: str, fact: str) -> int:
    """The sum of ``fact`` over the counted provinces whose value the map gives."""
    keys = _vp_provinces(st) if fact == "vp" else _income_provinces(st, side)
    missing = set(unknown_income(st, side, fact) or [])
    return sum(getattr(st.pdef(k), fact) for k in keys if k not in missing)


def axis_vp_gain(st: GameState, missing: int | None = None) -> int | None:
    """3.1: the VP printed on the Axis's province cards in front (B-9, ``vp_scope``): from the map where it
    gives them, plus ``missing`` (the players' count of the blank ones); None while any is unknown."""
    unknown = unknown_income(st, "axis", "vp")
    if unknown is None or (unknown and missing is None):
        return None
    return known_income(st, "axis", "vp") + (missing or 0 if unknown else 0)


def score_vp(state: GameState, vp_gain: int | None = None, vp_missing: int | None = None) -> Outcome:
    """3.1: Axis VP += VP printed on its province cards in front (B-9); 70 wins. ``vp_gain``: the whole
    count by hand; ``vp_missing``: only the VP of the provinces the map leaves blank."""
    st, bad = _begin(state, "3.1")
    if bad:
        return bad
    if vp_gain is None:
        vp_gain = axis_vp_gain(st, vp_missing)
        if vp_gain is None:
            return _ask(st, "axis", "vp", "3.1")
    st.sides["axis"].vp += vp_gain
    _done(st, "3.1")
    won = check_vp_win(st)
    return ok(st, vp_gain=vp_gain, vp=st.sides["axis"].vp, axis_wins=won)


def deal_split(cards: list[Card]) -> tuple[list[Card], list[Card]]:
    """Deal alternately, first card to discard: discard gets ceil(n/2), losses floor(n/2)."""
    return cards[0::2], cards[1::2]


def split_wins(state: GameState, rng: random.Random | None = None, shuffle: bool = True) -> Outcome:
    """3.2: shuffle each wins pile and deal it discard, losses, discard, ..."""
    st, bad = _begin(state, "3.2")
    if bad:
        return bad
    counts = {}
    for side in SIDES:
        s = st.sides[side]
        if shuffle:
            (rng or random.Random()).shuffle(s.wins)
        to_discard, to_losses = deal_split(s.wins)
        s.discard += [c.shown(False) for c in to_discard]
        s.losses += [c.shown(False) for c in to_losses]
        s.wins = []
        counts[side] = {"discard": len(to_discard), "losses": len(to_losses)}
    _done(st, "3.2")
    return ok(st, counts=counts)


def refresh_intel(state: GameState) -> Outcome:
    """3.3: used intel tokens become available again."""
    st, bad = _begin(state, "3.3")
    if bad:
        return bad
    for s in st.sides.values():
        s.intel_available += s.intel_used
        s.intel_used = 0
    _done(st, "3.3")
    return ok(st)


def _ask(st: GameState, side: str, fact: str, step: str) -> Outcome:
    unknown = unknown_income(st, side, fact)
    what_ru, what_en = {"vp": ("ПО", "VP"), "resources": ("ресурсы", "resources")}[fact]
    if not unknown:
        return refuse("needs_value", step=step, what=what_en)
    names_ru = ", ".join(st.pdef(k).name_ru or st.pdef(k).name_en or k for k in unknown)
    names_en = ", ".join(st.pdef(k).name_en or k for k in unknown)
    return refuse("needs_missing", step=step, what_ru=what_ru, what_en=what_en, names_ru=names_ru, names_en=names_en)


def production_points(st: GameState, side: str, resources: int | None = None,
                      resources_missing: int | None = None) -> int | None:
    """3.4: min(resources on own province cards in front, production level); Allies get 0 after 1944.
    Resources from the map where it gives them, plus ``resources_missing`` for the blank ones."""
    if side == "allies" and st.year == LAST_YEAR:
        return 0
    if resources is None:
        unknown = unknown_income(st, side, "resources")
        if unknown is None or (unknown and resources_missing is None):
            return None
        resources = known_income(st, side, "resources") + (resources_missing or 0 if unknown else 0)
    return min(resources, st.sides[side].production_level)


def spend_production(state: GameState, side: str, *, losses_to_discard: list[str] = (), level: int = 0,
                     intel_pairs: int = 0, vp: int = 0, resources: int | None = None,
                     resources_missing: int | None = None) -> Outcome:
    """3.5: 1 PP per card losses->discard, per production level, per 2 intel tokens; the Axis 2 PP per VP."""
    st, bad = _begin(state, "3.5")
    if bad:
        return bad
    bad = _ordered(st, "3.5", side)
    if bad:
        return bad
    pp = production_points(st, side, resources, resources_missing)
    if pp is None:
        return _ask(st, side, "resources", "3.4")
    if vp and side != "axis":
        return refuse("vp_allies")
    cost = len(losses_to_discard) + level + intel_pairs + 2 * vp
    if min(level, intel_pairs, vp) < 0 or cost > pp:
        return refuse("pp_exceeded", cost=cost, pp=pp)
    s, cfg = st.sides[side], st.settings
    if level and cfg.production_cap is not None and s.production_level + level > cfg.production_cap:
        return refuse("cap_reached", cap="production_cap")
    if intel_pairs and cfg.intel_token_cap is not None and s.intel_available + s.intel_used + 2 * intel_pairs > cfg.intel_token_cap:
        return refuse("cap_reached", cap="intel_token_cap")
    for cid in losses_to_discard:
        card = next((c for c in s.losses if c.id == cid), None)
        if card is None:
            return refuse("not_in_losses", card=cid)
        s.losses.remove(card)
        s.discard.append(card)
    s.production_level += level
    s.intel_available += 2 * intel_pairs
    s.vp += vp
    _done(st, f"3.5:{side}")
    won = side == "axis" and cfg.vp_check_after_purchase and check_vp_win(st)
    return ok(st, pp=pp, spent=cost, lost=pp - cost, axis_wins=bool(won))


def recall(state: GameState, side: str, *, provinces: dict[str, list[str]] | None = None,
           ops: dict[str, list[str]] | None = None, cancel: list[str] = ()) -> Outcome:
    """3.6: take cards back from defence stacks and ops into discard, cancel ops; quagmires are locked."""
    st, bad = _begin(state, "3.6")
    if bad:
        return bad
    bad = _ordered(st, "3.6", side)
    if bad:
        return bad
    s = st.sides[side]
    for key, ids in (provinces or {}).items():
        if key not in st.provinces:
            return refuse("unknown_province", province=key)
        prov = st.provinces[key]
        if prov.quagmire:
            return refuse("recall_quagmire")
        stack = prov.defence[side]
        for cid in ids:
            card = next((c for c in stack if c.id == cid), None)
            if card is None:
                return refuse("recall_not_there", card=cid)
            stack.remove(card)
            s.discard.append(card.shown(False))
    for slot, ids in (ops or {}).items():
        op = s.op(slot)
        if op is None:
            return refuse("no_such_op", slot=slot)
        for cid in ids:
            card = next((c for c in op.cards if c.id == cid), None)
            if card is None:
                return refuse("recall_not_there", card=cid)
            op.cards.remove(card)
            s.discard.append(card.shown(False))
    for slot in cancel:
        if s.op(slot) is None:
            return refuse("no_such_op", slot=slot)
        cancel_op(st, side, slot)
    emptied = [o.slot for o in s.operations if not o.cards]
    for slot in emptied:
        cancel_op(st, side, slot)
    _done(st, f"3.6:{side}")
    return ok(st, cancelled=list(cancel) + emptied)


def balkans_step(state: GameState) -> Outcome:
    """3.7 (1940 only)."""
    st, bad = _begin(state, "3.7")
    if bad:
        return bad
    result = balkans_year_end(st) if st.year == 1940 else None
    _done(st, "3.7")
    st.refresh_supply()
    return ok(st, balkans=result)


def usa_step(state: GameState) -> Outcome:
    """3.8 (1941 only): USA cards join the Allied discard; North America supplies (B-15)."""
    st, bad = _begin(state, "3.8")
    if bad:
        return bad
    n = usa_enters(st) if st.year == 1941 else None
    _done(st, "3.8")
    st.refresh_supply()
    return ok(st, usa_cards=n)


def ussr_step(state: GameState) -> Outcome:
    """3.9 (1942 only, if the USSR is not yet at war)."""
    st, bad = _begin(state, "3.9")
    if bad:
        return bad
    moved = ussr_enters(st, mid_year=False) if st.year == 1942 else None
    _done(st, "3.9")
    st.refresh_supply()
    return ok(st, ussr_provinces=moved)


def new_decks(state: GameState, rng: random.Random | None = None, shuffle: bool = True) -> Outcome:
    """3.10: discard (plus special sets already added) becomes the new deck; draw per ``new_year_draw`` (B-6)."""
    st, bad = _begin(state, "3.10")
    if bad:
        return bad
    mode = st.settings.new_year_draw
    drawn = {}
    for side in SIDES:
        s = st.sides[side]
        if mode == "discard_hand_first":
            s.discard += s.hand
            s.hand = []
        s.deck = s.deck + [c.shown(False) for c in s.discard]
        s.discard = []
        if shuffle:
            (rng or random.Random()).shuffle(s.deck)
        drawn[side] = draw_up_to(s, len(s.hand) + 3 if mode == "draw_3" else 3)
    _done(st, "3.10")
    return ok(st, drawn=drawn)


def advance_year(state: GameState, objectives: list[str] | None = None) -> Outcome:
    """3.11: next year, summer side; after 1944 the objectives decide (``objectives`` enters them if unknown)."""
    st, bad = _begin(state, "3.11")
    if bad:
        return bad
    if st.year == LAST_YEAR:
        kept = [o for o in st.objectives if o.location == "axis_kept"]
        for o, p in zip(kept, objectives or []):
            o.province = p
        winner = objectives_winner(st)
        if winner is None:
            return refuse("objectives_unknown")
        finish(st, winner, "objectives")
        return ok(st, winner=winner)
    st.year += 1
    st.winter = False
    _done(st, "3.11")
    return ok(st, year=st.year)


def add_reinforcements(state: GameState, cards: dict[str, list[Card]]) -> Outcome:
    """3.12: this year's reinforcements go into each side's losses pile."""
    st, bad = _begin(state, "3.12")
    if bad:
        return bad
    for side, extra in cards.items():
        st.sides[side].losses += list(extra)
    _done(st, "3.12")
    return ok(st)


def first_side(st: GameState) -> str:
    """§2.1: more cards in the deck plays first; a tie goes to the Axis."""
    return "allies" if len(st.sides["allies"].deck) > len(st.sides["axis"].deck) else "axis"


def start_new_year(state: GameState) -> Outcome:
    """Close the year-end record and hand the first turn to ``first_side``."""
    st, bad = _begin(state, "then")
    if bad:
        return bad
    st.first_side_of_year = st.active_side = first_side(st)
    st.phase = "turn"
    st.year_end = {}
    return ok(st, first=st.active_side)

"""Rule queries on a battle: who reveals now, which dice are needed, what a unit may do, what a
viewer may count, which setup limits are exceeded. Pure functions; texts come as
:class:`gameplay.common.Reason` (RU/EN, naming the rule), never as translated strings.

``state`` is the stepper's stored value (``gameplay.generalissimus.stepper``): ``engine`` (the
engine's ``GameState`` dict), ``players``, ``pending``, ``reveal``, ``steps`` and, in a view made
by ``view_for``, ``hidden`` (counts of the face-down cards the viewer may not identify).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from gameplay.common import Reason

from . import actions as act
from .core import InputError
from .geometry import SIDES, front_sectors, zone_of
from .reasons import FORMATION_NAMES, bilingual, names, side_names
from .settings import Settings
from .state import FORMATIONS, ZONES, GameState, Unit

# pile size the rules give (§4)
PILE_RANGE = (15, 20)


def engine_of(state: dict) -> GameState:
    """The engine state inside a stored (or viewer-filtered) battle state."""
    return GameState.from_dict(state["engine"])


# ----------------------------------------------------------------------------------------
# the reveal step: who must choose, which dice are needed
# ----------------------------------------------------------------------------------------

def sides_to_reveal(st: GameState) -> list[str]:
    """Sides with a face-down card in the current zone (each reveals one this step). Full state only."""
    zone = st.current_zone
    if zone is None:
        return []
    return [s for s in SIDES if any(c.owner == s and c.state == "placed" and c.zone == zone for c in st.cards)]


def card_counts(state: dict) -> dict[str, dict]:
    """Public card counts per side: ``{side: {"placed": {zone: n}, "in_pile": n}}``.

    Works on the full state and on a view (the hidden cards are counted from ``hidden``)."""
    out = {s: {"placed": {z: 0 for z in ZONES}, "in_pile": 0} for s in SIDES}
    for c in state["engine"].get("cards", []):
        if c["state"] == "placed" and c.get("zone") in ZONES:
            out[c["owner"]]["placed"][c["zone"]] += 1
        elif c["state"] == "in_pile":
            out[c["owner"]]["in_pile"] += 1
    for side, h in (state.get("hidden") or {}).items():
        for z, n in h.get("placed", {}).items():
            out[side]["placed"][z] += n
        out[side]["in_pile"] += h.get("in_pile", 0)
    return out


def choosers(state: dict) -> list[str]:
    """Sides that choose a card for the current step (none while a reveal waits for dice)."""
    eng = state["engine"]
    zone_seq, index = eng.get("zone_sequence", []), eng.get("zone_index", 0)
    if eng.get("phase") != "actions" or state.get("reveal") or index >= len(zone_seq):
        return []
    zone = zone_seq[index]
    counts = card_counts(state)
    return [s for s in SIDES if counts[s]["placed"][zone]]


def zone_order_chooser(st: GameState) -> str | None:
    """The side that sets the zone order now: the initiative winner, once known (§2.5)."""
    return st.initiative_winner if st.phase == "initiative" else None


def revealed_entries(st: GameState, reveal: dict) -> list[dict]:
    """The revealed cards in the engine's order (the initiative winner first): {side, kind, rev}."""
    cards = {c.id: c for c in st.cards}
    out = []
    first = st.initiative_winner or "south"
    for side in sorted(reveal["cards"], key=lambda s: s != first):
        rev = reveal["cards"][side]
        ids = rev.get("cards") or [rev.get("card")]
        types = [cards[i].type for i in ids if i in cards]
        kind = "rally" if len(ids) == 2 else (types[0] if types else "")
        out.append({"side": side, "kind": kind, "rev": rev})
    return out


def hit_on(bonus: int, mode: str) -> int:
    """The lowest die face that hits (§2.8: 5–6; a per-die bonus lowers it)."""
    return max(1, 5 - bonus) if mode == "per_die" else 5


def dice_needs(state: dict) -> list[dict]:
    """Dice still to enter for the current reveal (fire first, then melee once fire is known).

    Each need: {key, side, roll: fire|melee, n, unit, target, entered} with, for fire, {kind,
    bonus, mode, hit} and, for melee, {role, mods}; ``entered`` holds the faces once entered.
    """
    reveal = state.get("reveal")
    if not reveal:
        return []
    st = engine_of(state)
    zone = reveal["zone"]
    dice = reveal.get("dice", {})
    entries = revealed_entries(st, reveal)
    needs = []
    shots = []
    for e in entries:
        if e["kind"] in act.FIRE_TYPES:
            r = e["rev"]
            if act.check_fire(st, e["kind"], r["unit"], r.get("target"), side=e["side"], zone=zone) is None:
                u, t = st.unit(r["unit"]), st.unit(r["target"])
                key = f"fire-{e['side']}"
                bonus, mode = act.fire_bonus(st, u, t), st.settings.fire_bonus_mode
                needs.append({"key": key, "side": e["side"], "roll": "fire", "kind": e["kind"],
                              "n": act.fire_dice_count(st, u, t), "unit": u.id, "target": t.id,
                              "bonus": bonus, "mode": mode, "hit": hit_on(bonus, mode),
                              "entered": dice.get(key)})
                shots.append({"type": e["kind"], "unit": u.id, "target": t.id, "side": e["side"], "key": key})
    if any(n["entered"] is None for n in needs):
        return needs  # melee dice depend on the casualties of this step's fire
    mid = st
    if shots:
        try:
            res = act.fire(st, [dict(s, dice=dice[s["key"]]["faces"]) for s in shots], zone=zone)
        except InputError:
            return needs
        if res.ok:
            mid = res.state
    # a charge met by a Bayonets! card of the charged unit in the same step is one melee (§2.9.2)
    charges = [e for e in entries if e["kind"] == "bayonets" and e["rev"].get("target")
               and act.check_charge(st, e["rev"]["unit"], e["rev"]["target"], side=e["side"], zone=zone) is None]
    countered = set()
    for atk in charges:
        if atk["side"] in countered:
            continue
        d = next((d for d in entries if d["side"] != atk["side"] and d["kind"] == "bayonets"
                  and d["rev"].get("unit") == atk["rev"]["target"]), None)
        if d is None:
            continue
        countered.add(d["side"])
        a, t = mid.unit(atk["rev"]["unit"]), mid.unit(atk["rev"]["target"])
        if (a is None or t is None or act.check_charge(mid, a.id, t.id, side=atk["side"], zone=zone) is not None
                or (t.routed and a.kind == "cavalry") or t.kind == "artillery" or not act.can_counter(t)):
            continue
        totals = act.melee_totals(mid, a, t, [], [])
        for role, side, u, mods in (("attacker", atk["side"], a, totals["attacker"]["mods"]),
                                    ("defender", d["side"], t, totals["defender"]["mods"])):
            key = f"melee-{side}"
            needs.append({"key": key, "side": side, "roll": "melee", "role": role, "n": u.blocks,
                          "unit": u.id, "target": (t if role == "attacker" else a).id,
                          "mods": mods, "entered": dice.get(key)})
    return needs


def dice_need(state: dict, side: str, roll: str) -> dict | None:
    """The open need of one side for one roll (None: that side rolls nothing now)."""
    return next((n for n in dice_needs(state) if n["side"] == side and n["roll"] == roll
                 and n["entered"] is None), None)


# ----------------------------------------------------------------------------------------
# what a unit may do now (public information)
# ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """One card for one unit: possible now (``ok``) and what it would do, or why not."""

    card: str  # a card type, or "rally"
    ok: bool
    reason: Reason
    data: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class UnitOptions:
    """What a unit may do now, card by card, and the sectors a board may highlight."""

    unit: str
    zone: str | None  # the zone whose cards order it (None: not on the board, or routed)
    options: tuple[Option, ...] = ()
    move: frozenset = frozenset()     # sectors it can move to
    targets: frozenset = frozenset()  # sectors of units it can fire at or charge


def _option(card: str, ok: bool, code: str, ru: str, en: str, data: dict | None = None, **kw) -> Option:
    return Option(card, ok, bilingual(code, ru, en, **kw), data or {})


def _refusal(card: str, bad) -> Option:
    return Option(card, False, bad.reason, dict(bad.data))


def unit_options(st: GameState, uid: str) -> UnitOptions | None:
    """Card by card, what unit ``uid`` may do on the table as it stands (None: no such unit)."""
    u = st.unit(uid)
    if u is None:
        return None
    if u.location != "board":
        if u.location != "reserve":
            return UnitOptions(uid, None)
        return UnitOptions(uid, None, (_option(
            "move", True, "opt_reserve",
            "В резерве: карта «Переместиться!» в зоне вводит отряд на свободный сектор тылового ряда этой зоны (ввод резерва)",
            "In reserve: a Move card in a zone brings it onto an empty home-row sector of that zone (reserve entry)"),))
    if u.routed:
        return UnitOptions(uid, None, (_option(
            "rally", True, "opt_routed",
            "Бежит: приказов не принимает. Две карты «Построиться!», открытые вместе в его зоне, останавливают бегство (правило бегства)",
            "Routed: takes no orders. Two Form up cards revealed together in its zone rally it (rout rule)"),))
    zone = zone_of(u.sector, st.settings.zone_columns)
    out: list[Option] = []
    move_to: set[str] = set()
    targets: set[str] = set()
    ahead = front_sectors(u.sector, u.facing)
    # move
    if u.kind == "cavalry":
        for a in filter(None, ahead.values()):
            for path in [[a]] + [[a, b] for b in filter(None, front_sectors(a, u.facing).values())]:
                if act.check_move(st, uid, path=path) is None:
                    move_to.add(path[-1])
        reach = sorted(move_to)
        out.append(_option("move", True, "opt_reach", "Может дойти до: {n} (правила конницы)",
                           "Can reach: {n} (cavalry rules)", {"sectors": reach}, n=", ".join(reach))
                   if reach else _option("move", False, "opt_no_reach", "Ни один сектор недостижим (правила конницы)",
                                         "No sector reachable (cavalry rules)"))
    else:
        bad = act.check_move(st, uid)
        if bad is None:
            move_to.add(ahead["F"])
            out.append(_option("move", True, "opt_forward", "Вперёд в {sector} (правила перемещения)",
                               "Forward to {sector} (movement rules)", {"sectors": [ahead["F"]]}, sector=ahead["F"]))
        else:
            out.append(_refusal("move", bad))
    # fire
    fire_kind = {"infantry": "musket_volley", "artillery": "artillery_volley"}.get(u.kind)
    if fire_kind:
        can_hit, last = [], None
        for t in st.units:
            if t.owner != u.owner and t.on_board:
                bad = act.check_fire(st, fire_kind, uid, t.id)
                if bad is None:
                    can_hit.append(t.id)
                    targets.add(t.sector)
                else:
                    last = bad
        if can_hit:
            out.append(_option(fire_kind, True, "opt_targets", "Цели: {n} (правила стрельбы)", "Targets: {n} (fire rules)",
                               {"targets": can_hit}, n=", ".join(can_hit)))
        elif last is not None:
            out.append(_refusal(fire_kind, last))
        else:
            out.append(_option(fire_kind, False, "opt_no_enemy", "Врага на поле нет (правила атаки)",
                               "No enemy on the board (attack rules)"))
    # charge
    if u.kind in ("infantry", "cavalry"):
        front = st.unit_at(ahead["F"])
        if front is not None and front.owner != u.owner:
            bad = act.check_charge(st, uid, front.id)
            if bad is None:
                targets.add(front.sector)
                out.append(_option("bayonets", True, "opt_charge", "Атаковать {target} в штыки (штыковая атака)",
                                   "Charge {target} (bayonet charge)", {"targets": [front.id]}, target=front.id))
            else:
                out.append(_refusal("bayonets", bad))
        else:
            out.append(_option(
                "bayonets", True, "opt_meet_only",
                "Впереди нет врага: карта годится только для встречного боя, если этот отряд атакуют в том же шаге (штыковая атака)",
                "No enemy in front: only to meet a charge on this unit in the same step (bayonet charge)"))
    out.append(_option("manoeuvre", True, "opt_turn", "Поворот на 90° влево или вправо (сейчас фронт на {facing}) (карта «Маневр!»)",
                       "Turn 90° left or right (now facing {facing}) (Manoeuvre card)", {"facing": u.facing}, facing=u.facing))
    allowed = [f for f in FORMATIONS if f != u.formation and act.formation_problem(u, f) is None]
    out.append(_option("form_up", True, "opt_form", "Может построить: {n} (правило построений)",
                       "Can form: {n} (formation rules)", {"formations": allowed}, n=names(FORMATION_NAMES, allowed))
               if allowed else _option("form_up", False, "opt_no_form", "Другое построение невозможно (правило построений)",
                                       "No other formation is possible (formation rules)"))
    bad = act.check_retreat(st, uid)
    n = st.settings.retreat_distance
    out.append(_option("retreat", True, "opt_retreat", "Отход на {n} сект. к своему краю поля (карта «Отступить!»)",
                       "Fall back {n} sector(s) towards the home edge (Retreat card)", {"distance": n}, n=n)
               if bad is None else _refusal("retreat", bad))
    return UnitOptions(uid, zone, tuple(out), frozenset(move_to), frozenset(targets))


# ----------------------------------------------------------------------------------------
# setup: soft limits (warn, never block)
# ----------------------------------------------------------------------------------------

def setup_warnings(units: list[dict], settings: dict) -> list[Reason]:
    """The soft limits of spec §1.3 and the pile size of §4 that a valid setup exceeds."""
    cfg = Settings.from_dict(settings)
    blocks = {s: 0 for s in SIDES}
    count = {s: 0 for s in SIDES}
    for d in units:
        u = Unit.from_dict(d)
        count[u.owner] += 1
        blocks[u.owner] += u.strength
    out = []
    if blocks["south"] != blocks["north"]:
        out.append(bilingual("unequal_sides", "Стороны не равны: у Юга {s} фишек, у Севера {n} (подготовка, §1.3)",
                             "The sides are not equal: South {s} blocks, North {n} blocks (setup, §1.3)",
                             s=blocks["south"], n=blocks["north"]))
    for s in SIDES:
        if count[s] > cfg.max_units_per_side:
            out.append(bilingual("too_many_units", "{side}: отрядов {n}, больше {max} флажков на сторону (настройка max_units_per_side)",
                                 "{side} has {n} units, more than the {max} flags per side (setting max_units_per_side)",
                                 side=side_names(s), n=count[s], max=cfg.max_units_per_side))
        if blocks[s] > cfg.max_blocks_per_side:
            out.append(bilingual("too_many_blocks", "{side}: фишек {n}, больше {max} (настройка max_blocks_per_side)",
                                 "{side} has {n} blocks, more than {max} (setting max_blocks_per_side)",
                                 side=side_names(s), n=blocks[s], max=cfg.max_blocks_per_side))
    total = sum(cfg.pile_composition.values())
    if not PILE_RANGE[0] <= total <= PILE_RANGE[1]:
        out.append(bilingual("pile_size", "В каждой стопке {n} карт; по правилам 15–20 (стопка приказов, §4)",
                             "Each pile has {n} cards; the rules say 15–20 (order pile, §4)", n=total))
    return out


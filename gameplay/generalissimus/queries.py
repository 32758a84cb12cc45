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
from . import turn as engine_turn
from .geometry import SIDES, front_sectors, zone_of
from .core import can_enter, home_rows, terrain_flags
from .reasons import FORMATION_NAMES, KIND_EN, KIND_RU, TERRAIN_EN, TERRAIN_NAMES, TERRAIN_RU, bilingual, names, side_names
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


def hit_on(bonus: int, mode: str) -> int:
    """The lowest die face that hits (§2.8: 5–6; a per-die bonus lowers it)."""
    return max(1, 5 - bonus) if mode == "per_die" else 5


def engine_inputs(state: dict) -> tuple[GameState, dict, dict]:
    """The engine state and the arguments of ``turn.reveal_step`` / ``turn.step_needs`` for the open
    reveal of a stored battle: reveals (each card with its own dice), choices, reactions and the
    melee dice of a side whose own card is not the one fighting (a reaction)."""
    st = engine_of(state)
    reveal = state["reveal"]
    dice = reveal.get("dice", {})
    cards = {c.id: c for c in st.cards}
    reveals = {}
    for side, rev in reveal["cards"].items():
        rev = {k: v for k, v in rev.items() if v not in (None, "", [])}
        ids = rev.get("cards") or [rev.get("card")]
        kind = cards[ids[0]].type if len(ids) == 1 and ids[0] in cards else "rally"
        key = f"fire-{side}" if kind in act.FIRE_TYPES else (f"melee-{side}" if kind == "bayonets" else None)
        faces = (dice.get(key) or {}).get("faces") if key else None
        if faces:
            rev["dice"] = faces
        reveals[side] = rev
    melee = {side: dice[f"melee-{side}"]["faces"] for side in SIDES if dice.get(f"melee-{side}")}
    return st, reveals, {"choices": dict(reveal.get("choices") or {}), "reactions": dict(reveal.get("reactions") or {}),
                         "melee_dice": melee, "ask_owner": bool(state.get("asks_owner"))}


def need_key(need: dict) -> str:
    """Where a need's answer is kept in the stored reveal: dice per side and roll, a choice per unit."""
    if need["roll"] in ("fire", "melee"):
        return f"{need['roll']}-{need['side']}"
    return f"{need['roll']}-{need['unit']}"


def step_needs_of(state: dict) -> tuple[list[dict], bool]:
    """The engine's needs for the open reveal (``turn.step_needs``) or, at the end of the turn, for
    the forced flight (``turn.end_turn_needs``), each with its ``key`` and what was ``entered``
    (dice faces with their source, or the chosen sector / card). Full state only: a reaction is
    asked on a count that a view keeps, but the choices are the engine's."""
    reveal = state.get("reveal")
    if reveal:
        st, reveals, extra = engine_inputs(state)
        ask = extra.pop("ask_owner")
        needs, complete = engine_turn.step_needs(st, reveals, ask_owner=ask, **extra)
        dice = reveal.get("dice", {})
        for n in needs:
            n["key"] = need_key(n)
            if n["roll"] in ("fire", "melee"):
                n["entered"] = dice.get(n["key"])
                if n["roll"] == "fire":
                    n["hit"] = hit_on(n["bonus"], n["mode"])
            elif n["roll"] == "retreat":
                n["entered"] = extra["choices"].get(n["unit"])
            else:
                n["entered"] = extra["reactions"].get(n["unit"])
        return needs, complete
    st = engine_of(state)
    if st.phase != "end_of_turn" or not state.get("asks_owner"):
        return [], True
    choices = dict(state.get("flight_choices") or {})
    needs, complete = engine_turn.end_turn_needs(st, choices)
    for n in needs:
        n["key"], n["entered"] = need_key(n), None
    return needs, complete


def dice_needs(state: dict) -> list[dict]:
    """Dice still to enter or entered for the current reveal (fire first, then melee once fire is
    known): the engine's needs of kind fire / melee. Each: {key, side, roll, n, unit, target,
    entered} with, for fire, {kind, bonus, mode, hit} and, for melee, {role, mods}."""
    return [n for n in step_needs_of(state)[0] if n["roll"] in ("fire", "melee")]


def dice_need(state: dict, side: str, roll: str) -> dict | None:
    """The open need of one side for one roll (None: that side rolls nothing now)."""
    return next((n for n in dice_needs(state) if n["side"] == side and n["roll"] == roll
                 and n["entered"] is None), None)


def open_needs(state: dict) -> list[dict]:
    """Needs still unanswered (dice, a reaction, a retreat or flight choice)."""
    return [n for n in step_needs_of(state)[0] if n["entered"] is None]


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
        move_to.update(act.cavalry_paths(st, uid))  # under the battle's cavalry_step_dirs / stop terrain
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
    # Bayonets!: charge, advance, or meet a charge
    if u.kind in ("infantry", "cavalry"):
        front = st.unit_at(ahead["F"]) if ahead["F"] else None
        if front is not None and front.owner != u.owner:
            bad = act.check_charge(st, uid, front.id)
            if bad is None:
                targets.add(front.sector)
                out.append(_option("bayonets", True, "opt_charge", "Атаковать {target} в штыки (штыковая атака)",
                                   "Charge {target} (bayonet charge)", {"targets": [front.id], "uses": ["charge", "meet"]},
                                   target=front.id))
            else:
                out.append(_refusal("bayonets", bad))
        else:
            bad = act.check_bayonet_advance(st, uid)
            if bad is None:
                out.append(_option(
                    "bayonets", True, "opt_advance",
                    "Врага впереди нет: наступление на {sector}, строй сохраняется, это не атака; или встречный бой, если отряд атакуют (карта «В Штыки!»)",
                    "No enemy in front: advance to {sector} keeping formation, not an attack; or meet a charge on it (Bayonets! card)",
                    {"uses": ["advance", "meet"], "sectors": [ahead["F"]]}, sector=ahead["F"]))
            else:
                out.append(_option(
                    "bayonets", True, "opt_meet_only",
                    "Наступать некуда ({why}); карта годится для встречного боя, если этот отряд атакуют в том же шаге (штыковая атака)",
                    "No advance ({why}); the card can meet a charge on this unit in the same step (bayonet charge)",
                    {"uses": ["meet"]}, why=(bad.reason.ru, bad.reason.en)))
    out.append(_option("manoeuvre", True, "opt_turn", "Поворот на 90° влево или вправо (сейчас фронт на {facing}) (карта «Маневр!»)",
                       "Turn 90° left or right (now facing {facing}) (Manoeuvre card)", {"facing": u.facing}, facing=u.facing))
    allowed = [f for f in FORMATIONS if f != u.formation and act.formation_problem(u, f) is None]
    out.append(_option("form_up", True, "opt_form", "Может построить: {n} (правило построений)",
                       "Can form: {n} (formation rules)", {"formations": allowed}, n=names(FORMATION_NAMES, allowed))
               if allowed else _option("form_up", False, "opt_no_form", "Другое построение невозможно (правило построений)",
                                       "No other formation is possible (formation rules)"))
    bad = act.check_retreat(st, uid)
    n = st.settings.retreat_distance
    towards = (("к своему краю поля", "towards the home edge") if st.settings.rear_reference == "home_edge"
               else ("спиной вперёд, прочь от фронта", "backwards, away from its facing"))
    out.append(_option("retreat", True, "opt_retreat", "Отход на {n} сект. {towards} (карта «Отступить!», настройка rear_reference)",
                       "Fall back {n} sector(s) {towards} (Retreat card, setting rear_reference)", {"distance": n},
                       n=n, towards=towards)
               if bad is None else _refusal("retreat", bad))
    return UnitOptions(uid, zone, tuple(out), frozenset(move_to), frozenset(targets))


# ----------------------------------------------------------------------------------------
# reminders that depend on the battle's settings
# ----------------------------------------------------------------------------------------

def rule_hints(st: GameState) -> dict[str, list[Reason]]:
    """Per phase, the reminders whose content depends on this battle's settings (the page adds
    them to its fixed reminders), so a hint never states a default the table does not play."""
    cfg = st.settings
    stop = names(TERRAIN_NAMES, cfg.cavalry_stop_terrain) if cfg.cavalry_stop_terrain else ("ничто", "nothing")
    back = (("к своему краю поля", "towards its own edge") if cfg.rear_reference == "home_edge"
            else ("назад, прочь от своего фронта", "backwards, away from its facing"))
    arc = (("прямо вперёд или по диагонали вперёд", "straight ahead or diagonally ahead") if cfg.musket_arc == "front_diagonals"
           else ("прямо вперёд или по любой диагонали", "straight ahead or on any diagonal"))
    adv = {"one_sector": ("без врага впереди «В Штыки!» продвигает отряд на сектор вперёд",
                          "with no enemy in front, Bayonets! advances the unit one sector"),
           "none": ("без врага впереди «В Штыки!» снимается", "with no enemy in front, Bayonets! is removed"),
           "as_move": ("без врага впереди «В Штыки!» двигает отряд как «Переместиться!»",
                       "with no enemy in front, Bayonets! moves the unit as a Move card does")}[cfg.bayonets_advance]
    meet = (("встречный бой — картой «В Штыки!», открытой в том же шаге", "meeting a charge needs a Bayonets! card revealed in the same step")
            if cfg.counter_charge_timing == "same_step" else
            ("атакованный может тут же открыть свою «В Штыки!» из зоны и встретить атаку", "a charged unit's owner may turn over a Bayonets! card from the zone to meet it"))
    return {
        "orders": [bilingual("hint_meet", "Встречный бой: {meet} (домашнее правило «Когда на атаку можно ответить «В штыки!»»).",
                             "Counter-charge: {meet} (house rule “When a charge can be met with Bayonets!”).", meet=meet)],
        "actions": [
            bilingual("hint_musket", "Ружейный залп: по соседнему врагу {arc}; штыки — только прямо вперёд; {adv} (настройки musket_arc, bayonets_advance).",
                      "Musket volley: an adjacent enemy {arc}; a charge only straight ahead; {adv} (settings musket_arc, bayonets_advance).",
                      arc=arc, adv=adv),
            bilingual("hint_cavalry", "Конница: до 2 секторов; ход останавливает: {stop} (настройка cavalry_stop_terrain).",
                      "Cavalry: up to 2 sectors; the move ends on: {stop} (setting cavalry_stop_terrain).", stop=stop),
            bilingual("hint_fall_back", "Отступающий отходит {back}, прямо или по диагонали; сектор выбирает владелец. Покидает поле только бегущий (настройка rear_reference).",
                      "A unit falls back {back}, straight or diagonally; its owner picks the sector. Only a fleeing unit leaves the board (setting rear_reference).",
                      back=back)],
        "end_of_turn": [bilingual("hint_flight", "Каждый бегущий отряд отходит на сектор {back}; сектор выбирает владелец (обязательное бегство).",
                                  "Every routed unit moves one sector {back}; its owner picks the sector (forced flight).", back=back)],
    }


# ----------------------------------------------------------------------------------------
# setup: deployment (refused) and soft limits (warned)
# ----------------------------------------------------------------------------------------

def deployment_problems(st: GameState) -> list[Reason]:
    """Why a unit may not start where it stands (§1.3 step 4): a row beyond the side's
    ``deploy_rows`` nearest rows, a terrain its kind cannot enter (the group's terrain table), or a
    formation it cannot start in (cavalry and artillery in column; infantry column, line or square,
    disordered only with one block). Reserves are not placed, so never refused."""
    out = []
    for u in st.units:
        if not u.on_board:
            continue
        rows = home_rows(st, u.owner)
        if int(u.sector[1]) not in rows:
            out.append(bilingual("deploy_row", "{unit}: {sector} — не ближайший к {side} ряд; можно ряды {rows} (расстановка, настройка deploy_rows)",
                                 "{unit}: {sector} is not among {side}'s nearest rows; rows {rows} are allowed (deployment, setting deploy_rows)",
                                 unit=u.id, sector=u.sector, side=side_names(u.owner),
                                 rows=", ".join(map(str, sorted(rows)))))
        elif not can_enter(st, u, u.sector):
            out.append(bilingual("deploy_terrain", "{unit}: {kind} не может стоять на секторе {sector} ({terrain}) (расстановка, таблица местности)",
                                 "{unit}: {kind} cannot stand on {sector} ({terrain}) (deployment, terrain table)",
                                 unit=u.id, sector=u.sector, kind=(KIND_RU[u.kind], KIND_EN[u.kind]),
                                 terrain=(TERRAIN_RU[st.terrain_at(u.sector)], TERRAIN_EN[st.terrain_at(u.sector)])))
        start_ok = ({"column"} if u.kind != "infantry" else {"column", "line", "square"}) | (
            {"disordered"} if u.kind != "artillery" and u.blocks == 1 else set())
        if u.formation not in start_ok:
            out.append(bilingual("deploy_formation", "{unit}: в начале битвы — {allowed} (расстановка, правило построений)",
                                 "{unit}: at the start a unit stands in {allowed} (deployment, formation rules)",
                                 unit=u.id, allowed=names(FORMATION_NAMES, sorted(start_ok))))
    return out


def deploy(st: GameState) -> GameState:
    """The start of the battle after deployment: with ``deploy_terrain_disorder`` a unit placed on a
    terrain that disorders its kind starts disordered (A-5; off by default: placing is no move)."""
    if not st.settings.deploy_terrain_disorder:
        return st
    st = st.copy()
    for u in st.units:
        if u.on_board and "disorder" in terrain_flags(st, u.kind, u.sector):
            u.formation = "disordered"
    return st


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


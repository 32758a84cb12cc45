"""resolve_case: one JSON case (board, settings, one action with dice) -> legality and new board."""
from __future__ import annotations

from gameplay.common import Outcome

from . import actions as act
from .core import InputError
from .geometry import zone_of
from .queries import deployment_problems
from .reasons import ok, outcome_dict, reason_dict
from .settings import CARD_TYPES, SettingsError
from .state import GameState, OrderCard, StateError
from .turn import check_victory, correct_unit, reveal_step


class CaseError(ValueError):
    """The case itself is malformed (the message is one line)."""


# action type -> (required keys, optional keys)
ACTIONS = {
    "move": ({"unit"}, {"to", "path", "facing", "formation"}),
    "manoeuvre": ({"unit", "direction"}, set()),
    "form_up": ({"unit", "formation"}, set()),
    "rally": ({"unit"}, set()),
    "retreat": ({"unit"}, set()),
    "musket_volley": ({"unit", "target", "dice"}, set()),
    "artillery_volley": ({"unit", "target", "dice"}, set()),
    "fire": ({"shots"}, set()),
    "bayonets": ({"unit"}, {"target", "use", "path", "facing", "attacker_dice", "defender_dice", "counter",
                            "retreat_choices"}),
    "step": ({"cards"}, {"first", "retreat_choices", "reactions", "reaction_dice"}),
    "flight": (set(), {"retreat_choices", "first"}),
    "victory": (set(), {"end_of_turn"}),
    "deployment": (set(), set()),
    "correct": ({"unit", "set"}, set()),
}
STEP_CARD_KEYS = {"type", "unit", "use", "target", "to", "path", "facing", "formation", "direction", "dice"}
COMMON = {"type", "side", "zone"}


def _one_line(msg: str) -> str:
    return " ".join(str(msg).split())


def load_state(case: dict) -> GameState:
    if not isinstance(case, dict):
        raise CaseError("the case must be a JSON object")
    extra = sorted(set(case) - {"board", "settings", "turn", "action"})
    if extra:
        raise CaseError(f"unknown top-level key(s): {', '.join(extra)}")
    board = case.get("board")
    if not isinstance(board, dict):
        raise CaseError("missing 'board' object with 'terrain' and 'units'")
    bad = sorted(set(board) - {"terrain", "units"})
    if bad:
        raise CaseError(f"unknown board key(s): {', '.join(bad)}")
    try:
        return GameState.from_dict({"terrain": board.get("terrain", {}), "units": board.get("units", []),
                                    "settings": case.get("settings"), "turn": case.get("turn", 1)})
    except (StateError, SettingsError) as exc:
        raise CaseError(_one_line(exc)) from None


def _check_action(s: GameState, action) -> str:
    if not isinstance(action, dict) or "type" not in action:
        raise CaseError("missing 'action' object with a 'type'")
    kind = action["type"]
    if kind not in ACTIONS:
        raise CaseError(f"unknown action type {kind!r}; expected one of {', '.join(ACTIONS)}")
    need, opt = ACTIONS[kind]
    missing = sorted(need - set(action))
    if missing:
        raise CaseError(f"action {kind} is missing {', '.join(missing)}")
    extra = sorted(set(action) - need - opt - COMMON)
    if extra:
        raise CaseError(f"action {kind} has unknown key(s) {', '.join(extra)}")
    ids = [action.get("unit"), action.get("target")]
    ids += [x for sh in action.get("shots", []) if isinstance(sh, dict) for x in (sh.get("unit"), sh.get("target"))]
    for uid in ids:
        if uid is not None and s.unit(uid) is None:
            raise CaseError(f"action names unknown unit {uid!r}")
    return kind


def _run(s: GameState, a: dict):
    kind, kw = a["type"], {"side": a.get("side"), "zone": a.get("zone")}
    if kind == "move":
        return act.move(s, a["unit"], to=a.get("to"), path=a.get("path"), facing=a.get("facing"),
                        formation=a.get("formation"), **kw)
    if kind == "manoeuvre":
        return act.manoeuvre(s, a["unit"], a["direction"], **kw)
    if kind == "form_up":
        return act.form_up(s, a["unit"], a["formation"], **kw)
    if kind == "rally":
        return act.rally(s, a["unit"], **kw)
    if kind == "retreat":
        return act.retreat(s, a["unit"], **kw)
    if kind in act.FIRE_TYPES:
        return act.volley(s, kind, a["unit"], a["target"], a["dice"], **kw)
    if kind == "fire":
        shots = a["shots"]
        if not isinstance(shots, list) or not shots or not all(
                isinstance(x, dict) and x.get("type") in act.FIRE_TYPES and {"unit", "target", "dice"} <= set(x) for x in shots):
            raise CaseError("fire needs 'shots': a list of {type, unit, target, dice}")
        return act.fire(s, shots, **kw)
    if kind == "bayonets":
        use = a.get("use") or ("charge" if a.get("target") else None)
        if use == "advance":
            return act.bayonet_advance(s, a["unit"], path=a.get("path"), facing=a.get("facing"), **kw)
        if use != "charge" or not a.get("target"):
            raise CaseError("bayonets needs 'target' (a charge) or 'use': 'advance'")
        return act.charge(s, a["unit"], a["target"], attacker_dice=a.get("attacker_dice"),
                          defender_dice=a.get("defender_dice"), counter=bool(a.get("counter", False)),
                          retreat_choices=a.get("retreat_choices"), **kw)
    if kind == "flight":
        return act.forced_flight(s, a.get("retreat_choices"), first=a.get("first"))
    if kind == "step":
        return _step(s, a)
    if kind == "deployment":
        problems = deployment_problems(s)
        if problems:
            return Outcome(False, problems[0], None, (), (), {"problems": [reason_dict(p) for p in problems]})
        return ok("deploy_ok", s, details={"problems": []})
    if kind == "correct":
        return correct_unit(s, a["unit"], a["set"])
    return check_victory(s, bool(a.get("end_of_turn", True)))


def _step(s: GameState, a: dict):
    """One reveal step of both sides' cards (§2.5.4): each card acts on the unit its owner names,
    fire first, then the initiative winner's (``first``) card."""
    cards = a["cards"]
    if not isinstance(cards, dict) or not cards or not set(cards) <= {"south", "north"}:
        raise CaseError("step needs 'cards': {south: {...}, north: {...}} (one side or both)")
    first = a.get("first", "south")
    if first not in ("south", "north"):
        raise CaseError("'first' must be south or north")
    zone = None
    reveals = {}
    for side, card in cards.items():
        if not isinstance(card, dict) or card.get("type") not in CARD_TYPES or not isinstance(card.get("unit"), str):
            raise CaseError(f"cards.{side} needs 'type' (a card type) and 'unit'")
        extra = sorted(set(card) - STEP_CARD_KEYS)
        if extra:
            raise CaseError(f"cards.{side} has unknown key(s) {', '.join(extra)}")
        u = s.unit(card["unit"])
        if u is None or not u.on_board:
            raise CaseError(f"cards.{side} names unit {card['unit']!r}, which is not on the board")
        z = zone_of(u.sector, s.settings.zone_columns)
        if zone not in (None, z):
            raise CaseError("both cards of a step lie in one zone: name units of the same zone")
        zone = z
        rev = {k: v for k, v in card.items() if k != "type"}
        rev["card"] = f"{side[0].upper()}-{card['type']}-1"
        reveals[side] = rev
        s.cards.append(OrderCard(id=rev["card"], owner=side, type=card["type"], state="placed", zone=zone))
    reactions = a.get("reactions") or {}
    if not isinstance(reactions, dict) or not all(v in ("meet", "none") for v in reactions.values()):
        raise CaseError("reactions must map a charged unit's id to 'meet' or 'none'")
    answers = {}
    for uid, v in reactions.items():
        u = s.unit(uid)
        if u is None or u.owner not in reveals:
            raise CaseError(f"reactions: {uid!r} is no unit of a side revealing a card in this step")
        cid = f"{u.owner[0].upper()}-bayonets-face-down"
        if v == "meet" and s.settings.counter_charge_timing == "reaction" and all(c.id != cid for c in s.cards):
            s.cards.append(OrderCard(id=cid, owner=u.owner, type="bayonets", state="placed", zone=zone))
        answers[uid] = cid if v == "meet" else "none"
    s.phase, s.initiative_winner, s.zone_sequence, s.zone_index = "actions", first, [zone], 0
    res = reveal_step(s, reveals, choices=a.get("retreat_choices"), reactions=answers,
                      melee_dice=a.get("reaction_dice") or {})
    return res


def resolve_case(case: dict) -> dict:
    """Resolve one action on a board; raise CaseError on malformed input."""
    s = load_state(case)
    kind = _check_action(s, case.get("action"))
    choices = case["action"].get("retreat_choices")
    if choices is not None and not (isinstance(choices, dict) and all(isinstance(v, str) for v in choices.values())):
        raise CaseError("retreat_choices must map unit ids to a sector name or 'off'")
    try:
        res = _run(s, case["action"])
    except (InputError, KeyError, TypeError) as exc:
        raise CaseError(_one_line(exc)) from None
    after = res.state if res.ok and res.state is not None else s
    board = after.to_dict()
    return {"action": kind, **outcome_dict(res), "board": {"terrain": board["terrain"], "units": board["units"]}}

"""resolve_case: one JSON case (board, settings, one action with dice) -> legality and new board."""
from __future__ import annotations

from . import actions as act
from .core import InputError
from .reasons import outcome_dict
from .settings import SettingsError
from .state import GameState, StateError
from .turn import check_victory


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
    "bayonets": ({"unit", "target"}, {"attacker_dice", "defender_dice", "counter", "retreat_choices"}),
    "flight": (set(), {"retreat_choices", "first"}),
    "victory": (set(), {"end_of_turn"}),
}
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
        return act.charge(s, a["unit"], a["target"], attacker_dice=a.get("attacker_dice"),
                          defender_dice=a.get("defender_dice"), counter=bool(a.get("counter", False)),
                          retreat_choices=a.get("retreat_choices"), **kw)
    if kind == "flight":
        return act.forced_flight(s, a.get("retreat_choices"), first=a.get("first"))
    return check_victory(s, bool(a.get("end_of_turn", True)))


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

"""The engine's public face for a whole position: ``check_position(data) -> dict``.

Used by ``manage.py qmg_check`` and by the tracker's dispute lookup. Input and output
are JSON-compatible; the schema is in docs/qmg-engine.md ("Checking a position").
"""
from __future__ import annotations

from .board import Board, load_board
from .rules import ACTION_TYPES, Action, check_action, compute_supply, sudden_victory, victory_phase_all
from .inputs import one_of, unknown as unknown_id
from .state import Position, PositionError, validate_position

_TOP_KEYS = {"pieces", "extra_sources", "blocked_sources", "statuses", "actions"}
_ACTION_KEYS = {"type", "country", "space", "target_country", "kind"}


def parse_action(board: Board, raw, index: int = 0) -> Action:
    where = f"action #{index + 1}"
    if not isinstance(raw, dict):
        raise PositionError(f"{where} must be a JSON object")
    unknown = set(raw) - _ACTION_KEYS
    if unknown:
        raise PositionError(f"{where} has unknown key(s): {', '.join(sorted(unknown))}")
    for key in ("type", "country", "space"):
        if not isinstance(raw.get(key), str):
            raise PositionError(f"{where} needs a string '{key}'")
    if raw["type"] not in ACTION_TYPES:
        raise PositionError(f"{where}: unknown action type {raw['type']!r} (one of {', '.join(ACTION_TYPES)})")
    if raw["country"] not in board.countries:
        raise PositionError(f"{where}: " + unknown_id("country", raw["country"], board.turn_order))
    if raw["space"] not in board.spaces:
        raise PositionError(f"{where}: " + unknown_id("space", raw["space"], board.spaces))
    for key in ("target_country", "kind"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            raise PositionError(f"{where}: '{key}' must be a string")
    target = raw.get("target_country")
    if target is not None and target not in board.countries:
        raise PositionError(f"{where}: " + unknown_id("target_country", target, board.turn_order))
    kind = raw.get("kind")
    if kind is not None and kind not in ("army", "navy"):
        raise PositionError(f"{where}: " + one_of("kind", kind, ("army", "navy")))
    return Action(raw["type"], raw["country"], raw["space"], target, kind)


def check_position(data, board: Board | None = None, lang: str = "ru", context=None) -> dict:
    """Evaluate a position: supply of each piece, straits, the six victory steps, sudden victory
    and the legality of each listed action. Raises PositionError on bad input.

    ``statuses`` (status card ids in play) are applied to supply, building and scoring; an unknown
    id or a card that is not a status is bad input. ``context`` (card ids used this turn, see
    ``effects``) is for Python callers only; the JSON input has no such key."""
    board = board or load_board()
    if not isinstance(data, dict):
        raise PositionError("the position must be a JSON object")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise PositionError(f"unknown key(s): {', '.join(sorted(unknown))}")
    position = Position.from_dict(data)
    validate_position(board, position)
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise PositionError("'actions' must be a list")
    actions = [parse_action(board, a, i) for i, a in enumerate(raw_actions)]

    supply = compute_supply(board, position, context)
    pieces = []
    for p in position.pieces:
        s = supply.pieces[p]
        pieces.append({**p.to_dict(), "supplied": s.supplied, "reason": s.reason.text(lang)})
    victory = {}
    for country, v in victory_phase_all(board, position, supply).items():
        victory[country] = {"points": v.points, "skipped": v.skipped, "detail": v.detail(lang)}
    verdicts = []
    for action in actions:
        verdict = check_action(board, position, action, supply)
        verdicts.append({"legal": verdict.legal, "reason": verdict.reason.text(lang)})
    return {
        "pieces": pieces,
        "straits": dict(supply.straits),
        "victory_phase": victory,
        "sudden_victory": sudden_victory(board, position),
        "actions": verdicts,
    }

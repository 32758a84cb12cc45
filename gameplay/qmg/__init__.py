"""Quartermaster General (1st edition) rules engine: pure Python, no Django.

Public surface: ``load_board`` (board data and variants), ``Position``/``Piece`` (the pieces on
the table), ``compute_supply``, ``strait_status``, ``victory_step``, ``sudden_victory``,
``check_action``/``apply_action`` (legality with reasons in Russian and English) and
``check_position`` (the whole-position answer behind ``manage.py qmg_check``). Statuses in play
(``Position.statuses``) are applied from the card catalogue by ``effects``; ``immediate_vp``
scores cards that give points on the spot, ``status_uses`` tells how each status is used.
"""
from .board import ALLIES, AXIS, Board, BoardError, load_board, seed_fact_problems
from .check import check_position
from .effects import (
    EffectContext, StatusUse, automated_statuses, instead_of_play_statuses, once_per_turn_statuses, status_uses,
)
from .reasons import Reason
from .rules import (
    ACTION_TYPES, Action, SupplyReport, Verdict, VictoryResult, apply_action, check_action, compute_supply,
    home_occupier, immediate_vp, remove_unsupplied, strait_status, sudden_victory, victory_phase_all, victory_step,
)
from .state import ARMY, NAVY, Piece, Position, PositionError, validate_position, validate_statuses

__all__ = [
    "ALLIES", "AXIS", "ARMY", "NAVY", "ACTION_TYPES", "Action", "Board", "BoardError", "EffectContext", "Piece",
    "Position", "PositionError", "Reason", "StatusUse", "SupplyReport", "Verdict", "VictoryResult", "apply_action",
    "automated_statuses", "check_action", "check_position", "compute_supply", "home_occupier", "immediate_vp",
    "instead_of_play_statuses", "load_board", "once_per_turn_statuses", "remove_unsupplied", "seed_fact_problems",
    "status_uses", "strait_status", "sudden_victory", "validate_position", "validate_statuses",
    "victory_phase_all", "victory_step",
]

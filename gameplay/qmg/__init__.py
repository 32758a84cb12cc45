"""Quartermaster General (1st edition) rules engine: pure Python, no Django.

Public surface: ``load_board`` (board data and variants), ``Position``/``Piece`` (the pieces on
the table), ``compute_supply``, ``strait_status``, ``victory_step``, ``sudden_victory``,
``check_action``/``apply_action`` (legality with reasons in Russian and English) and
``check_position`` (the whole-position answer behind ``manage.py qmg_check``).
"""
from .board import ALLIES, AXIS, Board, BoardError, load_board, seed_fact_problems
from .check import check_position
from .reasons import Reason
from .rules import (
    ACTION_TYPES, Action, SupplyReport, Verdict, VictoryResult, apply_action, check_action, compute_supply,
    home_occupier, remove_unsupplied, strait_status, sudden_victory, victory_phase_all, victory_step,
)
from .state import ARMY, NAVY, Piece, Position, PositionError, validate_position

__all__ = [
    "ALLIES", "AXIS", "ARMY", "NAVY", "ACTION_TYPES", "Action", "Board", "BoardError", "Piece", "Position",
    "PositionError", "Reason", "SupplyReport", "Verdict", "VictoryResult", "apply_action", "check_action",
    "check_position", "compute_supply", "home_occupier", "load_board", "remove_unsupplied", "seed_fact_problems",
    "strait_status", "sudden_victory", "validate_position", "victory_phase_all", "victory_step",
]

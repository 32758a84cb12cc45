"""Pure-Python rules engine for *The Fog of War* (2 players, Axis vs Allies). No Django imports here.

Modules: ``state`` (table state, setup, JSON), ``config`` (group settings), ``board`` (map, supply),
``cards``, ``battle`` (calculator, outcomes, card flow), ``actions`` (turn engine), ``intel``,
``events`` (political events, victory checks), ``year_end``, ``case`` (``battle_case``), and the turn
stepper the web layer drives: ``stepper`` (``STEPPER``) with its command handlers ``commands_*`` and
``visibility`` (what each viewer may see). Every rule check answers with ``gameplay.common.Outcome``.
"""
from gameplay.common import Outcome, Reason

from .battle import BattleInput, compute, outcome_for, quagmire_losses, smallest_sufficient
from .board import BoardMap, MapError
from .cards import Card, parse_card
from .case import CaseError, battle_case
from .config import FowSettings, SettingsError
from .state import GameState, new_game
from .stepper import STEPPER, FogOfWarStepper

__all__ = [
    "BattleInput", "BoardMap", "Card", "CaseError", "FogOfWarStepper", "FowSettings", "GameState", "MapError",
    "Outcome", "Reason", "STEPPER", "SettingsError", "battle_case", "compute", "new_game", "outcome_for",
    "parse_card", "quagmire_losses", "smallest_sufficient",
]

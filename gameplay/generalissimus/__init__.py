"""Pure-Python rules engine for «Генералиссимус» (Generalissimus). No Django imports."""
from .actions import (charge, check_charge, check_fire, check_move, fire, forced_flight, form_up,
                      manoeuvre, melee_totals, move, rally, retreat, volley)
from .cli import CaseError, resolve_case
from .core import ChoiceError, InputError
from .reasons import outcome_dict, reason_of
from .settings import Settings, SettingsError, describe as describe_settings
from .state import GameState, OrderCard, StateError, Unit, invariant_problems
from .stepper import STEPPER, GeneralissimusStepper
from .turn import (check_victory, choose_zone_sequence, confirm_orders, end_turn, face_down_counts,
                   new_game, place_order, reveal_step, roll_initiative)

__all__ = [
    "CaseError", "ChoiceError", "GameState", "GeneralissimusStepper", "InputError", "OrderCard", "STEPPER", "Settings",
    "SettingsError", "StateError", "Unit", "charge", "check_charge", "check_fire", "check_move",
    "check_victory", "choose_zone_sequence", "confirm_orders", "describe_settings", "end_turn",
    "face_down_counts", "fire", "forced_flight", "form_up", "invariant_problems", "manoeuvre",
    "melee_totals", "move", "new_game", "outcome_dict", "place_order", "rally", "resolve_case", "retreat",
    "reason_of", "reveal_step", "roll_initiative", "volley",
]

"""What the three engines share: one reason/outcome type and one stepper interface. No Django.

Every engine answers a command with an :class:`Outcome`: refused with a :class:`Reason` (code,
Russian, English, and the rule it names), or accepted with the new state and what changed.
Each game exposes one :class:`Stepper` (``gameplay/<game>/stepper.py``) that the web layer drives
without knowing the game.
"""
from .outcome import Outcome, Reason, accepted, refused, text
from .stepper import ReplayError, Stepper, replay_commands

__all__ = ["Outcome", "Reason", "ReplayError", "Stepper", "accepted", "refused", "replay_commands", "text"]

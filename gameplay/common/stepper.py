"""The one interface every game's engine offers the web layer (``gameplay/<game>/stepper.py``).

A state is a value the engine owns: it can be copied, compared and serialised (``to_json`` /
``from_json``). Commands are plain JSON dicts; the event log stores each one exactly as applied,
so replaying the commands in effect from the initial state gives the current state again.
Randomness (dice, draws) is never inside ``apply``: ``prepare`` writes it into the command
before the command is applied and stored, so replay is deterministic.
"""
from __future__ import annotations

import random
from typing import Any, Iterable, Protocol

from .outcome import Outcome, Reason


class Stepper(Protocol):
    kind: str
    sides: tuple[str, ...]  # the seat roles (QMG: countries; others: sides)

    def new_state(self, setup: dict) -> Any:
        """The state of a new game from its setup (raises the engine's own error on bad setup)."""

    def prepare(self, state: Any, command: dict, rng: random.Random) -> dict:
        """The command with any random part (dice, draws) filled in; the same command otherwise."""

    def apply(self, state: Any, command: dict) -> Outcome:
        """Check one command: refused with a reason, or accepted with the new state."""

    def replay(self, initial: Any, commands: Iterable[dict]) -> Any:
        """The state after applying every command in order (each must still be accepted)."""

    def acting_side(self, state: Any, command: dict) -> str | None:
        """Whose command this is (None: any seat of the game may send it)."""

    def view_for(self, state: Any, viewer: str | tuple[str, ...] | None) -> Any:
        """The state with everything the viewer may not see removed (None: the public)."""

    def side_name(self, side: str, lang: str) -> str: ...

    def to_json(self, state: Any) -> Any: ...

    def from_json(self, data: Any) -> Any: ...


class ReplayError(RuntimeError):
    """A stored command no longer applies: the log and the engine disagree."""


def replay_commands(stepper: Stepper, initial: Any, commands: Iterable[dict]) -> Any:
    """The shared replay loop: apply each command, stop loudly if one is refused."""
    state = initial
    for i, command in enumerate(commands, 1):
        out = stepper.apply(state, command)
        if not out.ok:
            raise ReplayError(f"command {i} ({command.get('type')}) no longer applies: {out.reason.en}")
        state = out.state
    return state


__all__ = ["Outcome", "Reason", "ReplayError", "Stepper", "replay_commands"]

"""QMG's engine behind the shared :class:`gameplay.common.Stepper` interface.

The state is a :class:`~gameplay.qmg.table.Table`; a command is the dict ``apply_command``
takes (``{"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}``, …).
QMG has no randomness the app rolls (cards are drawn from the real decks, face down), so
``prepare`` adds nothing random: it only writes the acting country into the command, so the
log says who acted. Replaying the stored commands from ``new_state`` gives the same table as
folding the operations (``Outcome.changes``) they caused with ``apply_ops``.
"""
from __future__ import annotations

import random
from typing import Any, Iterable

from gameplay.common.stepper import Outcome, ReplayError

from .board import Board
from .table import CommandError, Options, Table, apply_command, new_table


class QmgStepper:
    """One game's engine: its board (standard or a variant) and its options."""

    kind = "qmg"

    def __init__(self, board: Board, options: Options | None = None, legacy: bool = False):
        self.board = board
        self.options = options or Options()
        self.legacy = legacy  # a game created before the card engine: its old rules throughout
        self.sides: tuple[str, ...] = tuple(board.turn_order)

    def new_state(self, setup: dict | None = None) -> Table:
        """The table at setup. QMG's setup is fixed by the board and the options of this stepper
        (an army of each country at home, the cards dealt); ``setup`` adds nothing."""
        return new_table(self.board, self.options)

    def prepare(self, state: Table, command: dict, rng: random.Random) -> dict:
        """The command with the acting country written in (nothing random to fill in)."""
        side = self.acting_side(state, command)
        return command if command.get("country") == side else {**command, "country": side}

    def apply(self, state: Table, command: dict) -> Outcome:
        """``apply_command``: refused with a reason, or accepted with the new table (``state``) and
        the operations it caused (``changes``). A malformed command raises ``CommandError``.
        A command without a country is the active country's, as in ``prepare``."""
        if isinstance(command, dict) and not command.get("country"):
            command = {**command, "country": state.active(self.board)}
        return apply_command(self.board, state, command, legacy=self.legacy)

    def replay(self, initial: Table, commands: Iterable[dict]) -> Table:
        """Every stored command in turn, by this game's rules: a game created before the card engine
        (``legacy``) by the old rules throughout, any other by today's — never mixed per command, so a
        stored game replays to the position it was stored with."""
        return self._replay(initial, list(commands), self.apply)

    def _replay(self, initial: Table, commands: list[dict], apply) -> Table:
        state = initial
        for i, command in enumerate(commands, 1):
            out = apply(state, command)
            if not out.ok:
                raise ReplayError(f"command {i} ({command.get('type')}) no longer applies: {out.reason.en}")
            state = out.state
        return state

    def apply_legacy(self, state: Table, command: dict) -> Outcome:
        if isinstance(command, dict) and not command.get("country"):
            command = {**command, "country": state.active(self.board)}
        return apply_command(self.board, state, command, legacy=True)

    def acting_side(self, state: Table, command: dict) -> str | None:
        """The country named in the command, or else the active country (CommandError if malformed)."""
        if not isinstance(command, dict):
            raise CommandError(f"a command must be an object, got {type(command).__name__}")
        country = command.get("country")
        if country is not None and not isinstance(country, str):
            raise CommandError(f"'country' must be text, got {type(country).__name__}")
        return country or state.active(self.board)

    def view_for(self, state: Table, viewer: str | tuple[str, ...] | None) -> Table:
        """Everyone sees the whole table: it holds only what lies open on the physical table
        (pieces, statuses face up, VP) and counts of hidden cards (deck, hand, face-down
        responses), never a hidden card's identity. Private notes live outside the engine."""
        return state

    def side_name(self, side: str, lang: str) -> str:
        c = self.board.countries[side]
        return c.en if lang == "en" else c.ru

    def to_json(self, state: Table) -> dict:
        return state.to_dict()

    def from_json(self, data: Any) -> Table:
        return Table.from_dict(data)


__all__ = ["QmgStepper"]

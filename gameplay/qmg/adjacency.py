"""Straits and adjacency: which seas a strait joins for which team, in one position.

The lowest rules module (it needs only the board and the pieces), so ``effects`` (card
conditions) and ``rules`` (supply, actions) both build on it without importing each other.
"""
from __future__ import annotations

from .board import ALLIES, AXIS, Board
from .state import ARMY, Position


def strait_status(board: Board, position: Position) -> dict[str, str]:
    """Which team each strait is open for: the Axis if an Axis army holds its land space."""
    axis_armies = {p.space for p in position.pieces if p.kind == ARMY and board.team_of(p.country) == AXIS}
    return {sid: (AXIS if s.land in axis_armies else ALLIES) for sid, s in board.straits.items()}


class Adjacency:
    """Adjacency for one team in one position (straits open for that team join their seas)."""

    __slots__ = ("board", "extra")

    def __init__(self, board: Board, straits: dict[str, str], team: str):
        self.board = board
        self.extra: dict[str, set[str]] = {}
        for sid, open_for in straits.items():
            if open_for == team:
                a, b = board.straits[sid].seas
                self.extra.setdefault(a, set()).add(b)
                self.extra.setdefault(b, set()).add(a)

    def neighbours(self, space: str):
        static = self.board.static_neighbours(space)
        extra = self.extra.get(space)
        return static | extra if extra else static

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.board.static_neighbours(a) or b in self.extra.get(a, ())

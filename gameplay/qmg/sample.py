"""Sample positions: a full board for the benchmark, random legal positions for property tests."""
from __future__ import annotations

import random

from .board import AXIS, Board
from .state import ARMY, NAVY, Piece, Position


def random_position(board: Board, rng: random.Random, fill: float = 0.5) -> Position:
    """A random position that obeys terrain, stacking and piece limits.

    Each land/sea space is given to one team at random; each country places about ``fill``
    of its pieces on its team's spaces, one piece of a kind per space.
    """
    owner = {sid: rng.choice(("axis", "allies")) for sid in board.spaces}
    pieces = []
    for cid in board.turn_order:
        c = board.countries[cid]
        for kind, limit, land in ((ARMY, c.armies, True), (NAVY, c.navies, False)):
            spaces = [s.id for s in board.spaces.values() if s.is_land == land and owner[s.id] == c.team]
            n = min(len(spaces), sum(1 for _ in range(limit) if rng.random() < fill))
            pieces += [Piece(cid, kind, s) for s in rng.sample(spaces, n)]
    rng.shuffle(pieces)
    return Position.of(pieces)


def full_board_position(board: Board, seed: int = 1) -> Position:
    """All 55 armies and navies on the board (a legal, crowded mid-game position)."""
    rng = random.Random(seed)
    land = [s.id for s in board.spaces.values() if s.is_land]
    sea = [s.id for s in board.spaces.values() if not s.is_land]
    rng.shuffle(land)
    rng.shuffle(sea)
    team_land = {AXIS: land[: len(land) // 2], "allies": land[len(land) // 2:]}
    team_sea = {AXIS: sea[: len(sea) // 2], "allies": sea[len(sea) // 2:]}
    pieces = []
    for cid in board.turn_order:
        c = board.countries[cid]
        pieces += [Piece(cid, ARMY, s) for s in rng.sample(team_land[c.team], c.armies)]
        pieces += [Piece(cid, NAVY, s) for s in rng.sample(team_sea[c.team], c.navies)]
    return Position.of(pieces)

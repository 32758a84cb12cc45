"""Optional digital dice. The engine itself only takes dice faces as input."""
from __future__ import annotations

import random


def roll(n: int, rng: random.Random) -> list[int]:
    """Roll `n` six-sided dice with the given Random instance."""
    if n < 0:
        raise ValueError("cannot roll a negative number of dice")
    return [rng.randint(1, 6) for _ in range(n)]


def roll_initiative(rng: random.Random) -> tuple[int, int, list[tuple[int, int]]]:
    """(south, north, history): re-roll ties until the two dice differ (A-14)."""
    history = []
    while True:
        s, n = rng.randint(1, 6), rng.randint(1, 6)
        history.append((s, n))
        if s != n:
            return s, n, history

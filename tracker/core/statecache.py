"""A game's state per version in the render cache: every write bumps the version, so the state cached for
version N is the state at N for as long as the cache keeps it. The write path stores the new state it
has just computed (after the commit); pages, refreshes and the next write read it instead of the
projection (the QMG mirror models cost several queries). Each read is a copy (the cache pickles), so a
request that changes its state changes nothing for the next one.
"""
from __future__ import annotations

import pickle

from django.core.cache import cache
from django.db import transaction

TIMEOUT = 600


def _key(game, version: int) -> str:
    return f"state:{game.kind}:{game.pk}:{game.spectator_token}:{version}"


def load(game, adapter):
    """The state at ``game.version``: from the cache, else the projection (then kept)."""
    key = _key(game, game.version)
    state = cache.get(key)
    if state is None:
        state = adapter.load(game)
        _keep(key, state, TIMEOUT)
    return state


def remember(game, state) -> None:
    """After the running transaction commits: ``state`` is the game's state at ``game.version``."""
    key = _key(game, game.version)
    transaction.on_commit(lambda: _keep(key, state, TIMEOUT))


def _keep(key: str, state, timeout: int) -> None:
    try:
        cache.set(key, state, timeout)
    except (TypeError, AttributeError, pickle.PicklingError):  # a state that cannot be kept: read each time
        pass

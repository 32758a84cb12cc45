"""A game's state per version in the render cache: every write bumps the version, so the state cached for
version N is the state at N for as long as the cache keeps it. The write path stores the new state it
has just computed (after the commit); pages, refreshes and the next write read it instead of the
projection (the QMG mirror models cost several queries).

A game whose engine never changes a state in place (``GameAdapter.immutable_state``) also keeps the last
states as objects in this process: a tap and the refreshes it sets off read the state of one version
several times, and unpickling it from the cache each time costs more than the rest of the read. Other
games' states stay pickled, so a request that changes its copy changes nothing for the next one.
"""
from __future__ import annotations

import pickle

from django.core.cache import cache
from django.db import transaction

from gameplay.common.kept import Kept

from . import once
from .registry import adapter_of

TIMEOUT = 600
_HELD = Kept(256)  # key -> state: the newest versions of the busiest games, as objects in this process


def _key(game, version: int) -> str:
    return f"state:{game.kind}:{game.pk}:{game.spectator_token}:{version}"


def load(game, adapter):
    """The state at ``game.version``: from this process, the cache, else the projection (then kept)."""
    key = _key(game, game.version)
    state = _HELD.get(key)
    if state is None:
        held = adapter.immutable_state
        state = once.cached(key, lambda: adapter.load(game), TIMEOUT, keep=_hold if held and once.local() else _keep)
        if held:
            _hold(key, state)
    return state


def remember(game, state) -> None:
    """After the running transaction commits: ``state`` is the game's state at ``game.version``."""
    key = _key(game, game.version)
    held = adapter_of(game).immutable_state

    def keep():
        if held:
            _hold(key, state)
        if not (held and once.local()):  # a held state is copied into a cache only another process can read
            _keep(key, state)

    transaction.on_commit(keep)


def _keep(key: str, state) -> None:
    try:
        cache.set(key, state, TIMEOUT)
    except (TypeError, AttributeError, pickle.PicklingError):  # a state that cannot be kept: read each time
        pass


def _hold(key: str, state) -> None:
    _HELD.keep(key, state)


def forget() -> None:
    """Drop the states held by this process (tests that start from an empty cache)."""
    _HELD.clear()

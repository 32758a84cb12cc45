"""A value of the render cache computed once per process when several requests miss it together.

The live stream tells every phone of a move the moment it commits, so the other phones' refreshes reach the
server while the mover's answer is still computing the new version's state and public parts, and in a
process that did not write the move all of them miss at once. ``get_or_make`` lets the first request of this
process compute the value and the others wait for it (up to ``WAIT`` seconds, then they compute it
themselves) instead of each pool thread computing the same thing (docs/architecture.md gives the figure).
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from django.core.cache import cache

WAIT = 2.0
_MISSING = object()


class _Flight:
    __slots__ = ("done", "value")

    def __init__(self):
        self.done = threading.Event()
        self.value: Any = _MISSING


_FLIGHTS: dict[str, _Flight] = {}
_FLIGHTS_LOCK = threading.Lock()


def get_or_make(key: str, make: Callable[[], Any], timeout: int,
                keep: Callable[[str, Any, int], None] | None = None) -> Any:
    """``cache.get(key)``, or ``make()`` computed once by this process's concurrent requests and kept
    (``keep(key, value, timeout)``, by default ``cache.set``; ``make`` never returns None)."""
    value = cache.get(key)
    if value is not None:
        return value
    with _FLIGHTS_LOCK:
        flight = _FLIGHTS.get(key)
        leader = flight is None
        if leader:
            flight = _FLIGHTS[key] = _Flight()
    if not leader:
        flight.done.wait(WAIT)
        return make() if flight.value is _MISSING else flight.value  # the first one failed or is slow: here
    try:
        value = flight.value = make()
        (keep or cache.set)(key, value, timeout)
        return value
    finally:
        with _FLIGHTS_LOCK:
            _FLIGHTS.pop(key, None)
        flight.done.set()


def in_flight() -> int:
    """How many values this process is computing now."""
    with _FLIGHTS_LOCK:
        return len(_FLIGHTS)

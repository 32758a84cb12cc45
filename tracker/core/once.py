"""Compute a cached value once per process when many requests miss it together.

After a move, the mover's answer and the other phones' refreshes (told by the live stream within a
millisecond) all ask for the new version's skeleton and state at once. ``cached`` lets the first
request of this process compute it and the others wait for that value (up to ``WAIT`` seconds, then they
compute it themselves), instead of every request thread rendering the same thing in parallel.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

WAIT = 2.0
_MISSING = object()


class _Flight:
    __slots__ = ("done", "value")

    def __init__(self):
        self.done = threading.Event()
        self.value: Any = _MISSING


_FLIGHTS: dict[str, _Flight] = {}
_LOCK = threading.Lock()


def local() -> bool:
    """Is the render cache this process's own memory (the embedded default, not Redis)? Then a value this
    process holds as an object needs no (pickled) copy in it: no other process can read that copy."""
    return isinstance(caches["default"], LocMemCache)


def cached(key: str, make: Callable[[], Any], timeout: int, *, keep: Callable[[str, Any], None] | None = None) -> Any:
    """``cache.get(key)``, or ``make()`` computed once by this process's concurrent requests and kept
    (``keep(key, value)``, default ``cache.set``)."""
    value = cache.get(key)
    if value is not None:
        return value
    with _LOCK:
        flight = _FLIGHTS.get(key)
        leader = flight is None
        if leader:
            flight = _FLIGHTS[key] = _Flight()
    if not leader:
        flight.done.wait(WAIT)
        if flight.value is not _MISSING:
            return flight.value
        return make()  # the first one failed or is slow: compute it here
    try:
        value = make()
        flight.value = value
        (keep or (lambda k, v: cache.set(k, v, timeout)))(key, value)
        return value
    finally:
        with _LOCK:
            _FLIGHTS.pop(key, None)
        flight.done.set()

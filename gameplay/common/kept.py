"""The last answers of a pure function, kept by what they were asked about (no Django)."""
from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Any


class Kept:
    """At most ``size`` values by key, the oldest dropped first; safe to share between threads.
    ``get`` raises ``TypeError`` for a key that cannot be hashed (the caller then computes without keeping)."""

    __slots__ = ("size", "_values", "_lock")

    def __init__(self, size: int):
        self.size = size
        self._values: dict = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        return self._values.get(key)

    def keep(self, key: Hashable, value: Any) -> Any:
        """Keep ``value`` as the newest (replacing one of the same key); returns it."""
        with self._lock:
            self._values.pop(key, None)
            while len(self._values) >= self.size:
                del self._values[next(iter(self._values))]
            self._values[key] = value
        return value

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)

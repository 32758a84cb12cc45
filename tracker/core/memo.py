"""A bounded per-process memo, shared by the render paths that keep values by what they are made of."""
from __future__ import annotations


class Memo(dict):
    """A dict of at most ``size`` entries, emptied when full: simpler and cheaper than an LRU, and safe
    wherever a value is keyed by everything it is made of (a forgotten one is only made again)."""

    __slots__ = ("size",)

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def keep(self, key, value):
        """``self[key] = value`` (emptied first when full); returns ``value``."""
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value

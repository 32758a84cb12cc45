"""Rows of a list rendered once each and shared through the cache: a history's events, a map's spaces.

A list that a new game version changes only in a few rows (a move adds an event to the log, a build changes
one space) is rendered row by row: each row by its template partial, kept in the render cache under a key
made of exactly what the row shows. A new version then renders only the rows that changed and reads the
others in one ``cache.get_many``."""
from __future__ import annotations

import hashlib
from typing import Callable, Iterable

from django.core.cache import cache
from django.template.loader import render_to_string

TIMEOUT = 600


def digest(*parts) -> str:
    """A short digest of plain values (text, numbers, booleans, None and tuples or lists of them)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def rendered(template_name: str, items: Iterable, key_of: Callable, context: dict) -> list[str]:
    """Each item rendered by ``template_name`` with ``context`` and the item as ``row``, from the cache where
    an earlier render of the same row (``key_of(item)``: every value the row shows) is kept."""
    items = list(items)
    keys = [f"row:{template_name}:{key_of(item)}" for item in items]
    kept = cache.get_many(keys)
    out, new = [], {}
    for key, item in zip(keys, items):
        html = kept.get(key) or new.get(key)
        if html is None:
            html = new[key] = render_to_string(template_name, {**context, "row": item})
        out.append(html)
    if new:
        cache.set_many(new, TIMEOUT)
    return out

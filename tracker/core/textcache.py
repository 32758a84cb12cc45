"""The embedded default's render cache: Django's local-memory cache that keeps text as it is.

Django's ``LocMemCache`` pickles every value it stores and unpickles it on every read, so that a caller
cannot change a cached object in place. The render cache holds mostly text: the public fragments of a
game page (a map of ~100 KB among them) and each version's skeleton, read by every phone's refresh.
Pickling a ``str`` encodes it to UTF-8 and reading it decodes it again (the Russian pages are mostly
non-ASCII). Text cannot be changed in place, so this backend keeps a ``str`` (a ``SafeString`` too) and a
tuple of ``str`` as they are, and pickles everything else as Django does (e.g. a game's state).
"""
from __future__ import annotations

import pickle

from django.core.cache.backends.base import DEFAULT_TIMEOUT, MEMCACHE_MAX_KEY_LENGTH
from django.core.cache.backends.locmem import LocMemCache


def _text(value) -> bool:
    return isinstance(value, str) or (type(value) is tuple and all(isinstance(v, str) for v in value))


class TextLocMemCache(LocMemCache):
    def validate_key(self, key):
        """Django checks every character of every key for memcached (a warning only, ~5 µs a key; a page reads
        a dozen fragments): the keys here are the app's own (ids, versions, digests, ASCII), so only a key
        too long for memcached is checked as Django checks it."""
        if len(key) > MEMCACHE_MAX_KEY_LENGTH:
            super().validate_key(key)

    def _stored(self, value):
        return value if _text(value) else pickle.dumps(value, self.pickle_protocol)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        stored = self._stored(value)
        with self._lock:
            if self._has_expired(key):
                self._set(key, stored, timeout)
                return True
            return False

    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                return default
            stored = self._cache[key]
            self._cache.move_to_end(key, last=False)
        return pickle.loads(stored) if isinstance(stored, bytes) else stored  # pickled values are always bytes

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        stored = self._stored(value)
        with self._lock:
            self._set(key, stored, timeout)

    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                raise ValueError("Key '%s' not found" % key)
            stored = self._cache[key]
            value = pickle.loads(stored) if isinstance(stored, bytes) else stored
            new_value = value + delta
            self._cache[key] = self._stored(new_value)
            self._cache.move_to_end(key, last=False)
        return new_value

"""Settings of the load benchmark's servers with ``--servers 2`` (tests/load/loadtest.py): the
production settings, with every Redis cache key under the run's prefix (``LOADTEST_CACHE_PREFIX``),
so that a run shares Redis with nobody and removes exactly the keys it made. Nothing else differs."""
import os

from tracker.settings import *  # noqa: F401,F403
from tracker.settings import CACHES

_prefix = os.environ.get("LOADTEST_CACHE_PREFIX", "").strip()
if _prefix:
    for _cache in CACHES.values():
        if "KEY_PREFIX" in _cache:
            _cache["KEY_PREFIX"] = f"{_prefix}:{_cache['KEY_PREFIX']}"

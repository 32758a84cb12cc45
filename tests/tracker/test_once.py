"""``tracker.core.once.get_or_make``: requests of one process that miss the same key together compute it once."""
from __future__ import annotations

import threading
import time

from django.core.cache import cache

from tracker.core import once


def test_concurrent_misses_compute_once_and_all_get_the_value():
    cache.delete("once-test")
    calls, results = [], []
    start = threading.Barrier(8)

    def make():
        calls.append(1)
        time.sleep(0.05)  # long enough for the others to arrive while it is computed
        return ["skeleton"]

    def ask():
        start.wait()
        results.append(once.get_or_make("once-test", make, 60))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert len(calls) == 1 and results == [["skeleton"]] * 8
    assert cache.get("once-test") == ["skeleton"]
    assert once.get_or_make("once-test", make, 60) == ["skeleton"] and len(calls) == 1
    assert once.in_flight() == 0


def test_a_failed_computation_lets_the_waiters_compute_it_themselves():
    cache.delete("once-fail")
    first = threading.Event()
    calls = []

    def make():
        calls.append(1)
        if len(calls) == 1:
            first.set()
            time.sleep(0.05)
            raise RuntimeError("render failed")
        return "ok"

    out = []
    leader = threading.Thread(target=lambda: out.append(_safe(lambda: once.get_or_make("once-fail", make, 60))))
    leader.start()
    first.wait(2)
    assert once.get_or_make("once-fail", make, 60) == "ok"  # waited for the leader, then computed it itself
    leader.join(5)
    assert out == ["failed"] and len(calls) == 2 and not once.in_flight()


def _safe(fn):
    try:
        return fn()
    except RuntimeError:
        return "failed"

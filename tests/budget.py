"""What an engine's refusal may cost: the Python memory it allocates before it refuses (tracemalloc's peak), so
that a bound checked before the input is read shows as a small peak. Time is printed by the tests, never asserted
(the machines are shared and noisy)."""
from __future__ import annotations

import time
import tracemalloc

PEAK = 1e6  # bytes: what a refusal may allocate; reading any of the tests' oversized inputs allocates far more


def peak_of(fn, *args, **kwargs) -> tuple[object, float, int]:
    """(``fn(*args, **kwargs)``'s result, the seconds it took, the peak of Python memory it allocated)."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        result = fn(*args, **kwargs)
        took = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, took, peak


def refused_early(fn, *args, error: type[Exception] = ValueError) -> tuple[Exception, float]:
    """``fn(*args)``'s refusal (an ``error``) and its seconds, asserting that it came before the input was read:
    the memory it allocated stays under ``PEAK`` (the input itself exists beforehand)."""
    def call():
        try:
            fn(*args)
        except error as exc:
            return exc
        raise AssertionError(f"{getattr(fn, '__name__', fn)} did not refuse with {error.__name__}")

    exc, took, peak = peak_of(call)
    assert peak < PEAK, peak
    return exc, took

"""Helpers shared by the tracker tests: a form as a browser posts it, and threads fired at once."""
from __future__ import annotations

import threading
import time

from django import forms as djforms
from django.db import connections

from tests.budget import peak_of


def initial_data(form, **overrides) -> dict:
    """A form as a browser posts it with every default kept (unticked boxes are not sent)."""
    data = {}
    for name, field in form.fields.items():
        init = form.get_initial_for_field(field, name)
        if isinstance(field, djforms.BooleanField):
            if init:
                data[name] = "on"
        elif init is None:
            continue
        else:
            data[name] = init if isinstance(init, list) else str(init)
    data.update(overrides)
    return data


def fire(n, work, report: bool = False) -> list:
    """``work(i)`` in n threads released at the same moment, each with its own database connection;
    the results in order, any error raised. ``report``: print how long it took (``pytest -s``)."""
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list = []

    def run(i):
        try:
            barrier.wait(timeout=30)
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 — reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    if report:
        print(f"\n  {n} threads at once: {(time.perf_counter() - start) * 1000:.1f} ms")
    assert not errors, errors
    return results


def measured(label: str, fn, *args, **kwargs):
    """``fn(*args, **kwargs)``'s result, with its status, time and peak of Python memory printed
    (``pytest -s``); the seconds it took are in ``measured.last``, the peak in bytes in ``measured.peak``."""
    result, took, peak = peak_of(fn, *args, **kwargs)
    measured.last, measured.peak = took, peak
    print(f"\n  {label}: {getattr(result, 'status_code', '-')} in {took * 1000:.1f} ms, peak {peak / 1e6:.2f} MB")
    return result

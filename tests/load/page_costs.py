#!/usr/bin/env python
"""Benchmark: the slowest legitimate page of each game against the bare view, in one run.

    .venv/bin/python tests/load/page_costs.py [--runs N]

For every game kind, a game at the largest size the input budgets accept (QMG: a long game on the
largest accepted board variant; The Fog of War: every card list at its bound; Generalissimus: the
default battle after a few moves) is created in a throw-away SQLite database, and its page is
fetched in-process (Django's test client) by a seat, by a spectator, and as the htmx partial. Each
figure is the median of N fetches, printed beside the median of ``GET /ping/`` (the smallest Django
view) measured in the same run, and as a multiple of it. It prints figures; it asserts nothing
about time (the machines are shared and noisy).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'pages.sqlite3'}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
        os.environ["DJANGO_CREATION_LIMIT"] = "0"
        import django  # optional: set up only once the database is chosen

        django.setup()
        from django.core.management import call_command  # optional: after django.setup()

        call_command("migrate", verbosity=0, interactive=False)
        run(args.runs)


def median_ms(fetch, runs: int) -> float:
    fetch()  # warm: templates compiled, boards built
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        response = fetch()
        samples.append((time.perf_counter() - t0) * 1000)
        assert response.status_code == 200, response.status_code
    return statistics.median(samples)


def run(runs: int) -> None:
    from django.conf import settings  # optional: after django.setup()
    from django.test import Client  # optional: after django.setup()
    from django.urls import reverse  # optional: after django.setup()

    from tests.load import page_games  # optional: after django.setup()

    settings.ALLOWED_HOSTS = ["*"]
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {  # no collectstatic needed, as in the tests
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    ping = Client()
    base = median_ms(lambda: ping.get(reverse("ping")), runs)
    print(f"bare view GET /ping/: {base:.2f} ms (median of {runs})")
    rows = []
    for label, game in page_games.heaviest_games():
        for viewer, client in page_games.viewers(game):
            url = reverse("game", args=[game.pk])
            page = median_ms(lambda c=client: c.get(url), runs)
            partial = median_ms(lambda c=client: c.get(url, HTTP_HX_REQUEST="true"), runs)
            rows.append((label, viewer, page, partial))
            print(f"{label}, {viewer}: page {page:.1f} ms ({page / base:.0f}× bare), "
                  f"htmx partial {partial:.1f} ms ({partial / base:.0f}× bare)")
    worst = max(rows, key=lambda r: r[2])
    print(f"slowest page: {worst[0]}, {worst[1]}: {worst[2]:.1f} ms = {worst[2] / base:.0f}× the bare view")


if __name__ == "__main__":
    main()

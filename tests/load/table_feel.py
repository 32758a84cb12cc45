#!/usr/bin/env python
"""Benchmark: what one tap costs at a QMG table of six phones, against the bare view, in one run.

    .venv/bin/python tests/load/table_feel.py [--rounds N] [--profile]

In a throw-away SQLite database a 6-player QMG game is created and six phones join it (Django's
test client, in-process). Then turn after turn the active phone makes its moves as a player does
on the phone — «Сыграть карту» (a build), then «Закончить ход» (the rest of the turn in one tap) —
and after every move all six phones refresh their game partial, as htmx does on "game-changed". A move is
posted as htmx posts a form (``application/x-www-form-urlencoded``; so does a browser without JavaScript),
not as the test client's default multipart body, which costs the server ~0.4 ms more to parse.
It prints the median and p95 of

- the bare view (``GET /ping/``, the smallest Django view), measured in the same run;
- a seat's game partial (the htmx refresh every phone makes after a move);
- a move (the POST and the partial it answers with);

each also as a multiple of the bare view (a diagnostic: the goals are the load benchmark's user-level figures,
docs/performance.md), in wall-clock time and in this process's CPU time (``time.process_time``: on a shared machine the wall clock also counts the
time other programs held the core; the CPU figure does not).
``--profile`` prints where the time of the partials and moves goes (cProfile, top 25 by
cumulative time). It asserts nothing about time (the machines are shared and noisy).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# a legal build for each country from the rulebook's setup, then the next ones further out
BUILDS = {"germany": ["eastern_europe", "western_europe", "balkans", "ukraine"],
          "united_kingdom": ["north_sea", "western_europe", "north_atlantic", "mediterranean"],
          "japan": ["sea_of_japan", "china", "south_china_sea", "southeast_asia"],
          "soviet_union": ["russia", "ukraine", "siberia", "kazakhstan"],
          "italy": ["balkans", "mediterranean", "north_africa", "western_europe"],
          "united_states": ["canada", "north_atlantic", "western_us", "latin_america"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--rounds", type=int, default=3, help="game rounds played (6 turns each)")
    parser.add_argument("--runs", type=int, default=300, help="samples of the bare view")
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument("--step-by-step", action="store_true",
                        help="finish each turn one step per tap (end play, supply, score, discard, draw), "
                             "as before «Закончить ход» (also runs against an older checkout)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'feel.sqlite3'}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
        os.environ["DJANGO_CREATION_LIMIT"] = "0"
        import django  # optional: set up only once the database is chosen

        django.setup()
        from django.core.management import call_command  # optional: after django.setup()

        call_command("migrate", verbosity=0, interactive=False)
        run(max(1, min(args.rounds, 20)), max(10, min(args.runs, 10_000)), args.profile, args.step_by_step)


CPU: dict[int, list[float]] = {}  # id(samples) -> the same requests' CPU time of this process


def timed(samples: list, fetch, ok=(200,)):
    t0, c0 = time.perf_counter(), time.process_time()
    response = fetch()
    samples.append((time.perf_counter() - t0) * 1000)
    CPU.setdefault(id(samples), []).append((time.process_time() - c0) * 1000)
    assert response.status_code in ok, (response.status_code, response.content[:300])
    return response


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered) + 0.5)) - 1)]


FORM = "application/x-www-form-urlencoded"  # what htmx (and a form without JavaScript) sends
STEPS = ({"command": "end_play"}, {"command": "supply"}, {"command": "score"}, {"command": "discard", "n": 0},
         {"command": "draw"})


def run(rounds: int, runs: int, profile: bool, step_by_step: bool = False) -> None:
    from django.conf import settings  # optional: after django.setup()
    from django.test import Client  # optional: after django.setup()
    from django.urls import reverse  # optional: after django.setup()

    from gameplay.qmg.seating import DEFAULT_SEATING  # optional: after django.setup()
    from tracker.core.models import Game  # optional: after django.setup()
    from tracker.qmg.views import create_game  # optional: after django.setup()

    settings.ALLOWED_HOSTS = ["*"]
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {  # no collectstatic needed, as in the tests
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    htmx = {"HTTP_HX_REQUEST": "true"}
    game = create_game("Benchmark", list(zip([f"P{i}" for i in range(1, 7)], DEFAULT_SEATING[6])), {})
    phones = {}
    for seat in game.seats.order_by("number"):
        client = Client()
        client.get(reverse("join", args=[seat.token]))
        phones[seat.countries[0]] = client
    url, command_url = reverse("game", args=[game.pk]), reverse("command", args=[game.pk])
    for client in phones.values():  # warm: templates compiled, boards built
        client.get(url, **htmx)

    ping, partials, moves = [], [], []
    bare = Client()
    profiler = cProfile.Profile() if profile else None
    made = {c: 0 for c in BUILDS}
    for _ in range(rounds * 6):
        game.refresh_from_db()
        country = _active(game)
        phone = phones[country]
        space = BUILDS[country][made[country] % len(BUILDS[country])]
        made[country] += 1
        kind = "sea" if space in SEAS else "land"
        finish = STEPS if step_by_step else ({"command": "finish_turn"},)
        for post in ({"command": "play_card", "card_type": "build_navy" if kind == "sea" else "build_army",
                      "space": space}, *finish):
            game.refresh_from_db()
            data = {**post, "version": game.version}
            if profiler:
                profiler.enable()
            response = timed(moves, lambda d=data: phone.post(command_url, urlencode(d), FORM, **htmx),
                             ok=(200, 422))
            if response.status_code == 422 and post["command"] == "play_card":  # not legal now: an event
                event = urlencode({"command": "play_card", "card_type": "event", "version": game.version})
                timed(moves, lambda: phone.post(command_url, event, FORM, **htmx))
            for client in phones.values():  # every phone follows the move
                timed(partials, lambda c=client: c.get(url, **htmx))
            if profiler:
                profiler.disable()
            for _i in range(max(1, runs // (rounds * 12))):
                timed(ping, lambda: bare.get(reverse("ping")))
    while len(ping) < runs:
        timed(ping, lambda: bare.get(reverse("ping")))
    game = Game.objects.get(pk=game.pk)
    base = statistics.median(ping)
    cpu_base = statistics.median(CPU[id(ping)])
    print(f"QMG table of six phones{' (step by step)' if step_by_step else ''}: {rounds} round(s), {len(moves)} "
          f"moves, {len(partials)} partial refreshes "
          f"(game now at round {game.qmg.round}, version {game.version})")
    print(f"bare view GET /ping/: median {base:.2f} ms, p95 {p95(ping):.2f} ms ({len(ping)} samples)")
    for label, values in (("a seat's game partial (htmx refresh)", partials),
                          ("a move (POST + the partial it answers)", moves)):
        med = statistics.median(values)
        cpu = statistics.median(CPU[id(values)])
        print(f"{label}: median {med:.1f} ms ({med / base:.0f}× bare), p95 {p95(values):.1f} ms; "
              f"CPU median {cpu:.2f} ms ({cpu / cpu_base:.1f}× the bare view's {cpu_base:.2f} ms)")
    turns = rounds * 6
    print(f"server time per turn, all six phones (moves + refreshes): {(sum(moves) + sum(partials)) / turns:.0f} ms; "
          f"requests per turn: {(len(moves) + len(partials)) / turns:.0f}")
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats(os.environ.get("PROFILE_SORT", "cumulative"))
        stats.print_stats(r"tracker|gameplay|crispy|template/(loader_tags|defaulttags)|forms/", 40)
        print(out.getvalue())


def _active(game) -> str:
    from gameplay.qmg import load_board  # optional: after django.setup()

    return load_board().turn_order[game.qmg.turn]


SEAS = {"north_sea", "sea_of_japan", "north_atlantic", "mediterranean", "south_china_sea"}


if __name__ == "__main__":
    main()

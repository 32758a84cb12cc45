"""The pages phones hit all night make a constant number of SQL queries, however long the game.

Measured at two moments of one 6-seat game that are alike (the United Kingdom's victory step of
round 1 after 10 events, and of round 15 after 514 events — the first count of at least 500
events at the same country and step): the game page and its htmx partial as the active seat,
the poll (unchanged 204 and changed 200), and each of the six moves of a full turn cycle posted
with htmx (the answer renders the partial). The events are made by legal turns through
``tracker.core.log.submit``. Run with ``-s`` to see the table of counts.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.core.log import Actor
from tracker.models import Game
from tracker.qmg import selectors
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db  # also makes pytest-django create the test database for the module fixture

HOST = Actor(is_host=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
SMALL, LARGE = 10, 514  # 1 + 9 moves, and 1 + 14 rounds × 36 + 9 moves: the UK's victory step both times
PLAIN_STATIC = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}


def next_command(game: Game) -> dict:
    """The next legal command of the active country's turn cycle (an Event card when it has one)."""
    game.refresh_from_db()
    table = selectors.table_of(game)
    active = table.active(selectors.board_of(game))
    if table.phase == "play":
        if not table.played and table.cards_of(active).hand > 0:
            return {"type": "play_card", "card_type": "event"}
        return {"type": "end_play"}
    return {"supply": {"type": "supply"}, "victory": {"type": "score"}, "discard": {"type": "discard", "n": 0},
            "draw": {"type": "draw"}}[table.phase]


def play_until(game: Game, events: int) -> None:
    for _ in range(events):  # bounded: one event per iteration
        if game.events.count() >= events:
            return
        command = next_command(game)
        result = log.submit(game.pk, game.version, HOST, command)
        assert result.applied, (command, result.reason)
    assert game.events.count() == events


def shape(sql: str) -> str:
    """A query without its literal values, to compare which queries run."""
    sql = re.sub(r"'(?:[^']|'')*'", "?", sql)
    sql = re.sub(r"\b\d+\b", "?", sql)
    return re.sub(r"\(\s*\?(?:\s*,\s*\?)*\s*\)", "(?…)", sql)


def measure(game: Game, clients: dict[str, Client]) -> dict[str, tuple[int, list[str]]]:
    """{what: (number of queries, their SQL)} at the game's current moment."""
    game.refresh_from_db()
    board = selectors.board_of(game)
    active = selectors.table_of(game).active(board)
    out = {}

    def run(name, call, expect):
        with CaptureQueriesContext(connection) as ctx:
            response = call()
        assert response.status_code == expect, (name, response.status_code, response.content[:300])
        out[name] = (len(ctx.captured_queries), [q["sql"] for q in ctx.captured_queries])

    seat = clients[active]
    url = f"/g/{game.pk}/"
    run("page", lambda: seat.get(url), 200)
    run("partial", lambda: seat.get(url, **HTMX), 200)
    run("poll 204", lambda: seat.get(f"{url}poll/", {"v": game.version}), 204)
    run("poll 200", lambda: seat.get(f"{url}poll/", {"v": game.version - 1}), 200)
    for _ in range(6):  # a full turn cycle, each command posted by the active country's seat
        game.refresh_from_db()
        command = next_command(game)
        active = selectors.table_of(game).active(board)
        data = {"command": command.pop("type"), "version": game.version, **command}
        run(f"move {data['command']}", lambda: clients[active].post(f"{url}command/", data, **HTMX), 200)
    return out


@pytest.fixture(scope="module")
def counts(django_db_setup, django_db_blocker):
    """Both measurements, in one transaction that is rolled back."""
    with django_db_blocker.unblock(), override_settings(STORAGES=PLAIN_STATIC, DEBUG=False):
        with transaction.atomic():
            seating = DEFAULT_SEATING[6]
            game = create_game("Query counts", [(f"P{i}", c) for i, c in enumerate(seating, 1)], {})
            clients = {}
            for seat in game.seats.all():
                client = Client()
                assert client.get(f"/join/{seat.token}/").status_code == 302
                clients[seat.countries[0]] = client
            play_until(game, SMALL)
            small = measure(game, clients)
            play_until(game, LARGE)
            large = measure(game, clients)
            game.refresh_from_db()
            assert game.qmg.round == 15 and not game.winner
            transaction.set_rollback(True)
    print(f"\nSQL queries per request (after {SMALL} events → after {LARGE} events):")
    for name in small:
        print(f"  {name:<16}{small[name][0]:>4} → {large[name][0]:>4}")
    return small, large


def growth(small, large) -> str:
    """Which query shapes run more often after the long game than after the short one."""
    more = Counter(map(shape, large[1])) - Counter(map(shape, small[1]))
    fewer = Counter(map(shape, small[1])) - Counter(map(shape, large[1]))
    lines = [f"+{n} × {q[:300]}" for q, n in more.items()] + [f"-{n} × {q[:300]}" for q, n in fewer.items()]
    return "\n".join(lines)


@pytest.mark.parametrize("name", ["page", "partial", "poll 204", "poll 200"])
def test_reads_make_a_constant_number_of_queries(counts, name):
    small, large = counts
    assert small[name][0] == large[name][0], f"{name}: {small[name][0]} → {large[name][0]}\n" + growth(
        small[name], large[name])


@pytest.mark.parametrize("name", ["move play_card", "move end_play", "move supply", "move score", "move discard",
                                  "move draw"])
def test_each_move_makes_a_constant_number_of_queries(counts, name):
    small, large = counts
    assert small[name][0] == large[name][0], f"{name}: {small[name][0]} → {large[name][0]}\n" + growth(
        small[name], large[name])


def test_the_poll_is_one_query(counts):
    small, large = counts
    assert small["poll 204"][0] == large["poll 204"][0] == 1


def test_the_measured_moves_were_all_different_commands(counts):
    small, _ = counts
    assert sorted(k for k in small if k.startswith("move ")) == sorted(
        f"move {c}" for c in ("play_card", "end_play", "supply", "score", "discard", "draw"))

"""Concurrency: the same move fired at once by several phones applies exactly once.

Through a real HTTP server (pytest-django's live server, one thread per request) with one
browser per thread (urllib, its own cookie jar, joined through the seat's join link, CSRF token
sent), and at the write path's level with threads calling ``tracker.core.log.submit`` directly.

Runs on SQLite (the default) and on PostgreSQL (``DATABASE_URL=postgres://…``). Django's test
database for SQLite lives in memory and the live server would then share the test's single
connection between all request threads, which serialises nothing and tests nothing; so on SQLite
these tests move the default database to a file for their duration (WAL, ``BEGIN IMMEDIATE``, as
in production), giving every thread its own connection.
"""
from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.db import connections
from pytest_django.live_server_helper import LiveServer

from gameplay.qmg.seating import DEFAULT_SEATING
from tests.tracker.helpers import fire
from tracker.core import log
from tracker.core.log import Actor
from tracker.models import Event, Game, Piece
from tracker.qmg import selectors
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db(transaction=True)

N = 8
BUILD = {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}


@pytest.fixture
def server(real_db):
    """pytest-django's live server, started on the database of ``real_db``."""
    live = LiveServer("localhost:0")
    try:
        yield live.url
    finally:
        live.stop()


def new_game():
    return create_game("Гонка", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})


def assert_log_and_projection(game_id):
    game = Game.objects.get(pk=game_id)
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))  # no gaps, no duplicates
    assert selectors.canonical(selectors.table_of(game)) == selectors.canonical(log.replay(game))


class Phone:
    """One browser: its own cookies (session, CSRF)."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=60) as r:
            return r.read().decode("utf-8")

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def post(self, path: str, data: dict, htmx=True) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.csrf()}).encode()
        req = urllib.request.Request(self.base + path, data=body, method="POST")
        req.add_header("Content-Type", "application/x-www-form-urlencoded")
        req.add_header("X-CSRFToken", self.csrf())
        req.add_header("Accept-Language", "en")
        if htmx:
            req.add_header("HX-Request", "true")
        try:
            with self.opener.open(req, timeout=60) as r:
                return r.status, r.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")


def test_the_same_move_fired_by_eight_phones_applies_once(server):
    game = new_game()
    token = game.seats.get(number=1).token
    phones = [Phone(server) for _ in range(N)]
    for phone in phones:
        html = phone.get(f"/join/{token}/")  # redirected to the game page: session and CSRF cookies
        assert 'value="play_card"' in html
    version = Game.objects.get(pk=game.pk).version
    data = {"command": "play_card", "version": version, "card_type": "build_army", "space": "eastern_europe"}

    results = fire(N, lambda i: phones[i].post(f"/g/{game.pk}/command/", data))

    statuses = sorted(status for status, _body in results)
    assert statuses == [200] + [409] * (N - 1), statuses
    for status, body in results:
        if status == 409:
            assert "The game changed while you were entering your move" in body
    game = Game.objects.get(pk=game.pk)
    assert game.version == version + 1
    assert Piece.objects.filter(game=game, space="eastern_europe").count() == 1
    assert_log_and_projection(game.pk)

    # and the game goes on over HTTP: the next move at the new version applies
    status, _body = phones[0].post(f"/g/{game.pk}/command/", {"command": "end_play", "version": game.version})
    assert status == 200
    assert_log_and_projection(game.pk)


def test_different_moves_at_the_same_version_one_wins(server):
    """Eight phones, eight different builds at once: one army appears, the others are told."""
    game = new_game()
    token = game.seats.get(number=1).token
    phones = [Phone(server) for _ in range(N)]
    for phone in phones:
        phone.get(f"/join/{token}/")
    version = Game.objects.get(pk=game.pk).version
    spaces = ["eastern_europe", "western_europe", "balkans", "eastern_europe", "western_europe", "balkans",
              "eastern_europe", "balkans"]

    def work(i):
        return phones[i].post(f"/g/{game.pk}/command/", {"command": "play_card", "version": version,
                                                     "card_type": "build_army", "space": spaces[i]})

    statuses = sorted(s for s, _b in fire(N, work))
    assert statuses.count(200) == 1 and statuses.count(409) == N - 1, statuses
    assert Piece.objects.filter(game=game, kind="army", country="germany").count() == 2  # home + the one built
    assert_log_and_projection(game.pk)


def test_undo_fired_by_eight_phones_applies_once(server):
    game = new_game()
    host = Phone(server)
    host.get(f"/host/{game.host_token}/")
    assert host.post(f"/g/{game.pk}/command/", {"command": "play_card", "version": 1, "card_type": "build_army",
                                              "space": "eastern_europe"})[0] == 200
    phones = [Phone(server) for _ in range(N)]
    for phone in phones:
        phone.get(f"/host/{game.host_token}/")
    results = fire(N, lambda i: phones[i].post(f"/g/{game.pk}/undo/", {"version": 2}))
    statuses = sorted(s for s, _b in results)
    assert statuses == [200] + [409] * (N - 1), statuses
    game = Game.objects.get(pk=game.pk)
    assert list(game.events.values_list("kind", flat=True)) == ["create", "move", "undo"]
    assert not Piece.objects.filter(game=game, space="eastern_europe").exists()
    assert_log_and_projection(game.pk)


def test_log_submit_from_eight_threads_applies_once(real_db):
    game = new_game()
    seat = game.seats.get(number=1)

    def work(i):
        return log.submit(game.pk, 1, Actor(seat=seat), BUILD).status

    statuses = sorted(fire(N, work))
    assert statuses == sorted([log.APPLIED] + [log.STALE] * (N - 1)), statuses
    assert Game.objects.get(pk=game.pk).version == 2
    assert_log_and_projection(game.pk)


def test_log_many_rounds_of_racing_threads_keep_the_log_contiguous(real_db):
    """Threads race again and again, each re-reading the version: every race has exactly one winner."""
    game = new_game()
    host = Actor(is_host=True)
    turn = [BUILD, {"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
            {"type": "draw"}]
    races = 0
    for cmd in turn:
        while True:
            races += 1
            version = Game.objects.get(pk=game.pk).version

            def work(i, cmd=cmd, version=version):
                if i % 3 == 2 and cmd is not BUILD:  # some threads undo instead (once there is a move)
                    return log.undo(game.pk, version, host).status
                return log.submit(game.pk, version, host, cmd).status

            statuses = fire(N, work)
            assert statuses.count(log.APPLIED) == 1, (cmd, statuses)
            assert statuses.count(log.STALE) == N - 1, (cmd, statuses)
            assert_log_and_projection(game.pk)
            g = Game.objects.get(pk=game.pk)
            if g.events.order_by("-seq").first().kind != Event.UNDO:
                break  # the move itself won this race
            # an undo won: put the undone move back and race for this move again
            assert log.redo(game.pk, g.version, host).applied
            assert races < 60
    game = Game.objects.get(pk=game.pk)
    assert game.qmg.turn == 1
    assert_log_and_projection(game.pk)


def test_the_file_database_fixture_is_a_real_file_on_sqlite(real_db):
    conn = connections["default"]
    if conn.vendor == "sqlite":
        assert re.search(r"concurrency\.sqlite3$", str(conn.settings_dict["NAME"]))
        with conn.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            assert cursor.fetchone()[0] == "wal"

"""Budgets of the import and of game creation: the request body, the number of events, the time the
engine may spend re-checking an imported log, and games created per client. Run with ``-s`` to see
what each formerly unbounded request costs now (time and peak Python memory, beside the bare view)."""
from __future__ import annotations

import copy

import pytest
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tracker.helpers import measured
from tests.tracker.test_transfer import HOST, new_game, row_counts
from tracker.core import limits, log, transfer
from tracker.models import Game

pytestmark = pytest.mark.django_db


QMG_FORM = {"players": 2, "default_seating": "on", "seat_germany": 1, "seat_united_kingdom": 2, "seat_japan": 1,
            "seat_soviet_union": 2, "seat_italy": 1, "seat_united_states": 2}


def _upload(data: bytes):
    return SimpleUploadedFile("game.json", data, "application/json")


def long_game(moves: int) -> Game:
    """A QMG game of ``moves`` real moves: whole turns of every country, round after round."""
    game = new_game(2)
    cycle = ({"type": "play_card", "card_type": "discard_unused"}, {"type": "end_play"}, {"type": "supply"},
             {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"})
    for i in range(moves):
        game.refresh_from_db()
        r = log.submit(game.pk, game.version, HOST, cycle[i % len(cycle)])
        if not r.applied:
            break
    game.refresh_from_db()
    return game


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    measured("bare view (baseline)", client.get, reverse("ping"))
    data = b" " * (12 * 1024 * 1024)
    r = measured("a 12 MB import upload", client.post, reverse("import_game"), {"file": _upload(data)})
    assert r.status_code == 413 and Game.objects.count() == 0
    assert "МБ" in r.content.decode() or "MB" in r.content.decode()
    # the limit is the import's: a file just under it reaches the import's own checks (400, not 413)
    r = client.post(reverse("import_game"), {"file": _upload(b"{" * (transfer.MAX_BYTES - 1))})
    assert r.status_code == 400
    assert limits.MAX_BODY_BYTES > transfer.MAX_BYTES


def test_an_import_with_more_events_than_the_limit_is_refused_before_the_replay(client):
    doc = transfer.export_game(new_game(2))
    create = doc["events"][0]
    move = {**create, "kind": "move", "command": {"type": "end_play"}}
    doc["events"] = [create] + [{**move, "seq": i} for i in range(2, transfer.MAX_EVENTS + 2)]
    doc["game"]["version"] = len(doc["events"])
    counts = row_counts()
    data = transfer.dumps(doc).encode()
    r = measured(f"an import of {transfer.MAX_EVENTS + 1} events ({len(data) // 1024} kB)",
                 client.post, reverse("import_game"), {"file": _upload(data)})
    assert r.status_code in (400, 413) and row_counts() == counts
    with pytest.raises(transfer.ImportError_, match=str(transfer.MAX_EVENTS)):
        measured(f"the same {transfer.MAX_EVENTS + 1} events, imported by the command line",
                 transfer.import_game, doc)
    assert row_counts() == counts


def test_the_replay_of_an_import_is_bounded_in_time(monkeypatch):
    game = long_game(60)
    doc = transfer.export_game(game)
    counts = row_counts()
    monkeypatch.setattr(transfer, "MAX_CHECK_SECONDS", -1.0)
    with translation.override("en"), pytest.raises(transfer.ImportError_, match="longer than"):
        transfer.import_game(copy.deepcopy(doc))
    assert row_counts() == counts
    monkeypatch.setattr(transfer, "MAX_CHECK_SECONDS", 5.0)
    assert transfer.import_game(doc).version == game.version


def test_a_long_legitimate_game_imports_and_undoes_cheaply(client):
    game = long_game(3000)
    data = transfer.dumps(transfer.export_game(game)).encode()
    game.delete()
    measured("bare view (baseline)", client.get, reverse("ping"))
    r = measured(f"import of a {len(data) // 1024} kB game of 3000 moves", client.post, reverse("import_game"),
                 {"file": _upload(data)})
    assert r.status_code == 302
    imported = Game.objects.get()
    r = measured("then an undo (replays the whole log)", client.post, reverse("undo", args=[imported.pk]),
                 {"version": imported.version})
    assert r.status_code == 302


def test_one_client_creating_a_hundred_games_gets_ten(settings, tmp_path):
    settings.CACHES = {**settings.CACHES, "limits": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path / "limits")}}
    caches["limits"].clear()
    settings.CREATION_LIMIT = (10, 60)
    client = Client()
    statuses = []

    def hundred():
        for i in range(100):
            statuses.append(client.post(reverse("home"), {**QMG_FORM, "name": f"Вечер {i}"}).status_code)
        return client.get(reverse("ping"))

    measured("100 new games posted by one client", hundred)
    assert statuses.count(302) == 10 and statuses.count(429) == 90
    assert Game.objects.count() == 10

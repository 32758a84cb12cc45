"""Imports never stall the tables: a file is checked in memory (its shape, the replay of its log, the
comparison with its state) before anything is written, and only a file that passes is written, in one
short transaction; refused files count against the creation budget.

The hostile file of these tests is the one that used to stall every table: 10,000 events (a move undone and
redone again and again, ~2 MB) whose state is slightly wrong. Three of them are posted at once to the
production ASGI app (uvicorn in a thread, SQLite in WAL mode as in production) while a phone of another game
makes its moves: every move is applied with a 200, and its answer times are printed beside the same moves'
times without the imports, measured in the same run (``pytest -s``; no timed assertion: the machines are
shared)."""
from __future__ import annotations

import copy
import http.client
import json
import statistics
import threading
import time
import urllib.parse

import pytest
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.asgi_server import AsgiServer
from tests.tracker.test_transfer import HOST, new_game, row_counts
from tracker.core import log, transfer
from tracker.models import Event, Game

HTMX = {"HX-Request": "true"}
TURN = ({"command": "play_card", "card_type": "discard_unused"}, {"command": "end_play"}, {"command": "supply"},
        {"command": "score"}, {"command": "discard", "n": "0"}, {"command": "draw"})


def hostile_doc(events: int = transfer.MAX_EVENTS) -> dict:
    """An export whose log is one move undone and redone until it holds ``events`` events, and whose state
    is one victory point off what that log gives."""
    game = new_game(2)
    assert log.submit(game.pk, 1, HOST, {"type": "play_card", "card_type": "build_army",
                                         "space": "eastern_europe"}).applied
    game.refresh_from_db()
    doc = transfer.export_game(game)
    move = doc["events"][-1]
    undo = {**move, "kind": "undo", "target": move["seq"], "command": {}, "summary_ru": "Отменено: армия.",
            "summary_en": "Undone: an army."}
    redo = {**undo, "kind": "redo", "summary_ru": "Возвращено: армия.", "summary_en": "Redone: an army."}
    doc["events"] += [{**(undo if i % 2 else redo), "seq": seq} for i, seq in
                      enumerate(range(len(doc["events"]) + 1, events + 1), 1)]
    doc["game"]["version"] = len(doc["events"])
    doc["state"]["vp"]["axis"] += 1  # slightly wrong
    game.delete()
    return doc


@pytest.fixture(scope="module")
def hostile_bytes(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        return json.dumps(hostile_doc(), ensure_ascii=False, separators=(",", ":")).encode()


def upload(data: bytes) -> dict:
    return {"file": SimpleUploadedFile("game.json", data, "application/json")}


@pytest.mark.django_db
def test_a_refused_file_is_checked_without_a_single_write(hostile_bytes):
    counts = row_counts()
    with CaptureQueriesContext(connection) as queries:
        response = Client().post(reverse("import_game"), upload(hostile_bytes))
    assert response.status_code == 400
    writes = [q["sql"][:80] for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == [] and row_counts() == counts


@pytest.mark.django_db
def test_an_accepted_file_is_written_in_one_transaction_with_its_recorded_times():
    game = new_game(2)
    for step in TURN:
        command = {"type": step["command"], **{k: int(v) if k == "n" else v for k, v in step.items() if k != "command"}}
        game.refresh_from_db()
        assert log.submit(game.pk, game.version, HOST, command).applied
    doc = transfer.export_game(game)
    doc["game"]["created_at"] = "2024-03-01T18:00:00+00:00"
    for i, e in enumerate(doc["events"]):
        e["created_at"] = f"2024-03-01T18:{i:02d}:30+00:00"
    with CaptureQueriesContext(connection) as queries:
        imported = transfer.import_game(copy.deepcopy(doc))
    sql = [q["sql"] for q in queries]
    assert not any("created_at" in q and q.lstrip().upper().startswith("UPDATE") for q in sql)  # given when made
    event_inserts = [q for q in sql if q.lstrip().upper().startswith("INSERT") and "tracker_event" in q]
    assert len(event_inserts) == 1  # the log in bulk (a statement per thousand events), not a row at a time
    imported = Game.objects.get(pk=imported.pk)
    assert imported.created_at.isoformat() == "2024-03-01T18:00:00+00:00"
    assert [e.created_at.isoformat() for e in imported.events.order_by("seq")] == \
        [e["created_at"] for e in doc["events"]]
    assert transfer.export_game(imported)["state"] == doc["state"]


@pytest.mark.django_db
def test_refused_files_count_against_the_creation_budget(settings, tmp_path, hostile_bytes):
    settings.CACHES = {**settings.CACHES, "limits": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path / "limits")}}
    caches["limits"].clear()
    settings.CREATION_LIMIT = (3, 60)
    client = Client()
    statuses = [client.post(reverse("import_game"), upload(hostile_bytes)).status_code for _i in range(5)]
    assert statuses == [400, 400, 400, 429, 429]
    # a form refused before it reaches the import's checks still costs nothing elsewhere: a new game is its own
    caches["limits"].clear()
    assert client.post(reverse("home"), {"players": "x"}).status_code in (200, 400)
    assert client.post(reverse("home"), {"players": "x"}).status_code in (200, 400)
    assert client.post(reverse("home"), {"players": "x"}).status_code in (200, 400)
    assert client.post(reverse("home"), {"players": "x"}).status_code in (200, 400)


# --- three hostile imports at once, while another table plays ----------------------------------

class Phone:
    """The host's phone on the real server (it may act for every country): its session, its taps as htmx posts."""

    def __init__(self, port: int, game: Game):
        joined = Client()
        joined.get(reverse("host_link", args=[game.host_token]))
        joined.get(reverse("game", args=[game.pk]))  # the page sets the CSRF cookie
        self.cookie = "; ".join(f"{k}={m.value}" for k, m in joined.cookies.items())
        self.csrf = joined.cookies["csrftoken"].value if "csrftoken" in joined.cookies else ""
        self.port, self.game = port, game
        self.taps = 0

    def tap(self, version: int, fields: dict) -> tuple[int, float]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        body = urllib.parse.urlencode({**fields, "version": version})
        t0 = time.perf_counter()
        conn.request("POST", reverse("command", args=[self.game.pk]), body, {
            **HTMX, "Cookie": self.cookie, "X-CSRFToken": self.csrf, "Referer": f"http://127.0.0.1:{self.port}/",
            "Content-Type": "application/x-www-form-urlencoded"})
        status = conn.getresponse().status
        took = time.perf_counter() - t0
        conn.close()
        return status, took


def post_file(port: int, data: bytes) -> int:
    """The import form posted by a browser of its own (its CSRF cookie from the form's page)."""
    browser = Client()
    browser.get(reverse("import_game"))
    token = browser.cookies["csrftoken"].value
    boundary = "----hostile-import"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n{token}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"game.json\"\r\n"
            f"Content-Type: application/json\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("POST", reverse("import_game"), body, {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                                        "Cookie": f"csrftoken={token}"})
    status = conn.getresponse().status
    conn.close()
    return status


def play(phone: Phone, moves: int) -> list[tuple[int, float]]:
    """``moves`` taps of whole turns, each country's in turn; each answer's status and time."""
    answers = []
    for _i in range(moves):
        version = Game.objects.get(pk=phone.game.pk).version
        status, took = phone.tap(version, TURN[phone.taps % len(TURN)])
        phone.taps += 1
        answers.append((status, took))
        if status != 200:
            break
    return answers


def summary(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return (f"median {statistics.median(ms):.0f} ms, p90 {ms[int(len(ms) * 0.9) - 1]:.0f} ms, "
            f"max {ms[-1]:.0f} ms ({len(ms)} moves)")


@pytest.mark.django_db(transaction=True)
def test_three_hostile_imports_at_once_never_stall_another_table(real_db, hostile_bytes):
    server = AsgiServer().start()
    try:
        game = new_game(2)
        phone = Phone(server.port, game)
        baseline = play(phone, 12)
        assert [s for s, _t in baseline] == [200] * 12
        statuses, started = [], threading.Barrier(4)

        def hostile():
            started.wait()
            statuses.append(post_file(server.port, hostile_bytes))

        threads = [threading.Thread(target=hostile) for _i in range(3)]
        for t in threads:
            t.start()
        started.wait()
        t0 = time.perf_counter()
        during = []
        while any(t.is_alive() for t in threads) or len(during) < 6:
            during += play(phone, 1)
            assert during[-1][0] == 200, during[-1]
        imports_took = time.perf_counter() - t0
        for t in threads:
            t.join()
        after = play(phone, 6)
    finally:
        server.stop()
    print(f"\n  three hostile imports ({len(hostile_bytes) / 2 ** 20:.1f} MB, {transfer.MAX_EVENTS} events each) at "
          f"once: answered {sorted(statuses)} within {imports_took:.1f} s")
    print(f"  another table's moves: before the imports {summary([t for _s, t in baseline])}; during them "
          f"{summary([t for _s, t in during])}; after {summary([t for _s, t in after])}")
    assert sorted(statuses) == [400, 400, 400]
    assert all(s == 200 for s, _t in baseline + during + after)
    assert Game.objects.count() == 1  # nothing of the refused files was kept
    assert Event.objects.filter(game=game).count() == 1 + len(baseline + during + after)  # every move applied

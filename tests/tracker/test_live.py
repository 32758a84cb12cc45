"""The live table: every committed move, undo and redo reaches every open page of the game
through its server-sent-events stream, the stream carries nothing but version numbers, it is refused
like the page, bounded per client, survives drops and restarts, and a dead client blocks nobody.

The streams are read from the production ASGI app served by uvicorn in a thread (tests/asgi_server.py)."""
from __future__ import annotations

import asyncio
import re
import socket
import threading
import time

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.seating import DEFAULT_SEATING
from tests.asgi_server import AsgiServer
from tracker.core import live
from tracker.core.live import HUB, Hub
from tracker.qmg.views import create_game

from .test_cards_views import pass_turn
from .test_qmg_table_setup import _japan_with_two_face_down, seat
from .test_views import post

CATALOGUE = default_catalogue()
LINE = re.compile(r"^(retry: \d+|event: (ping|version)|id: \d+|data: \d+|)$")  # everything a stream may say


@pytest.fixture
def server(real_db, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.5
    settings.LIVE_WATCH_SECONDS = 0.05
    srv = AsgiServer().start()
    yield srv
    srv.stop()


@pytest.fixture
def game6(real_db):
    names = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]
    return create_game("Шесть", list(zip(names, DEFAULT_SEATING[6])), {})


def browser(link: str) -> Client:
    c = Client()
    c.get(link)
    return c


def cookie(client: Client) -> str:
    return "; ".join(f"{k}={m.value}" for k, m in client.cookies.items())


class Stream:
    """One EventSource, as raw as a browser holds it: every byte it receives is kept."""

    def __init__(self, server, game, client=None, known=None, last_id=None):
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        self.game_id = game.pk
        path = reverse("stream", args=[game.pk]) + (f"?v={known}" if known is not None else "")
        head = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream"]
        if client is not None:
            head.append(f"Cookie: {cookie(client)}")
        if last_id is not None:
            head.append(f"Last-Event-ID: {last_id}")
        self.sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        self.raw = b""
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                with self.lock:
                    self.raw += chunk
        except OSError:
            return

    @property
    def status(self) -> int:
        head = self.raw.split(b"\r\n", 1)[0].decode()
        return int(head.split()[1]) if head.startswith("HTTP/") else 0

    @property
    def body(self) -> str:
        with self.lock:
            raw = self.raw
        head, _sep, body = raw.partition(b"\r\n\r\n")
        if b"chunked" in head.lower():  # undo the chunked transfer coding
            out, rest = b"", body
            while rest:
                size, _crlf, rest = rest.partition(b"\r\n")
                if not size.strip():
                    break
                n = int(size, 16)
                out, rest = out + rest[:n], rest[n + 2:]
            body = out
        return body.decode("utf-8", "replace")

    def versions(self) -> list[int]:
        return [int(m) for m in re.findall(r"event: version\ndata: (\d+)", self.body)]

    def wait_for(self, predicate, timeout=3.0) -> float:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < timeout:
            if predicate(self):
                return time.perf_counter() - t0
            time.sleep(0.005)
        raise AssertionError(f"not heard within {timeout} s: {self.body!r}")

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def in_own_thread(work):
    """``work()`` in a thread of its own: the browser tests leave an event loop running in the main thread,
    where neither asyncio.run() nor Django's async-to-sync bridge may be used."""
    out, errors = [], []

    def run():
        try:
            out.append(work())
        except BaseException as exc:  # noqa: BLE001 - raised again below
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    if errors:
        raise errors[0]
    return out[0]


def version_of(game) -> int:
    game.refresh_from_db()
    return game.version


# --- access and bounds --------------------------------------------------------------------------

def test_a_stream_is_refused_like_the_page(server, game6, settings):
    nobody = Stream(server, game6)
    nobody.wait_for(lambda s: s.status)
    assert nobody.status == 403
    other = create_game("Другая", list(zip(["a"] * 6, DEFAULT_SEATING[6])), {})
    stranger = browser(reverse("watch", args=[other.spectator_token]))  # a link to another game
    assert Stream(server, game6, stranger).wait_for(lambda s: s.status) is not None
    assert Stream(server, game6, stranger).status in (0, 403)
    gone = Stream(server, type(game6)(pk=99999), stranger)
    gone.wait_for(lambda s: s.status)
    assert gone.status == 404
    # the page answers the same to the same browsers
    assert Client().get(reverse("game", args=[game6.pk])).status_code == 403


def test_open_streams_per_client_are_bounded_and_a_closed_one_frees_its_place(server, game6, settings):
    settings.LIVE_STREAMS_PER_CLIENT = 3
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    streams = [Stream(server, game6, watcher) for _ in range(3)]
    for s in streams:
        s.wait_for(lambda s: "event: ping" in s.body)
    fourth = Stream(server, game6, watcher)
    fourth.wait_for(lambda s: s.status)
    assert fourth.status == 429 and "retry-after" in fourth.raw.decode().lower()
    streams[0].close()
    deadline = time.monotonic() + 3
    while HUB.streams(game6.pk) > 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    again = Stream(server, game6, watcher)
    again.wait_for(lambda s: "event: ping" in s.body)
    assert again.status == 200


def test_a_wsgi_server_answers_no_stream_and_the_page_polls(game6):
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    r = in_own_thread(lambda: watcher.get(reverse("stream", args=[game6.pk])))
    assert r.status_code == 204
    page = watcher.get(reverse("game", args=[game6.pk])).content.decode()
    assert 'sse-connect="/g/%d/stream/?v=' % game6.pk in page and "every 2s" in page


# --- delivery -----------------------------------------------------------------------------------

def test_a_move_undo_and_redo_reach_every_open_page_at_once(server, game6):
    germany = seat(Client(), game6, 1)
    viewers = [browser(reverse("watch", args=[game6.spectator_token])), seat(Client(), game6, 2), seat(Client(), game6, 6)]
    v = version_of(game6)
    streams = [Stream(server, game6, c, known=v) for c in viewers]
    for s in streams:
        s.wait_for(lambda s: "event: ping" in s.body)
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    lags = [s.wait_for(lambda s: v + 1 in s.versions(), timeout=1.0) for s in streams]
    assert post(germany, game6, "undo").status_code == 200
    for s in streams:
        s.wait_for(lambda s: v + 2 in s.versions(), timeout=1.0)
    assert post(germany, game6, "redo").status_code == 200
    for s in streams:
        s.wait_for(lambda s: v + 3 in s.versions(), timeout=1.0)
        assert s.versions() == [v + 1, v + 2, v + 3]  # each once, in order
    print(f"\n  a move heard by 3 streams after {max(lags) * 1000:.1f} ms at most")


def test_another_process_s_move_is_found_by_the_watcher(server, game6, monkeypatch):
    """A move written by another worker process or server is not published to this process: the
    watcher (one query for all the games streamed here) finds it."""
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    v = version_of(game6)
    s = Stream(server, game6, watcher, known=v)
    s.wait_for(lambda s: "event: ping" in s.body)
    monkeypatch.setattr(HUB, "publish", lambda *a: None)  # as if the move were made elsewhere
    germany = seat(Client(), game6, 1)
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    s.wait_for(lambda s: v + 1 in s.versions(), timeout=12)  # 0.05 s here; 10 s safety with PostgreSQL NOTIFY


def test_a_reconnecting_page_hears_what_it_missed_and_nothing_twice(server, game6):
    """A dropped connection or a restarted server loses nothing: the browser reconnects with the last
    id it heard (Last-Event-ID) and is told the current version at once."""
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    v = version_of(game6)
    germany = seat(Client(), game6, 1)
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    assert post(germany, game6, "end_play").status_code == 200  # two moves while this page was away
    back = Stream(server, game6, watcher, known=1, last_id=v)
    back.wait_for(lambda s: s.versions())
    assert back.versions() == [v + 2]
    current = Stream(server, game6, watcher, known=v + 2)  # up to date: nothing but pings
    current.wait_for(lambda s: s.body.count("event: ping") >= 2)
    assert current.versions() == []


def test_a_restarted_server_resyncs_every_page(real_db, game6, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.5
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    v = version_of(game6)
    first = AsgiServer().start()
    s = Stream(first, game6, watcher, known=v)
    s.wait_for(lambda s: "event: ping" in s.body)
    first.stop()  # the server goes away with the stream open
    germany = seat(Client(), game6, 1)
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    second = AsgiServer().start()
    try:
        again = Stream(second, game6, watcher, known=v, last_id=v)  # what EventSource does by itself
        again.wait_for(lambda s: v + 1 in s.versions())
    finally:
        second.stop()


def test_a_client_that_stopped_reading_blocks_nobody(server, game6):
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    v = version_of(game6)
    dead = socket.create_connection(("127.0.0.1", server.port))
    dead.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    dead.sendall((f"GET {reverse('stream', args=[game6.pk])}?v=0 HTTP/1.1\r\nHost: x\r\n"
                  f"Cookie: {cookie(watcher)}\r\n\r\n").encode())  # and never reads a byte
    alive = Stream(server, game6, watcher, known=v)
    alive.wait_for(lambda s: "event: ping" in s.body)
    germany = seat(Client(), game6, 1)
    for _ in range(3):
        assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
        assert post(germany, game6, "undo").status_code == 200
    alive.wait_for(lambda s: v + 6 in s.versions(), timeout=1.0)
    dead.close()


def test_the_hub_never_waits_for_a_stream():
    """Fan-out sets a flag per stream and returns: 2,000 streams of one game that nobody reads are
    all offered the new version at once, and a stream that never woke has only the newest number."""
    async def scenario():
        hub = Hub()
        subs = [hub.subscribe(7, 1) for _ in range(2000)]
        t0 = time.perf_counter()
        for version in range(2, 12):
            hub.deliver(7, version)
        spent = time.perf_counter() - t0
        assert all(s.latest == 11 and s.wake.is_set() for s in subs)
        for s in subs:
            hub.unsubscribe(s)
        assert hub.streams() == 0 and not hub.versions
        hub.watcher.cancel()
        return spent

    spent = in_own_thread(lambda: asyncio.run(scenario()))
    print(f"\n  10 versions offered to 2,000 idle streams: {spent * 1000:.1f} ms")


def test_publish_from_a_worker_thread_reaches_the_loop():
    async def scenario():
        hub = Hub()
        sub = hub.subscribe(3, 5)
        threading.Thread(target=hub.publish, args=(3, 6)).start()
        await asyncio.wait_for(sub.wake.wait(), 2)
        hub.watcher.cancel()
        return sub.latest

    assert in_own_thread(lambda: asyncio.run(scenario())) == 6


# --- hidden information -------------------------------------------------------------------------

def _secret_words(*card_ids) -> list[str]:
    words = []
    for cid in card_ids:
        card = CATALOGUE[cid]
        words += [cid, card.name_ru, card.name_en]
    return words


def test_streams_carry_no_hidden_card_through_preparation_lend_lease_magic_and_undo(server, real_db, settings):
    """Spectator, host and another seat hold streams for a whole sequence with face-down cards
    («Подготовка к войне», a response put face down, Lend Lease's face-down play, Magic discarding one
    unseen, undo and redo): every line they receive is a version number or a ping, and no card id or
    name appears. (Their refreshed pages are rendered for them alone: tests/tracker/test_permissions.py.)"""
    client = Client()
    streams = []

    def open_streams(game):
        host = browser(reverse("host_link", args=[game.host_token]))
        watcher = browser(reverse("watch", args=[game.spectator_token]))
        us = seat(Client(), game, 6)  # a seat that holds none of the face-down cards
        streams.extend(Stream(server, game, c, known=1) for c in (host, watcher, us))

    game, japan = _japan_with_two_face_down(client, on_created=open_streams)
    us = seat(Client(), game, 6)
    assert post(us, game, "play_card", card="Мэджик", card_type="event").status_code == 200
    assert post(us, game, "card_step", country="united_states", action="discard_response",
                target_country="japan").status_code == 200
    assert post(us, game, "undo").status_code == 200
    assert post(us, game, "redo").status_code == 200
    # a second game: the UK's response put face down through Lend Lease, then undone
    other = create_game("Ленд-лиз", list(zip(["a", "b", "c", "d", "e", "f"], DEFAULT_SEATING[6])), {})
    open_streams(other)
    for n in (1, 2, 3, 4, 5):
        pass_turn(seat(Client(), other, n), other)
    us = seat(Client(), other, 6)
    assert post(us, other, "play_card", card="Ленд-лиз", card_type="event").status_code == 200
    uk = seat(Client(), other, 2)
    assert post(uk, other, "card_step", country="united_kingdom", action="play_from", card_type="response",
                card_id="uk_loyal_to_the_crown").status_code == 200
    assert post(uk, other, "undo").status_code == 200
    assert post(uk, other, "redo").status_code == 200
    finals = {game.pk: version_of(game), other.pk: version_of(other)}
    secrets = _secret_words("jpn_kamikaze", "jpn_truk", "uk_loyal_to_the_crown")
    assert len(streams) == 6
    for s in streams:
        s.wait_for(lambda s: finals[s.game_id] in s.versions(), timeout=3)
        body = s.body
        assert all(LINE.match(line) for line in body.split("\n")), body
        assert not any(w in body for w in secrets)
        assert s.versions() == sorted(set(s.versions()))  # never an older version after a newer one


def test_a_write_announces_its_version_once_after_the_commit(game6, db, django_capture_on_commit_callbacks,
                                                            monkeypatch):
    heard = []
    monkeypatch.setattr(HUB, "publish", lambda game_id, version: heard.append((game_id, version)))
    germany = seat(Client(), game6, 1)
    with django_capture_on_commit_callbacks(execute=True):
        post(germany, game6, "play_card", card_type="build_army", space="eastern_europe")
        post(germany, game6, "play_card", card_type="build_army", space="nowhere")  # refused: nothing announced
    assert heard == [(game6.pk, version_of(game6))]
    assert live.bus_name() in ("local", "postgres")


# --- the ASGI app (Django's own handler) -----------------------------------------------------------

def _signals_seen():
    from django.core import signals

    seen = []

    def started(**kwargs):
        seen.append(("started", threading.current_thread().name))

    def finished(**kwargs):
        seen.append(("finished", threading.current_thread().name))

    signals.request_started.connect(started, weak=False)
    signals.request_finished.connect(finished, weak=False)

    def disconnect():
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    return seen, disconnect


def test_a_plain_request_is_started_and_finished_once(server, game6):
    import http.client

    seen, disconnect = _signals_seen()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", reverse("ping"))
        response = conn.getresponse()
        assert response.status == 200 and response.read()
        conn.request("GET", "/no-such-page/")  # a 404 page, through the same path (no database: no connection left)
        response = conn.getresponse()
        assert response.status == 404 and "<html" in response.read().decode().lower()
        conn.close()
    finally:
        disconnect()
    pages = [(kind, thread) for kind, thread in seen if thread.startswith("WSGI")]  # (a stream closing elsewhere)
    # two requests, each started and finished once, in one thread of the page pool (the first one's close may
    # come after the second one has started: the answer is sent before the response is closed)
    assert sorted(kind for kind, _thread in pages) == ["finished", "finished", "started", "started"]
    for thread in {t for _kind, t in pages}:
        kinds = [kind for kind, t in pages if t == thread]
        assert kinds == ["started", "finished"] * (len(kinds) // 2), kinds


def test_a_stream_is_closed_only_when_it_ends(server, game6):
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    seen, disconnect = _signals_seen()
    try:
        stream = Stream(server, game6, watcher)
        stream.wait_for(lambda s: "event: ping" in s.body)
        assert [kind for kind, _thread in seen] == ["started"]  # open: its request is not finished
        stream.close()
        deadline = time.monotonic() + 5
        while len(seen) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        disconnect()
    assert [kind for kind, _thread in seen] == ["started", "finished"]

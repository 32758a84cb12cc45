#!/usr/bin/env python
"""Load benchmark of a game night: T tables × 6 phones against the production server.

    .venv/bin/python tests/load/loadtest.py [--short] [--tables T] [--seconds S] [--db sqlite|postgres]
        [--push | --poll] [--one-tap] [--servers 1|2] [--budget N] [--workers W] [--conn-max-age N]

What it does (a benchmark: it prints figures, it asserts nothing about time):

1. makes a throw-away database (a temp SQLite file, or a PostgreSQL database it creates and
   drops), runs ``manage.py migrate`` on it and starts the production server the README way,
   ``manage.py serve --no-prepare --bind 127.0.0.1:<free port>`` (gunicorn with uvicorn workers, its
   own process group, ``DJANGO_STREAMS_PER_CLIENT=0``: every phone of the benchmark is 127.0.0.1);
2. creates T games with 6 seats each through ``tracker.qmg.views.create_game`` (this process runs
   ``django.setup()`` against the same ``DATABASE_URL``);
3. every phone opens its seat's join link (a session cookie) and loads the game page (CSRF token);
   with ``--push`` (the default) it then opens the page's stream, ``GET /g/<pk>/stream/?v=<version>``;
4. game phase, S seconds; once every 10 s per table the phone of the active country makes the next
   legal move of the turn cycle (play an Event card, end the play step, supply, score, discard 0,
   draw; with ``--one-tap``: a card, then «Закончить ход»):
   ``--push``: each phone holds its server-sent-events stream, as the page does; a phone that hears
     ``event: version`` with N above the version it shows fetches the game partial (``GET /g/<pk>/``,
     ``HX-Request: true``), as htmx does on ``sse:version``. A phone whose stream has not been heard
     from for 40 s (app.js ``HEALTHY_MS``: dropped, refused) polls every 2 s until it is heard again.
     One reader thread (selectors/epoll, non-blocking sockets) reads every stream of the run and
     hands each announced version to its table's queue; the table's thread makes the refreshes, one
     after another, so the last of five phones waits for the four before it (the "sees the move"
     figure includes that; real phones refresh in parallel);
   ``--poll``: the old page without a stream: every phone polls ``/g/<pk>/poll/?v=<version>`` every
     2 s (htmx ``every 2s``); a 200 ("the game changed") makes it fetch the partial;
5. baseline phase: the same phones send ``GET /ping/`` (the smallest Django view) at the request
   rate the game phase achieved, on the same server(s) (the streams stay open, idle);
6. with ``--servers 2``: the creation budget check (below);
7. stops the server(s) (each whole process group), removes the database and the Redis keys, always.

Measured: every request's latency (moves: POST until the answer), errors, stream connects and
reconnects, **another phone sees the move** (for every other phone of the table: from the
mover's answer, when the move is committed, until that phone's refresh answer with the new version
has arrived; p50/p95/p99, and how many moves a phone never saw before the table's next move), the
stream event delay alone (the mover's answer until that phone's stream said ``event: version``; it
may be negative: the server announces a move at its commit, before the mover's answer is written),
and the server's CPU seconds during the game phase (every process of its group) per move applied
and per request.

``--servers 2`` (needs ``--db postgres``): two app servers, each ``manage.py serve`` with its own
process group and port (``--workers`` each), on the one PostgreSQL database and one Redis
(``DJANGO_CACHE_URL``, DB 0 of ``--redis-url``, keys under a prefix of this run, removed at the end;
``tests/load/server_settings.py`` is the production settings with that prefix). Seats 1, 3, 5 of
every table use server A, seats 2, 4, 6 server B; a move goes through the active phone's server, so
"sees the move" is measured per pair: same server, and across servers (goal: p95 < 1 s; the bus is
PostgreSQL LISTEN/NOTIFY). Both servers run with ``DJANGO_CREATION_LIMIT=N`` (``--budget``, 6); the
benchmark's games are created in-process (not through the budget). A short final phase POSTs the
new-game form (``/``, with the CSRF token of a GET first) 2N times from one client address,
alternately to A and B: with one budget shared through Redis exactly N are created (302) and N
refused (429). Last, the two servers' gunicorn control sockets: each server has its own (named after
its bind), each answers for its own server (``show listeners``), and stopping A leaves B's working.

``--workers W`` is passed to each ``serve``; ``--conn-max-age N`` sets the servers'
``DJANGO_CONN_MAX_AGE`` (default: unset, the production default). When a server logged errors, its
last error lines are printed.

One OS thread per table drives its 6 phones (one keep-alive ``http.client`` connection each)
on its own clock. All traffic goes to 127.0.0.1. Every loop is bounded by count and time, and a
watchdog ends the run (servers included) if it overruns. The last line of the output is a JSON
object with every figure.
"""
from __future__ import annotations

import argparse
import errno
import http.client
import json
import os
import queue
import random
import re
import resource
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
HOST = "127.0.0.1"

POLL_EVERY = 2.0  # seconds, the htmx trigger of templates/core/_shell.html
MOVE_EVERY = 10.0  # seconds, one move per table
REQUEST_TIMEOUT = 15.0  # seconds, every socket operation
STREAM_HEALTHY = 40.0  # seconds: app.js HEALTHY_MS; a stream not heard from for longer lets the page poll
STREAM_MAX_CONNECTS = 40  # per stream and run: a stream that keeps failing gives up (the phone polls)
HAND_SIZE = 7
GOAL_TABLES = 200
GOAL_MOVE_P95_MS = 150.0
GOAL_CROSS_P95_MS = 1000.0
LATE_MOVE_SECONDS = 2.0  # a move this close to the end of the phase is not counted as unseen
IDLE_SECONDS = 2.0  # before the game phase: the servers' CPU with the phones joined and nothing moving

# the turn cycle of the active country: one command per move
CYCLE = (("play_card", {"card_type": "event"}), ("end_play", {}), ("supply", {}), ("score", {}),
         ("discard", {"n": "0"}), ("draw", {}))
# --one-tap: the turn as the phone plays it now, a card then «Закончить ход» (the rest of the turn in one
# request, each step still its own event)
ONE_TAP_CYCLE = (("play_card", {"card_type": "event"}), ("finish_turn", {}))

EXPECTED = {"join": {302}, "page": {200}, "poll": {200, 204}, "refresh": {200}, "move": {200, 409},
            "ping": {200}, "stream": {200}, "home": {200}, "create": {302, 429}}
VERSION_RE = re.compile(rb"/poll/\?v=(\d+)")
CSRF_RE = re.compile(rb'"X-CSRFToken": "([^"]+)"')
FORM_CSRF_RE = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
# the new-game form of the QMG home page (tracker.qmg.forms.NewGameForm): 2 players, rulebook seating
NEW_GAME_FORM = {"players": "2", "default_seating": "on", "seat_germany": "1", "seat_united_kingdom": "2",
                 "seat_japan": "1", "seat_soviet_union": "2", "seat_italy": "1", "seat_united_states": "2"}


# ------------------------------------------------------------------------------------------
# Figures
# ------------------------------------------------------------------------------------------

def percentile(sorted_values: list[float], p: float) -> float | None:
    """Nearest-rank percentile of an already sorted list (None when empty)."""
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


@dataclass
class Stats:
    """What one thread measured; merged by the main thread at the end (no locks while running)."""

    latency: dict[str, list[float]] = field(default_factory=dict)  # kind -> ms
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)  # kind -> count
    error_samples: list[str] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)  # ms a scheduled request was sent late
    reconnects: int = 0
    stale: int = 0
    dropped: int = 0  # poll ticks skipped because the phone's thread was still busy
    # "another phone sees the move": see_same/see_cross (answer -> refresh with it), hear_same/hear_cross
    # (answer -> event: version); ms, not requests (not in ``latency``)
    marks: dict[str, list[float]] = field(default_factory=dict)
    unseen: int = 0  # (move, phone) pairs never refreshed to before the table's next move / the end
    unheard: int = 0  # (move, phone) pairs whose stream never announced the move (push)
    fallback_polls: int = 0  # polls of a push phone whose stream was not heard from

    def record(self, kind: str, status: int | None, ms: float, detail: str = "") -> bool:
        self.latency.setdefault(kind, []).append(ms)
        if status is not None:
            by = self.statuses.setdefault(kind, {})
            by[status] = by.get(status, 0) + 1
        ok = status in EXPECTED[kind]
        if not ok:
            self.errors[kind] = self.errors.get(kind, 0) + 1
            if len(self.error_samples) < 20:
                self.error_samples.append(f"{kind}: {status if status is not None else 'no answer'} {detail}"[:300])
        return ok

    def mark(self, kind: str, ms: float) -> None:
        self.marks.setdefault(kind, []).append(ms)

    def merge(self, other: "Stats") -> None:
        for k, v in other.latency.items():
            self.latency.setdefault(k, []).extend(v)
        for k, by in other.statuses.items():
            mine = self.statuses.setdefault(k, {})
            for s, n in by.items():
                mine[s] = mine.get(s, 0) + n
        for k, n in other.errors.items():
            self.errors[k] = self.errors.get(k, 0) + n
        self.error_samples.extend(other.error_samples[: max(0, 20 - len(self.error_samples))])
        self.lag.extend(other.lag)
        for k, v in other.marks.items():
            self.marks.setdefault(k, []).extend(v)
        self.reconnects += other.reconnects
        self.stale += other.stale
        self.dropped += other.dropped
        self.unseen += other.unseen
        self.unheard += other.unheard
        self.fallback_polls += other.fallback_polls


def summarize(values: list[float], seconds: float) -> dict:
    s = sorted(values)
    r = lambda x: None if x is None else round(x, 1)  # noqa: E731
    return {"count": len(s), "rate": round(len(s) / seconds, 1) if seconds > 0 else None,
            "p50_ms": r(percentile(s, 50)), "p95_ms": r(percentile(s, 95)), "p99_ms": r(percentile(s, 99)),
            "max_ms": r(s[-1] if s else None)}


# ------------------------------------------------------------------------------------------
# A phone: one keep-alive HTTP/1.1 connection, its cookies, its CSRF token, its known version
# ------------------------------------------------------------------------------------------

class Device:
    def __init__(self, port: int, stats: Stats, index: int = 0, server: int = 0):
        self.port = port
        self.stats = stats
        self.index = index  # seat index at its table
        self.server = server  # which server (0 = A, 1 = B) this phone uses
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.version = -1
        self.stream: SSEStream | None = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def stream_alive(self, now: float) -> bool:
        """As app.js decides whether the poll may stay quiet: the stream is open and was heard from lately."""
        s = self.stream
        return s is not None and s.open and now - s.heard < STREAM_HEALTHY

    def _idle_closed(self) -> bool:
        """The server closed the idle keep-alive connection (EOF is readable). ``poll``, not
        ``select``: with 1,200 streams the descriptors go beyond select's 1024."""
        sock = self.conn.sock if self.conn is not None else None
        if sock is None:
            return False
        try:
            p = select.poll()
            p.register(sock, select.POLLIN | select.POLLERR | select.POLLHUP)
            return bool(p.poll(0))
        except (OSError, ValueError):
            return True

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        """(status, headers, body, ms). A connection the server closed while idle is reopened,
        and a request that fails on a reused connection before any answer is sent once more,
        as browsers do."""
        h = {"User-Agent": "qmg-loadtest", "Accept": "text/html"}
        if self.cookies:
            h["Cookie"] = self.cookie_header()
        h.update(headers or {})
        started = time.perf_counter()
        for attempt in (0, 1):
            reused = self.conn is not None and self.conn.sock is not None
            if reused and self._idle_closed():
                self.close()
                self.stats.reconnects += 1
                reused = False
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
            try:
                self.conn.request(method, path, body=body, headers=h)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    ConnectionAbortedError):
                self.close()
                if attempt == 0 and reused:
                    self.stats.reconnects += 1
                    continue
                raise
            except Exception:
                self.close()
                raise
            if response.will_close:
                self.close()
            for raw in response.headers.get_all("Set-Cookie") or ():
                name, _, rest = raw.partition("=")
                value = rest.split(";", 1)[0]
                lowered = raw.lower()
                if not value or "max-age=0" in lowered or "1970" in lowered:
                    self.cookies.pop(name.strip(), None)
                else:
                    self.cookies[name.strip()] = value
            return response.status, response.headers, data, (time.perf_counter() - started) * 1000.0
        raise AssertionError("unreachable")

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def timed(self, kind: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        """A request recorded under ``kind``; (status or None, body)."""
        started = time.perf_counter()
        try:
            status, _, data, ms = self.request(method, path, body, headers)
        except Exception as exc:  # timeouts, refused connections: errors, never crashes
            self.stats.record(kind, None, (time.perf_counter() - started) * 1000.0, f"{type(exc).__name__}: {exc}")
            return None, b""
        detail = "" if status in EXPECTED[kind] else data[:200].decode("utf-8", "replace").replace("\n", " ")
        self.stats.record(kind, status, ms, detail)
        return status, data

    def learn_version(self, data: bytes) -> None:
        m = VERSION_RE.search(data)
        if m:
            self.version = int(m.group(1))


HTMX = {"HX-Request": "true", "HX-Target": "game"}


# ------------------------------------------------------------------------------------------
# The streams: one reader thread for every phone's EventSource of the run
# ------------------------------------------------------------------------------------------

class SSEStream:
    """One phone's EventSource: a non-blocking socket read by the ``StreamReader``. Like a browser
    it reconnects after the server's ``retry:`` delay and sends the last event id it heard."""

    def __init__(self, inbox: queue.SimpleQueue, device: Device, path: str, cookie: str):
        self.inbox = inbox  # the table's queue: ("version", phone index, N, time heard)
        self.device = device
        self.port = device.port
        self.path = path
        self.cookie = cookie
        self.sock: socket.socket | None = None
        self.state = "idle"  # idle | connecting | head | body | gone
        self.out = b""
        self.head = b""
        self.buf = b""  # decoded body bytes not yet split into events
        self.chunked = False
        self.data_left = 0
        self.crlf_left = 0
        self.size_line = b""
        self.last_id: str | None = None
        self.retry = 1.0
        self.sent_at = 0.0
        self.since = 0.0
        self.heard = 0.0
        self.open = False  # answered 200 and said something since the last (re)connect
        self.ever_open = False
        self.reconnect_at: float | None = None
        self.connects = 0


class StreamReader(threading.Thread):
    """Every stream of the run in one thread: a selector over non-blocking sockets."""

    def __init__(self, abort: threading.Event, limit_seconds: float):
        super().__init__(daemon=True, name="streams")
        self.abort = abort
        self.limit = limit_seconds
        self.sel = selectors.DefaultSelector()
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_r.setblocking(False)
        self.wake_w.setblocking(False)
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.streams: list[SSEStream] = []
        self.stopping = threading.Event()
        self.stats = Stats()  # written by this thread only; read after join()
        self.counts = {"connects": 0, "reconnects": 0, "ended": 0, "failed": 0, "versions": 0, "pings": 0,
                       "gave_up": 0}
        self.first_open_ms: list[float] = []  # connect until the first event, first connect of each stream
        self.opened = 0  # streams that have been open at least once

    # --- called from other threads -------------------------------------------------------
    def add(self, stream: SSEStream) -> None:
        self.inbox.put(stream)
        self._wake()

    def stop(self, timeout: float = 10.0) -> None:
        self.stopping.set()
        self._wake()
        self.join(timeout)

    def snapshot(self) -> dict:
        return dict(self.counts)

    def _wake(self) -> None:
        try:
            self.wake_w.send(b"x")
        except OSError:
            pass

    # --- the loop --------------------------------------------------------------------------
    def run(self) -> None:
        self.sel.register(self.wake_r, selectors.EVENT_READ, None)
        deadline = time.perf_counter() + self.limit
        next_check = 0.0
        try:
            for _ in range(int(self.limit * 20000) + 1000):  # bounded in count as well as in time
                if self.stopping.is_set() or self.abort.is_set() or time.perf_counter() > deadline:
                    break
                for key, mask in self.sel.select(0.2):
                    if key.data is None:
                        try:
                            while self.wake_r.recv(4096):
                                pass
                        except (BlockingIOError, OSError):
                            pass
                        continue
                    self._ready(key.data, mask)
                now = time.perf_counter()
                while True:
                    try:
                        s = self.inbox.get_nowait()
                    except queue.Empty:
                        break
                    self.streams.append(s)
                    self._connect(s, now)
                if now >= next_check:
                    self._check(now)
                    next_check = now + 0.25
        except Exception as exc:  # a bug here must show up as an error, not hang the run
            self.stats.errors["client"] = self.stats.errors.get("client", 0) + 1
            self.stats.error_samples.append(f"stream reader: {type(exc).__name__}: {exc}")
        finally:
            for s in self.streams:
                self._close(s)
                s.state = "gone"
            self.sel.close()
            self.wake_r.close()
            self.wake_w.close()

    def _connect(self, s: SSEStream, now: float) -> None:
        if s.connects >= STREAM_MAX_CONNECTS:
            s.state = "gone"
            self.counts["gave_up"] += 1
            return
        s.connects += 1
        self.counts["reconnects" if s.connects > 1 else "connects"] += 1
        lines = [f"GET {s.path} HTTP/1.1", f"Host: {HOST}:{s.port}", "User-Agent: qmg-loadtest",
                 "Accept: text/event-stream", "Cache-Control: no-cache", f"Cookie: {s.cookie}"]
        if s.last_id is not None:
            lines.append(f"Last-Event-ID: {s.last_id}")
        s.out = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        s.head = s.buf = s.size_line = b""
        s.chunked, s.data_left, s.crlf_left = False, 0, 0
        s.reconnect_at = None
        s.sent_at = s.since = now
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.sock = sock
        err = sock.connect_ex((HOST, s.port))
        if err not in (0, errno.EINPROGRESS):
            self._fail(s, now, f"connect: {os.strerror(err)}")
            return
        s.state = "connecting"
        self.sel.register(sock, selectors.EVENT_WRITE, s)

    def _close(self, s: SSEStream) -> None:
        if s.sock is not None:
            try:
                self.sel.unregister(s.sock)
            except (KeyError, ValueError, OSError):
                pass
            s.sock.close()
            s.sock = None
        s.open = False

    def _again(self, s: SSEStream, now: float, delay: float) -> None:
        self._close(s)
        s.state = "idle"
        s.reconnect_at = None if self.stopping.is_set() else now + delay

    def _fail(self, s: SSEStream, now: float, detail: str, status: int | None = None) -> None:
        self.counts["failed"] += 1
        self.stats.record("stream", status, (now - s.sent_at) * 1000.0, detail)
        self._again(s, now, s.retry)

    def _ready(self, s: SSEStream, mask: int) -> None:
        now = time.perf_counter()
        if s.state == "connecting":
            if not mask & selectors.EVENT_WRITE:
                return
            err = s.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                self._fail(s, now, f"connect: {os.strerror(err)}")
                return
            try:
                n = s.sock.send(s.out)
            except BlockingIOError:
                return
            except OSError as exc:
                self._fail(s, now, f"send: {exc}")
                return
            s.out = s.out[n:]
            if not s.out:
                s.state, s.since = "head", now
                self.sel.modify(s.sock, selectors.EVENT_READ, s)
            return
        if not mask & selectors.EVENT_READ:
            return
        for _ in range(8):
            try:
                data = s.sock.recv(65536)
            except BlockingIOError:
                return
            except OSError as exc:
                self._fail(s, now, f"recv: {exc}")
                return
            if not data:
                if s.state == "body":
                    self.counts["ended"] += 1  # the server ended the stream (its lifetime, a restart)
                    self._again(s, now, s.retry)
                else:
                    self._fail(s, now, "closed before an answer")
                return
            self._feed(s, data, now)
            if s.sock is None or len(data) < 65536:
                return

    def _feed(self, s: SSEStream, data: bytes, now: float) -> None:
        if s.state == "head":
            s.head += data
            i = s.head.find(b"\r\n\r\n")
            if i < 0:
                if len(s.head) > 65536:
                    self._fail(s, now, "answer head too long")
                return
            head, data = s.head[:i].decode("latin-1"), s.head[i + 4:]
            s.head = b""
            status_line, *header_lines = head.split("\r\n")
            parts = status_line.split(" ", 2)
            status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
            headers = {}
            for line in header_lines:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
            if status != 200:
                retry_after = headers.get("retry-after", "")
                self.counts["failed"] += 1
                self.stats.record("stream", status, (now - s.sent_at) * 1000.0, status_line)
                self._again(s, now, max(s.retry, float(retry_after) if retry_after.isdigit() else 0.0))
                return
            self.stats.record("stream", 200, (now - s.sent_at) * 1000.0)
            s.chunked = "chunked" in headers.get("transfer-encoding", "").lower()
            s.state = "body"
            if not data:
                return
        ended = False
        if s.chunked:
            data, ended = self._dechunk(s, data)
        s.buf += data.replace(b"\r\n", b"\n")
        for _ in range(10000):
            i = s.buf.find(b"\n\n")
            if i < 0:
                break
            block, s.buf = s.buf[:i], s.buf[i + 2:]
            self._event(s, block, now)
        if ended:
            self.counts["ended"] += 1
            self._again(s, now, s.retry)

    @staticmethod
    def _dechunk(s: SSEStream, data: bytes) -> tuple[bytes, bool]:
        """Transfer-Encoding: chunked, incrementally; (payload, the last chunk came)."""
        out = []
        for _ in range(100000):
            if not data:
                break
            if s.data_left:
                piece, data = data[:s.data_left], data[s.data_left:]
                out.append(piece)
                s.data_left -= len(piece)
                if not s.data_left:
                    s.crlf_left = 2
            elif s.crlf_left:
                k = min(s.crlf_left, len(data))
                data, s.crlf_left = data[k:], s.crlf_left - k
            else:
                s.size_line += data
                i = s.size_line.find(b"\r\n")
                if i < 0:
                    data = b""
                    break
                size = int(s.size_line[:i].split(b";")[0] or b"0", 16)
                data, s.size_line = s.size_line[i + 2:], b""
                if size == 0:
                    return b"".join(out), True
                s.data_left = size
        return b"".join(out), False

    def _event(self, s: SSEStream, block: bytes, now: float) -> None:
        fields = {}
        for line in block.split(b"\n"):
            if not line or line.startswith(b":"):
                continue
            name, _, value = line.partition(b":")
            fields[name] = value[1:] if value.startswith(b" ") else value
        if b"retry" in fields and fields[b"retry"].isdigit():
            s.retry = int(fields[b"retry"]) / 1000.0
        if b"id" in fields:
            s.last_id = fields[b"id"].decode("latin-1")
        if not s.open:
            s.open = True
            if not s.ever_open:
                s.ever_open = True
                self.opened += 1
                self.first_open_ms.append((now - s.sent_at) * 1000.0)
        kind = fields.get(b"event")
        if kind == b"version" and fields.get(b"data", b"").isdigit():
            s.heard = now
            self.counts["versions"] += 1
            s.inbox.put(("version", s.device.index, int(fields[b"data"]), now))
        elif kind == b"ping":
            s.heard = now
            self.counts["pings"] += 1
        elif not s.heard:
            s.heard = now  # the first block (retry:) of a fresh stream

    def _check(self, now: float) -> None:
        for s in self.streams:
            if s.state in ("connecting", "head") and now - s.since > REQUEST_TIMEOUT:
                self._fail(s, now, f"no answer within {REQUEST_TIMEOUT:.0f} s")
            elif s.state == "idle" and s.reconnect_at is not None and now >= s.reconnect_at \
                    and not self.stopping.is_set():
                self._connect(s, now)


# ------------------------------------------------------------------------------------------
# One table: 6 phones and the turn cycle, driven by one thread on its own clock
# ------------------------------------------------------------------------------------------

@dataclass
class TableSpec:
    pk: int
    seats: list[tuple[str, list[str]]]  # (join token, countries) per seat
    cards: dict[str, tuple[int, int]]  # country -> (deck, hand) at the start
    turn_order: list[str]


@dataclass
class MoveMark:
    """A move applied: who has yet to see it (refresh) and to hear of it (stream event)."""

    before: int  # the version the mover sent
    after: int  # the version of its answer
    at: float  # perf_counter when the answer had arrived
    server: int  # the mover's server
    to_see: set[int]
    to_hear: set[int]


class Phase:
    """A start signal with parameters, set by the main thread."""

    def __init__(self):
        self.event = threading.Event()
        self.t0 = 0.0
        self.seconds = 0.0
        self.interval = POLL_EVERY

    def start(self, t0: float, seconds: float, interval: float = POLL_EVERY) -> None:
        self.t0, self.seconds, self.interval = t0, seconds, interval
        self.event.set()


def first_move_window(seconds: float) -> float:
    """The first move of a table comes within this many seconds: MOVE_EVERY, or less in a phase
    shorter than that (a --short run), so that every table moves and its phones can see it."""
    return min(MOVE_EVERY, max(1.0, seconds - 3.0))


class TableRunner(threading.Thread):
    def __init__(self, spec: TableSpec, ports: list[int], game: Phase, baseline: Phase, abort: threading.Event,
                 seed: int, wait_limit: float, reader: StreamReader | None = None):
        super().__init__(daemon=True, name=f"table-{spec.pk}")
        self.spec = spec
        self.ports = ports  # seat i uses ports[i % len(ports)]
        self.port = ports[0]
        self.game_phase, self.baseline_phase = game, baseline
        self.abort = abort
        self.rng = random.Random(seed)
        self.wait_limit = wait_limit
        self.reader = reader  # push mode: the run's stream reader
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()  # versions its phones' streams announced
        self.setup = Stats()
        self.game = Stats()
        self.baseline = Stats()
        self.ready = threading.Event()  # set when the phones have joined (or failed to)
        self.game_done = threading.Event()
        self.joined = False
        self.streams_wanted = 0
        self.moves_applied = 0
        self.marks: list[MoveMark] = []
        # the turn cycle, mirrored locally (one mover per table: the state is deterministic)
        self.turn = 0
        self.step = 0
        self.round = 1
        self.cards = dict(spec.cards)
        self.finished = False

    # --- the game cycle ------------------------------------------------------------------
    def _active(self) -> str:
        return self.spec.turn_order[self.turn]

    def _seat_of(self, country: str) -> int:
        for i, (_, countries) in enumerate(self.spec.seats):
            if country in countries:
                return i
        raise LookupError(country)

    def _next_command(self):
        country = self._active()
        command, fields = CYCLE[self.step]
        if command == "play_card" and self.cards[country][1] <= 0:
            command, fields = CYCLE[1]  # an empty hand skips the play step
            self.step = 1
        return command, fields

    def _advance(self, command: str) -> None:
        country = self._active()
        deck, hand = self.cards[country]
        if command == "play_card":
            self.cards[country] = (deck, hand - 1)
        elif command in ("draw", "finish_turn"):
            n = max(0, min(HAND_SIZE - hand, deck))
            self.cards[country] = (deck - n, hand + n)
        self.step += 1
        if self.step == len(CYCLE):
            self.step = 0
            self.turn += 1
            if self.turn == len(self.spec.turn_order):
                self.turn = 0
                self.round += 1
                if self.round > 20:
                    self.finished = True

    # --- "another phone sees the move" ---------------------------------------------------------
    def _pair(self, mark: MoveMark, d: Device) -> str:
        return "same" if d.server == mark.server else "cross"

    def _moved(self, devices: list[Device], mover: Device, before: int, at: float, stats: Stats) -> None:
        for m in self.marks:  # the previous move: whoever has not seen it by now never did
            stats.unseen += len(m.to_see)
            stats.unheard += len(m.to_hear)
        others = {d.index for d in devices if d is not mover}
        self.marks = [MoveMark(before, mover.version, at, mover.server, set(others),
                               set(others) if self.reader is not None else set())]

    def _saw(self, d: Device, stats: Stats) -> None:
        """``d`` has just received a page at ``d.version``."""
        now = time.perf_counter()
        for m in self.marks:
            if d.index in m.to_see and d.version >= m.after:
                m.to_see.discard(d.index)
                stats.mark(f"see_{self._pair(m, d)}", (now - m.at) * 1000.0)

    def _heard(self, d: Device, version: int, at: float, stats: Stats) -> None:
        for m in self.marks:
            if d.index in m.to_hear and version > m.before:
                m.to_hear.discard(d.index)
                stats.mark(f"hear_{self._pair(m, d)}", (at - m.at) * 1000.0)

    def _phase_over(self, end: float, stats: Stats) -> None:
        for m in self.marks:
            if m.at < end - LATE_MOVE_SECONDS:
                stats.unseen += len(m.to_see)
                stats.unheard += len(m.to_hear)
        self.marks = []

    # --- requests ------------------------------------------------------------------------
    def _paths(self):
        pk = self.spec.pk
        return f"/g/{pk}/", f"/g/{pk}/poll/", f"/g/{pk}/command/"

    def _refresh(self, d: Device, stats: Stats) -> None:
        d.stats = stats
        status, data = d.timed("refresh", "GET", self._paths()[0], headers=HTMX)
        if status == 200:
            d.learn_version(data)
            self._saw(d, stats)

    def _poll(self, d: Device, stats: Stats) -> None:
        _, poll, _ = self._paths()
        d.stats = stats
        status, _ = d.timed("poll", "GET", f"{poll}?v={d.version}", headers=HTMX)
        if status == 200:  # "game-changed": htmx fetches the partial
            self._refresh(d, stats)

    def _on_version(self, devices: list[Device], item, stats: Stats) -> None:
        """A phone's stream said ``event: version`` N: htmx fetches the partial when N is newer."""
        _, index, version, at = item
        d = devices[index]
        self._heard(d, version, at, stats)
        if version > d.version:
            self._refresh(d, stats)

    def _drain(self, devices: list[Device], stats: Stats) -> None:
        for _ in range(1000):
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                return
            self._on_version(devices, item, stats)

    def _move(self, devices: list[Device], stats: Stats) -> None:
        if self.finished:
            return
        d = devices[self._seat_of(self._active())]
        if self.reader is None:
            self._poll(d, stats)  # the current version, from the poll (and the refresh it causes)
        else:
            self._drain(devices, stats)  # what the streams said so far (the mover's version included)
            if not d.stream_alive(time.perf_counter()):
                self._poll(d, stats)  # its page polls: the stream is not heard from
        page, _, move = self._paths()
        command, fields = self._next_command()
        for _attempt in range(2):
            before = d.version
            body = urllib.parse.urlencode({"command": command, "version": d.version, **fields}).encode()
            headers = {**HTMX, "Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": d.csrf,
                       "Origin": f"http://{HOST}:{d.port}"}
            d.stats = stats
            status, data = d.timed("move", "POST", move, body=body, headers=headers)
            at = time.perf_counter()
            if status == 200:
                d.learn_version(data)
                self._advance(command)
                self.moves_applied += 1
                self._moved(devices, d, before, at, stats)
                return
            if status != 409:
                return
            stats.stale += 1  # somebody else moved first: refresh and try once more
            self._refresh(d, stats)

    def _join(self, devices: list[Device]) -> bool:
        page, _, _ = self._paths()
        ok = True
        for d, (token, _) in zip(devices, self.spec.seats):
            if self.abort.is_set():
                return False
            status, _ = d.timed("join", "GET", f"/join/{token}/")
            status2, data = d.timed("page", "GET", page) if status == 302 else (None, b"")
            m = CSRF_RE.search(data)
            if status2 != 200 or not m or "sessionid" not in d.cookies:
                ok = False
                continue
            d.csrf = m.group(1).decode()
            d.learn_version(data)
        return ok

    def _open_streams(self, devices: list[Device]) -> None:
        """The page's EventSource: ``GET /g/<pk>/stream/?v=<version>`` with the phone's cookie."""
        for d in devices:
            d.stream = SSEStream(self.inbox, d, f"/g/{self.spec.pk}/stream/?v={d.version}", d.cookie_header())
            self.streams_wanted += 1
            self.reader.add(d.stream)

    def _schedule_loop(self, devices, stats: Stats, phase: Phase, *, ping: bool) -> None:
        """Run the phase's schedule: each phone every ``phase.interval`` s, a move every 10 s.

        Like htmx's ``every 2s`` with its default ``hx-sync`` (drop), a phone that is still busy
        when its tick comes skips that tick (counted in ``dropped``) instead of queueing it; a
        late move is made as soon as possible and the next one follows 10 s later. Nothing
        starts after the end of the phase.
        """
        end = phase.t0 + phase.seconds
        start = max(time.perf_counter(), phase.t0)
        nxt = [start + self.rng.uniform(0, phase.interval) for _ in devices]
        move_at = start + self.rng.uniform(0, first_move_window(phase.seconds)) if not ping else float("inf")
        budget = int(phase.seconds / min(phase.interval, MOVE_EVERY) + 2) * (len(devices) + 1)
        for _ in range(budget):  # bounded in count as well as in time
            if self.abort.is_set():
                return
            i = min(range(len(devices)), key=nxt.__getitem__)
            due = min(nxt[i], move_at)
            if due >= end:
                return
            wait = due - time.perf_counter()
            if wait > 0 and self.abort.wait(wait):
                return
            now = time.perf_counter()
            if now >= end:
                return
            stats.lag.append(max(0.0, now - due) * 1000.0)
            if move_at <= nxt[i]:
                move_at = move_at + MOVE_EVERY if move_at + MOVE_EVERY > now else now + MOVE_EVERY
                self._move(devices, stats)
            else:
                t = nxt[i] + phase.interval
                if t <= now:  # ticks that passed while this thread was busy are dropped
                    missed = int((now - t) // phase.interval) + 1
                    stats.dropped += missed
                    t += missed * phase.interval
                nxt[i] = t
                d = devices[i]
                if ping:
                    d.stats = stats
                    d.timed("ping", "GET", "/ping/", headers={"Accept": "text/plain"})
                else:
                    self._poll(d, stats)

    def _push_loop(self, devices, stats: Stats, phase: Phase) -> None:
        """The game phase with streams: a move every 10 s; between moves, the versions the streams
        announce (a refresh when newer than the phone's); a phone whose stream is not heard from
        polls every 2 s, as the page does."""
        end = phase.t0 + phase.seconds
        start = max(time.perf_counter(), phase.t0)
        move_at = start + self.rng.uniform(0, first_move_window(phase.seconds))
        poll_at = [start + self.rng.uniform(0, POLL_EVERY) for _ in devices]
        budget = int(phase.seconds * 200) + 1000
        for _ in range(budget):  # bounded in count as well as in time
            if self.abort.is_set():
                return
            now = time.perf_counter()
            if now >= end:
                return
            if now >= move_at:
                stats.lag.append((now - move_at) * 1000.0)
                move_at = move_at + MOVE_EVERY if move_at + MOVE_EVERY > now else now + MOVE_EVERY
                self._move(devices, stats)
                continue
            polled = False
            for i, d in enumerate(devices):
                if poll_at[i] <= now:
                    t = poll_at[i] + POLL_EVERY
                    poll_at[i] = t if t > now else now + POLL_EVERY
                    if not d.stream_alive(now):
                        stats.fallback_polls += 1
                        self._poll(d, stats)
                        polled = True
            if polled:
                continue
            wait = min(move_at, min(poll_at), end) - time.perf_counter()
            try:
                item = self.inbox.get(timeout=max(0.0, wait)) if wait > 0 else self.inbox.get_nowait()
            except queue.Empty:
                continue
            self._on_version(devices, item, stats)

    def run(self) -> None:
        n = len(self.ports)
        devices = [Device(self.ports[i % n], self.setup, index=i, server=i % n) for i in range(len(self.spec.seats))]
        try:
            try:
                self.joined = self._join(devices)
                if self.joined and self.reader is not None:
                    self._open_streams(devices)
            finally:
                self.ready.set()
            if not self.game_phase.event.wait(self.wait_limit) or self.abort.is_set():
                return
            if self.joined:
                if self.reader is not None:
                    self._push_loop(devices, self.game, self.game_phase)
                else:
                    self._schedule_loop(devices, self.game, self.game_phase, ping=False)
                self._phase_over(self.game_phase.t0 + self.game_phase.seconds, self.game)
            self.game_done.set()
            if not self.baseline_phase.event.wait(self.wait_limit) or self.abort.is_set():
                return
            if self.joined:
                self._schedule_loop(devices, self.baseline, self.baseline_phase, ping=True)
        except Exception as exc:  # a bug here must show up as an error, not hang the run
            self.game.errors["client"] = self.game.errors.get("client", 0) + 1
            self.game.error_samples.append(f"client: {type(exc).__name__}: {exc}")
        finally:
            self.ready.set()
            self.game_done.set()
            for d in devices:
                d.close()


def run_load(ports: list[int] | int, specs: list[TableSpec], seconds: float, baseline_seconds: float, *,
             setup_timeout: float = 300.0, seed: int = 1, abort: threading.Event | None = None,
             server_cpu=None, log=print, push: bool = True) -> dict:
    """The core: join every phone (and open its stream), run the game phase, then the /ping/
    baseline. Returns figures."""
    ports = [ports] if isinstance(ports, int) else list(ports)
    abort = abort or threading.Event()
    game, baseline = Phase(), Phase()
    wait_limit = setup_timeout + seconds + baseline_seconds + 60
    reader = StreamReader(abort, wait_limit + 30) if push else None
    runners = [TableRunner(s, ports, game, baseline, abort, seed * 100003 + i, wait_limit, reader)
               for i, s in enumerate(specs)]
    cpu_client = lambda: sum(os.times()[:2])  # noqa: E731
    server_cpu = server_cpu or (lambda: None)
    result: dict = {"tables": len(specs), "devices": sum(len(s.seats) for s in specs),
                    "mode": "push" if push else "poll", "servers": len(ports),
                    "loadavg_1min_at_start": round(os.getloadavg()[0], 2)}

    try:
        t_setup = time.perf_counter()
        if reader is not None:
            reader.start()
        for r in runners:
            r.start()
        setup_deadline = t_setup + setup_timeout
        for r in runners:
            r.ready.wait(max(0.0, setup_deadline - time.perf_counter()))
        joined = sum(1 for r in runners if r.joined)
        if reader is not None:  # every stream open (it said something) before the game starts
            wanted = sum(r.streams_wanted for r in runners)
            for _ in range(int(setup_timeout * 20) + 1):
                if reader.opened >= wanted or time.perf_counter() > setup_deadline or not reader.is_alive():
                    break
                time.sleep(0.05)
            log(f"  {reader.opened}/{wanted} streams open")
        result["setup_seconds"] = round(time.perf_counter() - t_setup, 1)
        log(f"  {joined}/{len(runners)} tables joined in {result['setup_seconds']} s")

        # idle: the servers' CPU with every phone joined (and its stream open) and nothing moving
        i0, ti0 = server_cpu(), time.perf_counter()
        abort.wait(IDLE_SECONDS)
        i1, ti1 = server_cpu(), time.perf_counter()

        # game phase
        streams0 = reader.snapshot() if reader else {}
        c0, s0 = cpu_client(), server_cpu()
        t0 = time.perf_counter() + 0.5
        game.start(t0, seconds)
        for r in runners:
            r.game_done.wait(max(0.0, t0 + seconds + REQUEST_TIMEOUT * 3 + 5 - time.perf_counter()))
        late = sum(1 for r in runners if not r.game_done.is_set())
        wall = max(seconds, time.perf_counter() - t0)
        c1, s1 = cpu_client(), server_cpu()
        streams1 = reader.snapshot() if reader else {}
        merged_setup, merged_game = Stats(), Stats()
        for r in runners:
            merged_setup.merge(r.setup)
            merged_game.merge(r.game)
        total = sum(len(v) for v in merged_game.latency.values())
        game_rate = total / seconds if seconds else 0.0
        log(f"  game phase: {total} requests in {seconds:.0f} s")

        # baseline phase: /ping/ at the request rate the game phase achieved, same phones (streams idle)
        active = [r for r in runners if r.joined] or runners
        devices_n = sum(len(r.spec.seats) for r in active)
        interval = devices_n / game_rate if game_rate > 0 else POLL_EVERY
        interval = max(0.05, min(interval, 60.0))
        c2, s2 = cpu_client(), server_cpu()
        t1 = time.perf_counter() + 0.5
        baseline.start(t1, baseline_seconds, interval)
        for r in runners:
            r.join(max(0.0, t1 + baseline_seconds + REQUEST_TIMEOUT * 3 + 5 - time.perf_counter()))
        late += sum(1 for r in runners if r.is_alive())
        wall_b = max(baseline_seconds, time.perf_counter() - t1)
        c3, s3 = cpu_client(), server_cpu()
        merged_base = Stats()
        for r in runners:
            merged_base.merge(r.baseline)
        base_total = sum(len(v) for v in merged_base.latency.values())
        log(f"  baseline phase: {base_total} requests in {baseline_seconds:.0f} s")
    finally:
        abort.set()  # any runner still alive stops at its next step
        if reader is not None:
            reader.stop()  # closes every stream (the servers then stop quickly)

    kinds = {}
    for kind in ("poll", "refresh", "move"):
        kinds[kind] = summarize(merged_game.latency.get(kind, []), seconds)
        kinds[kind]["errors"] = merged_game.errors.get(kind, 0)
        kinds[kind]["statuses"] = {str(k): v for k, v in sorted(merged_game.statuses.get(kind, {}).items())}
    all_game = [x for v in merged_game.latency.values() for x in v]
    kinds["all"] = summarize(all_game, seconds)
    kinds["all"]["errors"] = sum(merged_game.errors.values())
    kinds["ping"] = summarize(merged_base.latency.get("ping", []), baseline_seconds)
    kinds["ping"]["errors"] = sum(merged_base.errors.values())
    setup = {k: summarize(v, result["setup_seconds"] or 1) for k, v in merged_setup.latency.items()}
    lag = sorted(merged_game.lag)
    errors = sum(merged_game.errors.values()) + sum(merged_base.errors.values()) + sum(merged_setup.errors.values())

    # another phone sees the move; the stream event alone
    m = merged_game.marks
    see = {"all": summarize(m.get("see_same", []) + m.get("see_cross", []), seconds),
           "same_server": summarize(m.get("see_same", []), seconds),
           "cross_server": summarize(m.get("see_cross", []), seconds),
           "unseen": merged_game.unseen}
    result["sees_move"] = see
    moves_applied = sum(r.moves_applied for r in runners)
    if reader is not None:
        result["stream_event"] = {"all": summarize(m.get("hear_same", []) + m.get("hear_cross", []), seconds),
                                  "same_server": summarize(m.get("hear_same", []), seconds),
                                  "cross_server": summarize(m.get("hear_cross", []), seconds),
                                  "unheard": merged_game.unheard}
        rs = reader.stats
        result["streams"] = {
            "wanted": sum(r.streams_wanted for r in runners), "opened": reader.opened,
            "first_open": summarize(reader.first_open_ms, result["setup_seconds"] or 1),
            "connects": reader.counts["connects"], "reconnects": reader.counts["reconnects"],
            "reconnects_game": streams1.get("reconnects", 0) - streams0.get("reconnects", 0),
            "ended_by_server": reader.counts["ended"], "failed": reader.counts["failed"],
            "gave_up": reader.counts["gave_up"],
            "versions_heard_game": streams1.get("versions", 0) - streams0.get("versions", 0),
            "pings_heard": reader.counts["pings"], "errors": sum(rs.errors.values()),
            "statuses": {str(k): v for k, v in sorted(rs.statuses.get("stream", {}).items())},
            "fallback_polls": merged_game.fallback_polls}
        errors += sum(rs.errors.values())
        merged_setup.error_samples.extend(rs.error_samples)
        planned = sum(len(s.seats) / MOVE_EVERY for s in specs)  # a move and 5 refreshes per table and 10 s
    else:
        planned = sum(len(s.seats) / POLL_EVERY + 2 / MOVE_EVERY for s in specs)
    result.update({
        "tables_joined": joined,
        "seconds": seconds, "baseline_seconds": baseline_seconds,
        "throughput_rps": round(game_rate, 1),
        "baseline_rps": round(base_total / baseline_seconds, 1) if baseline_seconds else None,
        "kinds": kinds, "setup": setup,
        "moves_applied": moves_applied,
        "stale_409": merged_game.stale,
        "planned_rps": round(planned, 1),
        "dropped_poll_ticks": merged_game.dropped,
        "threads_late": late,
        "reconnects": merged_game.reconnects + merged_base.reconnects,
        "schedule_lag_ms": {"late": len(lag), "p95": round(percentile(lag, 95), 1) if lag else 0.0,
                            "max": round(lag[-1], 1) if lag else 0.0},
        "errors": errors,
        "error_samples": (merged_setup.error_samples + merged_game.error_samples + merged_base.error_samples)[:10],
        "client_cpu_cores": {"game": round((c1 - c0) / wall, 2), "baseline": round((c3 - c2) / wall_b, 2)},
    })
    if s0 is not None and s1 is not None:
        idle = (i1 - i0) / (ti1 - ti0)
        net = max(0.0, (s1 - s0) - idle * wall)
        result["server_cpu_cores"] = {"game": round((s1 - s0) / wall, 2), "idle": round(idle, 3),
                                      "baseline": round((s3 - s2) / wall_b, 2)}
        result["server_cpu_ms"] = {
            "game_total_s": round(s1 - s0, 2),
            "per_move": round((s1 - s0) * 1000.0 / moves_applied, 1) if moves_applied else None,
            "per_request": round((s1 - s0) * 1000.0 / total, 2) if total else None,
            "per_move_above_idle": round(net * 1000.0 / moves_applied, 1) if moves_applied else None,
            "per_ping_baseline": round((s3 - s2) * 1000.0 / base_total, 2) if base_total else None}
    return result


def budget_check(ports: list[int], limit: int, log=print) -> dict:
    """POST the new-game form 2×limit times from this one address, alternately to each server.
    The budget's window is a minute of the clock: when less than 15 s of it are left, wait for the
    next one, so that every POST counts against the same window."""
    stats = Stats()
    devices = [Device(p, stats, index=i, server=i) for i, p in enumerate(ports)]
    left = 60.0 - time.time() % 60.0
    if left < 15.0:
        log(f"  budget check: waiting {left:.0f} s for a fresh one-minute window")
        time.sleep(left + 0.5)
    window = int(time.time() // 60)
    for d in devices:
        status, data = d.timed("home", "GET", "/")
        m = FORM_CSRF_RE.search(data)
        d.csrf = m.group(1).decode() if (status == 200 and m) else ""
    by_server = [{"created": 0, "refused": 0, "other": 0} for _ in devices]
    for k in range(2 * limit):
        d = devices[k % len(devices)]
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": d.csrf, "name": f"Budget check {k + 1}",
                                       **NEW_GAME_FORM}).encode()
        status, _ = d.timed("create", "POST", "/", body=body,
                            headers={"Content-Type": "application/x-www-form-urlencoded",
                                     "Origin": f"http://{HOST}:{d.port}", "Referer": f"http://{HOST}:{d.port}/"})
        key = {302: "created", 429: "refused"}.get(status, "other")
        by_server[d.server][key] += 1
    for d in devices:
        d.close()
    same_window = int(time.time() // 60) == window
    created = sum(s["created"] for s in by_server)
    refused = sum(s["refused"] for s in by_server)
    return {"limit": limit, "posts": 2 * limit, "created": created, "refused": refused,
            "other": sum(s["other"] for s in by_server), "by_server": by_server, "same_window": same_window,
            "one_budget": created == limit and refused == limit,
            "errors": sum(stats.errors.values()), "error_samples": stats.error_samples[:5],
            "post": summarize(stats.latency.get("create", []), 1)}


# ------------------------------------------------------------------------------------------
# The throw-away database, the server, the games
# ------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class ThrowawayDatabase:
    def __init__(self, kind: str, workdir: Path, pg_url: str):
        self.kind = kind
        self.pg_url = pg_url.rstrip("/")
        self.name = f"qmg_load_{os.getpid()}_{random.randrange(1 << 30)}"
        if kind == "sqlite":
            self.url = f"sqlite:///{workdir / 'load.sqlite3'}"
        else:
            self.url = f"{self.pg_url}/{self.name}"
        self.created = False

    def _admin(self):
        import psycopg

        return psycopg.connect(f"{self.pg_url}/postgres", autocommit=True, connect_timeout=10)

    def create(self) -> None:
        if self.kind == "postgres":
            with self._admin() as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
        self.created = True

    def drop(self) -> None:
        if self.kind == "postgres" and self.created:
            with self._admin() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.created = False


class Server:
    """``manage.py serve --no-prepare`` in its own process group; stop() kills the whole group."""

    def __init__(self, env: dict, port: int, log_path: Path, workers: int | None):
        self.env, self.port, self.log_path = env, port, log_path
        self.argv = [PYTHON, str(ROOT / "manage.py"), "serve", "--no-prepare", "--bind", f"{HOST}:{port}"]
        if workers:
            self.argv += ["--workers", str(workers)]
        self.proc: subprocess.Popen | None = None
        self._log = None

    def start(self, timeout: float = 60.0) -> None:
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}):\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/ping/")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server did not answer /ping/ within {timeout:.0f} s:\n{self.log_tail()}")

    def cpu_seconds(self) -> float | None:
        """utime+stime of every live process of the server's process group (gunicorn master + workers)."""
        if self.proc is None:
            return None
        tick = os.sysconf("SC_CLK_TCK")
        total = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[2]) == self.proc.pid:  # pgrp
                total += int(fields[11]) + int(fields[12])
        return total / tick

    def log_tail(self, n: int = 30) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-n:])

    def error_lines(self, n: int = 8) -> list[str]:
        """The last lines of its log that name an error (not the access log's lines)."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return []
        return [ln[:300] for ln in lines if re.search(r"Error|Exception|Traceback|FATAL", ln)
                and '" 500 ' not in ln and "Error while closing socket" not in ln][-n:]

    def stop(self) -> None:
        if self.proc is None:
            return
        pgid = self.proc.pid  # start_new_session: the server leads its own group
        for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(wait)
            except subprocess.TimeoutExpired:
                continue
            # the master is gone; make sure no worker of the group survives it
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            break
        if self._log:
            self._log.close()
        self.proc = None


def worker_pids(server: Server) -> list[int]:
    """The processes of the server's group other than the gunicorn master (for py-spy)."""
    if server.proc is None:
        return []
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != server.proc.pid:
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[2]) == server.proc.pid:
                pids.append(int(entry))
    return sorted(pids)


def control_socket_check(servers: list[Server]) -> dict:
    """Each server's gunicorn control socket (``manage.py serve`` names it after the bind): its own, answering for
    its own server; then server A is stopped and B's must still answer."""
    from gunicorn.ctl.client import ControlClient, ControlClientError

    from tracker.management.commands.serve import control_socket_path

    def listening(path: str) -> list[str]:
        try:
            with ControlClient(path, timeout=10) as client:
                return [item["address"] for item in client.send_command("show listeners")["listeners"]]
        except (ControlClientError, OSError):
            return []

    paths = [control_socket_path("auto", f"{HOST}:{s.port}") for s in servers]
    own = [listening(path) == [f"http://{HOST}:{s.port}"] for path, s in zip(paths, servers)]
    servers[0].stop()
    others_after = [os.path.exists(path) and listening(path) == [f"http://{HOST}:{s.port}"]
                    for path, s in zip(paths[1:], servers[1:])]
    return {"paths": paths, "distinct": len(set(paths)) == len(paths), "each_its_own_server": all(own),
            "others_after_stopping_A": all(others_after)}


def redis_cleanup(url: str, prefix: str) -> int:
    """Delete the keys of this run (every cache key starts with its prefix); how many."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        n = 0
        batch = []
        for key in client.scan_iter(match=f"{prefix}:*", count=500):
            batch.append(key)
            if len(batch) >= 500:
                n += client.delete(*batch)
                batch = []
        if batch:
            n += client.delete(*batch)
        return n
    finally:
        client.close()


def create_tables(n: int) -> list[TableSpec]:
    """n games with 6 seats (the rulebook seating), through the write path. Django must be set up
    first (``main`` does it), so the project is imported here rather than at the top of the script."""
    from gameplay.qmg.seating import DEFAULT_SEATING
    from tracker.models import CountryCards
    from tracker.qmg.selectors import board_of
    from tracker.qmg.views import create_game

    seating = DEFAULT_SEATING[6]
    specs = []
    for i in range(n):
        game = create_game(f"Load table {i + 1}", [(f"Player {j + 1}", c) for j, c in enumerate(seating)], {})
        board = board_of(game)
        cards = {c.country: (c.deck, c.hand) for c in CountryCards.objects.filter(game=game)}
        specs.append(TableSpec(pk=game.pk, seats=[(s.token, list(s.countries)) for s in game.seats.all()],
                               cards=cards, turn_order=list(board.turn_order)))
    return specs


def manage(env: dict, *args: str, timeout: float = 300.0) -> None:
    subprocess.run([PYTHON, str(ROOT / "manage.py"), *args], cwd=ROOT, env=env, check=True, timeout=timeout,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


# ------------------------------------------------------------------------------------------
# Report
# ------------------------------------------------------------------------------------------

def report(result: dict, out=print) -> None:
    k = result["kinds"]
    fmt = lambda x: "—" if x is None else f"{x:.1f}"  # noqa: E731
    push = result["mode"] == "push"

    def row(name, r, errors=None):
        out(f"{name:<26}{r['count']:>8}{fmt(r['rate']):>9}{fmt(r['p50_ms']):>9}{fmt(r['p95_ms']):>9}"
            f"{fmt(r['p99_ms']):>9}{fmt(r['max_ms']):>9}{'' if errors is None else errors:>8}")

    out("")
    out(f"Load benchmark: {result['tables']} tables × 6 phones, {result['db']}, "
        f"{'push (one stream per phone)' if push else 'poll every 2 s'}, game phase {result['seconds']:.0f} s, "
        f"baseline {result['baseline_seconds']:.0f} s, server: {result['server']}")
    out(f"{'requests':<26}{'count':>8}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}{'errors':>8}")
    rows = [("poll (204/200)", k["poll"]), ("refresh (partial)", k["refresh"]), ("move (POST)", k["move"]),
            ("all game requests", k["all"]), ("GET /ping/ baseline", k["ping"])]
    for name, r in rows:
        row(name, r, r.get("errors", 0))
    page = result["setup"].get("page")
    if page:
        row("full page (setup)", {**page, "rate": None})
    see = result["sees_move"]
    out("another phone sees the move (mover's answer → that phone's refresh answer with the new version):")
    row("  all pairs", see["all"])
    if result["servers"] > 1:
        row("  same server", see["same_server"])
        row("  A → B, across servers", see["cross_server"])
    if push:
        ev = result["stream_event"]
        out("the stream event alone (mover's answer → `event: version` heard; < 0: before the answer):")
        row("  all pairs", ev["all"])
        if result["servers"] > 1:
            row("  same server", ev["same_server"])
            row("  across servers", ev["cross_server"])
    out(f"pairs that never saw a move before the table's next move or the end: {see['unseen']}"
        + (f" (never heard of it by stream: {result['stream_event']['unheard']})" if push else ""))
    if push:
        st = result["streams"]
        fo = st["first_open"]
        out(f"streams: {st['opened']}/{st['wanted']} open (connect → first event p50 {fmt(fo['p50_ms'])} ms, "
            f"p95 {fmt(fo['p95_ms'])} ms); connects {st['connects']}, reconnects {st['reconnects']} "
            f"({st['reconnects_game']} in the game phase), ended by the server {st['ended_by_server']}, "
            f"failed {st['failed']}, errors {st['errors']}; versions heard {st['versions_heard_game']}, pings "
            f"{st['pings_heard']}; fallback polls {st['fallback_polls']}")
    out(f"throughput {result['throughput_rps']} req/s (planned {result['planned_rps']} req/s"
        f"{'' if push else ' of polls and moves without refreshes'}; baseline {result['baseline_rps']} req/s); "
        f"poll ticks dropped while busy {result['dropped_poll_ticks']}")
    out(f"moves applied {result['moves_applied']}, stale 409 {result['stale_409']}, "
        f"keep-alive connections reopened {result['reconnects']}")
    lag = result["schedule_lag_ms"]
    cpu = result.get("server_cpu_cores", {})
    ms = result.get("server_cpu_ms", {})
    out(f"machine load average (1 min) at the start: {result['loadavg_1min_at_start']} on {os.cpu_count()} cores "
        "(other processes compete with the server and the load generator)")
    out(f"client schedule lag p95 {lag['p95']} ms (max {lag['max']} ms); CPU cores used: server "
        f"{cpu.get('game')} (baseline {cpu.get('baseline')}), load generator {result['client_cpu_cores']['game']}")
    out(f"server CPU in the game phase: {ms.get('game_total_s')} s = {fmt(ms.get('per_move'))} ms per move applied "
        f"({fmt(ms.get('per_move_above_idle'))} ms above the idle {cpu.get('idle')} cores of {IDLE_SECONDS:.0f} s "
        f"before it), {fmt(ms.get('per_request'))} ms per request (baseline: {fmt(ms.get('per_ping_baseline'))} ms "
        "per /ping/)")
    b = result.get("budget")
    if b:
        out(f"creation budget (DJANGO_CREATION_LIMIT={b['limit']} on both servers, one Redis): {b['posts']} new-game "
            f"POSTs from one address alternately to A and B: created (302) {b['created']}, refused (429) "
            f"{b['refused']}, other {b['other']} (A {b['by_server'][0]}, B {b['by_server'][-1]}); one budget across "
            f"both: {'yes' if b['one_budget'] else 'NO'}{'' if b['same_window'] else ' (the POSTs straddled a window)'}")
    c = result.get("control_sockets")
    if c:
        out(f"control sockets: {', '.join(c['paths'])}; one per server: {'yes' if c['distinct'] else 'NO'}; each "
            f"answers for its own server: {'yes' if c['each_its_own_server'] else 'NO'}; after stopping A, B's still "
            f"answers: {'yes' if c['others_after_stopping_A'] else 'NO'}")
    if result["error_samples"]:
        out("first errors:")
        for e in result["error_samples"]:
            out(f"  {e}")
    for name, lines in result.get("server_log_errors", {}).items():
        out(f"{name}'s log, last lines naming an error:")
        for line in lines:
            out(f"  {line}")
    g = result["goals"]
    out(f"goals: {GOAL_TABLES} tables: {'met' if g['tables'] else 'NOT met'}; move p95 < {GOAL_MOVE_P95_MS:.0f} ms: "
        f"{'met' if g['move_p95'] else 'NOT met'} ({fmt(k['move']['p95_ms'])} ms); zero errors: "
        f"{'met' if g['zero_errors'] else 'NOT met'} ({result['errors']})"
        + (f"; across servers p95 < {GOAL_CROSS_P95_MS:.0f} ms: {'met' if g['cross_p95'] else 'NOT met'} "
           f"({fmt(see['cross_server']['p95_ms'])} ms)" if "cross_p95" in g else ""))


# ------------------------------------------------------------------------------------------
# main
# ------------------------------------------------------------------------------------------

def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--short", action="store_true", help="a quick run: 5 tables, about 8 s")
    p.add_argument("--tables", type=int, default=None, help="tables (games) of 6 phones (default 200; 5 with --short)")
    p.add_argument("--seconds", type=float, default=None, help="game phase length (default 60; 8 with --short)")
    p.add_argument("--baseline-seconds", type=float, default=None,
                   help="/ping/ baseline phase length (default a third of --seconds, 4..20)")
    p.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    p.add_argument("--pg-url", default=os.environ.get("LOADTEST_PG_URL", "postgres://postgres@127.0.0.1:5432"),
                   help="PostgreSQL server (a throw-away database is created and dropped there)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--push", dest="push", action="store_true", default=True,
                      help="every phone holds its game's event stream and refreshes when told (the default)")
    mode.add_argument("--poll", dest="push", action="store_false",
                      help="the page without a stream: every phone polls every 2 s")
    p.add_argument("--servers", type=int, choices=(1, 2), default=1,
                   help="app servers on one PostgreSQL and one Redis (2 needs --db postgres)")
    p.add_argument("--redis-url", default=os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
                   help="Redis of --servers 2 (keys under a prefix of this run, removed at the end)")
    p.add_argument("--budget", type=int, default=6,
                   help="--servers 2: DJANGO_CREATION_LIMIT of both servers; 2N new-game POSTs check it (0: no check)")
    p.add_argument("--workers", type=int, default=None, help="passed to serve, per server (default: WEB_WORKERS or 2)")
    p.add_argument("--conn-max-age", type=int, default=None,
                   help="DJANGO_CONN_MAX_AGE of the servers (default: unset, the production default)")
    p.add_argument("--setup-timeout", type=float, default=300.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--one-tap", action="store_true",
                   help="each turn as two moves: a card, then «Закончить ход» (default: one move per step)")
    a = p.parse_args(argv)
    if a.one_tap:
        global CYCLE
        CYCLE = ONE_TAP_CYCLE
    a.tables = a.tables if a.tables is not None else (5 if a.short else GOAL_TABLES)
    a.seconds = a.seconds if a.seconds is not None else (8.0 if a.short else 60.0)
    if a.baseline_seconds is None:
        a.baseline_seconds = max(4.0, min(20.0, a.seconds / 3))
    if not (1 <= a.tables <= 2000):
        p.error("--tables must be 1..2000")
    if not (1 <= a.seconds <= 3600) or not (1 <= a.baseline_seconds <= 600):
        p.error("--seconds must be 1..3600 and --baseline-seconds 1..600")
    if a.servers > 1 and a.db != "postgres":
        p.error("--servers 2 needs --db postgres (two servers share one database: PostgreSQL, not a SQLite file)")
    if not (0 <= a.budget <= 50):
        p.error("--budget must be 0..50")
    return a


def main(argv=None) -> int:
    args = parse_args(argv)
    sys.setswitchinterval(0.001)  # 200 client threads: hand the GIL over quickly
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # 1,200 streams + 1,200 connections (servers inherit)
    want = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    workdir = Path(tempfile.mkdtemp(prefix="qmg-load-"))
    db = ThrowawayDatabase(args.db, workdir, args.pg_url)
    env = {**os.environ, "DATABASE_URL": db.url, "DJANGO_SETTINGS_MODULE": "tracker.settings",
           "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or f"load-{random.getrandbits(128):x}",
           "DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
           "DJANGO_STREAMS_PER_CLIENT": "0"}  # every phone of the benchmark is 127.0.0.1
    env.pop("BIND", None)
    if args.conn_max_age is not None:
        env["DJANGO_CONN_MAX_AGE"] = str(args.conn_max_age)
    cache_prefix = ""
    if args.servers > 1:
        cache_prefix = f"qmgload-{os.getpid()}-{random.getrandbits(32):08x}"
        env.update({"DJANGO_CACHE_URL": args.redis_url, "LOADTEST_CACHE_PREFIX": cache_prefix,
                    "DJANGO_SETTINGS_MODULE": "tests.load.server_settings",
                    "DJANGO_CREATION_LIMIT": str(args.budget) if args.budget else "0"})
    servers = [Server(env, free_port(), workdir / f"server{i}.log", args.workers) for i in range(args.servers)]
    abort = threading.Event()
    hard_limit = args.setup_timeout + args.seconds + args.baseline_seconds + 300

    def stop_servers():
        for s in servers:
            s.stop()

    def watchdog():
        if not abort.wait(hard_limit):
            print(f"loadtest: overran {hard_limit:.0f} s; stopping", file=sys.stderr, flush=True)
            abort.set()
            stop_servers()
            os._exit(3)

    threading.Thread(target=watchdog, daemon=True, name="watchdog").start()
    previous_term = signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    log = lambda *a: print(*a, flush=True)  # noqa: E731
    redis_deleted = None
    try:
        log(f"loadtest: {args.tables} tables, {args.db} ({db.url}), {'push' if args.push else 'poll'}, "
            f"{args.servers} server(s), game {args.seconds:.0f} s + baseline {args.baseline_seconds:.0f} s")
        db.create()
        manage(env, "migrate", "--noinput", "-v0")
        # serve --no-prepare skips collectstatic; the pages need a manifest of the current static files
        manage(env, "collectstatic", "--noinput", "-v0")
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_SECRET_KEY",
                                               "DJANGO_CACHE_URL", "LOADTEST_CACHE_PREFIX") if k in env})
        os.environ.setdefault("DJANGO_CONN_MAX_AGE", "0")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.db import connections

        t = time.perf_counter()
        specs = create_tables(args.tables)
        connections.close_all()
        log(f"  {len(specs)} games created in {time.perf_counter() - t:.1f} s")
        for s in servers:
            s.start()
            log(f"  server {'AB'[servers.index(s)]} up: {' '.join(s.argv[1:])} (pids {s.proc.pid} "
                f"{' '.join(map(str, worker_pids(s)))})")
        result = run_load([s.port for s in servers], specs, args.seconds, args.baseline_seconds,
                          setup_timeout=args.setup_timeout, seed=args.seed, abort=abort,
                          server_cpu=lambda: sum(s.cpu_seconds() or 0.0 for s in servers), log=log, push=args.push)
        if args.servers > 1 and args.budget:
            result["budget"] = budget_check([s.port for s in servers], args.budget, log)
            result["errors"] += result["budget"]["errors"]
            result["error_samples"] = (result["error_samples"] + result["budget"]["error_samples"])[:10]
        if args.servers > 1:
            result["control_sockets"] = control_socket_check(servers)
    finally:
        abort.set()
        stop_servers()
        server_errors = {f"server {'AB'[i]}": s.error_lines() for i, s in enumerate(servers)}
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        try:
            if cache_prefix:
                try:
                    redis_deleted = redis_cleanup(args.redis_url, cache_prefix)
                except Exception as exc:  # noqa: BLE001 - report, never hide the run's figures
                    log(f"  Redis clean-up failed: {type(exc).__name__}: {exc}")
            db.drop()
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
            signal.signal(signal.SIGTERM, previous_term)
    workers = args.workers or int(os.environ.get("WEB_WORKERS", "2"))
    result["db"] = args.db
    result["workers_per_server"] = workers
    result["conn_max_age"] = env.get("DJANGO_CONN_MAX_AGE", "default")
    result["server"] = (f"{args.servers} × gunicorn with {workers} uvicorn workers on {os.cpu_count()} cores, "
                        f"DJANGO_CONN_MAX_AGE {result['conn_max_age']}"
                        + (f", Redis {args.redis_url} (keys {cache_prefix}:*, {redis_deleted} removed)"
                           if cache_prefix else ""))
    result["server_log_errors"] = {k: v for k, v in server_errors.items() if v}
    k = result["kinds"]
    result["goals"] = {"tables": result["tables_joined"] >= GOAL_TABLES,
                       "move_p95": k["move"]["p95_ms"] is not None and k["move"]["p95_ms"] < GOAL_MOVE_P95_MS,
                       "zero_errors": result["errors"] == 0}
    if args.servers > 1:
        cross = result["sees_move"]["cross_server"]["p95_ms"]
        result["goals"]["cross_p95"] = cross is not None and cross < GOAL_CROSS_P95_MS
    report(result, log)
    print(json.dumps(result, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

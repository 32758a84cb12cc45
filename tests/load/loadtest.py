#!/usr/bin/env python
"""Load benchmark of a game night: T tables × 6 phones against the production server.

    .venv/bin/python tests/load/loadtest.py [--short] [--tables T] [--seconds S] [--db sqlite|postgres]

What it does (a benchmark: it prints figures, it asserts nothing about time):

1. makes a throw-away database (a temp SQLite file, or a PostgreSQL database it creates and
   drops), runs ``manage.py migrate`` on it and starts the production server the README way,
   ``manage.py serve --no-prepare --bind 127.0.0.1:<free port>`` (gunicorn, its own process group);
2. creates T games with 6 seats each through ``tracker.qmg.views.create_game`` (this process runs
   ``django.setup()`` against the same ``DATABASE_URL``);
3. every phone opens its seat's join link (a session cookie) and loads the game page (CSRF token);
4. game phase, S seconds: every phone polls ``/g/<pk>/poll/?v=<version>`` every 2 s, like the
   htmx ``every 2s`` trigger; a 200 answer ("the game changed") makes it fetch the game partial,
   as htmx does on ``game-changed``; once every 10 s the phone of the active country makes the
   next legal move of the turn cycle (play an Event card, end the play step, supply, score,
   discard 0, draw), after a poll/refresh that gives it the current version;
5. baseline phase: the same phones send ``GET /ping/`` (the smallest Django view) at the request
   rate the game phase achieved, on the same server;
6. stops the server (the whole process group) and removes the database, always.

One OS thread per table drives its 6 phones (one keep-alive ``http.client`` connection each)
on its own clock. All traffic goes to 127.0.0.1. Every loop is bounded by count and time, and a
watchdog ends the run (server included) if it overruns. The last line of the output is a JSON
object with every figure.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import select
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

POLL_EVERY = 2.0  # seconds, the htmx trigger of templates/qmg/_game.html
MOVE_EVERY = 10.0  # seconds, one move per table
REQUEST_TIMEOUT = 15.0  # seconds, every socket operation
HAND_SIZE = 7
GOAL_TABLES = 200
GOAL_MOVE_P95_MS = 150.0

# the turn cycle of the active country: one command per move
CYCLE = (("play_card", {"card_type": "event"}), ("end_play", {}), ("supply", {}), ("score", {}),
         ("discard", {"n": "0"}), ("draw", {}))
# --one-tap: the turn as the phone plays it now, a card then «Закончить ход» (the rest of the turn in one
# request, each step still its own event)
ONE_TAP_CYCLE = (("play_card", {"card_type": "event"}), ("finish_turn", {}))

EXPECTED = {"join": {302}, "page": {200}, "poll": {200, 204}, "refresh": {200}, "move": {200, 409},
            "ping": {200}}
VERSION_RE = re.compile(rb"/poll/\?v=(\d+)")
CSRF_RE = re.compile(rb'"X-CSRFToken": "([^"]+)"')


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
        self.reconnects += other.reconnects
        self.stale += other.stale
        self.dropped += other.dropped


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
    def __init__(self, port: int, stats: Stats):
        self.port = port
        self.stats = stats
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.version = -1

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def _idle_closed(self) -> bool:
        """The server closed the idle keep-alive connection (EOF is readable)."""
        sock = self.conn.sock if self.conn is not None else None
        if sock is None:
            return False
        try:
            readable, _, _ = select.select([sock], [], [], 0)
        except (OSError, ValueError):
            return True
        return bool(readable)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        """(status, headers, body, ms). A connection the server closed while idle is reopened,
        and a request that fails on a reused connection before any answer is sent once more,
        as browsers do."""
        h = {"User-Agent": "qmg-loadtest", "Accept": "text/html"}
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
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
# One table: 6 phones and the turn cycle, driven by one thread on its own clock
# ------------------------------------------------------------------------------------------

@dataclass
class TableSpec:
    pk: int
    seats: list[tuple[str, list[str]]]  # (join token, countries) per seat
    cards: dict[str, tuple[int, int]]  # country -> (deck, hand) at the start
    turn_order: list[str]


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


class TableRunner(threading.Thread):
    def __init__(self, spec: TableSpec, port: int, game: Phase, baseline: Phase, abort: threading.Event,
                 seed: int, wait_limit: float):
        super().__init__(daemon=True, name=f"table-{spec.pk}")
        self.spec = spec
        self.port = port
        self.game_phase, self.baseline_phase = game, baseline
        self.abort = abort
        self.rng = random.Random(seed)
        self.wait_limit = wait_limit
        self.setup = Stats()
        self.game = Stats()
        self.baseline = Stats()
        self.ready = threading.Event()  # set when the phones have joined (or failed to)
        self.game_done = threading.Event()
        self.joined = False
        self.moves_applied = 0
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

    # --- requests ------------------------------------------------------------------------
    def _paths(self):
        pk = self.spec.pk
        return f"/g/{pk}/", f"/g/{pk}/poll/", f"/g/{pk}/command/"

    def _poll(self, d: Device, stats: Stats) -> None:
        page, poll, _ = self._paths()
        d.stats = stats
        status, _ = d.timed("poll", "GET", f"{poll}?v={d.version}", headers=HTMX)
        if status == 200:  # "game-changed": htmx fetches the partial
            status, data = d.timed("refresh", "GET", page, headers=HTMX)
            if status == 200:
                d.learn_version(data)

    def _move(self, devices: list[Device], stats: Stats) -> None:
        if self.finished:
            return
        d = devices[self._seat_of(self._active())]
        self._poll(d, stats)  # the current version, from the poll (and the refresh it causes)
        page, _, move = self._paths()
        command, fields = self._next_command()
        for _attempt in range(2):
            body = urllib.parse.urlencode({"command": command, "version": d.version, **fields}).encode()
            headers = {**HTMX, "Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": d.csrf,
                       "Origin": f"http://{HOST}:{self.port}"}
            status, data = d.timed("move", "POST", move, body=body, headers=headers)
            if status == 200:
                d.learn_version(data)
                self._advance(command)
                self.moves_applied += 1
                return
            if status != 409:
                return
            stats.stale += 1  # somebody else moved first: refresh and try once more
            status, data = d.timed("refresh", "GET", page, headers=HTMX)
            if status == 200:
                d.learn_version(data)

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
        move_at = start + self.rng.uniform(0, MOVE_EVERY) if not ping else float("inf")
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

    def run(self) -> None:
        devices = [Device(self.port, self.setup) for _ in self.spec.seats]
        try:
            try:
                self.joined = self._join(devices)
            finally:
                self.ready.set()
            if not self.game_phase.event.wait(self.wait_limit) or self.abort.is_set():
                return
            if self.joined:
                self._schedule_loop(devices, self.game, self.game_phase, ping=False)
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


def run_load(port: int, specs: list[TableSpec], seconds: float, baseline_seconds: float, *,
             setup_timeout: float = 300.0, seed: int = 1, abort: threading.Event | None = None,
             server_cpu=None, log=print) -> dict:
    """The core: join every phone, run the game phase, then the /ping/ baseline. Returns figures."""
    abort = abort or threading.Event()
    game, baseline = Phase(), Phase()
    wait_limit = setup_timeout + seconds + baseline_seconds + 60
    runners = [TableRunner(s, port, game, baseline, abort, seed * 100003 + i, wait_limit)
               for i, s in enumerate(specs)]
    cpu_client = lambda: sum(os.times()[:2])  # noqa: E731
    server_cpu = server_cpu or (lambda: None)
    result: dict = {"tables": len(specs), "devices": sum(len(s.seats) for s in specs),
                    "loadavg_1min_at_start": round(os.getloadavg()[0], 2)}

    t_setup = time.perf_counter()
    for r in runners:
        r.start()
    setup_deadline = t_setup + setup_timeout
    for r in runners:
        r.ready.wait(max(0.0, setup_deadline - time.perf_counter()))
    joined = sum(1 for r in runners if r.joined)
    result["setup_seconds"] = round(time.perf_counter() - t_setup, 1)
    log(f"  {joined}/{len(runners)} tables joined in {result['setup_seconds']} s")

    # game phase
    c0, s0 = cpu_client(), server_cpu()
    t0 = time.perf_counter() + 0.5
    game.start(t0, seconds)
    for r in runners:
        r.game_done.wait(max(0.0, t0 + seconds + REQUEST_TIMEOUT * 3 + 5 - time.perf_counter()))
    late = sum(1 for r in runners if not r.game_done.is_set())
    wall = max(seconds, time.perf_counter() - t0)
    c1, s1 = cpu_client(), server_cpu()
    merged_setup, merged_game = Stats(), Stats()
    for r in runners:
        merged_setup.merge(r.setup)
        merged_game.merge(r.game)
    total = sum(len(v) for v in merged_game.latency.values())
    game_rate = total / seconds if seconds else 0.0
    log(f"  game phase: {total} requests in {seconds:.0f} s")

    # baseline phase: /ping/ at the request rate the game phase achieved, same phones
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
    abort.set()  # any runner still alive stops at its next step

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
    result.update({
        "tables_joined": joined,
        "seconds": seconds, "baseline_seconds": baseline_seconds,
        "throughput_rps": round(game_rate, 1),
        "baseline_rps": round(base_total / baseline_seconds, 1) if baseline_seconds else None,
        "kinds": kinds, "setup": setup,
        "moves_applied": sum(r.moves_applied for r in runners),
        "stale_409": merged_game.stale,
        "planned_rps": round(sum(len(s.seats) / POLL_EVERY + 2 / MOVE_EVERY for s in specs), 1),
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
        result["server_cpu_cores"] = {"game": round((s1 - s0) / wall, 2),
                                      "baseline": round((s3 - s2) / wall_b, 2)}
    return result


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

    def __init__(self, env: dict, port: int, log_path: Path, workers: int | None, threads: int | None):
        self.env, self.port, self.log_path = env, port, log_path
        self.argv = [PYTHON, str(ROOT / "manage.py"), "serve", "--no-prepare", "--bind", f"{HOST}:{port}"]
        if workers:
            self.argv += ["--workers", str(workers)]
        if threads:
            self.argv += ["--threads", str(threads)]
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
    out("")
    out(f"Load benchmark: {result['tables']} tables × 6 phones, {result['db']}, game phase {result['seconds']:.0f} s, "
        f"baseline {result['baseline_seconds']:.0f} s, server: {result['server']}")
    out(f"{'requests':<22}{'count':>8}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}{'errors':>8}")
    rows = [("poll (204/200)", k["poll"]), ("refresh (partial)", k["refresh"]), ("move (POST)", k["move"]),
            ("all game requests", k["all"]), ("GET /ping/ baseline", k["ping"])]
    for name, r in rows:
        out(f"{name:<22}{r['count']:>8}{fmt(r['rate']):>9}{fmt(r['p50_ms']):>9}{fmt(r['p95_ms']):>9}"
            f"{fmt(r['p99_ms']):>9}{fmt(r['max_ms']):>9}{r.get('errors', 0):>8}")
    page = result["setup"].get("page")
    if page:
        out(f"{'full page (setup)':<22}{page['count']:>8}{'':>9}{fmt(page['p50_ms']):>9}{fmt(page['p95_ms']):>9}"
            f"{fmt(page['p99_ms']):>9}{fmt(page['max_ms']):>9}")
    out(f"throughput {result['throughput_rps']} req/s (planned polls+moves without refreshes "
        f"{result['planned_rps']} req/s; baseline {result['baseline_rps']} req/s); poll ticks dropped while busy "
        f"{result['dropped_poll_ticks']}")
    out(f"moves applied {result['moves_applied']}, stale 409 {result['stale_409']}, "
        f"keep-alive connections reopened {result['reconnects']}")
    lag = result["schedule_lag_ms"]
    cpu = result.get("server_cpu_cores", {})
    out(f"machine load average (1 min) at the start: {result['loadavg_1min_at_start']} on {os.cpu_count()} cores "
        "(other processes compete with the server and the load generator)")
    out(f"client schedule lag p95 {lag['p95']} ms (max {lag['max']} ms); CPU cores used: server "
        f"{cpu.get('game')} (baseline {cpu.get('baseline')}), load generator {result['client_cpu_cores']['game']}")
    if result["error_samples"]:
        out("first errors:")
        for e in result["error_samples"]:
            out(f"  {e}")
    g = result["goals"]
    out(f"goals: {GOAL_TABLES} tables: {'met' if g['tables'] else 'NOT met'}; move p95 < {GOAL_MOVE_P95_MS:.0f} ms: "
        f"{'met' if g['move_p95'] else 'NOT met'} ({fmt(k['move']['p95_ms'])} ms); zero errors: "
        f"{'met' if g['zero_errors'] else 'NOT met'} ({result['errors']})")


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
    p.add_argument("--workers", type=int, default=None, help="passed to serve (default: serve's default)")
    p.add_argument("--threads", type=int, default=None, help="passed to serve (default: serve's default)")
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
    return a


def main(argv=None) -> int:
    args = parse_args(argv)
    sys.setswitchinterval(0.001)  # 200 client threads: hand the GIL over quickly
    workdir = Path(tempfile.mkdtemp(prefix="qmg-load-"))
    db = ThrowawayDatabase(args.db, workdir, args.pg_url)
    env = {**os.environ, "DATABASE_URL": db.url, "DJANGO_SETTINGS_MODULE": "tracker.settings",
           "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or f"load-{random.getrandbits(128):x}",
           "DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost"}
    env.pop("BIND", None)
    server = Server(env, free_port(), workdir / "server.log", args.workers, args.threads)
    abort = threading.Event()
    hard_limit = args.setup_timeout + args.seconds + args.baseline_seconds + 240

    def watchdog():
        if not abort.wait(hard_limit):
            print(f"loadtest: overran {hard_limit:.0f} s; stopping", file=sys.stderr, flush=True)
            abort.set()
            server.stop()
            os._exit(3)

    threading.Thread(target=watchdog, daemon=True, name="watchdog").start()
    previous_term = signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    log = lambda *a: print(*a, flush=True)  # noqa: E731
    try:
        log(f"loadtest: {args.tables} tables, {args.db} ({db.url}), game {args.seconds:.0f} s + baseline "
            f"{args.baseline_seconds:.0f} s")
        db.create()
        manage(env, "migrate", "--noinput", "-v0")
        if not (ROOT / "staticfiles" / "staticfiles.json").exists():
            # serve --no-prepare skips collectstatic; the game page needs the static manifest
            log("  collectstatic (the manifest the game page needs is missing)")
            manage(env, "collectstatic", "--noinput", "-v0")
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DJANGO_SECRET_KEY")})
        os.environ.setdefault("DJANGO_CONN_MAX_AGE", "0")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.db import connections

        t = time.perf_counter()
        specs = create_tables(args.tables)
        connections.close_all()
        log(f"  {len(specs)} games created in {time.perf_counter() - t:.1f} s")
        server.start()
        log(f"  server up: {' '.join(server.argv[1:])}")
        result = run_load(server.port, specs, args.seconds, args.baseline_seconds, setup_timeout=args.setup_timeout,
                          seed=args.seed, abort=abort, server_cpu=server.cpu_seconds, log=log)
    finally:
        abort.set()
        server.stop()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        try:
            db.drop()
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
            signal.signal(signal.SIGTERM, previous_term)
    serve_defaults = (os.environ.get("WEB_WORKERS", "2"), os.environ.get("WEB_THREADS", "8"))
    result["db"] = args.db
    result["server"] = (f"gunicorn gthread {args.workers or serve_defaults[0]} workers × "
                        f"{args.threads or serve_defaults[1]} threads on {os.cpu_count()} cores")
    k = result["kinds"]
    result["goals"] = {"tables": result["tables_joined"] >= GOAL_TABLES,
                       "move_p95": k["move"]["p95_ms"] is not None and k["move"]["p95_ms"] < GOAL_MOVE_P95_MS,
                       "zero_errors": result["errors"] == 0}
    report(result, log)
    print(json.dumps(result, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The live table: a committed move reaches every open page of its game at once.

Each open game page holds one server-sent-events stream (``GET /g/<id>/stream/``, the view in
``tracker.core.stream``). What a stream carries is only the game's new version number: never a
card, never a fragment. The phone then asks for its own page as before (``GET /g/<id>/``), and that
answer is rendered for that viewer alone, so a push can carry nothing a viewer may not see.

Per server process there is one ``Hub``: game id → the open streams of that game in this process,
and the newest version the process has heard of. A write announces its new version once
(``announce``, called inside the write's transaction by ``tracker.core.log``):

- to this process's hub after the commit (``transaction.on_commit``): the streams it serves learn of
  the move within a millisecond;
- to the other processes and servers through the **bus**:

  ``local``    (the embedded default: SQLite, one machine, several worker processes) one watcher task
               per process reads the versions of the games that process streams, in one query, every
               ``LIVE_WATCH_SECONDS`` (0.1 s), and fans out in memory. No new service, no query per stream.
  ``postgres`` (several servers on one PostgreSQL) the write sends ``pg_notify('game_changed',
               '<id>:<version>')`` inside its transaction; PostgreSQL delivers it at the commit (never
               for a move that was rolled back) to one ``LISTEN`` connection per process. A watcher
               still re-reads the versions every ``LIVE_SAFETY_SECONDS`` (10 s) and after the listener
               reconnects, so a notification lost with a dropped connection costs at most that long.

The bus is chosen by ``DJANGO_LIVE_BUS`` (``auto``: ``postgres`` on PostgreSQL, else ``local``).
Delivery is "the newest version", not a queue: a stream that is slow to write, or a client that
stopped reading, only ever has one pending number, and the fan-out never waits for it.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection, connections, transaction

from .models import Game

logger = logging.getLogger(__name__)

CHANNEL = "game_changed"


def bus_name() -> str:
    chosen = getattr(settings, "LIVE_BUS", "auto")
    if chosen == "auto":
        return "postgres" if connection.vendor == "postgresql" else "local"
    return chosen


class Subscriber:
    """One open stream: the newest version it has to tell its client, and a flag to wake it."""

    __slots__ = ("game_id", "latest", "wake", "client")

    def __init__(self, game_id: int, known: int, client: str = ""):
        self.game_id = game_id
        self.latest = known
        self.wake = asyncio.Event()
        self.client = client

    def offer(self, version: int) -> None:
        if version > self.latest:
            self.latest = version
            self.wake.set()


class Hub:
    """The open streams of this process, by game. Its methods run in the process's event loop,
    except ``publish`` and the counters, which any thread may call."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.games: dict[int, set[Subscriber]] = defaultdict(set)
        self.versions: dict[int, int] = {}
        self.watcher: asyncio.Task | None = None
        self.listener: asyncio.Task | None = None
        self._lock = threading.Lock()
        self._open: dict[str, int] = defaultdict(int)  # open streams per client address
        self.delivered = 0  # versions handed to streams (for tests and the benchmark)

    # --- streams --------------------------------------------------------------------------
    def subscribe(self, game_id: int, known: int, client: str = "") -> Subscriber:
        self._attach_loop()
        sub = Subscriber(game_id, known, client)
        self.games[game_id].add(sub)
        newest = self.versions.get(game_id)
        if newest is not None:
            sub.offer(newest)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self.games.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.games[sub.game_id]
                self.versions.pop(sub.game_id, None)

    def streams(self, game_id: int | None = None) -> int:
        if game_id is not None:
            return len(self.games.get(game_id, ()))
        return sum(len(s) for s in self.games.values())

    # --- per-client bound (checked by the view before a stream opens) ---------------------
    def reserve(self, client: str, limit: int) -> bool:
        with self._lock:
            if limit and self._open[client] >= limit:
                return False
            self._open[client] += 1
            return True

    def release(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]

    # --- versions -------------------------------------------------------------------------
    def deliver(self, game_id: int, version: int) -> None:
        """In the loop: a game is at ``version``; wake its streams that have not told it yet."""
        subs = self.games.get(game_id)
        if not subs:
            return
        if version > self.versions.get(game_id, -1):
            self.versions[game_id] = version
        for sub in subs:
            if version > sub.latest:
                sub.offer(version)
                self.delivered += 1

    def publish(self, game_id: int, version: int) -> None:
        """From any thread: a write committed ``version`` of the game."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if _in_loop(loop):
                self.deliver(game_id, version)
            else:
                loop.call_soon_threadsafe(self.deliver, game_id, version)
        except RuntimeError:  # the loop closed in between (server shutting down)
            pass

    # --- the bus --------------------------------------------------------------------------
    def _attach_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # first stream of this process (or a new loop, in tests)
            self.loop = loop
            self.watcher = self.listener = None
        if self.watcher is None or self.watcher.done():
            interval = settings.LIVE_WATCH_SECONDS if bus_name() == "local" else settings.LIVE_SAFETY_SECONDS
            self.watcher = loop.create_task(self._watch(interval))
        if bus_name() == "postgres" and (self.listener is None or self.listener.done()):
            self.listener = loop.create_task(self._listen())

    async def _watch(self, interval: float) -> None:
        """Every ``interval`` seconds, one query for the versions of every game streamed here."""
        while True:
            await asyncio.sleep(interval)
            if self.games:
                await self.refresh()

    async def refresh(self) -> None:
        ids = list(self.games)
        try:
            rows = await sync_to_async(read_versions, thread_sensitive=False)(ids)
        except Exception:  # noqa: BLE001 - a database hiccup must not end the watcher
            logger.warning("live: reading game versions failed", exc_info=True)
            return
        for game_id, version in rows:
            self.deliver(game_id, version)

    async def _listen(self) -> None:
        """PostgreSQL LISTEN on one connection of this process; reconnects with a back-off."""
        import psycopg  # optional: only with the postgres bus

        delay = 0.5
        while True:
            try:
                aconn = await psycopg.AsyncConnection.connect(**pg_params(), autocommit=True)
                async with aconn:
                    await aconn.execute(f"LISTEN {CHANNEL}")
                    delay = 0.5
                    if self.games:
                        await self.refresh()  # what was missed while not listening
                    async for note in aconn.notifies():
                        game_id, _sep, version = note.payload.partition(":")
                        try:
                            self.deliver(int(game_id), int(version))
                        except ValueError:
                            continue
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the database went away: try again
                logger.warning("live: LISTEN connection lost; reconnecting in %.1f s", delay, exc_info=True)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)


def _in_loop(loop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def read_versions(ids: list[int]) -> list[tuple[int, int]]:
    close_old_connections()
    try:
        return list(Game.objects.filter(pk__in=ids).values_list("pk", "version"))
    finally:
        if connection.vendor == "sqlite":
            connection.close()  # no long-lived SQLite handle in the watcher's thread


def pg_params() -> dict:
    db = connections["default"].settings_dict  # the test runner's database name included
    params = {"dbname": db.get("NAME") or "postgres"}
    for key, name in (("USER", "user"), ("PASSWORD", "password"), ("HOST", "host"), ("PORT", "port")):
        if db.get(key):
            params[name] = str(db[key])
    return params


HUB = Hub()


def announce(game: Game) -> None:
    """Called inside a write's transaction, after the game's new version is saved."""
    game_id, version = game.pk, game.version
    if connection.vendor == "postgresql" and bus_name() == "postgres":
        with connection.cursor() as cursor:  # delivered by PostgreSQL at the commit, never on a rollback
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game_id}:{version}"])
    transaction.on_commit(lambda: HUB.publish(game_id, version))

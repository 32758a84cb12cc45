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

A replaced link closes its streams the same way. Each stream keeps the links its browser opened it
with; replacing a link bumps the game's ``links_version`` and announces it (``announce_links``,
inside the same transaction) on the same bus: at once to this process, through ``pg_notify``
(``'<id>:links:<n>'``) or the watcher's read of the same row to every other. A process that hears of
a newer ``links_version`` for a game it streams reads that game's links once and ends every stream
of it whose links all stopped working (``Subscriber.revoke``).
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection, connections, transaction

from .models import Game, Seat

logger = logging.getLogger(__name__)

CHANNEL = "game_changed"


def bus_name() -> str:
    chosen = getattr(settings, "LIVE_BUS", "auto")
    if chosen == "auto":
        return "postgres" if connection.vendor == "postgresql" else "local"
    return chosen


class Subscriber:
    """One open stream: the newest version it has to tell its client, and a flag to wake it; the links it was
    opened with (``tokens``) and the game's ``links_version`` they were checked at, and whether they stopped
    working (``revoked``)."""

    __slots__ = ("game_id", "latest", "wake", "client", "tokens", "links_checked", "revoked")

    def __init__(self, game_id: int, known: int, client: str = "", tokens: frozenset = frozenset(),
                 links_checked: int = 0):
        self.game_id = game_id
        self.latest = known
        self.wake = asyncio.Event()
        self.client = client
        self.tokens = tokens
        self.links_checked = links_checked
        self.revoked = False

    def offer(self, version: int) -> None:
        if version > self.latest:
            self.latest = version
            self.wake.set()

    def revoke(self) -> None:
        """Its links no longer work: the stream ends."""
        self.revoked = True
        self.wake.set()


class Hub:
    """The open streams of this process, by game and by client address. Its methods run in the process's
    event loop, except ``publish`` and ``publish_links``, which any thread may call."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.games: dict[int, set[Subscriber]] = defaultdict(set)
        self.versions: dict[int, int] = {}
        self.links: dict[int, int] = {}  # game id → the newest links_version heard
        self.checking: set[int] = set()  # games whose links are being read
        self.watcher: asyncio.Task | None = None
        self.listener: asyncio.Task | None = None
        self.clients: dict[str, int] = defaultdict(int)  # open streams per client address
        self.delivered = 0  # versions handed to streams (for tests and the benchmark)

    # --- streams --------------------------------------------------------------------------
    def subscribe(self, game_id: int, known: int, client: str = "", tokens: frozenset = frozenset(),
                  links_checked: int = 0) -> Subscriber:
        self.attach_loop()
        sub = Subscriber(game_id, known, client, tokens, links_checked)
        self.games[game_id].add(sub)
        self.clients[client] += 1
        newest = self.versions.get(game_id)
        if newest is not None:
            sub.offer(newest)
        if self.links.get(game_id, links_checked) > links_checked:  # replaced since its link was checked
            self.check_links(game_id)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self.games.get(sub.game_id)
        if subs is not None and sub in subs:
            subs.discard(sub)
            self.clients[sub.client] -= 1
            if self.clients[sub.client] <= 0:
                del self.clients[sub.client]
            if not subs:
                del self.games[sub.game_id]
                self.versions.pop(sub.game_id, None)
                self.links.pop(sub.game_id, None)

    def streams(self, game_id: int | None = None) -> int:
        if game_id is not None:
            return len(self.games.get(game_id, ()))
        return sum(len(s) for s in self.games.values())

    # --- per-client bound (checked by the view before a stream opens, and by the stream as it starts) ---
    def room(self, client: str, limit: int) -> bool:
        """May ``client`` open one more stream in this process (``limit`` 0: no bound)? In the loop."""
        self.attach_loop()
        return not limit or self.clients.get(client, 0) < limit

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
        self.in_loop(self.deliver, game_id, version)

    def publish_links(self, game_id: int, links: int) -> None:
        """From any thread: a write replaced a link of the game (its ``links_version`` is now ``links``)."""
        self.in_loop(self.deliver_links, game_id, links)

    def in_loop(self, call, *args) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if _in_loop(loop):
                call(*args)
            else:
                loop.call_soon_threadsafe(call, *args)
        except RuntimeError:  # the loop closed in between (server shutting down)
            pass

    # --- links ----------------------------------------------------------------------------
    def deliver_links(self, game_id: int, links: int) -> None:
        """In the loop: the game's ``links_version`` is ``links``; a newer one than its streams were checked at
        has their links read again."""
        if game_id not in self.games or links <= self.links.get(game_id, -1):
            return
        self.links[game_id] = links
        if any(sub.links_checked < links for sub in self.games[game_id]):
            self.check_links(game_id)

    def check_links(self, game_id: int) -> None:
        if game_id not in self.checking and self.loop is not None:
            self.checking.add(game_id)
            self.loop.create_task(self.recheck(game_id))

    async def recheck(self, game_id: int) -> None:
        """Read the game's links (one query) and end its streams whose links all stopped working; again while a
        newer replacement arrived meanwhile."""
        try:
            while game_id in self.games:
                try:
                    valid, links = await sync_to_async(read_links, thread_sensitive=False)(game_id)
                except Exception:  # noqa: BLE001 - a database hiccup: the watcher's next read tries again
                    logger.warning("live: reading the links of game %s failed", game_id, exc_info=True)
                    self.links.pop(game_id, None)
                    return
                for sub in list(self.games.get(game_id, ())):
                    if sub.links_checked < links:
                        if sub.tokens & valid:
                            sub.links_checked = links
                        else:
                            sub.revoke()
                if self.links.get(game_id, links) <= links:
                    return
        finally:
            self.checking.discard(game_id)

    # --- the bus --------------------------------------------------------------------------
    def attach_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # first stream of this process (or a new loop, in tests)
            if self.loop is not None:  # the streams of a loop that has gone are gone with it
                self.games, self.clients = defaultdict(set), defaultdict(int)
                self.versions, self.links = {}, {}
            self.loop = loop
            self.watcher = self.listener = None
            self.checking = set()
        if self.watcher is None or self.watcher.done():
            interval = settings.LIVE_WATCH_SECONDS if bus_name() == "local" else settings.LIVE_SAFETY_SECONDS
            self.watcher = loop.create_task(self.watch(interval))
        if bus_name() == "postgres" and (self.listener is None or self.listener.done()):
            self.listener = loop.create_task(self.listen())

    async def watch(self, interval: float) -> None:
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
        for game_id, version, links in rows:
            self.deliver(game_id, version)
            self.deliver_links(game_id, links)

    async def listen(self) -> None:
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
                        kind, _sep, links = version.partition(":")
                        try:
                            if kind == "links":
                                self.deliver_links(int(game_id), int(links))
                            else:
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


def read_versions(ids: list[int]) -> list[tuple[int, int, int]]:
    """(id, version, links_version) of the games."""
    close_old_connections()
    try:
        return list(Game.objects.filter(pk__in=ids).values_list("pk", "version", "links_version"))
    finally:
        if connection.vendor == "sqlite":
            connection.close()  # no long-lived SQLite handle in the watcher's thread


GONE = 1 << 62  # the links_version of a game that no longer exists: every stream of it ends


def read_links(game_id: int) -> tuple[frozenset, int]:
    """(every token that opens the game now, its links_version)."""
    close_old_connections()
    try:
        row = Game.objects.filter(pk=game_id).values_list("host_token", "spectator_token", "links_version").first()
        if row is None:
            return frozenset(), GONE
        seats = Seat.objects.filter(game_id=game_id).values_list("token", flat=True)
        return frozenset((row[0], row[1], *seats)), row[2]
    finally:
        if connection.vendor == "sqlite":
            connection.close()


def pg_params() -> dict:
    db = connections["default"].settings_dict  # the test runner's database name included
    params = {"dbname": db.get("NAME") or "postgres"}
    for key, name in (("USER", "user"), ("PASSWORD", "password"), ("HOST", "host"), ("PORT", "port")):
        if db.get(key):
            params[name] = str(db[key])
    return params


HUB = Hub()


def announce_links(game_id: int, links: int) -> None:
    """Called inside the transaction that replaced a link of the game and set its ``links_version`` to ``links``."""
    if connection.vendor == "postgresql" and bus_name() == "postgres":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game_id}:links:{links}"])
    transaction.on_commit(lambda: HUB.publish_links(game_id, links))


def announce(game: Game) -> None:
    """Called inside a write's transaction, after the game's new version is saved."""
    game_id, version = game.pk, game.version
    if connection.vendor == "postgresql" and bus_name() == "postgres":
        with connection.cursor() as cursor:  # delivered by PostgreSQL at the commit, never on a rollback
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game_id}:{version}"])
    transaction.on_commit(lambda: HUB.publish(game_id, version))

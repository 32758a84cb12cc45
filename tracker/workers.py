"""What ``manage.py serve`` runs in each worker process: uvicorn, with two bounds it does not set itself.

- **Connections per worker** (``connection_bound``): uvicorn's ``limit_concurrency``. A worker holding that
  many connections answers further requests with a 503 at once, rather than accepting until the process runs
  out of open files and its database and static files fail with it. The bound follows the open-file limit
  (``serve`` raises it to what the system allows), less room for the database, logs and files, and is at
  most ``MAX_CONNECTIONS``; ``WEB_MAX_CONNECTIONS`` sets it.
- **Request heads** (``HeadTimeoutProtocol``): uvicorn starts no timer on a connection until it has sent a
  response (its keep-alive), so a client that opens connections and sends half a request head holds each one,
  and one of the process's open files, for ever. This protocol is uvicorn's own (httptools), plus one timer:
  a head (request line and headers) not complete within ``HEAD_SECONDS`` of the connection opening, or of the
  request's first byte, closes the connection. And at the connection bound, a new connection makes room by
  closing the one that has waited longest for its head, so unfinished heads can never fill a worker while
  requests that arrive whole are served. Only the asyncio protocol's and the HTTP parser's callbacks are
  extended; uvicorn takes the class as its ``http`` setting.

The gunicorn worker classes: ``QuietUvicornWorker`` when no access log is asked for (``WEB_ACCESS_LOG``
unset): uvicorn logs every request through Python's logging even when gunicorn sends its access log
nowhere, a log record per request, ~4% of a small request's CPU here; at a club table every phone refreshes
after every move, so such a log holds thousands of lines an evening that nobody reads, and the reverse proxy
of a larger setup keeps its own. ``LoggingUvicornWorker`` with ``WEB_ACCESS_LOG`` set writes gunicorn's
access log."""
from __future__ import annotations

import asyncio
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

HEAD_SECONDS = 5.0
MAX_CONNECTIONS = 4096  # a club's largest evening (200 tables × 6 phones, a stream and a connection each) and room
FILES_KEPT = 128  # open files a worker keeps for other things than clients: database, pool, logs, static files


def open_files_limit() -> int | None:
    """This process's open-file (soft) limit, None where the system has no such limit to read (Windows)."""
    try:
        import resource  # optional: not on Windows
    except ImportError:
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def connection_bound() -> int:
    """The connections one worker process serves at once (``WEB_MAX_CONNECTIONS``, else from the open-file limit)."""
    explicit = os.environ.get("WEB_MAX_CONNECTIONS", "").strip()
    if explicit:
        return max(1, int(explicit))
    files = open_files_limit()
    if files is None:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, files - FILES_KEPT))


class HeadTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol; a connection whose request head takes longer than ``HEAD_SECONDS`` is closed,
    and at the bound (uvicorn's ``limit_concurrency``) the one waiting longest for its head makes room."""

    head_timer: asyncio.TimerHandle | None = None
    head_transport = None
    # this process's connections, and those waiting for a request head, oldest first (the loop's thread only)
    open_connections: set = set()
    waiting: dict = {}

    def __init__(self, config, *args, **kwargs):
        super().__init__(config, *args, **kwargs)
        self.bound = config.limit_concurrency

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.head_transport = transport
        self.open_connections.add(self)
        self.start_head_timer()  # the first byte must come, too
        self.make_room()

    def on_message_begin(self) -> None:  # the parser met a request's first byte
        super().on_message_begin()
        self.start_head_timer()

    def on_headers_complete(self) -> None:
        self.stop_head_timer()
        super().on_headers_complete()

    def connection_lost(self, exc) -> None:
        self.stop_head_timer()
        self.open_connections.discard(self)
        super().connection_lost(exc)

    def start_head_timer(self) -> None:
        if self.head_timer is None:
            self.head_timer = asyncio.get_running_loop().call_later(HEAD_SECONDS, self.drop)
            self.waiting[self] = None

    def stop_head_timer(self) -> None:
        self.waiting.pop(self, None)
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def make_room(self) -> None:
        """Near the bound, close the connections that have waited longest for their heads until this one fits with
        room to spare: a closed connection leaves uvicorn's count a moment later, and connections accepted
        together must not push a whole request over the bound into a 503."""
        room = max(8, self.bound // 8) if self.bound else 0
        while self.bound and len(self.open_connections) > self.bound - room:
            oldest = next((p for p in self.waiting if p is not self), None)
            if oldest is None:
                return
            oldest.drop()

    def drop(self) -> None:
        """Close a connection whose head did not come (in time, or in room)."""
        self.stop_head_timer()
        self.open_connections.discard(self)
        if not self.head_transport.is_closing():
            self.head_transport.close()


BOUNDED = {"http": HeadTimeoutProtocol, "limit_concurrency": connection_bound()}


class LoggingUvicornWorker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, **BOUNDED}


class QuietUvicornWorker(LoggingUvicornWorker):
    CONFIG_KWARGS = {**LoggingUvicornWorker.CONFIG_KWARGS, "access_log": False}

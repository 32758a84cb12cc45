"""``GET /g/<id>/stream/``: the server-sent-events stream of one open game page.

The stream says only "the game is now at version N" (``event: version``, ``id: N``), at once when
the client's version is behind (a reconnecting browser sends the last id it heard as
``Last-Event-ID``, so a dropped connection or a restarted server loses nothing), and afterwards on
every committed move, undo or redo. A ``ping`` with the current version every
``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing it and tells the page the stream is alive;
the page polls as before while it hears nothing. Every ``LIVE_STREAM_SECONDS`` (about 5 min) the
server ends the stream and the browser opens a new one, so its link is checked again.

Refused like the page: 404 for a game that does not exist, 403 without a link to it, 429 when the
client address already holds ``LIVE_STREAMS_PER_CLIENT`` streams in this server process. Under a
WSGI server (``manage.py runserver``) there is no stream: 204, and the page polls.
"""
from __future__ import annotations

import asyncio
import random

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from . import access
from .live import HUB
from .models import Game

MAX_VERSION_DIGITS = 9


def _known(request) -> int:
    """The version the client has: the last event id it heard, else the page's ``?v=``."""
    for raw in (request.META.get("HTTP_LAST_EVENT_ID", ""), request.GET.get("v", "")):
        raw = raw.strip()
        if raw and raw.isascii() and raw.isdigit() and len(raw) <= MAX_VERSION_DIGITS:
            return int(raw)
    return -1


def _linked(request, pk):
    """(version, 200), or (None, 403/404). Runs in a shared worker thread and gives its database
    connection back at once: a stream lives for minutes and must not hold a connection (or a thread)."""
    try:
        row = access.linked_values(request, pk, "version")
        if row is not None:
            return row[0], 200
        return None, 403 if Game.objects.filter(pk=pk).exists() else 404
    finally:
        connection.close()


@require_GET
async def stream(request, pk):
    version, status = await sync_to_async(_linked, thread_sensitive=False)(request, pk)
    if version is None:
        text = _("Open the game with your link first.") if status == 403 else _("No such game.")
        return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # a WSGI server cannot hold streams: the page polls
    client = request.META.get("REMOTE_ADDR") or "unknown"
    if not HUB.reserve(client, settings.LIVE_STREAMS_PER_CLIENT):
        response = HttpResponse(_("Too many open game pages from this address; this one will refresh by polling."),
                                status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "30"
        return response
    released = []

    def release():
        if not released:
            released.append(True)
            HUB.release(client)

    response = EventStream(_events(pk, _known(request), version, client, release), release,
                           content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


class EventStream(StreamingHttpResponse):
    """A stream whose place is given back when the server closes the response (``HttpResponse.close``), also
    when the client left before the first byte and the events' own ``finally`` never ran."""

    def __init__(self, events, on_close, **kwargs):
        super().__init__(events, **kwargs)
        self.on_close = on_close

    def close(self):
        try:
            self.on_close()
        finally:
            super().close()


async def _events(game_id: int, known: int, current: int, client: str, release):
    loop = asyncio.get_running_loop()
    lifetime = settings.LIVE_STREAM_SECONDS * random.uniform(0.8, 1.0)  # reconnects spread out
    deadline = loop.time() + lifetime
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    sub = HUB.subscribe(game_id, known, client)
    sub.offer(current)
    sent = known
    try:
        yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
        yield _ping(max(sent, 0))
        while True:
            sub.wake.clear()
            if sub.latest > sent:
                sent = sub.latest
                yield f"id: {sent}\nevent: version\ndata: {sent}\n\n"
                continue
            left = deadline - loop.time()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(sub.wake.wait(), timeout=min(heartbeat, left))
            except TimeoutError:
                yield _ping(sent)
    finally:
        HUB.unsubscribe(sub)
        release()


def _ping(version: int) -> str:
    return f"event: ping\ndata: {version}\n\n"

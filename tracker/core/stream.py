"""``GET /g/<id>/stream/``: the server-sent-events stream of one open game page.

The stream says only "the game is now at version N" (``event: version``, ``id: N``), at once when
the client's version is behind (a reconnecting browser sends the last id it heard as
``Last-Event-ID``, so a dropped connection or a restarted server loses nothing), and afterwards on
every committed move, undo or redo. A ``ping`` with the current version every
``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing it and tells the page the stream is alive;
the page polls as before while it hears nothing. Every ``LIVE_STREAM_SECONDS`` (about 5 min) the
server ends the stream and the browser opens a new one, so its link is checked again; a link the
host replaces ends its streams at once (``tracker.core.live``): their last word is a version past
the current one, so the page asks for itself and gets the page that asks for a link.

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
BUSY_RETRY_SECONDS = 30  # a client over its bound: when its browser may try again


def _known(request) -> int:
    """The version the client has: the last event id it heard, else the page's ``?v=``."""
    for raw in (request.META.get("HTTP_LAST_EVENT_ID", ""), request.GET.get("v", "")):
        raw = raw.strip()
        if raw and raw.isascii() and raw.isdigit() and len(raw) <= MAX_VERSION_DIGITS:
            return int(raw)
    return -1


def _linked(request, pk):
    """((version, links_version), 200), or (None, 403/404). Runs in a shared worker thread and gives its
    database connection back at once: a stream lives for minutes and must not hold a connection (or a thread)."""
    try:
        row = access.linked_values(request, pk, "version", "links_version")
        if row is not None:
            return row, 200
        return None, 403 if Game.objects.filter(pk=pk).exists() else 404
    finally:
        connection.close()


@require_GET
async def stream(request, pk):
    row, status = await sync_to_async(_linked, thread_sensitive=False)(request, pk)
    if row is None:
        text = _("Open the game with your link first.") if status == 403 else _("No such game.")
        return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # a WSGI server cannot hold streams: the page polls
    client = request.META.get("REMOTE_ADDR") or "unknown"
    if not HUB.room(client, settings.LIVE_STREAMS_PER_CLIENT):
        response = HttpResponse(_("Too many open game pages from this address; this one will refresh by polling."),
                                status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(BUSY_RETRY_SECONDS)
        return response
    version, links = row
    events = _events(pk, _known(request), version, client, access.session_tokens(request, pk), links)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _events(game_id: int, known: int, current: int, client: str, tokens: frozenset, links: int):
    """The stream, from its first byte: it counts against its client's bound while it runs, from its
    subscription to its own ``finally``. A generator that never ran holds nothing; one whose client left while
    it waited ends there at once; one left while the server was still writing its bytes ends when the
    interpreter collects it."""
    if not HUB.room(client, settings.LIVE_STREAMS_PER_CLIENT):  # streams that passed the view's check together
        yield f"retry: {BUSY_RETRY_SECONDS * 1000}\n\n"
        return
    loop = asyncio.get_running_loop()
    lifetime = settings.LIVE_STREAM_SECONDS * random.uniform(0.8, 1.0)  # reconnects spread out
    deadline = loop.time() + lifetime
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    sub = HUB.subscribe(game_id, known, client, tokens, links)
    sub.offer(current)
    sent = known
    try:
        yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
        yield _ping(max(sent, 0))
        while True:
            sub.wake.clear()
            if sub.revoked:  # its link was replaced: the page asks for itself and meets the page that asks for a link
                yield f"event: version\ndata: {max(sent, sub.latest) + 1}\n\n"
                return
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


def _ping(version: int) -> str:
    return f"event: ping\ndata: {version}\n\n"

"""Request bodies bounded before anything reads them, under every ASGI server (``tracker.asgi``).

Django's ASGI handler reads a request's whole body (into memory, and past
``FILE_UPLOAD_MAX_MEMORY_SIZE`` into a temporary file) before any middleware or view sees the request,
so a bound a Django middleware checks comes after the disk has taken the upload. ``BoundedBody`` wraps
the ASGI application and counts what the server hands over:

- a ``Content-Length`` above ``MAX_BODY_BYTES`` (or one that is not a number) is answered 413 at once:
  nothing of the body is read, and the connection is closed after the answer;
- a body without a length (``Transfer-Encoding: chunked``) is read here first, counted as it arrives: past
  the bound the client gets the 413 and the connection is closed (at most the bound was read, and at most
  that went to a temporary file); within it, the application gets the body with its length declared, as a
  WSGI application needs it (Django reads ``CONTENT_LENGTH`` bytes of a WSGI request, none without it);
- a body with a length is counted as the application reads it, the same way;
- a body that stops arriving (no byte for ``BODY_IDLE_SECONDS``) is answered 408 the same way, so an
  unfinished upload cannot hold a connection for ever.

The answers are the project's own pages in the client's language (its language cookie, else its
``Accept-Language``), the same ``core/too_large.html`` that ``tracker.core.limits.BodySizeMiddleware``
shows under WSGI (``runserver``) and in the test client, where Django reads the body lazily and that
middleware refuses by ``Content-Length`` before anything reads it.
"""
from __future__ import annotations

import asyncio
import tempfile

from django.conf import settings
from django.http import HttpRequest, parse_cookie
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from .limits import MAX_BODY_BYTES

BODY_IDLE_SECONDS = 20.0  # a phone on a weak network sends a segment far more often than this


class BoundedBody:
    """``application = BoundedBody(application)``: an ASGI middleware (HTTP only; anything else passes)."""

    def __init__(self, app, limit: int = MAX_BODY_BYTES, idle: float = BODY_IDLE_SECONDS):
        self.app = app
        self.limit = limit
        self.idle = idle

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length, chunked = declared_body(scope["headers"])
        if length is not None and (length < 0 or length > self.limit):
            await refuse(scope, send, 413)
            return
        if not chunked and not length:  # no body at all (a GET, a POST without fields): nothing to count
            await self.app(scope, receive, send)
            return
        if length is None:  # chunked: read (and bounded) before the application sees the request
            spooled = await self.spool(receive)
            if isinstance(spooled, int):
                await refuse(scope, send, spooled)
                return
            spool, size = spooled
            try:
                headers = [(n, v) for n, v in scope["headers"] if n != b"transfer-encoding"]
                scope = {**scope, "headers": [*headers, (b"content-length", str(size).encode())]}
                await self.app(scope, Replay(spool, size, receive).receive, send)
            finally:
                spool.close()
            return
        body = BodyCount(receive, self.limit, self.idle)
        answered = []

        async def tracked_send(message):
            if body.refused:  # the application was told the client left: nothing of it goes out
                return
            if message["type"] == "http.response.start":
                answered.append(True)
            await send(message)

        await self.app(scope, body.receive, tracked_send)
        if body.refused and not answered:
            await refuse(scope, send, body.refused)


    async def spool(self, receive):
        """A chunked body read whole: (a file holding it, its size), or the status that refuses it (413 past
        the bound, 408 when it stops arriving). Past ``FILE_UPLOAD_MAX_MEMORY_SIZE`` the file is on disk, as
        Django's own ASGI handler keeps a body; it never holds more than the bound."""
        body = BodyCount(receive, self.limit, self.idle)
        spool = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)
        while not body.complete:
            message = await body.receive()
            if body.refused or message["type"] == "http.disconnect":
                spool.close()
                return body.refused or 400
            spool.write(message.get("body", b""))
        size = spool.tell()
        spool.seek(0)
        return spool, size


class Replay:
    """The server's ``receive`` for a body already read (``spool``, ``size`` bytes): the body in pieces, then
    the server's own messages (a disconnect) as they come."""

    PIECE = 64 * 1024

    def __init__(self, spool, size: int, receive):
        self.spool = spool
        self.left = size
        self.upstream = receive
        self.done = False

    async def receive(self):
        if self.done:
            return await self.upstream()
        piece = self.spool.read(min(self.PIECE, self.left))
        self.left -= len(piece)
        self.done = self.left <= 0 or not piece
        return {"type": "http.request", "body": piece, "more_body": not self.done}


class BodyCount:
    """The server's ``receive``, counted: past the bound, or after ``idle`` seconds without a byte, it
    says the client left and remembers the status to answer."""

    def __init__(self, receive, limit: int, idle: float):
        self.upstream = receive
        self.limit = limit
        self.idle = idle
        self.read = 0
        self.complete = False
        self.refused = 0

    async def receive(self):
        if self.refused:
            return {"type": "http.disconnect"}
        if self.complete:  # after the body: the server's own messages (a disconnect), as they come
            return await self.upstream()
        try:
            message = await asyncio.wait_for(self.upstream(), self.idle)
        except TimeoutError:
            self.refused = 408
            return {"type": "http.disconnect"}
        if message["type"] == "http.request":
            self.read += len(message.get("body", b""))
            if self.read > self.limit:
                self.refused = 413
                return {"type": "http.disconnect"}
            if not message.get("more_body", False):
                self.complete = True
        return message


def declared_body(headers) -> tuple[int | None, bool]:
    """(the declared Content-Length, or None without one; -1 if it is not a number), and whether the
    body is sent in chunks."""
    length, chunked = None, False
    for name, value in headers:
        if name == b"content-length":
            text = value.strip()
            number = int(text) if text.isdigit() else -1
            length = number if length in (None, number) else -1  # two different lengths: not a number either
        elif name == b"transfer-encoding":
            chunked = chunked or b"chunked" in value.lower()
    return length, chunked


async def refuse(scope, send, status: int) -> None:
    """The project's page for a body that was refused, and the connection closed after it (the rest of
    the body is never read)."""
    body = page(scope, status)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]})
    await send({"type": "http.response.body", "body": body})


PAGES: dict[tuple[str, int], bytes] = {}  # the same page for every client of a language


def page(scope, status: int) -> bytes:
    lang = client_language(scope)
    key = (lang, status)
    if key not in PAGES:
        try:
            PAGES[key] = render_page(lang, status)
        except Exception:  # noqa: BLE001 - the refusal stands even when a template cannot be rendered
            return FALLBACK[status].encode()
    return PAGES[key]


FALLBACK = {413: "Слишком большой запрос. / Request too large.",
            408: "Запрос не дочитан. / The request could not be read."}


def client_language(scope) -> str:
    """The client's language as Django's LocaleMiddleware would choose it (cookie, then Accept-Language)."""
    request = HttpRequest()
    for name, value in scope["headers"]:
        if name == b"cookie":
            request.COOKIES = parse_cookie(value.decode("latin-1"))
        elif name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    try:
        return translation.get_language_from_request(request)
    except (LookupError, ValueError):
        return settings.LANGUAGE_CODE


def render_page(lang: str, status: int) -> bytes:
    with translation.override(lang):
        if status == 413:
            return render_to_string("core/too_large.html", {"limit_mb": MAX_BODY_BYTES // (1024 * 1024)}).encode()
        return render_to_string("core/error.html", {
            "code": status, "title": gettext("The request could not be read"),
            "advice": gettext("Go back, reload the page and try again.")}).encode()

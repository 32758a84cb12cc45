"""Budgets that hold before any view runs.

Request bodies: no body larger than ``MAX_BODY_BYTES`` is read. Under the ASGI servers (``manage.py
serve``) ``tracker.core.bodylimit.BoundedBody`` holds the bound around Django, because Django's ASGI
handler reads the whole body before any middleware runs: a larger ``Content-Length`` is answered 413
unread, a chunked body is cut at the bound. Under WSGI (``runserver``) and in the test client Django
reads the body only when asked, and ``BodySizeMiddleware`` answers a larger ``Content-Length`` with the
same 413 page before anything reads it (Django bounds form fields itself, but an uploaded file would
otherwise be streamed to disk whatever its size before the import view could look at it).

``CreationLimitMiddleware``: per-client budget for the requests that create something lasting: games (of every kind, imports
included) and board variants. Anyone on the club's network may create a game, so one browser or
script must not be able to fill the database: each client address may create ``CREATION_LIMIT``
things per ``window`` seconds; the next attempt gets a 429 page that says when to try again, and
nothing is created. The window slides, as an estimate: a count is kept per fixed slot of ``window``
seconds, and the creations of the last ``window`` seconds are taken as this slot's count plus the
previous slot's, weighted by the part of that slot still inside the window (its creations taken as
spread over it). A fixed slot alone let a client that started just before a slot's end create twice
the budget within seconds; the estimate holds a burst to the budget, and in the worst case (a whole
budget at the very end of a slot) lets a little under twice the budget into one real window.

Counted are the creations that happened (a redirect after the POST); a form refused for its input
costs nothing, except an import (``CHARGED_WHEN_REFUSED``): a file is parsed and its whole log replayed
before it can be refused, so a refused file costs its place too, and nobody can have the server check
file after file without bound. A creation takes its place in the budget before the view runs and gives it back if
nothing was created, so creations that arrive together cannot all pass one check. The counter lives
in the ``limits`` cache: a file cache by default, shared by every worker process of the server (its
add and incr are not atomic across processes, so racing processes may let one more through); in
Redis (``DJANGO_CACHE_URL``) add and incr are atomic and the budget is one for every server.
"""
from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import caches
from django.shortcuts import render
from django.urls import Resolver404, resolve

from .registry import Unavailable

MAX_BODY_BYTES = 4 * 1024 * 1024 + 64 * 1024  # tracker.core.transfer.MAX_BYTES and the form around it

# the views that create a game, an imported game or a board variant (URL names)
CREATING_VIEWS = frozenset({"home", "boards", "import_game", "generalissimus:new", "fog_of_war:new", "fog_of_war:maps"})
# the creating views whose refusals cost a place as well: their checking is the expensive part
CHARGED_WHEN_REFUSED = frozenset({"import_game"})


def _budget() -> tuple[int, int] | None:
    limit = getattr(settings, "CREATION_LIMIT", None)
    return tuple(limit) if limit else None


def _keys(request, window: int) -> tuple[str, str, float]:
    """(this slot's key, the previous slot's key, how far into this slot we are, in seconds)."""
    client = request.META.get("REMOTE_ADDR") or "unknown"
    slot, into = divmod(time.time(), window)
    return f"create:{client}:{int(slot)}", f"create:{client}:{int(slot) - 1}", into


EPSILON = 1e-9  # the weights are floats: 2 + 12 * (1 - 20 / 60) is a hair above 10


def _over(count: int, window: int, taken: int, before: int, into: float) -> bool:
    """Are the creations of the last ``window`` seconds more than ``count``, with ``taken`` in this slot (this
    one included) and ``before`` in the previous one?"""
    return taken + before * (1 - into / window) > count + EPSILON


def _wait(count: int, window: int, taken: int, before: int, into: float) -> int:
    """Seconds until one more creation fits (``taken``: this slot's count without the refused one)."""
    if taken < count:  # this slot has room: the previous slot's weight has to fall below it
        at = window * (1 - (count - taken - 1) / before) if before else into
        return max(1, math.ceil(at - into - EPSILON))
    # this slot is full: in the next one it is the previous slot, and its weight has to fall
    at = window * (1 - (count - 1) / taken) if taken else 0
    return max(1, math.ceil(window - into + at - EPSILON))


def _creating_view(request) -> str | None:
    """The URL name of the creating view this request posts to, or None."""
    if request.method != "POST":
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    creates = match.view_name in CREATING_VIEWS or match.view_name in getattr(settings, "CREATING_VIEWS_EXTRA", ())
    return match.view_name if creates else None


class CreationLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        budget = _budget()
        view = _creating_view(request) if budget is not None else None
        if view is None:
            return self.get_response(request)
        count, window = budget
        cache = caches["limits"]
        key, previous, into = _keys(request, window)
        # a place in the budget is taken before the view runs (one atomic add or incr: in Redis, one budget for
        # every server, however many creations arrive at once) and given back unless something was created
        taken = _take(cache, key, window)
        before = cache.get(previous) or 0
        if _over(count, window, taken, before, into):
            _give_back(cache, key)
            wait = _wait(count, window, taken - 1, before, into)
            response = render(request, "core/limited.html", {"count": count, "window": window, "wait": wait},
                              status=429)
            response["Retry-After"] = str(wait)
            return response
        try:
            response = self.get_response(request)
        except BaseException:
            _give_back(cache, key)
            raise
        if not 300 <= response.status_code < 400 and view not in CHARGED_WHEN_REFUSED:
            _give_back(cache, key)  # nothing was created (a refused form): it costs nothing
        return response


def _take(cache, key: str, window: int) -> int:
    """The client's count in this slot after taking one place. A slot's count is kept for two windows: the
    next slot reads it as its previous one."""
    if cache.add(key, 1, 2 * window + 5):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired in between
        cache.add(key, 1, 2 * window + 5)
        return 1


def _give_back(cache, key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:  # the window ended meanwhile: nothing to give back
        pass


class BodySizeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY_BYTES:
            return render(request, "core/too_large.html", {"limit_mb": MAX_BODY_BYTES // (1024 * 1024)}, status=413)
        return self.get_response(request)


class UnavailableGameMiddleware:
    """A game its adapter cannot open (``registry.Unavailable``): a 409 page with the reason."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Unavailable):
            return render(request, "core/unavailable.html", {"reason": str(exception)}, status=409)
        return None

"""ASGI entry point: what ``manage.py serve`` runs (gunicorn with uvicorn workers).

Ordinary views stay synchronous (Django runs each in a thread); at most ``MAX_CONCURRENT_REQUESTS`` of
them run at once in a worker process, the others wait in the event loop (cheap) instead of piling up as
threads on the database. The game streams (``/g/<id>/stream/``, async views) are not counted: they
live for minutes and cost a coroutine each."""
import asyncio
import os
import re

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django_application = get_asgi_application()

from django.conf import settings  # noqa: E402  (after the app registry is ready)

STREAM = re.compile(r"^/g/\d+/stream/$")
_gates: dict = {}


def _gate():
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(settings.MAX_CONCURRENT_REQUESTS)
    return gate


async def application(scope, receive, send):
    if scope["type"] != "http" or settings.MAX_CONCURRENT_REQUESTS <= 0 or STREAM.match(scope.get("path", "")):
        await django_application(scope, receive, send)
        return
    async with _gate():
        await django_application(scope, receive, send)

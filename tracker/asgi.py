"""ASGI entry point: what ``manage.py serve`` runs (gunicorn with uvicorn workers).

The game streams (``tracker.core.stream``) are Django's async views, served by Django's ASGI handler in the
event loop, a thousand open streams costing a thousand small coroutines. Every other request is a plain
synchronous Django request: it is served by Django's WSGI handler on a fixed pool of ``PAGE_THREADS`` threads
per worker process (a2wsgi's WSGI-to-ASGI adapter), as a WSGI server would serve it. Django's ASGI handler
would run each synchronous request on a thread of its own, made for that request, and hop between that thread
and the event loop several times per request (docs/performance.md measures both)."""
import os

from a2wsgi import WSGIMiddleware
from asgiref.sync import iscoroutinefunction
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.urls import Resolver404, resolve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")

streams = get_asgi_application()

from django.conf import settings  # noqa: E402  (once Django is set up)

pages = WSGIMiddleware(get_wsgi_application(), workers=settings.PAGE_THREADS)


def is_async_view(path: str) -> bool:
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


async def route(scope, receive, send):
    """An async view's request (a game's stream) to Django's ASGI handler, any other to the WSGI pool."""
    path = scope.get("path", "")[len(scope.get("root_path", "")):]
    if scope["type"] == "http" and path.endswith("/stream/") and is_async_view(path):
        await streams(scope, receive, send)
    else:
        await pages(scope, receive, send)


from tracker.core.bodylimit import BoundedBody  # noqa: E402  (once Django is set up)

application = BoundedBody(route)  # request bodies bounded before Django reads them

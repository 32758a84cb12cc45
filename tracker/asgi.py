"""ASGI entry point: what ``manage.py serve`` runs (gunicorn with uvicorn workers).

Django's own ASGI handler runs a synchronous site with several hops between the event loop and a thread
per request (a new thread each time, the middleware in it, back to the loop, the view in a thread again).
``PooledASGIHandler`` keeps Django's ASGI request handling but builds the middleware chain as WSGI does
and runs each request's whole chain in one call on a fixed pool of ``MAX_CONCURRENT_REQUESTS`` threads:
one hop per request, no thread created per request, at most that many requests at work per process
(the others wait in the event loop, not as threads on the database), and each pool thread keeps its
database connection as under WSGI. The game streams are async views: the chain returns their response
at once and the event loop serves the stream (``tracker.core.stream``)."""
import os
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402  (after setup)


class PooledASGIHandler(ASGIHandler):
    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=max(1, settings.MAX_CONCURRENT_REQUESTS),
                                       thread_name_prefix="django")
        super().__init__()

    def load_middleware(self, is_async=False):
        BaseHandler.load_middleware(self, is_async=False)  # the synchronous chain, as under WSGI
        chain = self._middleware_chain

        def run(request):
            close_old_connections()  # the request_started/finished work, in the thread that holds the connection
            try:
                return chain(request)
            finally:
                close_old_connections()

        self._middleware_chain = sync_to_async(run, thread_sensitive=False, executor=self.pool)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)  # no per-request thread: the pool serves the chain


application = PooledASGIHandler()

"""ASGI entry point: what ``manage.py serve`` runs (gunicorn with uvicorn workers).

Django's own ASGI handler runs a synchronous site with several hops between the event loop and a thread
per request (a new thread each time, the middleware in it, back to the loop, the view in a thread again).
``PooledASGIHandler`` keeps Django's ASGI request handling but builds the middleware chain as WSGI does
and runs each request's whole chain in one call on a fixed pool of ``MAX_CONCURRENT_REQUESTS`` threads:
one hop per request, no thread created per request, at most that many requests at work per process
(the others wait in the event loop, not as threads on the database), and each pool thread keeps its
database connection as under WSGI. The game streams are async views: the chain returns their response
at once and the event loop serves the stream (``tracker.core.stream``).

The hop is the request's only one: Django's ``handle`` also sends ``request_started`` and closes the response
(``request_finished``) each through ``sync_to_async`` on another thread, and watches for a disconnect with a
second task. Here a plain response's signals, request, chain and close run in the one pool call, in the
thread that holds the database connection; the event loop reads the body and sends the answer. A streaming
response (a game stream, a static file) goes Django's way: its close waits until it has been sent, and a
client that leaves ends it."""
import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.db import close_old_connections
from django.http import FileResponse
from django.urls import set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402  (after setup)


FILE_BLOCK = ASGIHandler.chunk_size


class PooledASGIHandler(ASGIHandler):
    # a plain response's body goes to the server as one message (one write to the socket): a game page with its
    # map is ~100 KB, which Django's 64 KB chunks would send in two
    chunk_size = 2 ** 20

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=max(1, settings.MAX_CONCURRENT_REQUESTS),
                                       thread_name_prefix="django")
        super().__init__()

    def load_middleware(self, is_async=False):
        BaseHandler.load_middleware(self, is_async=False)  # the synchronous chain, as under WSGI

    def _serve(self, scope, body_file):
        """In a pool thread: what Django's ``handle`` does around the middleware chain (request_started, the
        request, the chain; a plain response closed at once: request_finished), in one call."""
        signals.request_started.send(sender=self.__class__, scope=scope)  # reset_queries, close_old_connections
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)  # the chain, as under WSGI (a 4xx/5xx logged)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = FILE_BLOCK  # a static file read in Django's ASGI blocks (64 KB)
        if not response.streaming:
            response.close()  # request_finished: close_old_connections, close_caches
        else:
            close_old_connections()  # a stream holds no database connection while the loop serves it
        return response

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)  # no per-request thread: the pool serves the chain

    async def handle(self, scope, receive, send):
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._serve, thread_sensitive=False, executor=self.pool)(scope, body_file)
            if not response.streaming:
                await self.send_response(response, send)
                return
            await self._stream(response, receive, send)
        finally:
            body_file.close()

    async def _stream(self, response, receive, send):
        """A streaming response, as Django's ``handle`` serves one: sent until it ends or the client leaves,
        then closed (request_finished) in a pool thread."""
        tasks = [asyncio.create_task(self.listen_for_disconnect(receive)),
                 asyncio.create_task(self.send_response(response, send))]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done():
                try:
                    task.result()
                except (RequestAborted, asyncio.CancelledError):
                    pass
            else:
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, RequestAborted):
                    pass
        await sync_to_async(response.close, thread_sensitive=False, executor=self.pool)()


application = PooledASGIHandler()

from tracker.core.bodylimit import BoundedBody  # noqa: E402  (after setup)
application = BoundedBody(application)  # request bodies bounded before Django reads them

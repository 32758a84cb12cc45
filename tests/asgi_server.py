"""The production ASGI app served by uvicorn in a thread of the test process, on a free port of
127.0.0.1, against the test's database (use it with the ``real_db`` fixture, so that every thread
opens the same database). The live stream needs it: Django's own test server is WSGI."""
from __future__ import annotations

import asyncio
import socket
import threading
import time

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connections

from tracker.asgi import application as production_application


class AsgiServer:
    def __init__(self, port: int = 0):
        """``port``: 0 for a free one; a given one to start the server again where phones look for it."""
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # the production app (streams, the per-process bound on requests) with static files as the test server serves them
        application = ASGIStaticFilesHandler(production_application)
        config = uvicorn.Config(application, lifespan="off", log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        try:
            asyncio.run(self.server.serve(sockets=[self.sock]))
        finally:
            connections.close_all()

    def start(self) -> "AsgiServer":
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started, "uvicorn did not start"
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.server.force_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

"""A checkout of this project served for a measure made on any checkout (``bar_turns.py``, ``map_home.py``,
``game_night_taps.py``), so a figure before a change and after it come from the same measure: its own ``manage.py
serve`` (one uvicorn worker, a fresh SQLite file in a temporary folder, a free port), and its own ``manage.py shell``
to set a game up. ``Served`` can stop its server and start it again on the same port and database (a restart
in the middle of a turn)."""
import os
import socket
import subprocess
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """The checkout's ``manage.py serve`` on a fixed port and SQLite file: ``start()``, ``stop()``, ``shell(code)``."""

    def __init__(self, checkout: Path, name: str):
        self.checkout = checkout
        self.python = checkout / ".venv" / "bin" / "python"
        self.tmp = Path(tempfile.mkdtemp(prefix=f"{name}-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.tmp}/db.sqlite3", "DJANGO_SECRET_KEY": name,
                    "DJANGO_CREATION_LIMIT": "0", "LIMITS_CACHE_DIR": str(self.tmp / "limits"),
                    "WEB_ACCESS_LOG": "/dev/null", "DJANGO_LIVE_BUS": "local", "PYTHONPATH": str(checkout)}
        self.server = None
        self.log = None

    def start(self):
        self.log = open(self.tmp / "server.log", "a")
        self.server = subprocess.Popen(
            [str(self.python), "manage.py", "serve", "--bind", f"127.0.0.1:{self.port}", "--workers", "1"],
            cwd=self.checkout, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(120):
            try:
                urllib.request.urlopen(self.url + "/ping/", timeout=2)
                return self
            except OSError:
                time.sleep(0.5)
        raise SystemExit(f"the server did not start: see {self.tmp}/server.log")

    def stop(self):
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=20)
            self.server = None
            self.log.close()

    def shell(self, code: str) -> str:
        """Runs ``code`` in the checkout's Django shell; returns what it printed."""
        return subprocess.run([str(self.python), "manage.py", "shell", "-c", code], cwd=self.checkout, env=self.env,
                              capture_output=True, text=True, check=True).stdout


@contextmanager
def served(checkout: Path, name: str):
    """``(url, shell)`` while the checkout's server runs; ``shell(code)`` runs ``code`` in its Django shell and
    returns what it printed. The checkout needs its own venv (``<checkout>/.venv``)."""
    server = Served(checkout, name).start()
    try:
        yield server.url, server.shell
    finally:
        server.stop()


@contextmanager
def restartable(checkout: Path, name: str):
    """The ``Served`` server of the checkout, running; stopped at the end."""
    server = Served(checkout, name).start()
    try:
        yield server
    finally:
        server.stop()

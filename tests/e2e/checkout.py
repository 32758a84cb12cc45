"""A checkout of this project served for a measure made on any checkout (``bar_turns.py``, ``map_home.py``), so a
figure before a change and after it come from the same measure: its own ``manage.py serve`` (one uvicorn worker, a
fresh SQLite file in a temporary folder, a free port), and its own ``manage.py shell`` to set a game up."""
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


@contextmanager
def served(checkout: Path, name: str):
    """``(url, shell)`` while the checkout's server runs; ``shell(code)`` runs ``code`` in its Django shell and
    returns what it printed. The checkout needs its own venv (``<checkout>/.venv``)."""
    python = checkout / ".venv" / "bin" / "python"
    tmp = Path(tempfile.mkdtemp(prefix=f"{name}-"))
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3", "DJANGO_SECRET_KEY": name,
           "DJANGO_CREATION_LIMIT": "0", "LIMITS_CACHE_DIR": str(tmp / "limits"), "WEB_ACCESS_LOG": "/dev/null",
           "DJANGO_LIVE_BUS": "local", "PYTHONPATH": str(checkout)}
    log = open(tmp / "server.log", "w")
    server = subprocess.Popen([str(python), "manage.py", "serve", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
                              cwd=checkout, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"

    def shell(code: str) -> str:
        return subprocess.run([str(python), "manage.py", "shell", "-c", code], cwd=checkout, env=env,
                              capture_output=True, text=True, check=True).stdout

    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(url + "/ping/", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise SystemExit(f"the server did not start: see {tmp}/server.log")
        yield url, shell
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()

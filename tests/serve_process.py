"""``manage.py serve`` as the club runs it, in a process group of its own, for tests and benchmarks that
need the real server (gunicorn and its uvicorn workers, or the uvicorn-only path): what it read and wrote
(``/proc/<pid>/io``), the temporary files it holds, its open-file limits, its console output.

Linux only (``/proc``). Every server runs on a free port of 127.0.0.1 with ``--no-prepare`` and the
settings of ``tests.serve_settings`` (production settings, static files served without a manifest).
"""
from __future__ import annotations

import http.client
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"


def database_url(connection) -> str:
    """``DATABASE_URL`` for a server on the database a Django connection uses (the test's own, SQLite or
    PostgreSQL), so that the test and the server share it."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user, password = quote(settings.get("USER") or ""), settings.get("PASSWORD")
    login = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
    return f"postgres://{login}{settings.get('HOST') or '127.0.0.1'}:{settings.get('PORT') or 5432}/{settings['NAME']}"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class ServeProcess:
    """One ``manage.py serve``; ``start()`` waits for ``/ping/``, ``stop()`` ends its whole process group.

    ``env``: added to this process's environment (``None`` values remove a variable); ``nofile``: the
    (soft, hard) open-file limits the server starts with; ``root``: the checkout to run (another
    checkout's code, to measure it the same way)."""

    def __init__(self, workdir: Path, *, workers: int = 1, env: dict | None = None, nofile=None,
                 root: Path = ROOT, port: int | None = None, args: tuple[str, ...] = (),
                 settings: str = "tests.serve_settings", pythonpath: tuple[str, ...] = ()):
        self.workdir = Path(workdir)
        self.tmp = self.workdir / "server-tmp"  # the server's TMPDIR: its temporary files are found there
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.root = Path(root)
        self.log_path = self.workdir / f"serve-{self.port}.log"
        self.argv = [PYTHON, str(self.root / "manage.py"), "serve", "--no-prepare", "--bind", f"{HOST}:{self.port}",
                     "--workers", str(workers), *args]
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings, "TMPDIR": str(self.tmp),
                    "DJANGO_SECRET_KEY": "serve-process-tests", "DJANGO_DEBUG": "0",
                    "PYTHONPATH": os.pathsep.join([str(self.root), *pythonpath]),
                    "DATABASE_URL": f"sqlite:///{self.workdir / 'serve.sqlite3'}",
                    "LIMITS_CACHE_DIR": str(self.workdir / "limits")}
        for key in ("BIND", "WEB_WORKERS", "WEB_ACCESS_LOG", "WEB_SERVER", "WEB_CONTROL_SOCKET"):
            self.env.pop(key, None)
        for key, value in (env or {}).items():
            if value is None:
                self.env.pop(key, None)
            else:
                self.env[key] = str(value)
        self.nofile = nofile
        self.proc: subprocess.Popen | None = None

    # --- life -------------------------------------------------------------------------------
    def manage(self, *args: str, timeout: float = 300.0) -> None:
        """Another ``manage.py`` command with the server's settings and database (e.g. ``migrate``)."""
        subprocess.run([PYTHON, str(self.root / "manage.py"), *args], cwd=self.root, env=self.env, check=True,
                       timeout=timeout, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    def start(self, timeout: float = 60.0) -> "ServeProcess":
        log = open(self.log_path, "wb")
        limits = self.nofile

        def child():
            if limits is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, limits)

        self.proc = subprocess.Popen(self.argv, cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=child)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited ({self.proc.returncode}):\n{self.log()}")
            if self.ping(timeout=2) == 200:
                return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"serve did not answer /ping/ within {timeout:.0f} s:\n{self.log()}")

    def stop(self) -> None:
        if self.proc is None:
            return
        for sig, wait in ((signal.SIGTERM, 20.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(wait)
                break
            except subprocess.TimeoutExpired:
                continue
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # no worker outlives its master
        except ProcessLookupError:
            pass
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    # --- requests ---------------------------------------------------------------------------
    def ping(self, timeout: float = 5.0) -> int | None:
        """``GET /ping/``'s status, or None when no answer came within ``timeout``."""
        try:
            conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
            try:
                conn.request("GET", "/ping/")
                return conn.getresponse().status
            finally:
                conn.close()
        except (OSError, http.client.HTTPException):
            return None

    # --- what the processes did -------------------------------------------------------------
    def pids(self) -> list[int]:
        """Every live process of the server's group (the master and its workers)."""
        if self.proc is None:
            return []
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.proc.pid and fields[0] != "Z":
                found.append(int(entry))
        return found

    def io(self) -> dict[int, dict[str, int]]:
        """``/proc/<pid>/io`` of every process of the group: rchar (bytes read, sockets included), wchar
        (bytes written), write_bytes (what reached the disk)."""
        out = {}
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/io") as f:
                    out[pid] = {k: int(v) for k, v in (line.split(": ") for line in f.read().splitlines())}
            except OSError:
                continue
        return out

    def temp_files(self) -> dict[str, int]:
        """The files under the server's TMPDIR its processes hold open (deleted ones included), with sizes."""
        prefix = str(self.tmp)
        sizes = {}
        for pid in self.pids():
            fd_dir = f"/proc/{pid}/fd"
            try:
                fds = os.listdir(fd_dir)
            except OSError:
                continue
            for fd in fds:
                try:
                    target = os.readlink(f"{fd_dir}/{fd}")
                    if not target.startswith(prefix):
                        continue
                    st = os.stat(f"{fd_dir}/{fd}")
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    sizes[f"{pid}:{target}"] = st.st_size
        return sizes

    def limits(self, pid: int) -> tuple[int, int]:
        """(soft, hard) open-file limit of one of its processes."""
        with open(f"/proc/{pid}/limits") as f:
            for line in f:
                if line.startswith("Max open files"):
                    soft, hard = line.split()[3:5]
                    return int(soft), int(hard)
        raise LookupError(pid)


def io_delta(before: dict, after: dict, key: str) -> int:
    """The bytes of ``key`` the processes present both times added."""
    return sum(after[pid][key] - before[pid][key] for pid in after if pid in before)


class TempWatch:
    """The largest temporary file the server held while the block ran (sampled every few ms)."""

    def __init__(self, server: ServeProcess, every: float = 0.005):
        self.server, self.every = server, every
        self.largest = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        while not self.stopped.is_set():
            sizes = self.server.temp_files()
            if sizes:
                self.largest = max(self.largest, max(sizes.values()))
            self.stopped.wait(self.every)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join(5)

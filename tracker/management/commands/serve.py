"""python manage.py serve [--bind 0.0.0.0:8000] [--workers N] [--control-socket auto|none|PATH]

Prepares the app (migrations, static files) and serves it on every interface, so phones on the LAN can
join: gunicorn with uvicorn worker processes (ASGI: the game pages' live streams are async views), or,
where gunicorn cannot run (Windows: no ``fork``, no ``fcntl``) or ``WEB_SERVER=uvicorn`` asks for it,
uvicorn's own worker processes with the same settings. Either way each worker bounds its connections and
the time a request head may take (``tracker.workers``), and the process's open-file limit is first raised
to what the system allows (a desktop's default of 1,024 is a few hundred phones).

Several servers may run on one machine: each gunicorn gets a control socket of its own, named after its
``--bind`` (``gunicornc -s <path>`` reaches that server and no other), or none (``--control-socket none``).
"""
from __future__ import annotations

import importlib.util
import os
import re
import sys

import uvicorn
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from uvicorn.config import LOGGING_CONFIG

from tracker.lan import lan_addresses
from tracker.workers import HeadTimeoutProtocol, connection_bound

KEEP_ALIVE = 75  # phones keep their connections open between taps (as nginx does by default)
GRACEFUL = 10


class Command(BaseCommand):
    help = "Migrate, collect static files and start the server on 0.0.0.0:8000."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default=os.environ.get("BIND", "0.0.0.0:8000"))
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--no-prepare", action="store_true", help="skip migrate and collectstatic")
        parser.add_argument("--control-socket", default=os.environ.get("WEB_CONTROL_SOCKET", "auto"),
                            help="gunicorn's control socket: auto (one per --bind), none, or a path")

    def handle(self, *args, bind, workers, no_prepare, control_socket, **options):
        if not no_prepare:
            call_command("migrate", interactive=False, verbosity=1)
            call_command("collectstatic", interactive=False, verbosity=0)
        files = raise_open_files()
        bound = connection_bound()  # after the raise: the workers inherit the limit
        server, why = chosen_server()
        access_log = os.environ.get("WEB_ACCESS_LOG", "")
        os.environ.setdefault("DJANGO_DB_POOL", "1")  # PostgreSQL: a connection pool per worker (tracker.settings)
        files_text = f"{files:,} open files" if files else "open files as the system allows"
        if server == "gunicorn":
            socket_path = control_socket_path(control_socket, bind)
            control = f"control socket {socket_path}" if socket_path else "no control socket"
            self.announce(bind, f"gunicorn, {workers} uvicorn worker processes, {bound:,} connections each, "
                                f"{files_text}, {control}")
            os.execv(sys.executable, gunicorn_argv(bind, workers, access_log, socket_path))
        self.announce(bind, f"uvicorn, {workers} worker processes, {bound:,} connections each, {files_text}; {why}")
        connections.close_all()  # the workers open their own
        run_uvicorn(bind, workers, access_log, bound)

    def announce(self, bind: str, how: str) -> None:
        port = bind.rsplit(":", 1)[-1]
        self.stdout.write(f"Serving on http://{bind}/ ({how})")
        for addr in lan_addresses():
            self.stdout.write(f"  phones on this network: http://{addr}:{port}/")
        self.stdout.flush()


def chosen_server() -> tuple[str, str]:
    """("gunicorn" or "uvicorn", why uvicorn): ``WEB_SERVER`` (auto, gunicorn, uvicorn), auto meaning gunicorn
    wherever it can run."""
    wanted = os.environ.get("WEB_SERVER", "auto").strip().lower() or "auto"
    if wanted not in ("auto", "gunicorn", "uvicorn"):
        raise CommandError("WEB_SERVER must be auto, gunicorn or uvicorn")
    if wanted == "uvicorn":
        return "uvicorn", "WEB_SERVER=uvicorn"
    missing = [name for name, present in (("fork", hasattr(os, "fork")),
                                          ("fcntl", importlib.util.find_spec("fcntl") is not None)) if not present]
    if missing:
        if wanted == "gunicorn":
            raise CommandError(f"gunicorn cannot run on this system (no {' or '.join(missing)}); "
                               "unset WEB_SERVER to serve with uvicorn")
        return "uvicorn", f"gunicorn cannot run on this system (no {' or '.join(missing)})"
    return "gunicorn", ""


def raise_open_files() -> int | None:
    """Raise the process's open-file (soft) limit to its hard limit; the limit now, or None where the system
    has none to raise (Windows)."""
    try:
        import resource  # optional: not on Windows
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # an unlimited hard limit (macOS) is not a value the kernel takes for open files: as many as it allows
    for wanted in ([hard] if hard != resource.RLIM_INFINITY else [1 << 20, 65536, 10240]):
        if soft != resource.RLIM_INFINITY and soft >= wanted:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            break
        except (ValueError, OSError):
            continue
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def control_socket_path(choice: str, bind: str) -> str | None:
    """gunicorn's control socket for this server: ``auto`` one named after its bind (in gunicorn's own
    directory: ``$XDG_RUNTIME_DIR``, else ``~/.gunicorn``), ``none`` none, else the path given."""
    choice = (choice or "auto").strip()
    if choice.lower() == "none":
        return None
    if choice.lower() != "auto":
        return os.path.abspath(os.path.expanduser(choice))
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    directory = runtime if runtime and os.path.isdir(runtime) else os.path.join(os.path.expanduser("~"), ".gunicorn")
    name = re.sub(r"[^A-Za-z0-9.]+", "-", bind).strip("-")
    return os.path.join(directory, f"companion-{name}.ctl")


def gunicorn_argv(bind: str, workers: int, access_log: str, socket_path: str | None) -> list[str]:
    # without an access log: a worker that does not make a log record for every request (tracker.workers)
    worker = "tracker.workers.LoggingUvicornWorker" if access_log else "tracker.workers.QuietUvicornWorker"
    argv = [sys.executable, "-m", "gunicorn", "tracker.asgi:application", "--bind", bind,
            "--workers", str(workers), "--worker-class", worker, "--graceful-timeout", str(GRACEFUL),
            "--keep-alive", str(KEEP_ALIVE)]
    argv += ["--control-socket", socket_path] if socket_path else ["--no-control-socket"]
    if access_log:
        argv += ["--access-logfile", access_log]
    return argv


def run_uvicorn(bind: str, workers: int, access_log: str, bound: int) -> None:
    """uvicorn's own worker processes (``workers`` > 1) or one process, with the settings gunicorn's get."""
    place = {"uds": bind[5:]} if bind.startswith("unix:") else dict(zip(("host", "port"), split_bind(bind)))
    log_config = {**LOGGING_CONFIG, "handlers": dict(LOGGING_CONFIG["handlers"])}
    if access_log and access_log != "-":
        log_config["handlers"]["access"] = {"class": "logging.FileHandler", "filename": access_log,
                                            "formatter": "access"}
    uvicorn.run("tracker.asgi:application", **place, workers=workers, http=HeadTimeoutProtocol,
                limit_concurrency=bound, timeout_keep_alive=KEEP_ALIVE, timeout_graceful_shutdown=GRACEFUL,
                access_log=bool(access_log), log_config=log_config, log_level="info")


def split_bind(bind: str) -> tuple[str, int]:
    host, _sep, port = bind.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    try:
        return host, int(port)
    except ValueError:
        raise CommandError(f"--bind must be HOST:PORT or unix:PATH, not {bind!r}") from None

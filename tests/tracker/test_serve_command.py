"""``manage.py serve``: the server it becomes, as the club runs it.

- gunicorn with uvicorn workers where gunicorn runs; without ``WEB_ACCESS_LOG`` the workers make no log
  record per request (``tracker.workers.QuietUvicornWorker``), with it they write gunicorn's access log;
- uvicorn's own worker processes where gunicorn cannot run (no ``fork``/``fcntl``: Windows) or when
  ``WEB_SERVER=uvicorn`` asks, with the same bounds, and the console line says which server runs and why;
- several servers on one machine: each its own gunicorn control socket (or none);
- the open-file limit raised to the hard limit, connections bounded per worker, an unfinished request head
  dropped after ``HEAD_SECONDS`` (a real server, both ways).
"""
from __future__ import annotations

import io
import json
import os
import resource
import socket
import subprocess
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from uvicorn_worker import UvicornWorker

from tests.serve_process import HOST, ServeProcess
from tracker import workers
from tracker.management.commands import serve
from tracker.workers import HEAD_SECONDS, HeadTimeoutProtocol, LoggingUvicornWorker, QuietUvicornWorker


@pytest.fixture
def started(monkeypatch, tmp_path):
    """What serve would start: gunicorn's argv (``execv``) or uvicorn's settings (``uvicorn.run``), and its console."""
    seen = {"execv": [], "uvicorn": []}
    monkeypatch.setattr(serve.os, "execv", lambda path, args: seen["execv"].append(args))
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: seen["uvicorn"].append((app, kwargs)))
    monkeypatch.setattr(serve, "lan_addresses", lambda: [])
    monkeypatch.setattr(serve, "raise_open_files", lambda: 4096)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    for name in ("WEB_ACCESS_LOG", "WEB_SERVER", "WEB_CONTROL_SOCKET", "WEB_MAX_CONNECTIONS"):
        monkeypatch.delenv(name, raising=False)

    def run(*args):
        out = io.StringIO()
        call_command("serve", "--no-prepare", *args, stdout=out)
        seen["console"] = out.getvalue()
        return seen
    return run


def option(args, name):
    return args[args.index(name) + 1] if name in args else None


def test_without_an_access_log_the_quiet_worker_serves(started):
    seen = started("--bind", "127.0.0.1:8123", "--workers", "3")
    args = seen["execv"][0]
    assert option(args, "--worker-class") == "tracker.workers.QuietUvicornWorker"
    assert option(args, "--access-logfile") is None
    assert option(args, "--bind") == "127.0.0.1:8123" and option(args, "--workers") == "3"
    assert option(args, "--keep-alive") == "75"
    assert seen["console"].startswith("Serving on http://127.0.0.1:8123/ (gunicorn, 3 uvicorn worker processes")


@pytest.mark.parametrize("target", ["-", "/var/log/companion-access.log"])
def test_an_access_log_asked_for_is_written_by_the_logging_worker(started, monkeypatch, target):
    monkeypatch.setenv("WEB_ACCESS_LOG", target)
    args = started()["execv"][0]
    assert option(args, "--worker-class") == "tracker.workers.LoggingUvicornWorker"
    assert option(args, "--access-logfile") == target


def test_the_workers_are_uvicorn_s_with_the_bounds():
    assert issubclass(QuietUvicornWorker, UvicornWorker) and issubclass(LoggingUvicornWorker, UvicornWorker)
    assert LoggingUvicornWorker.CONFIG_KWARGS == {**UvicornWorker.CONFIG_KWARGS, "http": HeadTimeoutProtocol,
                                                  "limit_concurrency": workers.connection_bound()}
    assert QuietUvicornWorker.CONFIG_KWARGS == {**LoggingUvicornWorker.CONFIG_KWARGS, "access_log": False}


def test_each_bind_has_its_own_control_socket_or_none(started, monkeypatch, tmp_path):
    a = option(started("--bind", "127.0.0.1:8001")["execv"][-1], "--control-socket")
    b = option(started("--bind", "127.0.0.1:8002")["execv"][-1], "--control-socket")
    assert a != b and os.path.dirname(a) == os.path.dirname(b) == str(tmp_path)
    assert "8001" in os.path.basename(a) and "8002" in os.path.basename(b)
    args = started("--bind", "127.0.0.1:8003", "--control-socket", "none")["execv"][-1]
    assert "--no-control-socket" in args and "--control-socket" not in args
    monkeypatch.setenv("WEB_CONTROL_SOCKET", str(tmp_path / "mine.ctl"))
    assert option(started()["execv"][-1], "--control-socket") == str(tmp_path / "mine.ctl")


def test_without_a_runtime_directory_the_socket_is_in_gunicorn_s_own(started, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "absent"))
    monkeypatch.setenv("HOME", str(tmp_path))
    path = option(started("--bind", "0.0.0.0:8000")["execv"][0], "--control-socket")
    assert path == str(tmp_path / ".gunicorn" / "companion-0.0.0.0-8000.ctl")


def test_asked_for_uvicorn_serves_uvicorn_s_workers_with_the_same_settings(started, monkeypatch):
    monkeypatch.setenv("WEB_SERVER", "uvicorn")
    monkeypatch.setenv("WEB_MAX_CONNECTIONS", "300")
    seen = started("--bind", "0.0.0.0:8010", "--workers", "3")
    assert seen["execv"] == []
    app, kwargs = seen["uvicorn"][0]
    assert app == "tracker.asgi:application"
    assert (kwargs["host"], kwargs["port"], kwargs["workers"]) == ("0.0.0.0", 8010, 3)
    assert kwargs["http"] is HeadTimeoutProtocol and kwargs["limit_concurrency"] == 300
    assert kwargs["timeout_keep_alive"] == 75 and kwargs["timeout_graceful_shutdown"] == 10
    assert kwargs["access_log"] is False
    assert seen["console"].startswith("Serving on http://0.0.0.0:8010/ (uvicorn, 3 worker processes, 300 connections "
                                      "each") and "WEB_SERVER=uvicorn" in seen["console"]


@pytest.mark.parametrize("missing", ["fork", "fcntl"])
def test_where_gunicorn_cannot_run_serve_falls_back_to_uvicorn_and_says_why(started, monkeypatch, missing):
    if missing == "fork":
        monkeypatch.delattr(os, "fork")
    else:
        real = serve.importlib.util.find_spec
        monkeypatch.setattr(serve.importlib.util, "find_spec", lambda name: None if name == "fcntl" else real(name))
    seen = started("--bind", "127.0.0.1:8011")
    assert seen["execv"] == [] and seen["uvicorn"]
    assert f"gunicorn cannot run on this system (no {missing})" in seen["console"]
    assert "(uvicorn, 2 worker processes" in seen["console"]
    monkeypatch.setenv("WEB_SERVER", "gunicorn")
    with pytest.raises(CommandError, match="gunicorn cannot run"):
        started()


def test_a_bind_uvicorn_cannot_read_is_a_command_error(started, monkeypatch):
    monkeypatch.setenv("WEB_SERVER", "uvicorn")
    with pytest.raises(CommandError):
        started("--bind", "localhost:port")
    monkeypatch.setenv("WEB_SERVER", "nginx")
    with pytest.raises(CommandError):
        started()


@pytest.mark.parametrize(("files", "explicit", "bound"), [
    (1024, "", 1024 - workers.FILES_KEPT), (20_000, "", workers.MAX_CONNECTIONS), (100, "", 16), (1024, "50", 50)])
def test_the_connection_bound_follows_the_open_file_limit(monkeypatch, files, explicit, bound):
    monkeypatch.setattr(workers, "open_files_limit", lambda: files)
    monkeypatch.setenv("WEB_MAX_CONNECTIONS", explicit)
    assert workers.connection_bound() == bound


# --- real servers ---------------------------------------------------------------------------

def half_open(port: int, n: int) -> list[socket.socket]:
    """``n`` connections that each send the start of a request head and nothing more."""
    socks = []
    for _i in range(n):
        s = socket.create_connection((HOST, port), timeout=5)
        s.sendall(b"GET /ping/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        socks.append(s)
    return socks


def still_open(socks) -> int:
    """How many of the connections the server has not closed."""
    n = 0
    for s in socks:
        s.setblocking(False)
        try:
            n += s.recv(1) != b""
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


def ctl(path: str, command: str) -> dict:
    out = subprocess.run([os.path.join(os.path.dirname(serve.sys.executable), "gunicornc"), "-s", path, "-c",
                          command, "-j"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_two_servers_on_one_machine_each_keep_their_own_control_socket(tmp_path):
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {"XDG_RUNTIME_DIR": str(runtime)}
    a = ServeProcess(tmp_path / "a", env=env).start()
    try:
        b = ServeProcess(tmp_path / "b", env=env).start()
        try:
            paths = {s.port: serve.control_socket_path("auto", f"{HOST}:{s.port}") for s in (a, b)}
            paths = {port: str(runtime / os.path.basename(p)) for port, p in paths.items()}
            assert sorted(os.listdir(runtime)) == sorted(os.path.basename(p) for p in paths.values())
            for port, path in paths.items():  # each socket reaches its own server
                listeners = ctl(path, "show listeners")["listeners"]
                assert [item["address"] for item in listeners] == [f"http://{HOST}:{port}"]
        finally:
            b.stop()
        assert os.path.exists(paths[a.port]) and not os.path.exists(paths[b.port])  # stopping B left A's alone
        assert a.ping() == 200
        assert ctl(paths[a.port], "show listeners")["count"] == 1
    finally:
        a.stop()


@pytest.mark.parametrize("server", ["gunicorn", "uvicorn"])
def test_a_real_server_raises_its_open_files_bounds_connections_and_drops_unfinished_heads(tmp_path, server):
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    env = {"WEB_MAX_CONNECTIONS": "40", **({"WEB_SERVER": "uvicorn"} if server == "uvicorn" else {})}
    with ServeProcess(tmp_path, workers=1, env=env, nofile=(min(1024, hard), hard)) as s:
        assert f"({server}," in s.log()
        assert all(s.limits(pid) == (hard, hard) for pid in s.pids())  # raised to what the system allows
        # unfinished heads: all still open at first, all dropped a few seconds later; /ping/ answers meanwhile
        slow = half_open(s.port, 30)
        time.sleep(0.5)
        assert still_open(slow) == 30
        assert s.ping() == 200
        time.sleep(HEAD_SECONDS + 1.5)
        assert still_open(slow) == 0
        assert s.ping() == 200
        # more unfinished heads than the bound: the oldest make room for the newer, and a whole request is served
        slow = half_open(s.port, 60)
        time.sleep(0.5)
        assert s.ping() == 200
        assert still_open(slow) <= 40
        for c in slow:
            c.close()
        # the connection bound: 40 held (each after a finished request, kept alive), then a request gets a 503 at once
        held = []
        for _i in range(40):
            c = socket.create_connection((HOST, s.port), timeout=5)
            c.sendall(b"GET /ping/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            c.recv(4096)
            held.append(c)
        assert s.ping() == 503
        for c in held:
            c.close()
        time.sleep(0.5)
        assert s.ping() == 200

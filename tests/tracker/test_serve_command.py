"""``manage.py serve``: the gunicorn command it becomes. Without ``WEB_ACCESS_LOG`` the workers make no log
record per request (``tracker.workers.QuietUvicornWorker``); with it, uvicorn's worker writes gunicorn's access log."""
import pytest
from django.core.management import call_command
from uvicorn_worker import UvicornWorker

from tracker.management.commands import serve
from tracker.workers import QuietUvicornWorker


@pytest.fixture
def argv(monkeypatch):
    seen = []
    monkeypatch.setattr(serve.os, "execv", lambda path, args: seen.append(args))
    monkeypatch.setattr(serve, "lan_addresses", lambda: [])
    return seen


def option(args, name):
    return args[args.index(name) + 1] if name in args else None


def test_without_an_access_log_the_quiet_worker_serves(argv, monkeypatch):
    monkeypatch.delenv("WEB_ACCESS_LOG", raising=False)
    call_command("serve", "--no-prepare", "--bind", "127.0.0.1:8123", "--workers", "3")
    args = argv[0]
    assert option(args, "--worker-class") == "tracker.workers.QuietUvicornWorker"
    assert option(args, "--access-logfile") is None
    assert option(args, "--bind") == "127.0.0.1:8123" and option(args, "--workers") == "3"


@pytest.mark.parametrize("target", ["-", "/var/log/companion-access.log"])
def test_an_access_log_asked_for_is_written_by_uvicorn_s_worker(argv, monkeypatch, target):
    monkeypatch.setenv("WEB_ACCESS_LOG", target)
    call_command("serve", "--no-prepare")
    args = argv[0]
    assert option(args, "--worker-class") == "uvicorn_worker.UvicornWorker"
    assert option(args, "--access-logfile") == target


def test_the_quiet_worker_is_uvicorn_s_worker_without_its_access_log():
    assert issubclass(QuietUvicornWorker, UvicornWorker)
    assert QuietUvicornWorker.CONFIG_KWARGS == {**UvicornWorker.CONFIG_KWARGS, "access_log": False}

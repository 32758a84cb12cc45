"""Request bodies are bounded before the server reads them, under every server ``manage.py serve`` runs.

A 64 MB body, sent with its ``Content-Length`` and sent in chunks without one, to ``POST /import/`` of a
real ``serve`` (gunicorn with uvicorn workers, and the uvicorn-only path): the answer is the 413 page,
the server's processes read at most the bound of it (``/proc/<pid>/io``), wrote at most that, and held no
temporary file larger than the bound. The figures are printed (``pytest -s``). The ASGI middleware's own
rules (a stalled body, a body within the bound, the language of the page) are checked in-process.
"""
from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.serve_process import ServeProcess, TempWatch, io_delta
from tracker.core import bodylimit
from tracker.core.limits import MAX_BODY_BYTES

from .test_live import in_own_thread

BIG = 64 * 1024 * 1024
BLOCK = b"x" * (64 * 1024)
MARGIN = 1024 * 1024  # the head, the page, a socket buffer or two


def send_body(port: int, total: int, chunked: bool, path: str = "/import/") -> dict:
    """POST ``total`` bytes; returns the status the server answered (None if none could be read), the bytes
    the client got into the connection before the server closed it, and the seconds it took."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 256 * 1024)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
            f"{framing}\r\n\r\n").encode()
    answer = bytearray()
    done = threading.Event()

    def read():
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                answer.extend(data)
        except OSError:
            pass
        finally:
            done.set()

    reader = threading.Thread(target=read, daemon=True)
    started = time.perf_counter()
    sent = 0
    try:
        sock.sendall(head)
        reader.start()
        while sent < total and not done.is_set():
            block = BLOCK[:min(len(BLOCK), total - sent)]
            sock.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
            sent += len(block)
        if chunked and not done.is_set():
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server closed the connection: the rest was never taken
    done.wait(30)
    took = time.perf_counter() - started
    sock.close()
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None
    return {"status": status, "sent": sent, "seconds": took, "answer": bytes(answer[:4000])}


def measured_upload(server: ServeProcess, chunked: bool) -> dict:
    before = server.io()
    with TempWatch(server) as temp:
        result = send_body(server.port, BIG, chunked)
        time.sleep(0.3)  # the worker finishes with the request
    after = server.io()
    result.update(read=io_delta(before, after, "rchar"), written=io_delta(before, after, "wchar"),
                  largest_temp=temp.largest)
    return result


@pytest.fixture(scope="module", params=["gunicorn", "uvicorn"])
def server(request, tmp_path_factory):
    env = {"WEB_SERVER": "uvicorn"} if request.param == "uvicorn" else {}
    with ServeProcess(tmp_path_factory.mktemp("bodies"), workers=1, env=env) as s:
        # the refusal page rendered once, and every module a refusal needs imported, before anything is measured
        send_body(s.port, MAX_BODY_BYTES + 1, chunked=False)
        send_body(s.port, MAX_BODY_BYTES + 2 * len(BLOCK), chunked=True)
        yield request.param, s


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_64_mb_body_is_refused_before_it_is_read(server, chunked):
    kind, s = server
    r = measured_upload(s, chunked)
    print(f"\n  {kind}, 64 MB {'chunked' if chunked else 'with Content-Length'}: answer {r['status']} in "
          f"{r['seconds'] * 1000:.0f} ms; the client got {r['sent'] / 2 ** 20:.1f} MB into the connection; the "
          f"server read {r['read'] / 2 ** 20:.2f} MB, wrote {r['written'] / 2 ** 20:.2f} MB, largest temporary "
          f"file {r['largest_temp'] / 2 ** 20:.2f} MB (bound {MAX_BODY_BYTES / 2 ** 20:.2f} MB)")
    assert r["status"] == 413, r["answer"][:300]
    assert "Слишком большой запрос".encode() in r["answer"] or b"Too large" in r["answer"]
    if chunked:  # counted as it came: cut at the bound
        assert r["read"] <= MAX_BODY_BYTES + MARGIN
        assert r["written"] <= MAX_BODY_BYTES + MARGIN
    else:  # refused by its length: nothing of it read
        assert r["read"] <= MARGIN
        assert r["written"] <= MARGIN
    assert r["largest_temp"] <= MAX_BODY_BYTES
    assert s.ping() == 200  # the server serves on


# --- the middleware in-process -------------------------------------------------------------

def run_asgi(app, headers, messages, *, idle=None):
    """(status, body, what the app received) of one request through ``BoundedBody(app)``."""
    sent, received = [], []
    queue = list(messages)

    async def receive():
        if queue:
            item = queue.pop(0)
            if item == "stall":
                await asyncio.sleep(3600)
            return item
        await asyncio.sleep(3600)

    async def send(message):
        sent.append(message)

    async def recording_app(scope, receive, send):
        while True:
            message = await receive()
            received.append(message)
            if message["type"] == "http.disconnect" or not message.get("more_body"):
                break
        if received[-1]["type"] == "http.disconnect":
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    bounded = bodylimit.BoundedBody(recording_app if app is None else app, limit=1000,
                                    idle=idle if idle is not None else 5)
    scope = {"type": "http", "method": "POST", "path": "/import/", "headers": headers}
    in_own_thread(lambda: asyncio.run(bounded(scope, receive, send)))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body, received


def chunk(n, more=True):
    return {"type": "http.request", "body": b"y" * n, "more_body": more}


def test_a_body_within_the_bound_reaches_the_app_whole():
    status, _headers, body, received = run_asgi(None, [(b"transfer-encoding", b"chunked")],
                                                [chunk(600), chunk(400, more=False)])
    assert (status, body) == (200, b"ok")
    assert sum(len(m["body"]) for m in received) == 1000


def test_a_chunked_body_past_the_bound_is_cut_and_refused():
    status, headers, body, received = run_asgi(None, [(b"transfer-encoding", b"chunked")],
                                               [chunk(600), chunk(600), chunk(600, more=False)])
    assert status == 413 and headers[b"connection"] == b"close"
    assert received == []  # the body is read before the application: it never ran


def test_a_chunked_body_within_the_bound_reaches_the_app_with_its_length():
    seen = {}

    async def app(scope, receive, send):
        seen["headers"] = dict(scope["headers"])
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        seen["body"] = body
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    status, _headers, body, _received = run_asgi(app, [(b"transfer-encoding", b"chunked")],
                                                 [chunk(300), chunk(300), chunk(100, more=False)])
    assert (status, body) == (200, b"ok")
    assert seen["body"] == b"y" * 700
    assert seen["headers"][b"content-length"] == b"700" and b"transfer-encoding" not in seen["headers"]


@pytest.mark.parametrize("length", [b"1001", b"99999999999999999999", b"-1", b"12x", b" "])
def test_a_content_length_over_the_bound_or_unreadable_is_refused_unread(length):
    status, headers, body, received = run_asgi(None, [(b"content-length", length)], [chunk(10, more=False)])
    assert status == 413 and received == [] and headers[b"connection"] == b"close"


def test_two_different_lengths_are_refused():
    status, _h, _b, received = run_asgi(None, [(b"content-length", b"10"), (b"content-length", b"20")],
                                        [chunk(10, more=False)])
    assert status == 413 and received == []


def test_a_body_that_stops_arriving_is_answered_408():
    status, headers, body, received = run_asgi(None, [(b"content-length", b"900")], [chunk(100), "stall"],
                                               idle=0.2)
    assert status == 408 and headers[b"connection"] == b"close"
    assert received[-1] == {"type": "http.disconnect"}


def test_a_request_without_a_body_passes_untouched():
    calls = []

    async def app(scope, receive, send):
        calls.append(await receive())
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    status, _h, _b, _r = run_asgi(app, [], [{"type": "http.request", "body": b"", "more_body": False}])
    assert status == 204 and calls == [{"type": "http.request", "body": b"", "more_body": False}]


@pytest.mark.parametrize(("headers", "words"), [
    ([(b"accept-language", b"en-GB,en;q=0.9")], "The server accepts at most 4 MB"),
    ([(b"accept-language", b"ru")], "Сервер принимает"),
    ([(b"accept-language", b"en"), (b"cookie", b"django_language=ru")], "Сервер принимает"),
])
def test_the_413_page_speaks_the_client_s_language(headers, words):
    bodylimit.PAGES.clear()
    status, _h, body, _r = run_asgi(None, [(b"content-length", b"5000"), *headers], [])
    assert status == 413 and words in body.decode()


def test_the_test_client_and_wsgi_are_bounded_by_the_middleware():
    """Django's test client (WSGI): a larger Content-Length gets the same 413 page before anything is read."""
    response = Client().generic("POST", reverse("import_game"), b"x" * 10, content_type="application/json",
                                CONTENT_LENGTH=str(MAX_BODY_BYTES + 1))
    assert response.status_code == 413

"""The hostile probe's figures, measured on the production server (``manage.py serve``) of a checkout.

    .venv/bin/python tests/load/hostile.py [--root CHECKOUT] [--only bodies,imports,half-open,revoked]
        [--connections 2300] [--files 1024] [--hard-files N] [--workers 2]

Each part starts its own ``serve`` on a free port of 127.0.0.1 (SQLite in a throw-away directory), prints
what it measured, and stops it:

- ``bodies``: ``POST /import/`` with 64 MB, once with its ``Content-Length`` and once in chunks without one:
  the answer, and what the server's processes read (``rchar`` of ``/proc/<pid>/io``), wrote (``wchar``) and
  held as their largest temporary file;
- ``imports``: a phone of one game makes moves (the baseline), then three hostile imports are posted at once
  (10,000 events: a move undone and redone, the state one VP off) while the phone goes on, then one
  legitimate file of the same size: the answers and the move times, every phase in the same run;
- ``half-open``: the server starts with an open-file limit of ``--files`` (soft; the hard limit stays the
  machine's, or ``--hard-files``); ``--connections`` connections each send half a request head and stay; then
  ``GET /ping/`` five times (each may take 5 s), and once more after ten seconds;
- ``revoked``: a seat's phone holds its game's stream (several, spread over the workers), the host makes a
  new link for that seat: how long until every stream of the old link has ended (at most 30 s are waited).

``--root`` runs another checkout's code (e.g. an older commit unpacked with ``git archive``) with this
script and this virtualenv, so two versions can be measured one after the other. The figures are printed;
nothing is asserted (the machines are shared and noisy)."""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from tests.serve_process import HOST, ServeProcess, TempWatch, io_delta  # noqa: E402

BIG = 64 * 1024 * 1024
BLOCK = b"x" * (64 * 1024)
SETTINGS = '''from tracker.settings import *  # noqa
from tracker.settings import STORAGES
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
'''
QMG_FORM = {"players": "2", "default_seating": "on", "seat_germany": "1", "seat_united_kingdom": "2",
            "seat_japan": "1", "seat_soviet_union": "2", "seat_italy": "1", "seat_united_states": "2", "name": "Probe"}
TURN = ({"command": "play_card", "card_type": "discard_unused"}, {"command": "end_play"}, {"command": "supply"},
        {"command": "score"}, {"command": "discard", "n": "0"}, {"command": "draw"})


# --- a browser without a browser ----------------------------------------------------------

class Browser:
    """Cookies, CSRF and htmx headers over http.client, one connection per request."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 120.0) -> tuple[int, dict, bytes, float]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        head = {"Host": f"{HOST}:{self.port}", "Referer": f"http://{HOST}:{self.port}/", **(headers or {})}
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies and method == "POST":
            head["X-CSRFToken"] = self.cookies["csrftoken"]
        t0 = time.perf_counter()
        conn.request(method, path, body, head)
        response = conn.getresponse()
        data = response.read()
        took = time.perf_counter() - t0
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _sep, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        conn.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data, took

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post(self, path: str, fields: dict, htmx: bool = False, **kw):
        headers = {"Content-Type": "application/x-www-form-urlencoded", **({"HX-Request": "true"} if htmx else {})}
        return self.request("POST", path, urllib.parse.urlencode(fields).encode(), headers, **kw)

    def post_file(self, path: str, data: bytes, **kw):
        boundary = "----probe-boundary"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n"
                f"{self.cookies.get('csrftoken', '')}\r\n--{boundary}\r\nContent-Disposition: form-data; "
                f"name=\"file\"; filename=\"game.json\"\r\nContent-Type: application/json\r\n\r\n").encode() \
            + data + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}, **kw)


def new_game(port: int) -> tuple[Browser, int]:
    """A two-player QMG game created through the new-game form; its host's browser and its number."""
    host = Browser(port)
    host.get("/")
    status, headers, _body, _t = host.post("/", QMG_FORM)
    assert status == 302, status
    pk = int(re.search(r"/g/(\d+)/", headers["location"]).group(1))
    host.get(f"/g/{pk}/")
    return host, pk


def version_of(browser: Browser, pk: int) -> int:
    _s, _h, body, _t = browser.get(f"/g/{pk}/")
    return int(re.search(rb'data-version="(\d+)"', body).group(1))


# --- parts ---------------------------------------------------------------------------------

def send_body(port: int, total: int, chunked: bool) -> dict:
    sock = socket.create_connection((HOST, port), timeout=30)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
    sock.sendall(f"POST /import/ HTTP/1.1\r\nHost: {HOST}\r\n{framing}\r\n\r\n".encode())
    answer, done, answered = bytearray(), threading.Event(), []

    def read():
        try:
            while data := sock.recv(65536):
                if not answer:
                    answered.append(time.perf_counter() - t0)
                answer.extend(data)
                if b"\r\n\r\n" in answer:
                    break  # the answer's head is all this needs
        except OSError:
            pass
        done.set()

    sent, t0 = 0, time.perf_counter()
    threading.Thread(target=read, daemon=True).start()
    try:
        while sent < total and not done.is_set():
            sock.sendall(b"%x\r\n%s\r\n" % (len(BLOCK), BLOCK) if chunked else BLOCK)
            sent += len(BLOCK)
        if chunked and not done.is_set():
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    done.wait(60)
    sock.close()
    status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/") else "none"
    return {"status": status, "sent": sent, "seconds": answered[0] if answered else time.perf_counter() - t0}


def part_bodies(args, work: Path) -> None:
    with server(args, work / "bodies") as s:
        for _i in range(4 * args.workers):  # the refusal's page and modules loaded once in every worker
            send_body(s.port, 5 * 1024 * 1024, chunked=False)
        for chunked in (False, True):
            before = s.io()
            with TempWatch(s) as temp:
                r = send_body(s.port, BIG, chunked)
                time.sleep(0.5)
            after = s.io()
            print(f"  64 MB {'chunked' if chunked else 'with Content-Length'}: answer {r['status']} after "
                  f"{r['seconds']:.2f} s; the client got {r['sent'] / 2 ** 20:.1f} MB into the connection; the server "
                  f"read {io_delta(before, after, 'rchar') / 2 ** 20:.2f} MB, wrote "
                  f"{io_delta(before, after, 'wchar') / 2 ** 20:.2f} MB, largest temporary file "
                  f"{temp.largest / 2 ** 20:.2f} MB", flush=True)


def hostile_file(host: Browser, pk: int, wrong: bool = True) -> bytes:
    """The game's export with one move undone and redone to 10,000 events, the state one VP off (``wrong``) or
    as it is (a legitimate file of the same size)."""
    status, _h, body, _t = host.get(f"/g/{pk}/export/")
    assert status == 200, status
    doc = json.loads(body)
    move = doc["events"][-1]
    undo = {**move, "kind": "undo", "target": move["seq"], "command": {}, "summary_ru": "Отменено: армия.",
            "summary_en": "Undone: an army."}
    redo = {**undo, "kind": "redo", "summary_ru": "Возвращено: армия.", "summary_en": "Redone: an army."}
    doc["events"] += [{**(undo if i % 2 else redo), "seq": seq}
                      for i, seq in enumerate(range(len(doc["events"]) + 1, 10_001), 1)]
    doc["game"]["version"] = len(doc["events"])
    doc["state"]["vp"]["axis"] += 1 if wrong else 0
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def part_imports(args, work: Path) -> None:
    with server(args, work / "imports", migrate=True) as s:
        host, pk = new_game(s.port)
        host.post(f"/g/{pk}/command/", {"command": "play_card", "card_type": "build_army", "space": "eastern_europe",
                                        "version": version_of(host, pk)}, htmx=True)
        data = hostile_file(host, pk)
        legitimate = hostile_file(host, pk, wrong=False)
        player, other = new_game(s.port)
        taps = [0]

        def move():
            version = version_of(player, other)
            status, _h, _b, took = player.post(f"/g/{other}/command/", {**TURN[taps[0] % len(TURN)],
                                                                       "version": version}, htmx=True)
            taps[0] += 1
            return status, took

        baseline = [move() for _i in range(20)]
        answers, barrier = [], threading.Barrier(4)

        def hostile():
            b = Browser(s.port)
            b.get("/import/")
            barrier.wait()
            status, _h, _b, took = b.post_file("/import/", data)
            answers.append((status, took))

        threads = [threading.Thread(target=hostile) for _i in range(3)]
        for t in threads:
            t.start()
        barrier.wait()
        during = []
        while any(t.is_alive() for t in threads) or len(during) < 10:
            during.append(move())
        for t in threads:
            t.join()
        accepted = []
        importer = Browser(s.port)
        importer.get("/import/")
        thread = threading.Thread(target=lambda: accepted.append(importer.post_file("/import/", legitimate)))
        thread.start()
        while_accepted = []
        while thread.is_alive() or len(while_accepted) < 5:
            while_accepted.append(move())
        thread.join()
        print(f"  three hostile imports ({len(data) / 2 ** 20:.1f} MB, 10,000 events) at once: "
              f"{', '.join(f'{st} after {t:.1f} s' for st, t in sorted(answers))}", flush=True)
        print(f"  then a legitimate file of the same size: {accepted[0][0]} after {accepted[0][3]:.1f} s", flush=True)
        for name, moves in (("baseline (same run, before the imports)", baseline), ("during the imports", during),
                            ("during the legitimate import", while_accepted)):
            ms = sorted(t * 1000 for _s, t in moves)
            statuses = sorted({st for st, _t in moves})
            print(f"  a move in another game, {name}: {len(ms)} moves, statuses {statuses}, median "
                  f"{statistics.median(ms):.0f} ms, p90 {ms[max(0, int(len(ms) * 0.9) - 1)]:.0f} ms, "
                  f"max {ms[-1]:.0f} ms", flush=True)


def part_half_open(args, work: Path) -> None:
    hard = args.hard_files or resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    with server(args, work / "half-open", nofile=(args.files, hard)) as s:
        limits = sorted({s.limits(pid) for pid in s.pids()})
        socks = []
        for _i in range(args.connections):
            try:
                c = socket.create_connection((HOST, s.port), timeout=5)
                c.sendall(b"GET /ping/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                socks.append(c)
            except OSError:
                break
        time.sleep(1.0)
        first = [s.ping(timeout=5) for _i in range(5)]
        time.sleep(10)
        later = s.ping(timeout=5)
        still = 0
        for c in socks:
            c.setblocking(False)
            try:
                still += c.recv(1) != b""
            except BlockingIOError:
                still += 1
            except OSError:
                pass
            c.close()
        print(f"  open-file limits (soft, hard) of the server's processes: {limits}; {len(socks)} half-open "
              f"connections: /ping/ {sum(x == 200 for x in first)} of 5 ({first}); 10 s later "
              f"{later}; connections the server still held then: {still}", flush=True)


def part_revoked(args, work: Path) -> None:
    with server(args, work / "revoked", migrate=True) as s:
        host, pk = new_game(s.port)
        _st, _h, body, _t = host.get(f"/g/{pk}/seats/")
        token = re.search(rb"/join/([A-Za-z0-9_-]+)/", body).group(1).decode()
        seat_id = re.search(rb'name="seat" value="(\d+)"', body).group(1).decode()
        phone = Browser(s.port)
        phone.get(f"/join/{token}/")
        streams = []
        for _i in range(6):  # spread over the workers
            c = socket.create_connection((HOST, s.port), timeout=40)
            c.sendall(f"GET /g/{pk}/stream/ HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\nCookie: "
                      f"{'; '.join(f'{k}={v}' for k, v in phone.cookies.items())}\r\n\r\n".encode())
            streams.append(c)
        time.sleep(1.0)
        ended, t0 = {}, time.perf_counter()

        def watch(i, c):
            data = b""
            try:
                while chunk := c.recv(65536):
                    data += chunk
                    if data.endswith(b"0\r\n\r\n"):
                        break
            except OSError:
                pass
            ended[i] = time.perf_counter() - t0

        threads = [threading.Thread(target=watch, args=(i, c), daemon=True) for i, c in enumerate(streams)]
        for t in threads:
            t.start()
        t0 = time.perf_counter()
        status, _h, _b, _t = host.post(f"/g/{pk}/seats/", {"seat": seat_id, "confirm": "yes"})
        for t in threads:
            t.join(30)
        closed = sorted(ended.values())
        print(f"  a new link for the seat (answer {status}): {len(closed)} of {len(streams)} streams of the old link "
              f"ended, the last after {closed[-1] * 1000:.0f} ms" if closed else
              f"  a new link for the seat (answer {status}): none of the {len(streams)} streams of the old link "
              "ended within 30 s", flush=True)
        for c in streams:
            c.close()


# --- the server ----------------------------------------------------------------------------

class server:
    def __init__(self, args, work: Path, migrate: bool = False, nofile=None):
        work.mkdir(parents=True, exist_ok=True)
        (work / "probe_settings.py").write_text(SETTINGS)
        runtime = work / "run"  # gunicorn's control socket, where no other server on the machine has one
        runtime.mkdir(mode=0o700, exist_ok=True)
        self.s = ServeProcess(work, workers=args.workers, root=args.root, nofile=nofile, settings="probe_settings",
                              pythonpath=(str(work),),
                              env={"DJANGO_CREATION_LIMIT": "0", "XDG_RUNTIME_DIR": str(runtime)})
        self.migrate = migrate

    def __enter__(self) -> ServeProcess:
        if self.migrate:
            self.s.manage("migrate", "--noinput", "-v0")
        return self.s.start()

    def __exit__(self, *exc):
        self.s.stop()


PARTS = {"bodies": part_bodies, "imports": part_imports, "half-open": part_half_open, "revoked": part_revoked}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", type=Path, default=HERE.parent.parent, help="the checkout to run")
    p.add_argument("--only", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    p.add_argument("--connections", type=int, default=2300)
    p.add_argument("--files", type=int, default=1024, help="the server's soft open-file limit at start (half-open)")
    p.add_argument("--hard-files", type=int, default=0, help="its hard limit (default: this machine's)")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # this process holds the half-open connections
    if soft < min(hard, args.connections + 512):
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.connections + 512), hard))
    work = Path(tempfile.mkdtemp(prefix="hostile-"))
    try:
        print(f"hostile probe of {args.root} (serve, {args.workers} workers, {os.cpu_count()} cores)", flush=True)
        for name in args.only.split(","):
            print(f"{name}:", flush=True)
            PARTS[name.strip()](args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

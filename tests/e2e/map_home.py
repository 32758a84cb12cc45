"""How many drags each phone of a six-player QMG game needs, at 360×640, to bring its country's home space wholly
into the map when it opens, on any checkout of this project (so a figure before a change and after it come from
the same measure):

    .venv/bin/python tests/e2e/map_home.py /path/to/checkout

The checkout needs its own venv (``<checkout>/.venv``). Its app is started with its own ``manage.py serve`` (one
worker, a fresh SQLite file in a temporary folder, a free port); the game is created with its own
``create_game``; Chromium (Debian's) opens each seat's join link and drags the map (200 px a drag, toward the
home space: ``tests/e2e/mapview.py``) until the home is on the map. Prints the drags per country.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.e2e.mapview import HOMES, drags_to_reach  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CREATE = """
import json
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg.views import create_game
game = create_game("Дома", list(zip(["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"], DEFAULT_SEATING[6])), {})
print("SEATS" + json.dumps([(s.countries[0], s.token) for s in game.seats.order_by("number")]))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of this project with its own .venv")
    checkout = parser.parse_args().checkout.resolve()
    python = checkout / ".venv" / "bin" / "python"
    tmp = Path(tempfile.mkdtemp(prefix="map-home-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3", "DJANGO_SECRET_KEY": "map-home",
           "DJANGO_CREATION_LIMIT": "0", "LIMITS_CACHE_DIR": str(tmp / "limits"), "WEB_ACCESS_LOG": "/dev/null",
           "DJANGO_LIVE_BUS": "local", "PYTHONPATH": str(checkout)}
    log = open(tmp / "server.log", "w")
    server = subprocess.Popen([str(python), "manage.py", "serve", "--bind", f"127.0.0.1:{port}", "--workers", "1"],
                              cwd=checkout, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(url + "/ping/", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise SystemExit(f"the server did not start: see {tmp}/server.log")
        out = subprocess.run([str(python), "manage.py", "shell", "-c", CREATE], cwd=checkout, env=env,
                             capture_output=True, text=True, check=True).stdout
        figures = {}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            for country, token in json.loads(out.split("SEATS", 1)[1]):
                context = browser.new_context(viewport={"width": 360, "height": 640}, locale="ru-RU")
                page = context.new_page()
                page.goto(f"{url}/join/{token}/")
                expect(page.locator("#game")).to_be_visible()
                page.wait_for_timeout(400)  # the first view placed
                figures[country] = drags_to_reach(page, HOMES[country])
                context.close()
            browser.close()
        print(f"{checkout}: drags to bring the home space into the map at 360×640: {figures}")
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


if __name__ == "__main__":
    main()

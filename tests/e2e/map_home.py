"""How many drags each phone of a six-player QMG game needs, at 360×640, to bring its country's home space wholly
into the map when it opens, on any checkout of this project (so a figure before a change and after it come from
the same measure):

    .venv/bin/python tests/e2e/map_home.py /path/to/checkout

The checkout needs its own venv (``<checkout>/.venv``). Its app is started with its own ``manage.py serve``
(``tests/e2e/checkout.py``); the game is created with its own ``create_game``; Chromium (Debian's) opens each seat's join link and drags the map (200 px a drag, toward the
home space: ``tests/e2e/mapview.py``) until the home is on the map. Prints the drags per country.
"""
import argparse
import json
import os
import sys
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.e2e.checkout import served  # noqa: E402
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
    with served(checkout, "map-home") as (url, shell):
        figures = {}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            for country, token in json.loads(shell(CREATE).split("SEATS", 1)[1]):
                context = browser.new_context(viewport={"width": 360, "height": 640}, locale="ru-RU")
                page = context.new_page()
                page.goto(f"{url}/join/{token}/")
                expect(page.locator("#game")).to_be_visible()
                page.wait_for_timeout(400)  # the first view placed
                figures[country] = drags_to_reach(page, HOMES[country])
                context.close()
            browser.close()
        print(f"{checkout}: drags to bring the home space into the map at 360×640: {figures}")


if __name__ == "__main__":
    main()

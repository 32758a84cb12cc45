"""Taps and scrolls of one typical turn of The Fog of War and of «Генералиссимус» on a 360×640 phone, measured
on any checkout of this project, so the figures of two checkouts (before and after a change to the bar) come from the
same turn played the same way:

    .venv/bin/python tests/e2e/bar_turns.py /path/to/checkout [--shots before-bar]

The checkout needs its own venv (``<checkout>/.venv``, ``pip install -e '.[test]'``). Its app is started with
its own ``manage.py serve`` (one uvicorn worker, a fresh SQLite file in a temporary folder, port chosen free);
both games are created with its own new-game forms and every default kept (as
tests/e2e/test_decision_bar_other_games.py does); then Chromium (this checkout's Playwright, Debian's
chromium) plays the turns of that test at 360×640 as a player would: before each tap, if the target is not on
the screen and under the finger (``UNDER_FINGER`` of test_decision_bar), the player scrolls to it — counted as
one scroll — then taps exactly there. Where a decision bar (``#decision-bar``) is on the page, its controls are
the ones tapped; without one, the page's own. The other phone's moves are made with Playwright's clicks and not
counted. For each tap the script prints the target, its top in the page (px from the top of the document), the
page's height and whether a scroll was needed; the totals per turn at the end. A screenshot of the screen at
the decision (two hand cards chosen; the card, unit and target chosen) is left in test-artifacts/ as
``<shots>-fog-of-war-360.png`` and ``<shots>-generalissimus-360.png`` (the whole page as ``…-full.png``).
"""
import argparse
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2]))
warnings.filterwarnings("ignore", message="No directory at")  # whitenoise, on importing the tests' Django helpers
from tests.e2e.checkout import served  # noqa: E402
from tests.e2e.conftest import ARTIFACTS, CHROMIUM, FLAGS  # noqa: E402
from tests.e2e.game_night_taps import Phone, Tally  # noqa: E402
from tests.e2e.test_decision_bar import PHONE  # noqa: E402

CREATE = r"""
import json
from django.test import Client
from django.urls import reverse
from tracker.models import Game
from tracker.fog_of_war.forms import NewFogGameForm
from tests.tracker.helpers import initial_data
from tests.tracker.test_generalissimus_views import setup_data
c = Client()
assert c.post(reverse("fog_of_war:new"), initial_data(
    NewFogGameForm(), name="Туман бар", axis_player="Аня", allies_player="Боря")).status_code == 302
assert c.post(reverse("generalissimus:new"), setup_data(name="Генералиссимус бар")).status_code == 302
seats = {g.kind: [s.token for s in g.seats.order_by("number")] for g in Game.objects.all()}
print("SEATS" + json.dumps(seats))
"""

def root(phone):
    """Where a phone's taps go: its decision bar, or without one the page's own controls."""
    bar = phone.page.locator("#decision-bar")
    return bar if bar.count() else phone.page.locator("#game")


def shot(phone, name):
    """The screen at the decision, and the whole page beside it."""
    phone.shot(name)
    phone.page.screenshot(path=str(ARTIFACTS / f"{name}-full.png"), full_page=True)


def fog_of_war(new_page, url, seats, shots, tally):
    axis, allies = Phone(new_page(url, seats[0]), "Axis", tally), Phone(new_page(url, seats[1]), "Allies", tally)
    tally.situation("The Fog of War, Axis: rotate, plan an operation against vichy with two cards, end the turn")
    axis.tap(root(axis).locator("form:has(input[value=start_turn]) button[type=submit]"), "rotate the wheel", True)
    axis.tap(root(axis).locator("details.action > summary").filter(has_text="Новая операция"), "open «Новая операция»")
    axis.choose(root(axis).locator("form.act-new-op select[name=target]"), "vichy", "target: vichy")
    count = root(axis).locator('form.act-new-op .hand-pick label.hand-count:has(input[value="2"])')
    if count.count():  # the hand as a count: one tap on «2 карты»
        axis.tap(count, "two hand cards («2 карты»)")
    else:  # each hand card a checkbox
        chips = root(axis).locator("form.act-new-op .hand-pick label")
        axis.tap(chips.nth(0), "hand card 1")
        axis.tap(chips.nth(1), "hand card 2")
    shot(axis, f"{shots}-fog-of-war-360")
    axis.tap(root(axis).locator("form.act-new-op button[type=submit]"), "place at NEW OP (submit)", True)
    axis.tap(root(axis).locator("form.act-end button[type=submit]"), "end the turn («Закончить ход и добрать»)", True)
    tally.situation("The Fog of War, Allies: the turn passed to them, rotate")
    start = root(allies).locator("form:has(input[value=start_turn]) button[type=submit]")
    expect(start).to_be_visible(timeout=10_000)
    allies.tap(start, "rotate the wheel", True)


def place(page, zone, card):
    """The other phone's order (not counted): a zone chip then a card, or the card under its zone."""
    chip = page.locator(f'form.g-place label.g-zone-chip:has(input[value="{zone}"])')
    if chip.count():
        chip.first.click()
        page.locator(f'form.g-place button[name=card_type][value="{card}"]').first.click()
    else:
        page.locator(f'form.g-place[data-zone="{zone}"] button[name=card_type][value="{card}"]').click()


def generalissimus(new_page, url, seats, shots, tally):
    south, north = Phone(new_page(url, seats[0]), "South", tally), new_page(url, seats[1])
    tally.situation("Generalissimus, South: orders face down, initiative dice, zone order, a volley and its dice")
    chip = root(south).locator('form.g-place label.g-zone-chip:has(input[value="center"])')
    if chip.count():
        south.tap(chip, "zone chip: centre")
    for n, card in enumerate(("musket_volley", "bayonets"), 1):
        if chip.count():
            button = root(south).locator(f'form.g-place button[name=card_type][value="{card}"]')
        else:
            button = root(south).locator(f'form.g-place[data-zone="center"] button[name=card_type][value="{card}"]')
        south.tap(button, f"order: {card} (centre)", True)
        expect(south.page.locator("ul.g-placed li")).to_have_count(n)
    south.tap(root(south).locator("button.g-confirm"), "confirm the orders", True)
    for zone, card in (("center", "musket_volley"), ("center", "bayonets")):
        before = north.locator("#game").get_attribute("data-version")
        place(north, zone, card)
        expect(north.locator(f'#game:not([data-version="{before}"])')).to_have_count(1)
    north.locator("button.g-confirm").first.click()

    dice = root(south).locator("form.g-dice")
    expect(dice).to_be_visible(timeout=10_000)
    south.tap(dice.locator('label.g-die:has(input[name="south"][value="5"])'), "initiative die South 5")
    south.tap(dice.locator('label.g-die:has(input[name="north"][value="2"])'), "initiative die North 2")
    south.tap(dice.locator("button[type=submit]:not([name=digital])"), "enter the dice", True)
    south.tap(root(south).locator('button[name="sequence"][value="center,west,east"]'), "zone order", True)

    form = root(south).locator("form.g-choose")
    south.tap(form.locator('label.g-pick:has(input[value="S-musket_volley-1"])'), "card: musket volley")
    south.choose(form.locator("select[name=unit]"), "S-inf-1", "unit S-inf-1")
    south.choose(form.locator("select[name=target]"), "N-inf-1", "target N-inf-1")
    shot(south, f"{shots}-generalissimus-360")
    south.tap(form.locator("button[type=submit]"), "choose this card", True)
    nform = north.locator("form.g-choose")
    expect(nform).to_be_visible(timeout=10_000)
    nform.locator('input[name="cards"][value="N-musket_volley-1"]').check()
    nform.locator("select[name=unit]").select_option("N-inf-1")
    nform.locator("select[name=target]").select_option("S-inf-1")
    nform.locator("button[type=submit]").click()

    fire = root(south).locator('form.g-dice[data-roll="fire"]')
    expect(fire).to_be_visible(timeout=10_000)
    for i, v in enumerate([4, 1, 1], 1):
        south.tap(fire.locator(f'label.g-die:has(input[name="d{i}"][value="{v}"])'), f"fire die {i}: {v}")
    south.tap(fire.locator("button[type=submit]:not([name=digital])"), "enter the dice", True)
    nfire = north.locator('form.g-dice[data-roll="fire"]')
    for i, v in enumerate([1, 2, 2], 1):
        nfire.locator(f'label.g-die:has(input[name="d{i}"][value="{v}"])').click()
    nfire.locator("button[type=submit]:not([name=digital])").click()
    # the result names North's unit: by its identifier in older checkouts, as players name it in newer ones
    expect(south.page.locator(".g-last-step")).to_contain_text(re.compile("N-inf-1|пехота Севера на c4"), timeout=10_000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of this project with its own .venv")
    parser.add_argument("--shots", default="before-bar", help="prefix of the screenshots in test-artifacts/")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    with served(checkout, "bar-turns") as (url, shell):
        seats = json.loads(shell(CREATE).split("SEATS", 1)[1])
        print(f"checkout {checkout} ({subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=checkout, capture_output=True, text=True).stdout.strip()}), 360×640")
        tally = Tally()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)

            def new_page(base, token):
                ctx = browser.new_context(viewport=PHONE, locale="ru-RU")
                ctx.set_default_timeout(10_000)
                page = ctx.new_page()
                page.goto(f"{base}/join/{token}/")
                expect(page.locator("#game")).to_be_visible()
                return page

            fog_of_war(new_page, url, seats["fog_of_war"], args.shots, tally)
            generalissimus(new_page, url, seats["generalissimus"], args.shots, tally)
            browser.close()
        tally.report()


if __name__ == "__main__":
    main()

"""Air Marshal in Chromium: a round with the air step, then an air defence answered by an air strike."""
import pytest
from playwright.sync_api import expect

from tracker.models import Game, Piece

pytestmark = pytest.mark.django_db(transaction=True)

def submit(page, cmd, **fields):
    """Fill the form of one command on the game page and wait for the game's next version."""
    form = page.locator(f'#game form:has(input[name="command"][value="{cmd}"])').first
    for name, value in fields.items():
        field = form.locator(f'[name="{name}"]').first
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(str(value))
    version = int(page.locator("#game").get_attribute("data-version"))
    form.locator("button[type=submit]").first.click()
    page.wait_for_selector(f'#game[data-version="{version + 1}"]')


# round 1 of an Air Marshal game for two: Germany and the USSR build an army and deploy an air force there, the
# others discard (tests/e2e/test_decision_bar.py plays it through the log)
ROUND_ONE = (("build_army", "eastern_europe"), ("discard_unused", None), ("discard_unused", None),
             ("build_army", "ukraine"), ("discard_unused", None), ("discard_unused", None))


def turn(page, card_type, space=None, deploy=None):
    submit(page, "play_card", card_type=card_type, **({"space": space} if space else {}))
    submit(page, "end_play")
    if deploy:
        submit(page, "deploy_air", space=deploy)
    submit(page, "end_air")
    for cmd in ("supply", "score"):
        submit(page, cmd)
    submit(page, "discard", n=0)
    submit(page, "draw")


def test_air_defence_answered_by_an_air_strike(live_server, new_context, shot):
    host = new_context(viewport={"width": 800, "height": 1000}).new_page()
    host.goto(live_server.url + "/")
    host.fill("input[name=name]", "Air E2E")
    host.locator("details.house-rules > summary").click()  # the optional rules are folded
    host.check("input[name=air_marshal]")
    host.check("input[name=step_by_step]")  # one tap per step: the test enters every step itself
    host.locator("form.new-game button[type=submit]").click()
    game = Game.objects.get(name="Air E2E")
    watcher = new_context().new_page()
    watcher.goto(f"{live_server.url}/watch/{game.spectator_token}/")
    host.goto(f"{live_server.url}/g/{game.pk}/")

    # round 1 in the UI: Germany and the USSR build and deploy an air force; the others discard
    for card_type, space in ROUND_ONE:
        turn(host, card_type, space, deploy=space)
    expect(host.locator(".status-bar .round")).to_contain_text("2")
    shot(host, "air-01-round-one")

    # round 2: Germany attacks Ukraine; the USSR answers with air defence; Germany strikes
    submit(host, "play_card", card_type="land_battle", space="ukraine")
    # the Soviet army is gone: its air force's step offers air defence, Moscow and «Убрать» in the bar
    defence = host.get_by_role("button", name="Применить авиазащиту")
    expect(defence).to_be_visible()
    version = int(host.locator("#game").get_attribute("data-version"))
    defence.click()
    host.wait_for_selector(f'#game[data-version="{version + 1}"]')
    assert Piece.objects.filter(game=game, country="soviet_union", kind="army", space="ukraine").exists()
    shot(host, "air-02-air-defence")
    submit(host, "air_strike", from_space="eastern_europe")
    assert not Piece.objects.filter(game=game, country="soviet_union", space="ukraine").exists()
    assert not Piece.objects.filter(game=game, country="germany", kind="air").exists()
    shot(host, "air-03-air-strike")
    # the spectator's phone follows
    expect(watcher.locator('g.space[data-space="ukraine"] .piece')).to_have_count(0, timeout=3000)
    shot(watcher, "air-04-spectator")

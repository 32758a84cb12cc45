"""The decision bar of QMG (tests/e2e/test_decision_bar.py) in The Fog of War and
Generalissimus. On a 360×640 phone one typical turn of each game is done by taps in the bar only: before each
tap the element is on the screen and under the finger, and the page has not scrolled (``Phone`` of
test_decision_bar). Taps and scrolls are printed; a screenshot of each bar is left in test-artifacts/; axe-core
finds no serious violation with the bar pinned."""
import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.tracker.helpers import initial_data
from tracker.fog_of_war.forms import NewFogGameForm
from tests.tracker.test_generalissimus_views import setup_data
from tracker.models import Game

from .test_accessibility import check
from .test_decision_bar import PHONE, UNDER_FINGER, Phone, screen
from .test_generalissimus import choose, place, tap_dice

pytestmark = pytest.mark.django_db(transaction=True)


def open_seat(new_context, live_server, game, number):
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + f"/join/{game.seats.get(number=number).token}/")
    expect(page.locator("#game .decision-bar")).to_be_visible()
    return page


def pinned(page):
    """The bar is fixed at the bottom of the screen (static/js/app.js), the page not scrolled."""
    expect(page.locator("html.js-bar")).to_have_count(1)
    box = page.locator("#game .decision-bar").bounding_box()
    assert abs(box["y"] + box["height"] - PHONE["height"]) <= 1, box


def capped(page, share, *controls):
    """The bar is no taller than its cap (``share`` of the screen: static/css/app.css) and each control given is
    on the screen and under the finger (the bar's long list scrolls inside it instead)."""
    box = page.locator("#game .decision-bar").bounding_box()
    assert box["height"] <= share * PHONE["height"] + 1, box
    for control in controls:
        where = control.evaluate(UNDER_FINGER)
        assert where["ok"], (control, where)


BOARD_IN_VIEW = """() => {
    const board = document.querySelector("#game .g-board").getBoundingClientRect();
    const wrap = document.querySelector("#game .g-board-wrap").getBoundingClientRect();
    const pinned = document.querySelector("#game .pinned").getBoundingClientRect();
    const bar = document.querySelector("#game .decision-bar").getBoundingClientRect();
    const top = Math.max(board.top, wrap.top, pinned.bottom, 0);
    const bottom = Math.min(board.bottom, wrap.bottom, bar.top, window.innerHeight);
    return Math.max(0, Math.round(bottom - top));
}"""


# Generalissimus's board on a phone, between the pinned status bar and the decision bar, at least 35% of the
# screen (224 px of 640): the board shrinks to the room left (static/css/generalissimus.css), so at 224 px the
# whole 6×6 battlefield is on the screen with sectors of 33 px (224 × 56/374), above the 24 px of a tap target.
# With the first bar (72% cap, three-line status bar): 106 px with no order placed, 8 px with two, 8 px at
# the card step and at the dice.
BOARD_MIN = 224


def board_in_view(page, label):
    """The px of Generalissimus's board on the screen between the pinned status bar and the decision bar."""
    px = page.evaluate(BOARD_IN_VIEW)
    print(f"generalissimus, board in view, {label}: {px} px")
    assert px >= BOARD_MIN, (label, px)
    return px


def test_fog_of_war_a_turn_in_the_bar(live_server, new_context):
    data = initial_data(NewFogGameForm(), name="Туман бар", axis_player="Аня", allies_player="Боря")
    assert Client().post(reverse("fog_of_war:new"), data).status_code == 302
    game = Game.objects.get(name="Туман бар")
    axis_page = open_seat(new_context, live_server, game, 1)
    allies_page = open_seat(new_context, live_server, game, 2)
    axis, allies = Phone(axis_page, "fog of war, Axis"), Phone(allies_page, "fog of war, Allies")
    bar, other = axis_page.locator("#decision-bar"), allies_page.locator("#decision-bar")
    pinned(axis_page)
    expect(other.locator(".waiting")).to_contain_text("Ждём")  # not this phone's side

    axis.turn("Axis: rotate, plan an operation with two cards, end the turn")
    axis.tap(bar.locator("form:has(input[value=start_turn]) button[type=submit]"))
    axis.settled()
    expect(bar.locator(".bar-answer .flash-success")).to_contain_text("колесо повёрнуто")
    axis.tap(bar.locator("details.action > summary").filter(has_text="Новая операция"))
    axis.choose(bar.locator("form.act-new-op select[name=target]"), "vichy")
    axis.tap(bar.locator('form.act-new-op .hand-pick label.hand-count:has(input[value="2"])'))  # «2 карты»
    # the open form scrolls inside the bar (at most half the screen); its button and the end of the turn stay on it
    capped(axis_page, .5, bar.locator("form.act-new-op button[type=submit]"), bar.locator("form.act-end button"))
    screen(axis_page, "decision-bar-fog-of-war-360")
    axis.tap(bar.locator("form.act-new-op button[type=submit]"))
    axis.settled()
    expect(bar.locator(".bar-answer .flash-success")).to_contain_text("новая операция A")
    check(axis_page, "fog of war, the bar after a new operation")
    axis.tap(bar.locator("form.act-end button[type=submit]"))
    axis.settled()
    expect(bar.locator(".waiting")).to_be_visible()
    axis.report()

    allies.turn("Allies: the turn passed to them, rotate")
    expect(other.locator("form:has(input[value=start_turn])")).to_be_visible(timeout=8000)
    allies.tap(other.locator("form:has(input[value=start_turn]) button[type=submit]"))
    allies.settled()
    expect(other.locator("details.action > summary").first).to_be_visible()
    allies.report()


def battle_data(**over):
    """The new-battle form with every default kept (tests/tracker/test_generalissimus_views.py)."""
    return setup_data(**{"name": "Генералиссимус бар", **over})


def test_generalissimus_a_turn_in_the_bar(live_server, new_context):
    assert Client().post(reverse("generalissimus:new"), battle_data()).status_code == 302
    game = Game.objects.get(name="Генералиссимус бар")
    south_page = open_seat(new_context, live_server, game, 1)
    north = open_seat(new_context, live_server, game, 2)  # the other phone: its taps are not counted
    south = Phone(south_page, "generalissimus, South")
    bar = south_page.locator("#decision-bar")
    pinned(south_page)

    south.turn("South: orders face down, initiative dice, zone order, a volley and its dice")
    board_in_view(south_page, "orders")
    south.tap(bar.locator('form.g-place label.g-zone-chip:has(input[value="center"])'))
    for n, card in enumerate(("musket_volley", "bayonets"), 1):  # the zone stays ticked for the next card
        south.tap(bar.locator(f'form.g-place button[name=card_type][value="{card}"]'))
        expect(bar.locator("ul.g-placed li")).to_have_count(n)
        south.settled()
    board_in_view(south_page, "orders, two placed")
    south.tap(bar.locator("button.g-confirm"))
    south.settled()
    expect(bar.locator(".g-orders .waiting")).to_be_visible()  # waiting for the other player
    place(north, "center", "musket_volley")
    place(north, "center", "bayonets")
    north.locator("button.g-confirm").click()

    dice = bar.locator("form.g-dice")
    expect(dice).to_be_visible(timeout=8000)
    south.tap(dice.locator('label.g-die:has(input[name="south"][value="5"])'))
    south.tap(dice.locator('label.g-die:has(input[name="north"][value="2"])'))
    south.tap(dice.locator("button[type=submit]:not([name=digital])"))
    south.settled()
    south.tap(bar.locator('button[name="sequence"][value="center,west,east"]'))
    south.settled()

    form = bar.locator("form.g-choose")
    south.tap(form.locator('label.g-pick:has(input[value="S-musket_volley-1"])'))
    south.choose(form.locator("select[name=unit]"), "S-inf-1")
    south.choose(form.locator("select[name=target]"), "N-inf-1")
    capped(south_page, .56, form.locator("button[type=submit]"))
    board_in_view(south_page, "the card step")
    screen(south_page, "decision-bar-generalissimus-360")
    south.tap(form.locator("button[type=submit]"))
    south.settled()
    expect(bar.locator(".g-who")).to_be_visible()  # «choosing a card…»: waiting for North
    expect(north.locator("form.g-choose")).to_be_visible(timeout=8000)
    choose(north, "N-musket_volley-1", "N-inf-1", "S-inf-1")

    fire = bar.locator('form.g-dice[data-roll="fire"]')
    expect(fire).to_be_visible(timeout=8000)
    for i, v in enumerate([4, 1, 1], 1):
        south.tap(fire.locator(f'label.g-die:has(input[name="d{i}"][value="{v}"])'))
    board_in_view(south_page, "the fire dice")
    south.tap(fire.locator("button[type=submit]:not([name=digital])"))
    south.settled()
    check(south_page, "generalissimus, the bar after the dice")
    # North's phone first shows South's dice (a refresh in the middle of its taps would clear its ticked dice)
    expect(north.locator("#game")).to_have_attribute("data-version", south_page.locator("#game").get_attribute("data-version"),
                                                     timeout=8000)
    tap_dice(north.locator('form.g-dice[data-roll="fire"]'), [1, 2, 2])
    expect(south_page.locator(".g-last-step")).to_contain_text("пехота Севера на c4", timeout=8000)
    south.report()


def test_generalissimus_orders_keep_the_bar_under_its_cap(live_server, new_context):
    """Each order placed adds a line to the bar: past its cap the list scrolls inside the bar, while the zones,
    every card button and the confirm button stay on the screen."""
    assert Client().post(reverse("generalissimus:new"), battle_data()).status_code == 302
    page = open_seat(new_context, live_server, Game.objects.get(name="Генералиссимус бар"), 1)
    south, bar = Phone(page, "generalissimus, South"), page.locator("#decision-bar")
    south.turn("South: eight orders face down")
    placed = bar.locator("ul.g-placed li")
    for n, (zone, card) in enumerate([("west", "manoeuvre"), ("center", "musket_volley"), ("east", "move"),
                                      ("west", "move"), ("center", "bayonets"), ("east", "retreat"),
                                      ("center", "move"), ("west", "artillery_volley")], 1):
        south.tap(bar.locator(f'form.g-place label.g-zone-chip:has(input[value="{zone}"])'))
        south.tap(bar.locator(f'form.g-place button[name=card_type][value="{card}"]'))
        expect(placed).to_have_count(n)
        south.settled()
    cards = bar.locator("form.g-place button[name=card_type]")
    capped(page, .56, bar.locator("button.g-confirm"), *bar.locator("label.g-zone-chip").all(),
           *[cards.nth(i) for i in range(cards.count())], placed.first)
    assert bar.locator("ul.g-placed").evaluate("(l) => l.scrollHeight > l.clientHeight")  # the list scrolls
    screen(page, "decision-bar-generalissimus-orders-360")
    check(page, "generalissimus, the bar with eight orders")
    south.report()


def test_without_javascript_the_bar_is_a_labelled_block_at_the_top_of_the_panel(client):
    """The server's page (no JS): the bar comes first in the panel, a labelled region with an aria-live answer,
    holding this side's decision; the other side's bar says whom it waits for."""
    assert client.post(reverse("fog_of_war:new"), initial_data(
        NewFogGameForm(), name="Туман без JS", axis_player="Аня", allies_player="Боря")).status_code == 302
    fow = Game.objects.get(name="Туман без JS")
    assert client.post(reverse("generalissimus:new"), battle_data(name="Г без JS")).status_code == 302
    gen = Game.objects.get(name="Г без JS")
    for game, decision, below in ((fow, 'value="start_turn"', 'class="card sides"'),
                                  (gen, 'class="g-place"', 'class="card g-units"')):
        mine, other = Client(), Client()
        mine.get(reverse("join", args=[game.seats.get(number=1).token]))
        other.get(reverse("join", args=[game.seats.get(number=2).token]))
        html = mine.get(reverse("game", args=[game.pk])).content.decode()
        bar = html.index('id="decision-bar"')
        assert 'aria-labelledby="decision-bar-title"' in html and 'class="bar-answer" aria-live="polite"' in html
        assert bar < html.index(decision) < html.index(below)
        if game == fow:
            assert "Ждём ход" in other.get(reverse("game", args=[game.pk])).content.decode()

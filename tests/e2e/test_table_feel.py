"""The table's feel on six phones (360 px): a full QMG round where every build turn is three taps
(the space, «Сыграть карту», «Закончить ход»), each answer is seen where the eye is without
scrolling — in the decision bar at the bottom of the screen, where the tapped button was —,
the page keeps its scroll, and another player's «Пас» never bounces the active phone."""
import re

import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.models import Event, Game

from .test_decision_bar import HTMX_BUSY

pytestmark = pytest.mark.django_db(transaction=True)

# a legal build for every country from the rulebook's setup (a sea: the map tap makes it a navy)
BUILDS = [("germany", "eastern_europe"), ("united_kingdom", "north_sea"), ("japan", "sea_of_japan"),
          ("soviet_union", "russia"), ("italy", "balkans"), ("united_states", "canada")]
NAMES = {"germany": "Германия", "united_kingdom": "Великобритания", "japan": "Япония", "soviet_union": "СССР",
         "italy": "Италия", "united_states": "США"}


class Taps:
    """Every tap a player makes goes through here, so a turn's taps are counted."""

    def __init__(self):
        self.count = 0

    def tap(self, locator, map_space=False):
        self.count += 1
        if map_space:
            locator.dispatch_event("click")  # an SVG group: the tap lands on the space's shape
        else:
            locator.click()


def in_viewport(page, locator):
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 80) <= height


def scroll_y(page):
    return page.evaluate("window.scrollY")


def kept(page, before) -> bool:
    """The scroll stayed where the tap was (or at the new end, when the page got shorter than that)."""
    # a locator, not wait_for_function: that polls through eval(), which the app's strict CSP refuses
    expect(page.locator(HTMX_BUSY)).to_have_count(0)
    bottom = page.evaluate("document.documentElement.scrollHeight - window.innerHeight")
    return abs(scroll_y(page) - min(before, bottom)) <= 2


def test_a_full_round_on_six_phones_three_taps_per_build_turn(live_server, new_context, shot):
    host = new_context().new_page()
    host.goto(live_server.url + "/")
    host.fill("input[name=name]", "Шесть телефонов")
    host.select_option("select[name=players]", "6")
    # the new-game form shows as many name fields as players, and no air forces without Air Marshal
    expect(host.locator("input[name=player_6]")).to_be_visible()
    expect(host.locator("input[name=air_germany]")).to_be_hidden()
    expect(host.locator("select[name=seat_germany]")).to_be_hidden()
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator("h1")).to_contain_text("Шесть телефонов")
    links = [a.get_attribute("href") for a in host.locator(".seat .link a").all()]
    game = Game.objects.get(name="Шесть телефонов")
    path = lambda url: live_server.url + "/" + url.split("/", 3)[3]  # noqa: E731

    phones, statuses = {}, []
    for url, countries in zip(links, DEFAULT_SEATING[6]):
        page = new_context().new_page()
        page.on("response", lambda r: statuses.append((r.status, r.url)) if "/command/" in r.url else None)
        page.goto(path(url))
        phones[countries[0]] = page
    expect(phones["germany"].locator(".whoami")).to_contain_text("Германия")
    expect(phones["germany"].locator(".whoami .your-move")).to_be_visible()
    expect(phones["japan"].locator(".whoami")).to_contain_text("Япония")
    expect(phones["japan"].locator(".whoami .waiting-for")).to_contain_text("Германия")

    for number, (country, space) in enumerate(BUILDS):
        phone, taps = phones[country], Taps()
        expect(phone.locator(".whoami .your-move")).to_be_visible(timeout=5000)
        taps.tap(phone.locator(f'g.space[data-space="{space}"]').first, map_space=True)
        expect(phone.locator("section.stepper select[name=space]")).to_have_value(space)

        play = phone.locator("section.stepper form:has(input[value=play_card]) button[type=submit]")
        assert in_viewport(phone, play), "«Сыграть карту» is not on the screen (the decision bar)"
        before = scroll_y(phone)
        taps.tap(play)
        flash = phone.locator(".decision-bar .flash-success")  # the answer is in the bar, where the eye is
        expect(flash).to_contain_text(re.compile("[Сс]ыграна карта"))
        assert in_viewport(phone, flash), "the answer to «Сыграть» is not on the screen"
        if number == 1:  # what the UK's phone shows right after the tap (the viewport, not the whole page)
            phone.screenshot(path=str(shot(phone, "feel-00-uk-played").with_name("feel-00-uk-played-screen.png")))
        assert kept(phone, before), "the page jumped after the tap"

        if number == 0:
            # nobody could answer a build (no face-down response, no status): no answer window on the Allies'
            # phones, nobody taps «Пас»
            uk = phones["united_kingdom"]
            expect(uk.locator(".whoami .waiting-for")).to_contain_text("Германия", timeout=5000)
            expect(uk.locator(".decision-bar section.window")).to_have_count(0)

        finish = phone.locator("form.finish-turn button[type=submit]")
        assert in_viewport(phone, finish), "«Закончить ход» is not on the screen (the decision bar)"
        before = scroll_y(phone)
        taps.tap(finish)
        flash = phone.locator(".decision-bar .flash-success")
        expect(flash.locator(".flash-steps li")).to_have_count(5)  # end of play, supply, VP, discard, draw
        expect(flash).to_contain_text(NAMES[country])
        assert in_viewport(phone, flash), "the answer to «Закончить ход» is not on the screen"
        assert kept(phone, before), "the page jumped after the tap"
        assert taps.count == 3, f"{country}: {taps.count} taps for a build turn"
        if number == 0:
            shot(phone, "feel-01-germany-finished-in-three-taps")

    game.refresh_from_db()
    assert (game.qmg.round, game.qmg.turn, game.qmg.phase) == (2, 0, "play")
    assert game.qmg.vp_axis > 0 and game.qmg.vp_allies > 0
    # every step is its own event: 6 plays + 6 × 5 steps, and no pass
    assert Event.objects.filter(game=game, kind=Event.MOVE).count() == 6 + 30
    assert not Event.objects.filter(game=game, command__type="pass").exists()
    assert not [s for s in statuses if s[0] == 409], statuses  # no phone was bounced
    assert all(s == 200 for s, _url in statuses), statuses
    expect(phones["germany"].locator(".whoami .your-move")).to_be_visible(timeout=5000)
    shot(phones["united_states"], "feel-02-round-two")


def test_an_illegal_tap_answers_on_screen_and_the_old_error_goes_with_the_next_selection(live_server, new_context):
    host = new_context().new_page()
    host.goto(live_server.url + "/")
    host.fill("input[name=name]", "Ошибка")
    host.locator("form.new-game button[type=submit]").click()
    url = host.locator(".seat .link a").first.get_attribute("href")
    phone = new_context().new_page()
    phone.goto(live_server.url + "/" + url.split("/", 3)[3])
    phone.locator('g.space[data-space="russia"]').first.dispatch_event("click")
    play = phone.locator("section.stepper form:has(input[value=play_card]) button[type=submit]")
    assert in_viewport(phone, play)  # in the decision bar: no scroll to reach it
    before = scroll_y(phone)
    play.click()
    error = phone.locator(".decision-bar .flash-error")  # a refusal is answered in the bar too
    expect(error).to_contain_text("Создать армию можно только рядом")
    assert in_viewport(phone, error) and kept(phone, before)
    # a new selection clears the old error
    phone.locator('g.space[data-space="eastern_europe"]').first.dispatch_event("click")
    expect(phone.locator(".flash-error")).to_have_count(0)
    # a typed card name sets the card type («Создайте флот» is a Build Navy card)
    phone.fill("section.stepper input[name=card]", "")
    phone.locator("section.stepper input[name=card]").press_sequentially("Создайте флот")
    expect(phone.locator("section.stepper select[name=card_type]")).to_have_value("build_navy")


def test_a_portrait_tablet_map_box_has_the_maps_proportions(live_server, new_context):
    host = new_context(viewport={"width": 768, "height": 1024}).new_page()
    host.goto(live_server.url + "/")
    host.fill("input[name=name]", "Планшет")
    host.locator("form.new-game button[type=submit]").click()
    url = host.locator(".seat .link a").first.get_attribute("href")
    tablet = host.context.new_page()
    tablet.goto(live_server.url + "/" + url.split("/", 3)[3])
    box = tablet.locator(".board-viewport").first.bounding_box()
    svg = tablet.locator("svg.board-svg").first
    ratio = float(svg.get_attribute("data-height")) / float(svg.get_attribute("data-width"))
    # the box is as tall as the whole map at its width: zoomed out, no band of it stays empty
    assert abs(box["height"] / box["width"] - ratio) < 0.03, (box, ratio)

"""A whole turn on one screen. The decision bar at the bottom of a 360×640 phone holds the current
decision (the selected space and card, «Сыграть карту», «Закончить ход», a card step's choices, a response
window's reveal buttons and «Пас», «ждём: …»), the map stays in view above it and each answer appears in it.

Every tap goes through ``Phone.tap``: before it, the element tapped must be on the screen and really under the
finger (``document.elementFromPoint`` at its centre hits it: not under the bar, not clipped by the map's
frame), and the page must not have scrolled. Taps and scrolls are printed per turn. With ``BAR_MEASURE=1``
the test does not fail on a needed scroll: it scrolls (as a player would), counts it and goes on — how the
numbers before the bar were measured."""
import os
import re
import time

import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.models import Piece
from tracker.qmg.views import create_game

from .conftest import ARTIFACTS
from .test_accessibility import check
from .test_air_marshal import ROUND_ONE
from .test_qmg_cards import stalingrad_face_down

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 640}
TABLET = {"width": 1024, "height": 768}
MEASURE = os.environ.get("BAR_MEASURE") == "1"

UNDER_FINGER = """(el) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return {ok: false, why: "not shown"};
    const x = r.left + r.width / 2, y = r.top + Math.min(r.height, 80) / 2;
    if (r.top < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth)
        return {ok: false, why: "off the screen", top: r.top, height: window.innerHeight};
    const hit = document.elementFromPoint(x, y);
    return {ok: !!hit && (el === hit || el.contains(hit) || (el.tagName === "LABEL" && el.control === hit)),
            why: hit ? "covered by " + hit.tagName + "." + hit.getAttribute("class") : "nothing there",
            x: x, y: y};
}"""


# htmx at work: the tapped form (.htmx-request), the swap, and the new content until it is live (.htmx-added: its
# forms get their hx-post only when it settles; a tap before that would post without htmx)
HTMX_BUSY = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"


class Phone:
    """One phone's page, with its taps and scrolls counted per turn."""

    def __init__(self, page, name):
        self.page, self.name = page, name
        self.turns: list[list] = []

    def turn(self, title):
        self.turns.append([title, 0, 0])

    def scroll_y(self):
        return self.page.evaluate("window.scrollY")

    def _reachable(self, locator):
        expect(locator).to_be_visible()
        where = locator.evaluate(UNDER_FINGER)
        if where["ok"]:
            return where
        if not MEASURE:
            raise AssertionError(f"{self.name}: {locator} is not under the finger without scrolling: {where}")
        self.turns[-1][2] += 1  # a player scrolls to it
        locator.scroll_into_view_if_needed()
        where = locator.evaluate(UNDER_FINGER)
        if not where["ok"]:  # still covered (e.g. by a sticky bar): scroll it to the middle
            locator.evaluate("(el) => el.scrollIntoView({block: 'center'})")
            where = locator.evaluate(UNDER_FINGER)
        assert where["ok"], where
        return where

    def _before(self):
        y = self.scroll_y()
        if not MEASURE:
            assert y == 0, f"{self.name}: the page is scrolled ({y} px)"

    def tap(self, locator):
        self._before()
        where = self._reachable(locator)
        self.turns[-1][1] += 1
        self.page.mouse.click(where["x"], where["y"])  # exactly where a finger lands: nothing scrolls first

    def choose(self, locator, value):
        self._before()
        self._reachable(locator)
        self.turns[-1][1] += 1
        locator.select_option(value)

    def type(self, locator, text):
        self._before()
        self._reachable(locator)
        self.turns[-1][1] += 1
        locator.fill(text)

    def settled(self):
        expect(self.page.locator(HTMX_BUSY)).to_have_count(0)
        if not MEASURE:
            assert self.scroll_y() == 0, f"{self.name}: the answer scrolled the page"

    def report(self):
        for title, taps, scrolls in self.turns:
            print(f"{self.name}: {title}: taps {taps}, scrolls {scrolls}")
        if not MEASURE:
            assert all(scrolls == 0 for _t, _n, scrolls in self.turns), self.turns


def step_choices_under_the_finger(page):
    """Every button of the open card step in the bar (its choices and «Пропустить») is whole on the screen and
    under the finger, none covered by «Закончить ход» or cut by the bar's list, the page not scrolled."""
    buttons = page.locator("#decision-bar #card-steps div.choices button")
    assert buttons.count(), "the open card step offers no button"
    covered = [(b.inner_text(), where) for b in buttons.all() if not (where := b.evaluate(UNDER_FINGER))["ok"]]
    assert not covered, covered
    assert page.evaluate("window.scrollY") == 0


def step_choices_reachable(page):
    """A card step with more choices than the bar holds: its list scrolls inside the bar (the page does not), and each
    button scrolled into the list's view is under the finger — never under «Закончить ход», which stays on the
    screen below the list. The list is scrolled back to its top afterwards."""
    buttons = page.locator("#decision-bar #card-steps div.choices button")
    assert buttons.count(), "the open card step offers no button"
    covered = []
    for b in buttons.all():
        b.evaluate("""(el) => { const list = el.closest("div.choices");
            list.scrollTop += el.getBoundingClientRect().top - list.getBoundingClientRect().top; }""")
        if not (where := b.evaluate(UNDER_FINGER))["ok"]:
            covered.append((b.inner_text(), where))
        assert page.evaluate("window.scrollY") == 0
    page.locator("#decision-bar #card-steps div.choices").evaluate("(el) => { el.scrollTop = 0; }")
    assert not covered, covered


def screen(page, name):
    """What the phone's screen shows (the viewport, with the bar where it is), in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def space(page, space_id):
    return page.locator(f'svg.board-svg g.space[data-space="{space_id}"] .shape').first


def answer(page):
    """The answer to the last tap: in the decision bar (before it: wherever the page put it)."""
    return page.locator(".flash").first


def on_screen(page, locator):
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 60) <= page.viewport_size["height"]


def caught_up(page, game, timeout=8.0):
    """Wait until the phone shows the game's newest version (another phone's move arrives by the live table).
    The database is read again while waiting: a tap a test has just made is still on its way when it is read
    first, and the phone may then show a newer version than that first read."""
    deadline = time.monotonic() + timeout
    while True:
        game.refresh_from_db()
        if page.locator("#game").get_attribute("data-version", timeout=timeout * 1000) == str(game.version):
            return
        if time.monotonic() >= deadline:
            expect(page.locator("#game")).to_have_attribute("data-version", str(game.version), timeout=100)
            return
        page.wait_for_timeout(50)


def join(new_context, live_server, game, number, viewport=PHONE):
    seat = game.seats.get(number=number)
    page = new_context(viewport=viewport).new_page()
    page.goto(live_server.url + f"/join/{seat.token}/")
    expect(page.locator(".whoami")).to_be_visible()
    return page


def two_players(name):
    return create_game(name, list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {})


def test_a_build_turn_without_scrolling(live_server, new_context):
    game = two_players("Строим")
    germany = Phone(join(new_context, live_server, game, 1), "Германия")
    germany.turn("build turn")
    germany.tap(space(germany.page, "eastern_europe"))
    expect(germany.page.locator("select[name=space]").first).to_have_value("eastern_europe")
    if not MEASURE:
        expect(germany.page.locator(".decision-bar")).to_contain_text("Восточная Европа")
    germany.tap(germany.page.get_by_role("button", name="Сыграть карту"))
    expect(answer(germany.page)).to_contain_text(re.compile("[Сс]ыграна карта"))
    germany.settled()
    assert on_screen(germany.page, answer(germany.page)), "the answer to «Сыграть карту» is not on the screen"
    germany.tap(germany.page.get_by_role("button", name="Закончить ход"))
    expect(answer(germany.page).locator(".flash-steps li")).to_have_count(5)
    germany.settled()
    assert on_screen(germany.page, answer(germany.page)), "the answer to «Закончить ход» is not on the screen"
    if not MEASURE:
        expect(germany.page.locator(".decision-bar")).to_contain_text(re.compile("[Жж]дём"))
    assert Piece.objects.filter(game=game, country="germany", space="eastern_europe").exists()
    screen(germany.page, "decision-bar-build-360")
    germany.report()
    if not MEASURE:
        assert germany.turns[0][1] == 3
        check(germany.page, "the decision bar at 360 px after a build turn")
        # the cards table fits the phone: no column cut off, nothing to scroll sideways
        table = germany.page.locator("section.cards-table")
        assert table.evaluate("(el) => el.scrollWidth <= el.clientWidth"), table.evaluate(
            "(el) => [el.scrollWidth, el.clientWidth]")


def test_a_battle_answered_by_stalingrad_from_the_defenders_phone(live_server, new_context):
    game = two_players("Сталинград у бара")
    stalingrad_face_down(game)
    axis = Phone(join(new_context, live_server, game, 1), "Германия")
    allies = Phone(join(new_context, live_server, game, 2), "СССР")
    axis.turn("battle")
    axis.choose(axis.page.locator("select[name=card_type]").first, "land_battle")
    axis.tap(space(axis.page, "ukraine"))
    expect(axis.page.locator("select[name=space]").first).to_have_value("ukraine")
    axis.tap(axis.page.get_by_role("button", name="Сыграть карту"))
    expect(answer(axis.page)).to_contain_text("ждёт ответа")
    axis.settled()
    assert on_screen(axis.page, answer(axis.page))

    allies.turn("response window")
    caught_up(allies.page, game)
    reveal = allies.page.locator("button.reveal", has_text="Сталинград").first
    if MEASURE and not reveal.is_visible():
        allies.tap(allies.page.locator("details.use-card > summary"))
    allies.tap(reveal)
    expect(answer(allies.page)).to_contain_text("Сталинград")
    allies.settled()
    assert on_screen(allies.page, answer(allies.page))
    screen(allies.page, "decision-bar-battle-response-360")
    if not MEASURE:
        check(allies.page, "the decision bar at 360 px after a reveal")

    caught_up(axis.page, game)
    finish = axis.page.get_by_role("button", name="Закончить ход")
    axis.tap(finish)
    expect(answer(axis.page).locator(".flash-steps li")).to_have_count(5)  # the turn passed to the UK
    axis.settled()
    assert Piece.objects.filter(game=game, country="soviet_union", space="ukraine").exists()
    axis.report()
    allies.report()


def test_an_event_with_a_map_choice(live_server, new_context):
    """«Принудительный призыв»: the card named (typed, the datalist helps), played, its recruit target tapped
    on the map where the engine's legal spaces are outlined, the turn finished."""
    game = two_players("Призыв у бара")
    germany = Phone(join(new_context, live_server, game, 1), "Германия")
    germany.turn("event with a map choice")
    germany.type(germany.page.locator("input[name=card]").first, "Принудительный призыв")
    germany.tap(germany.page.get_by_role("button", name="Сыграть карту"))
    expect(germany.page.locator("#card-steps")).to_be_visible()
    germany.settled()
    expect(germany.page.locator("svg.board-svg g.space.target").first).to_be_attached()
    if not MEASURE:  # the bar keeps under its cap (half the screen): the step's choices and the end of the turn on it
        bar = germany.page.locator("#decision-bar")
        assert bar.bounding_box()["height"] <= PHONE["height"] / 2 + 1, bar.bounding_box()
        for control in (bar.locator("[data-step-choice]").first, bar.get_by_role("button", name="Закончить ход")):
            assert control.evaluate(UNDER_FINGER)["ok"], control
        step_choices_reachable(germany.page)  # five spaces and «Пропустить»: the list scrolls above the finish row
        assert bar.get_by_role("button", name="Закончить ход").evaluate(UNDER_FINGER)["ok"]
    screen(germany.page, "decision-bar-event-step-360")
    germany.tap(space(germany.page, "balkans"))
    expect(answer(germany.page)).to_contain_text("найм")  # «Можно: при найме снабжение не требуется…»
    expect(germany.page.locator('g.space[data-space="balkans"]').first).to_have_attribute(
        "data-pieces", re.compile("germany"))  # the map shows the new army
    germany.settled()
    assert Piece.objects.filter(game=game, country="germany", kind="army", space="balkans").exists()
    screen(germany.page, "decision-bar-event-map-360")  # the army recruited by a tap on the map
    germany.tap(germany.page.get_by_role("button", name="Закончить ход"))
    expect(answer(germany.page).locator(".flash-steps li").first).to_be_visible()
    germany.settled()
    screen(germany.page, "decision-bar-event-finished-360")
    germany.report()


def test_a_landscape_tablet_has_the_map_and_the_panel_side_by_side(live_server, new_context):
    game = two_players("Планшет у бара")
    tablet = Phone(join(new_context, live_server, game, 1, viewport=TABLET), "планшет")
    tablet.turn("build turn")
    tablet.tap(space(tablet.page, "eastern_europe"))
    tablet.tap(tablet.page.get_by_role("button", name="Сыграть карту"))
    expect(answer(tablet.page)).to_contain_text(re.compile("[Сс]ыграна карта"))
    tablet.settled()
    screen(tablet.page, "decision-bar-tablet-landscape")
    tablet.report()
    if MEASURE:
        return
    board = tablet.page.locator(".board-viewport").first.bounding_box()
    bar = tablet.page.locator(".decision-bar").bounding_box()
    assert bar["x"] >= board["x"] + board["width"], (board, bar)  # side by side
    assert abs(bar["y"] + bar["height"] - TABLET["height"]) <= 2, bar  # at the bottom of the panel
    check(tablet.page, "the decision bar on a landscape tablet")


def in_bar(page, locator):
    """The control is part of the decision bar (the bar holds the decision, not a section further down)."""
    assert locator.evaluate("(el) => !!el.closest('#decision-bar')"), locator


def test_decisions_between_moves_are_in_the_bar_preparing_for_war(live_server, new_context):
    """«Подготовка к войне»: before the first card, each of the phone's countries may put one status into play: the
    choices are in the bar (its list scrolls inside it), tapped without scrolling the page."""
    game = create_game("Подготовка у бара", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {"prepare_for_war": True})
    germany = Phone(join(new_context, live_server, game, 1), "Германия")
    germany.turn("preparing for war, then a build")
    blitz = germany.page.locator("#decision-bar section.prepare button.choice", has_text="Блицкриг").first
    in_bar(germany.page, blitz)
    germany.tap(blitz)
    expect(answer(germany.page)).to_contain_text("Блицкриг")
    germany.settled()
    expect(germany.page.locator("#decision-bar section.prepare h4")).to_have_text(["Япония", "Италия"])
    screen(germany.page, "decision-bar-prepare-360")
    germany.tap(space(germany.page, "eastern_europe"))  # the turn goes on in the same bar
    germany.tap(germany.page.get_by_role("button", name="Сыграть карту"))
    expect(answer(germany.page)).to_contain_text(re.compile("[Сс]ыграна карта"))
    germany.settled()
    expect(germany.page.locator("section.prepare")).to_have_count(0)  # the first card ends the preparation
    germany.report()
    assert germany.turns[0][1] == 3
    game.refresh_from_db()
    assert game.country_cards.get(country="germany").statuses == ["ger_blitzkrieg"]


def _host_turn(game, card_type, space=None, deploy=None):
    """One turn entered by the host (the set-up of the Air Marshal test below), as the log keeps it."""
    from tracker.core import log

    host = log.Actor(is_host=True)
    commands = [{"type": "play_card", "card_type": card_type, **({"space": space} if space else {})},
                {"type": "end_play"}, *([{"type": "deploy_air", "space": deploy}] if deploy else []),
                {"type": "end_air"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
                {"type": "draw"}]
    for command in commands:
        game.refresh_from_db()
        result = log.submit(game.pk, game.version, host, command)
        assert result.applied, (command, result.reason)


def test_decisions_between_moves_are_in_the_bar_air_defence_and_air_strike(live_server, new_context):
    """Air Marshal: Germany attacks Ukraine; the USSR's phone answers with air defence and Germany's with an air
    strike, each a prompt in the bar of the phone it concerns, tapped without scrolling."""
    game = create_game("Авиация у бара", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {"air_marshal": True})
    for card_type, where in ROUND_ONE:  # Germany's and the USSR's armies and air forces, as in test_air_marshal
        _host_turn(game, card_type, where, deploy=where)
    axis = Phone(join(new_context, live_server, game, 1), "Германия")
    allies = Phone(join(new_context, live_server, game, 2), "СССР")
    axis.turn("a battle, then the air strike")
    axis.choose(axis.page.locator("select[name=card_type]").first, "land_battle")
    axis.tap(space(axis.page, "ukraine"))
    axis.tap(axis.page.get_by_role("button", name="Сыграть карту"))
    axis.settled()

    allies.turn("air defence")
    caught_up(allies.page, game)
    defence = allies.page.get_by_role("button", name="Применить авиазащиту")
    expect(defence).to_be_visible()
    in_bar(allies.page, defence)
    screen(allies.page, "decision-bar-air-defence-360")
    allies.tap(defence)
    allies.settled()
    assert Piece.objects.filter(game=game, country="soviet_union", kind="army", space="ukraine").exists()

    caught_up(axis.page, game)
    strike = axis.page.get_by_role("button", name="Авианалёт")
    expect(strike).to_be_visible()
    in_bar(axis.page, strike)
    axis.tap(strike)
    axis.settled()
    assert not Piece.objects.filter(game=game, country="soviet_union", space="ukraine").exists()
    assert not Piece.objects.filter(game=game, country="germany", kind="air").exists()
    axis.report()
    allies.report()
    assert (axis.turns[0][1], allies.turns[0][1]) == (4, 1)
    check(allies.page, "the decision bar with an Air Marshal prompt")

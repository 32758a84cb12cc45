"""No tap does nothing: every form of a QMG phone's live page sends its request and shows its answer, even when
the tap is made while a live refresh is on its way (another phone has just moved).

The phone is the Allies' seat of a two-player Air Marshal game on the production ASGI server (its live stream).
Before each tap another seat (the Axis) moves through the same write path as its phone would; the refresh that
move brings is held on its way (the test lets it go later), and the tap is then made as a finger makes it: the
form's fields filled as a player fills them, the page scrolled to the button first (not part of the tap), then a
press and a release at the button's centre. In half of the taps the refresh is let go *while the finger is on
the button* (between the press and the release), so that its answer lands mid-tap.

For each tap the test watches the phone's requests: it fails when the tap sent none, or when no answer (the
answer box of the bar or of the page, or for the plain note form the page it loads) is seen after it. The
folded forms are opened first, as a player opens them.

The last two tests find the forms themselves (every submit button of every form of ``#game``, so that a form a page
gains is tapped without a test naming it) on the pages of a six-player game night in the states that hold the
decision bar's forms («Подготовка к войне», a turn, a response window, a status offered after a battle, a card step)
and on the pages of The Fog of War and «Генералиссимус»."""
import re
import time

import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.models import Game
from tracker.qmg import selectors
from tracker.qmg.views import create_game

from .test_decision_bar import HTMX_BUSY

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 640}
HOST = log.Actor(is_host=True)
GAME_GET = re.compile(r".*/g/\d+/(\?.*)?$")


def submit(game, command, actor=HOST):
    game.refresh_from_db()
    result = log.submit(game.pk, game.version, actor, command)
    assert result.applied, (command, result.reason)


def host_turn(game, play, deploy=None):
    submit(game, play)
    submit(game, {"type": "end_play"})
    if deploy:
        submit(game, {"type": "deploy_air", "space": deploy})
    for cmd in ({"type": "end_air"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
                {"type": "draw"}):
        submit(game, cmd)


def air_marshal_round_two():
    """Round 2 of a two-player Air Marshal game, Germany to play: armies and air forces of Germany (Eastern
    Europe) and the USSR (Ukraine), «Карточная система» face up for the UK, so that every form of the Allies' page
    is there (the status card form, removing a piece, the bolster card, notes, undo and redo)."""
    game = create_game("Каждое нажатие", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {"air_marshal": True})
    discard = {"type": "play_card", "card_type": "discard_unused"}
    host_turn(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}, deploy="eastern_europe")
    host_turn(game, {"type": "play_card", "card_type": "status", "card_id": "uk_rationing"})
    host_turn(game, discard)
    host_turn(game, {"type": "play_card", "card_type": "build_army", "space": "ukraine"}, deploy="ukraine")
    host_turn(game, discard)
    host_turn(game, discard)
    return game


class OtherPhone:
    """The Axis seat's moves, made through the write path its phone uses: the next step of its turn while one of
    its countries is active, otherwise a removal of one of its own pieces (allowed at any time), taken back by
    its own undo the next time (so the Axis never runs out of pieces)."""

    STEP = {"air": {"type": "end_air"}, "supply": {"type": "supply"}, "victory": {"type": "score"},
            "discard": {"type": "discard", "n": 0}, "draw": {"type": "draw"}}

    def __init__(self, game):
        self.game = game
        self.seat = next(s for s in game.seats.all() if "germany" in s.countries)
        self.actor = log.Actor(seat=self.seat)
        self.removed_at = None  # the version the last removal made

    def move(self):
        game = Game.objects.get(pk=self.game.pk)
        if self.removed_at == game.version:
            result = log.undo(game.pk, game.version, self.actor)
            assert result.applied, result.reason
            self.removed_at = None
            return
        table = selectors.table_of(game)
        board = selectors.board_of(game)
        active = table.active(board)
        if active in self.seat.countries:
            if table.phase == "play":
                command = {"type": "end_play"} if table.played else {"type": "play_card", "card_type": "discard_unused"}
            else:
                command = self.STEP[table.phase]
        else:
            piece = next(p for p in table.position.pieces if p.country in self.seat.countries and p.kind == "army")
            command = {"type": "step", "action": "remove", "country": piece.country, "space": piece.space,
                       "kind": piece.kind}
        submit(self.game, command, self.actor)
        if command["type"] == "step":
            self.removed_at = Game.objects.get(pk=self.game.pk).version


class Phone:
    """The Allies' phone: its requests are watched; the refresh a move of the other seat brings is held."""

    def __init__(self, page):
        self.page = page
        self.sent = []
        self.held = []
        self.holding = False
        page.on("request", lambda r: self.sent.append((r.method, r.url, r.is_navigation_request())))
        page.route(GAME_GET, self._route)

    def _route(self, route):
        request = route.request
        if self.holding and request.method == "GET" and request.headers.get("hx-request"):
            self.held.append(route)
        else:
            route.continue_()

    def version(self):
        return int(self.page.locator("#game").get_attribute("data-version"))

    def refresh_on_its_way(self, other):
        """Another phone moves; the refresh it brings is held on its way."""
        self.holding = True
        other.move()
        deadline = time.monotonic() + 5
        while not self.held:
            assert time.monotonic() < deadline, "the live refresh was not asked for"
            self.page.wait_for_timeout(20)

    def let_go(self):
        self.holding = False
        for route in self.held:
            try:
                route.continue_()
            except Exception:  # noqa: BLE001 - the page gave that request up for the tap: nothing to let go
                pass
        self.held.clear()

    def tap(self, button, label, mid_tap=False):
        """A finger's tap on ``button`` (scrolled to first); with ``mid_tap`` the held refresh lands while the
        finger is down. Fails when the tap sends no request or nothing answers it."""
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box, label
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        before = len(self.sent)
        self.page.mouse.move(x, y)
        self.page.mouse.down()
        if mid_tap:
            version = self.version()
            self.let_go()
            self.page.wait_for_timeout(400)  # the refresh's answer has come back while the finger is down
            print(f"  {label}: the refresh landed mid-tap: {self.version() != version}")
        self.page.mouse.up()
        deadline = time.monotonic() + 4
        while not any(m == "POST" for m, _url, _nav in self.sent[before:]):
            if time.monotonic() > deadline:
                raise AssertionError(f"{label}: the tap sent nothing ({'refresh mid-tap' if mid_tap else 'refresh on its way'})")
            self.page.wait_for_timeout(25)
        self.let_go()
        print(f"  {label}: sent {[(m, u.split('/g/')[-1]) for m, u, _n in self.sent[before:] if m == 'POST']}")


def answered(page, label):
    answer = page.locator("#game .flash, .messages .msg").first
    expect(answer, label).to_be_visible(timeout=5000)
    print(f"    answer: {answer.inner_text()[:100]!r}")
    expect(page.locator(HTMX_BUSY)).to_have_count(0)  # the refresh let go after the tap has landed too


def open_folded(page, summary_of):
    details = page.locator(f"#game details.{summary_of}").first
    if details.get_attribute("open") is None:
        summary = details.locator("> summary")
        summary.scroll_into_view_if_needed()
        summary.click()
    expect(details).to_have_attribute("open", "")
    return details


def test_every_form_of_the_page_is_sent_when_tapped_during_a_live_refresh(asgi_live_server, new_context, shot):
    game = air_marshal_round_two()
    other = OtherPhone(game)
    allies = game.seats.get(number=2)
    page = new_context(viewport=PHONE).new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(asgi_live_server.url + f"/join/{allies.token}/")
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_timeout(500)  # the stream is open and heard
    phone = Phone(page)

    # Germany is to play: the Allies' forms are the folded ones and the history's
    phone.refresh_on_its_way(other)
    details = open_folded(page, "any-time")
    form = details.locator("form")
    form.locator("select[name=country]").select_option("united_states")
    form.locator("select[name=space]").select_option("eastern_us")
    form.locator("select[name=kind]").select_option("army")
    phone.tap(form.locator("button[type=submit]"), "remove one of your own pieces")
    answered(page, "remove one of your own pieces")

    phone.refresh_on_its_way(other)
    details = open_folded(page, "bolster")
    form = details.locator("form")
    form.locator("input[name=name]").fill("Ночные бомбардировщики")
    phone.tap(form.locator("button[type=submit]"), "play a bolster card", mid_tap=True)
    answered(page, "play a bolster card")

    phone.refresh_on_its_way(other)
    phone.tap(page.locator(".undo-redo button", has_text="Отменить"), "undo", mid_tap=True)
    answered(page, "undo")

    # the turn comes to the UK: the decision bar's forms
    for _ in range(10):
        other.move()
        table = selectors.table_of(Game.objects.get(pk=game.pk))
        if table.active(selectors.board_of(game)) == "united_kingdom":
            break
    bar = page.locator("#decision-bar")
    expect(bar.locator("select[name=card_type]")).to_be_visible(timeout=5000)

    phone.refresh_on_its_way(other)
    bar.locator("select[name=card_type]").select_option("discard_unused")
    phone.tap(bar.get_by_role("button", name="Сыграть карту"), "play a card (the bar)", mid_tap=True)
    answered(page, "play a card (the bar)")
    finish = bar.get_by_role("button", name="Закончить ход")
    if not finish.is_visible():  # sent for the version before the other phone's move: refused as a conflict
        expect(page.locator("#game .flash").first).to_contain_text(re.compile("изменил|обновил|[Кк]онфликт|уже"))
        bar.locator("select[name=card_type]").select_option("discard_unused")
        phone.tap(bar.get_by_role("button", name="Сыграть карту"), "play the card again")
    expect(finish).to_be_visible()

    # the answer to the card is in the bar: the status card form further down the page, its name typed
    phone.refresh_on_its_way(other)
    details = open_folded(page, "use-card")
    form = details.locator("form:has(input[name=card])")
    form.locator("input[name=card]").fill("Карточная система")
    phone.tap(form.locator("button[type=submit]"), "use a status card")
    answered(page, "use a status card")

    phone.refresh_on_its_way(other)
    phone.tap(finish, "finish the turn (the bar)")
    answered(page, "finish the turn (the bar)")
    for _ in range(3):  # refused as a conflict, or stopped at the air step (its own decision): tapped again
        if not finish.is_visible():
            break
        phone.tap(finish, "finish the turn again")
        answered(page, "finish the turn again")
    expect(page.locator(".whoami .waiting-for")).to_be_visible()

    phone.refresh_on_its_way(other)
    phone.tap(page.locator(".undo-redo button", has_text="Отменить"), "undo")
    answered(page, "undo")

    # a move of the Allies' own, taken back (plain taps): «Вернуть» is open; then tapped during a refresh
    details = open_folded(page, "any-time")
    form = details.locator("form")
    form.locator("select[name=country]").select_option("soviet_union")
    form.locator("select[name=space]").select_option("ukraine")
    form.locator("select[name=kind]").select_option("army")
    phone.tap(form.locator("button[type=submit]"), "remove one of your own pieces (plain)")
    expect(page.locator("#game .flash").first).to_contain_text("Юг СССР")
    phone.tap(page.locator(".undo-redo button", has_text="Отменить"), "undo it (plain)")
    expect(page.locator(".undo-redo button", has_text="Вернуть")).to_be_enabled()
    phone.refresh_on_its_way(other)
    phone.tap(page.locator(".undo-redo button", has_text="Вернуть"), "redo", mid_tap=True)
    answered(page, "redo")

    phone.refresh_on_its_way(other)  # the plain form: the page is loaded again with its answer
    details = open_folded(page, "private-note")
    details.locator("textarea[name=text]").fill("Держать Москву")
    phone.tap(details.locator("button[type=submit]"), "save a note")
    expect(page.locator(".messages .msg, #game .flash").first).to_contain_text(re.compile("[Зз]аметка"))
    shot(page, "every-tap-360")
    assert not [e for e in errors if "sseError" in e or "[object Event]" in e], errors


def open_seat(new_context, server, game, number):
    page = new_context(viewport=PHONE).new_page()
    page.goto(server.url + f"/join/{game.seats.get(number=number).token}/")
    expect(page.locator("#game .decision-bar")).to_be_visible()
    page.wait_for_timeout(500)  # the stream is open and heard
    return page


def test_the_other_games_forms_are_sent_when_tapped_during_a_live_refresh(asgi_live_server, new_context):
    """The Fog of War (the waiting side's undo while the other side rotates its wheel) and «Генералиссимус» (an
    order placed while the other side places one, the refresh landing mid-tap): each tap is sent and answered."""
    from django.test import Client
    from django.urls import reverse

    from tests.tracker.helpers import initial_data
    from tests.tracker.test_generalissimus_views import setup_data
    from tracker.fog_of_war.forms import NewFogGameForm

    data = initial_data(NewFogGameForm(), name="Туман: каждое нажатие", axis_player="Аня", allies_player="Боря")
    assert Client().post(reverse("fog_of_war:new"), data).status_code == 302
    game = Game.objects.get(name="Туман: каждое нажатие")
    axis = open_seat(new_context, asgi_live_server, game, 1)
    allies = Phone(open_seat(new_context, asgi_live_server, game, 2))
    axis.locator("#decision-bar form:has(input[value=start_turn]) button[type=submit]").click()
    expect(axis.locator("#decision-bar .bar-answer .flash-success")).to_be_visible()
    expect(allies.page.locator(".undo-redo button", has_text="Отменить")).to_be_enabled()  # a move in the log
    bar = axis.locator("#decision-bar")
    bar.locator("details.action > summary").filter(has_text="Новая операция").click()
    bar.locator("form.act-new-op select[name=target]").select_option("vichy")
    bar.locator("form.act-new-op .hand-pick label").nth(0).click()
    bar.locator("form.act-new-op .hand-pick label").nth(1).click()
    allies.holding = True
    bar.locator("form.act-new-op button[type=submit]").click()  # the Axis plans an operation
    deadline = time.monotonic() + 5
    while not allies.held:
        assert time.monotonic() < deadline, "the live refresh was not asked for"
        allies.page.wait_for_timeout(20)
    allies.tap(allies.page.locator(".undo-redo button", has_text="Отменить"), "fog of war: undo", mid_tap=True)
    answered(allies.page, "fog of war: undo")

    assert Client().post(reverse("generalissimus:new"), setup_data(name="Генералиссимус: каждое нажатие")).status_code == 302
    game = Game.objects.get(name="Генералиссимус: каждое нажатие")
    south = Phone(open_seat(new_context, asgi_live_server, game, 1))
    north = open_seat(new_context, asgi_live_server, game, 2)
    bar = south.page.locator("#decision-bar")
    for n, card in enumerate(("musket_volley", "bayonets"), 1):
        chip = bar.locator('form.g-place label.g-zone-chip:has(input[value="center"])')
        if chip.count() and not chip.locator("input").is_checked():
            chip.click()
        south.holding = True
        north.locator('form.g-place label.g-zone-chip:has(input[name="zone"][value="center"])').click()
        north.locator(f'form.g-place button[name="card_type"][value="{card}"]').click()
        deadline = time.monotonic() + 5
        while not south.held:
            assert time.monotonic() < deadline, "the live refresh was not asked for"
            south.page.wait_for_timeout(20)
        south.tap(bar.locator(f'form.g-place button[name=card_type][value="{card}"]'), f"generalissimus: order {n}",
                  mid_tap=n == 2)
        answered(south.page, f"generalissimus: order {n}")


# --- every form of a page, whatever it holds --------------------------------------------------------------------
# The tests below find the forms themselves: every submit button of every form of #game (the decision bar's, the
# folded ones', the history's), so that a form a page gains is tapped without the test naming it. The requests the
# taps send are caught before the server (answered with the page as it stands), so each page's forms are all
# tapped in one state of the game; the refresh each tap races is that of a move undone and redone by the host.

POSTS = re.compile(r".*/g/\d+/(command|undo|redo|note|unseen)/(\?.*)?$")
STREAM = re.compile(r".*/g/\d+/stream/.*")
POLL = re.compile(r".*/g/\d+/poll/.*")

BUTTONS = "button:not([type=button]), input[type=submit]"

SIGNATURES = """(buttons) => [...document.querySelectorAll('#game form')].flatMap((form, i) =>
    [...form.querySelectorAll(buttons)].map((b, j) => {
        const hidden = [...form.querySelectorAll('input[type=hidden]')]
            .filter((x) => !['csrfmiddlewaretoken', 'version'].includes(x.name))
            .map((x) => x.name + '=' + x.value).join('&');
        const text = (b.textContent || b.value || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
        const what = (b.name ? b.name + '=' + b.value + ' ' : '') + text;
        return {sig: (form.getAttribute('action') || '').replace(/.*\\/g\\/\\d+/, '') + '?' + hidden + ' ' + what,
                form: i, button: j, disabled: b.disabled};
    }))"""

FILL = """(form) => {  // what a player fills before the tap: an empty required field gets a value
    const groups = new Set();
    for (const el of form.elements) {
        if (el.type === 'radio' && el.required) { groups.add(el.name); continue; }
        if (!el.required || el.value || el.type === 'hidden') continue;
        if (el.tagName === 'SELECT') { const o = [...el.options].find((o) => o.value); if (o) el.value = o.value; }
        else if (el.type === 'number') el.value = el.min || '0';
        else if (el.type === 'checkbox') el.checked = true;
        else el.value = 'Блицкриг';
    }
    for (const name of groups) {
        const radios = [...form.querySelectorAll('input[type=radio]')].filter((r) => r.name === name);
        if (!radios.some((r) => r.checked)) radios[0].checked = true;
    }
    return form.checkValidity();
}"""


UNFILLED = """(button) => {  // the first field the browser will not send as it is with this button, and what it says
    if (button.formNoValidate || button.form.noValidate) return null;  // sent as it is (e.g. «Брось за нас»)
    const bad = [...button.form.elements].find((el) => el.willValidate && !el.checkValidity());
    return bad ? {name: bad.name, message: bad.validationMessage} : null;
}"""


class Bounce:
    """A live refresh on its way: the host undoes the game's last move and redoes it (two new versions, the same
    state)."""

    def __init__(self, game):
        self.game = game

    def move(self):
        for step in (log.undo, log.redo):
            game = Game.objects.get(pk=self.game.pk)
            result = step(game.pk, game.version, HOST)
            assert result.applied, (step.__name__, result.reason)


class EveryForm(Phone):
    """A phone whose taps' requests are caught before the server and answered with the page as it stands; with
    ``poll``, the poll is what is held on its way (the page's stream refused)."""

    def __init__(self, page, poll=False):
        super().__init__(page)
        self.game_url = page.url.split("?")[0]
        page.route(POSTS, self._post)
        if poll:
            page.route(POLL, self._route)

    def _post(self, route):
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        if request.headers.get("hx-request"):
            answer = self.page.context.request.get(self.game_url, headers={"HX-Request": "true"})
            route.fulfill(status=answer.status, headers=answer.headers, body=answer.body())
        else:  # a plain form: the page is loaded again, as after its redirect
            route.fulfill(status=303, headers={"Location": self.game_url})

    def settle(self):
        self.page.wait_for_load_state()
        expect(self.page.locator("#game")).to_be_visible()
        expect(self.page.locator(HTMX_BUSY)).to_have_count(0)


def tap_every_form(phone, bounce, label):
    """Taps every enabled submit button of every form of the phone's #game, each right after a live refresh was
    asked for (every other tap with the refresh landing while the finger is down); fails on a tap that sends
    nothing. A form with an empty required field is tapped first as it is: it must not be sent and the browser must
    say why (the field focused, its message); then filled and tapped. Returns the buttons tapped."""
    page = phone.page
    phone.settle()
    shown = page.evaluate(SIGNATURES, BUTTONS)
    tapped, said = [], []
    for n, entry in enumerate(x for x in shown if not x["disabled"]):
        phone.refresh_on_its_way(bounce)
        print(f"  {label}: on its way: {[r.request.url.split('/g/')[-1] for r in phone.held]}")
        now = {x["sig"]: x for x in page.evaluate(SIGNATURES, BUTTONS)}
        assert entry["sig"] in now, f"{label}: «{entry['sig']}» is gone after a refresh of the same state"
        where = now[entry["sig"]]
        form = page.locator("#game form").nth(where["form"])
        for summary in form.locator("xpath=ancestor::details[not(@open)]/summary").all()[::-1]:
            summary.scroll_into_view_if_needed()
            summary.click()  # the folded form opened, as a player opens it
        button = form.locator(BUTTONS).nth(where["button"])
        unfilled = button.evaluate(UNFILLED)
        if unfilled:  # tapped as it is first: the browser says why it cannot be sent (the field, focused)
            sent = len(phone.sent)
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            expect(form.locator(f'[name="{unfilled["name"]}"]').first).to_be_focused()
            assert unfilled["message"], unfilled
            posts = [m for m, _u, _n in phone.sent[sent:] if m == "POST"]
            assert not posts, f"{label}: an empty required field was sent"
            print(f"  {label}: {entry['sig']}: not sent, «{unfilled['name']}»: {unfilled['message']}")
            said.append(entry["sig"])
        assert form.evaluate(FILL), f"{label}: «{entry['sig']}» cannot be filled"
        phone.tap(button, f"{label}: {entry['sig']}", mid_tap=n % 2 == 1)
        phone.settle()
        tapped.append(entry["sig"])
    print(f"  {label}: {len(said)} forms said why they could not be sent before their fields were filled")
    return tapped


def seat_page(new_context, server, game, number, stream=True):
    """A seat's phone; without ``stream`` its live stream is refused, so that the page polls."""
    page = new_context(viewport=PHONE).new_page()
    if not stream:
        page.route(STREAM, lambda route: route.abort())
    page.goto(server.url + f"/join/{game.seats.get(number=number).token}/")
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_timeout(500)  # the stream is open and heard
    return page


def test_every_form_of_a_game_nights_pages_is_sent_when_tapped_during_a_live_refresh(asgi_live_server, new_context):
    """A six-player «Подготовка к войне» game (tests/e2e/test_game_night.py) brought through the write path to the
    states whose pages hold the decision bar's forms: «Подготовка к войне», a player's own turn (on a phone whose
    stream is refused: the tap races a poll), a response window (a face-down response usable now), a status offered
    after a battle («Блицкриг»), a card step."""
    from .game_night_taps import NAMES
    from .test_qmg_cards import TURN_END

    game = create_game("Каждая форма", [(NAMES[s[0]], s) for s in DEFAULT_SEATING[6]], {"prepare_for_war": True})
    seat = {s.countries[0]: s for s in game.seats.all()}

    def move(country, command):
        submit(game, command, log.Actor(seat=seat[country]))

    def turn(country, play):
        move(country, play)
        for command in TURN_END:
            move(country, command)

    bounce = Bounce(game)
    discard = {"type": "play_card", "card_type": "discard_unused"}
    battle = {"type": "play_card", "card_type": "land_battle", "space": "ukraine"}
    tapped = {}

    move("united_kingdom", {"type": "prepare", "country": "united_kingdom", "card_type": "status",
                            "card_id": "uk_rationing"})
    ussr = EveryForm(seat_page(new_context, asgi_live_server, game, 4))
    tapped["preparing for war (the USSR)"] = tap_every_form(ussr, bounce, "preparing for war")
    assert any("card_type=response&card_id=su_stalingrad" in sig for sig in tapped["preparing for war (the USSR)"])

    page = ussr.page
    fold = page.locator("#decision-bar details.prepare-response")
    if fold.get_attribute("open") is None:
        fold.locator("> summary").click()
    page.unroute(POSTS)  # this one is the USSR's own: Stalingrad face down, its name kept on this phone
    page.locator("#decision-bar section.prepare button.choice", has_text="Сталинград").click()
    expect(page.locator("#decision-bar .flash").first).to_be_visible()
    page.route(POSTS, ussr._post)
    move("germany", {"type": "prepare", "country": "germany", "card_type": "status", "card_id": "ger_blitzkrieg"})
    turn("germany", {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"})
    uk = EveryForm(seat_page(new_context, asgi_live_server, game, 2, stream=False), poll=True)
    tapped["the UK's own turn (its stream refused: a poll on its way)"] = tap_every_form(uk, bounce, "the UK's turn")
    turn("united_kingdom", discard)
    turn("japan", discard)
    turn("soviet_union", {"type": "play_card", "card_type": "build_army", "space": "ukraine"})
    turn("italy", discard)
    turn("united_states", discard)

    move("germany", battle)  # round 2: the window asks the USSR, which holds «Сталинград»
    tapped["a response window (the USSR)"] = tap_every_form(ussr, bounce, "a response window")
    assert any("Сталинград" in sig for sig in tapped["a response window (the USSR)"])
    assert any("command=pass" in sig for sig in tapped["a response window (the USSR)"])
    page.unroute(POSTS)  # the reveal itself is the USSR's own: played through its page
    page.locator("#decision-bar button.reveal", has_text="Сталинград").first.click()
    expect(page.locator("#decision-bar .flash").first).to_contain_text("Сталинград")
    page.route(POSTS, ussr._post)
    for command in TURN_END:
        move("germany", command)
    for country in ("united_kingdom", "japan", "soviet_union", "italy", "united_states"):
        turn(country, discard)

    move("germany", battle)  # round 3: nobody can answer; the army goes, «Блицкриг» is usable
    germany = EveryForm(seat_page(new_context, asgi_live_server, game, 1))
    tapped["a status offered after a battle (Germany)"] = tap_every_form(germany, bounce, "Blitzkrieg offered")
    assert any("Блицкриг" in sig for sig in tapped["a status offered after a battle (Germany)"])
    move("germany", {"type": "use_card", "country": "germany", "card_id": "ger_blitzkrieg"})
    tapped["a card step (Germany)"] = tap_every_form(germany, bounce, "a card step")
    assert any("card_step" in sig for sig in tapped["a card step (Germany)"])
    for state, sigs in tapped.items():
        print(f"{state}: {len(sigs)} forms tapped")
        for sig in sigs:
            print(f"    {sig}")


def test_every_form_of_the_other_games_pages_is_sent_when_tapped_during_a_live_refresh(asgi_live_server, new_context):
    """The Fog of War (the Axis with its wheel rotated: its actions, folded and open; the Allies waiting) and
    «Генералиссимус» (both sides placing their orders; then the initiative dice): every form tapped."""
    from django.test import Client
    from django.urls import reverse

    from tests.tracker.helpers import initial_data
    from tests.tracker.test_generalissimus_views import setup_data
    from tracker.fog_of_war.forms import NewFogGameForm

    tapped = {}
    data = initial_data(NewFogGameForm(), name="Туман: каждая форма", axis_player="Аня", allies_player="Боря")
    assert Client().post(reverse("fog_of_war:new"), data).status_code == 302
    game = Game.objects.get(name="Туман: каждая форма")
    axis = seat_page(new_context, asgi_live_server, game, 1)
    axis.locator("#decision-bar form:has(input[value=start_turn]) button[type=submit]").click()
    expect(axis.locator("#decision-bar .bar-answer .flash-success")).to_be_visible()
    bounce = Bounce(game)
    tapped["the Fog of War: the Axis, its wheel rotated"] = tap_every_form(EveryForm(axis), bounce, "fog of war, axis")
    allies = EveryForm(seat_page(new_context, asgi_live_server, game, 2))
    tapped["the Fog of War: the Allies waiting"] = tap_every_form(allies, bounce, "fog of war, allies")

    new = Client().post(reverse("generalissimus:new"), setup_data(name="Генералиссимус: каждая форма"))
    assert new.status_code == 302
    game = Game.objects.get(name="Генералиссимус: каждая форма")
    south_page = seat_page(new_context, asgi_live_server, game, 1)
    north_page = seat_page(new_context, asgi_live_server, game, 2)
    for page, card in ((south_page, "musket_volley"), (north_page, "musket_volley"), (north_page, "bayonets")):
        chip = page.locator('#decision-bar form.g-place label.g-zone-chip:has(input[value="center"])')
        if chip.count() and not chip.locator("input").is_checked():
            chip.click()
        before = page.locator("#game").get_attribute("data-version")
        page.locator(f'#decision-bar form.g-place button[name=card_type][value="{card}"]').first.click()
        expect(page.locator(f'#game:not([data-version="{before}"])')).to_have_count(1)
    bounce = Bounce(game)
    south = EveryForm(south_page)
    tapped["«Генералиссимус»: the South placing its orders"] = tap_every_form(south, bounce, "generalissimus, south")
    page = south_page
    page.unroute(POSTS)
    before = page.locator("#game").get_attribute("data-version")
    page.locator('#decision-bar form.g-place button[name=card_type][value="bayonets"]').first.click()
    expect(page.locator(f'#game:not([data-version="{before}"])')).to_have_count(1)
    for side in (south_page, north_page):
        expect(side.locator("button.g-confirm").first).to_be_visible()
        before = side.locator("#game").get_attribute("data-version")
        side.locator("button.g-confirm").first.click()
        expect(side.locator(f'#game:not([data-version="{before}"])')).to_have_count(1)
    expect(south_page.locator("form.g-dice")).to_be_visible(timeout=10_000)
    south_page.route(POSTS, south._post)
    tapped["«Генералиссимус»: the initiative dice"] = tap_every_form(south, bounce, "generalissimus, dice")
    for state, sigs in tapped.items():
        print(f"{state}: {len(sigs)} forms tapped")
        for sig in sigs:
            print(f"    {sig}")
    for state, command in (("the Fog of War: the Axis, its wheel rotated", "command=new_op"),
                           ("«Генералиссимус»: the South placing its orders", "command=place&"),
                           ("«Генералиссимус»: the initiative dice", "command=initiative")):
        assert any(command in sig for sig in tapped[state]), (state, command)


def test_every_form_of_an_air_marshal_page_is_sent_when_tapped_during_a_live_refresh(asgi_live_server, new_context):
    """Air Marshal (a two-player game, round 2): the Axis phone in its air step (deploy, move, the bolster card),
    then the Allies' phone asked for air defence (or an air retreat) after Germany's battle on Ukraine: every form
    tapped."""
    from .test_air_marshal import ROUND_ONE
    from .test_decision_bar import _host_turn

    seats = list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2]))
    game = create_game("Авиация: каждая форма", seats, {"air_marshal": True})
    for card_type, where in ROUND_ONE:  # Germany's and the USSR's armies and air forces
        _host_turn(game, card_type, where, deploy=where)
    submit(game, {"type": "play_card", "card_type": "discard_unused"})
    submit(game, {"type": "end_play"})
    bounce = Bounce(game)
    tapped = {}
    axis = EveryForm(seat_page(new_context, asgi_live_server, game, 1))
    tapped["the air step (the Axis)"] = tap_every_form(axis, bounce, "air step")
    assert any("command=deploy_air" in sig for sig in tapped["the air step (the Axis)"])
    for command in ({"type": "end_air"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
                    {"type": "draw"}):
        submit(game, command)
    game.refresh_from_db()  # the other countries discard until Germany plays again
    table = selectors.table_of(game)
    while table.active(selectors.board_of(game)) != "germany":
        _host_turn(game, "discard_unused")
        game.refresh_from_db()
        table = selectors.table_of(game)
    submit(game, {"type": "play_card", "card_type": "land_battle", "space": "ukraine"})
    allies = EveryForm(seat_page(new_context, asgi_live_server, game, 2))
    expect(allies.page.locator("#decision-bar").get_by_role("button", name="Применить авиазащиту")).to_be_visible()
    tapped["air defence asked (the Allies)"] = tap_every_form(allies, bounce, "air defence")
    for state, sigs in tapped.items():
        print(f"{state}: {len(sigs)} forms tapped")
        for sig in sigs:
            print(f"    {sig}")
    assert any("action=air_defence" in sig for sig in tapped["air defence asked (the Allies)"])


def test_a_form_tapped_before_htmx_has_taken_it_in_is_sent_by_htmx(live_server, new_context):
    """The moment after a swap, a form may be on the page before htmx has taken it in: a tap on it still goes as
    htmx's request (the live page stays, the answer comes into the bar), never as the browser's plain POST."""
    game = create_game("Миг", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {})
    axis = game.seats.get(number=1)
    page = new_context(viewport={"width": 360, "height": 640}).new_page()
    page.goto(live_server.url + f"/join/{axis.token}/")
    expect(page.locator("#game")).to_be_visible()
    url = page.url
    # the bar's «Сыграть карту» form as a fresh copy htmx has not seen (as right after a swap)
    page.evaluate("""() => {
        const form = document.querySelector('#decision-bar form[hx-post]:has(select[name=card_type])');
        form.replaceWith(document.createRange().createContextualFragment(form.outerHTML));
    }""")
    sent = []
    page.on("request", lambda r: sent.append(r.headers.get("hx-request")) if r.method == "POST" else None)
    page.locator('#game g.space[data-space="western_europe"]').first.dispatch_event("click")
    page.locator("#decision-bar").get_by_role("button", name="Сыграть карту").click()
    expect(page.locator("#decision-bar .flash")).to_contain_text(re.compile("[Сс]ыграна карта"))
    assert sent == ["true"] and page.url == url

"""In a real browser: the rulebook's «Подробные примеры использования карт», Пример 2, played on
the phones of a six-player game as players do — taps only, no direct POSTs.

Japan's phone plays «Атака на море» against the British navy in the South China Sea; the UK's phone
reveals «Эсминцы» and the navy stays. Japan's phone reveals «Внезапная атака» and battles the Bay of
Bengal and the Philippines (a removal waits for the answer of whoever holds a response that could save the
piece); when its own side is asked, Japan's bar offers «Транспортировка на эсминцах», one tap reveals it, and
Japan builds an army in India; the UK's phone reveals «Верность короне» and eliminates it; Japan skips the
card's second build. The position, the cards and the sequence are the rulings corpus file
``gameplay/qmg/rulings/examples/rulebook_example_2.json`` (the same file ``manage.py qmg_play`` plays), but
for Japan's «Пас» before that response: on the phone, the response is the answer.

The position is written directly, not played up to: the example starts in round 4 with two face-down
responses each for Japan and the UK, which no sequence of turns from the setup gets to quickly (one card
per turn). The engine's Table is built from the corpus file (``gameplay.qmg.scenario.setup_table``, as
``qmg_play`` does) and written onto the fresh game through the adapter's write of the mirror models
(``QmgAdapter.save``, the difference from the game's setup table); the game's version and log are left
as created, so the log starts at that position and the test never undoes past it. The identities of the
face-down responses are recorded as the app records them on its owner's phone: a ``PrivateNote`` of kind
«response» on the owner's seat (``after_submit``), since this position allows no face-down play in the UI.
"""
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from gameplay.qmg.scenario import setup_table
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.models import Event, Game, Piece, PrivateNote
from tracker.qmg import selectors
from tracker.qmg.adapter import QmgAdapter
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = Path(__file__).resolve().parents[2] / "gameplay/qmg/rulings/examples/rulebook_example_2.json"
NAMES = ["Германия", "Великобритания", "Япония", "СССР", "Италия", "США"]


def put_the_examples_position(game: Game, data: dict) -> None:
    """The example's table onto the game's mirror models, and each face-down response on its owner's list."""
    board = selectors.board_of(game)
    table, _hands, responses = setup_table(board, data)
    assert table.options == selectors.options_of(game)  # the same rules as the game's
    adapter = QmgAdapter()
    # the difference from the game's setup table (with ``old=None`` the setup's pieces would stay on the board
    # and the cards would not be written: the adapter writes only what changed)
    adapter.save(game, adapter.load(game), table)
    seats = list(game.seats.all())
    for country, ids in responses.items():
        owner = next(s for s in seats if country in s.countries)
        for card_id in ids:  # what the owner's phone records when it puts a response face down
            PrivateNote.objects.create(game=game, seat=owner, country=country, kind=PrivateNote.RESPONSE,
                                       card_id=card_id)
    assert selectors.table_of(Game.objects.get(pk=game.pk)).cards == table.cards


class Taps:
    """Every tap (or typed entry) a player makes goes through here, counted per step of the example."""

    def __init__(self):
        self.steps: list[tuple[str, int]] = []

    def step(self, name: str):
        self.steps.append((name, 0))

    def _count(self):
        name, n = self.steps[-1]
        self.steps[-1] = (name, n + 1)

    def tap(self, locator, map_space=False):
        self._count()
        if map_space:
            locator.dispatch_event("click")  # an SVG group: the tap lands on the space's shape
        else:
            locator.click()

    def type(self, locator, text):
        self._count()
        locator.fill(text)


def pieces(page, space):
    """What the map shows in a space: [(country, kind), ...] from its ``data-pieces``."""
    g = page.locator(f'svg.board-svg g.space[data-space="{space}"]').first
    return sorted((p["country"], p["kind"]) for p in json.loads(g.get_attribute("data-pieces") or "[]"))


def see_pieces(page, space, expected):
    """Wait until the phone's map shows ``expected`` in ``space`` (another phone's move arrives by the poll)."""
    expect(page.locator(f'svg.board-svg g.space[data-space="{space}"]').first).to_be_attached()
    for _ in range(50):
        if pieces(page, space) == expected:
            return
        page.wait_for_timeout(100)
    assert pieces(page, space) == expected, (space, pieces(page, space))


def flash(page, text):
    expect(page.locator(".flash-success")).to_contain_text(text)


def look_at(page, space):
    """Centre the phone's map on a space before a key moment, the way a person finds it: the list of spaces,
    «Показать на карте», the list folded again (looking, not playing: these taps are not counted). The view
    stays when the page is swapped after the next tap, so the screenshot shows the space and the answer."""
    spaces = page.locator("details.board-list").first
    spaces.locator("summary").click()
    spaces.locator(f'[data-board-show="{space}"]').click()
    expect(page.locator(f'svg.board-svg g.space.selected[data-space="{space}"]').first).to_be_attached()
    spaces.locator("summary").click()


def snap(page, name, shot):
    """A full-page screenshot taken from the top (a sticky bar would otherwise cover the middle of it)."""
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name)


def use_card(page):
    """The phone's «Use a status or reveal a response» panel (folded; its private list of face-down responses
    is there while no answer window is its side's)."""
    return page.locator("details.use-card")


def answer_window(page):
    """While its side answers, the phone's reveal buttons (the responses usable now, one tap each) and «Пас» are in
    the decision bar."""
    return page.locator(".decision-bar")


def test_rulebook_example_2_on_the_phones(live_server, new_context, shot):
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    game = create_game("Пример 2", list(zip(NAMES, DEFAULT_SEATING[6])), {})
    put_the_examples_position(game, data)
    seat = {s.countries[0]: s for s in game.seats.all()}
    japan = new_context().new_page()
    japan.goto(live_server.url + f"/join/{seat['japan'].token}/")
    uk = new_context().new_page()
    uk.goto(live_server.url + f"/join/{seat['united_kingdom'].token}/")
    expect(japan.locator(".whoami .your-move")).to_be_visible()
    expect(japan.locator(".status-bar .round")).to_contain_text("4")
    UK_NAVY, UK_ARMY, JP_ARMY = [("united_kingdom", "navy")], [("united_kingdom", "army")], [("japan", "army")]
    see_pieces(uk, "south_china_sea", UK_NAVY)
    see_pieces(uk, "bay_of_bengal", UK_NAVY)
    see_pieces(uk, "philippines", UK_ARMY)
    see_pieces(uk, "india", [])
    taps = Taps()

    # 1. Japan plays «Атака на море» against the British navy in the South China Sea
    taps.step("Япония: «Атака на море» — Южно-Китайское море")
    taps.tap(japan.locator('g.space[data-space="south_china_sea"]').first, map_space=True)
    expect(japan.locator("section.stepper select[name=space]")).to_have_value("south_china_sea")
    taps.type(japan.locator("section.stepper input[name=card]"), "Атака на море")
    taps.tap(japan.locator("section.stepper form:has(input[value=play_card]) button[type=submit]"))
    flash(japan, "ждёт ответа")
    see_pieces(japan, "south_china_sea", UK_NAVY)  # the removal waits for the UK's answer

    # 2. the UK's phone: the window is the Allies'; reveal «Эсминцы» from its own private list
    taps.step("Великобритания: «Эсминцы»")
    expect(uk.locator("section.card.window")).to_contain_text("отвечает Коалиция", timeout=6000)
    expect(answer_window(uk).locator("button.reveal").first).to_be_visible()
    look_at(uk, "south_china_sea")
    taps.tap(answer_window(uk).locator("button.reveal", has_text="Эсминцы"))
    flash(uk, "Эсминцы")
    see_pieces(uk, "south_china_sea", UK_NAVY)
    expect(use_card(uk).locator("button.reveal")).to_have_text(["Верность короне"])  # one left, still private
    snap(uk, "rulebook-example-2-destroyers", shot)

    # 3. Japan's phone: the window is the Axis' now; reveal «Внезапная атака»
    taps.step("Япония: «Внезапная атака»")
    expect(japan.locator("section.card.window")).to_contain_text("отвечает Ось", timeout=6000)
    expect(answer_window(japan).locator("button.reveal").first).to_be_visible()
    taps.tap(answer_window(japan).locator("button.reveal", has_text="Внезапная атака"))
    flash(japan, "Внезапная атака")

    # 4. the card's sea battle: the Bay of Bengal, one tap on the offered choice; no British response left could
    # save that navy (Destroyers is spent), so nobody is asked and it is removed at once
    taps.step("Япония: атака на море — Бенгальский залив")
    taps.tap(japan.locator('#card-steps button[data-step-choice][data-space="bay_of_bengal"]'))
    flash(japan, "Убирается флот")
    see_pieces(japan, "bay_of_bengal", [])
    see_pieces(japan, "south_china_sea", UK_NAVY)

    # 5. the card's land battle: the Philippines; the UK's face-down card may be Defensive Posture: it is asked and
    # passes. Japan's own answer is asked next: its bar offers «Транспортировка на эсминцах» at once (Japan has
    # battled a sea space this turn), one tap, and Japan builds in India
    taps.step("Япония: атака на суше — Филиппины; Пас; «Транспортировка на эсминцах» — армия в Индии")
    taps.tap(japan.locator('#card-steps button[data-step-choice][data-space="philippines"]'))
    flash(japan, "ждёт ответа")
    taps.tap(_visible(uk.locator("section.window form:has(input[value=pass]) button[type=submit]")))
    flash(uk, "пас")
    expect(uk.locator("section.window form:has(input[value=pass])")).to_have_count(0)  # the Axis' turn to answer
    expect(japan.locator("section.card.window")).to_contain_text("отвечает Ось", timeout=6000)
    taps.tap(answer_window(japan).locator("button.reveal", has_text="Транспортировка на эсминцах"))
    flash(japan, "Транспортировка на эсминцах")
    flash(japan, "убрана")  # no answer is left: the British army in the Philippines goes
    see_pieces(japan, "philippines", [])
    look_at(japan, "india")
    taps.tap(japan.locator('#card-steps button[data-step-choice][data-space="india"]'))
    flash(japan, "Индия")
    see_pieces(japan, "india", JP_ARMY)
    see_pieces(uk, "india", JP_ARMY)
    snap(japan, "rulebook-example-2-destroyer-transport", shot)

    # 6. the UK's phone reveals «Верность короне»: the army just built in India is eliminated
    taps.step("Великобритания: «Верность короне»")
    expect(uk.locator("section.card.window")).to_contain_text("отвечает Коалиция", timeout=6000)
    expect(answer_window(uk).locator("button.reveal").first).to_be_visible()
    look_at(uk, "india")
    taps.tap(answer_window(uk).locator("button.reveal", has_text="Верность короне"))
    flash(uk, "Верность короне")
    flash(uk, "Уничтожена фишка страны Япония")
    see_pieces(uk, "india", [])
    expect(use_card(uk).locator("button.reveal")).to_have_count(0)  # nothing face down left
    snap(uk, "rulebook-example-2-loyal-to-the-crown", shot)

    # 7. Japan skips the card's second build
    taps.step("Япония: вторая армия «Транспортировки» — пропустить")
    see_pieces(japan, "india", [])
    taps.tap(japan.locator("#card-steps form:has(input[value=skip]) button[type=submit]"))
    flash(japan, "пропущен")
    expect(japan.locator("#card-steps")).to_have_count(0)

    # the table the corpus file expects
    game.refresh_from_db()
    on_board = set(Piece.objects.filter(game=game).values_list("country", "kind", "space"))
    assert ("united_kingdom", "navy", "south_china_sea") in on_board
    assert not {p for p in on_board if p[2] in ("india", "bay_of_bengal", "philippines")}
    table = selectors.table_of(game)
    assert table.protected == ({"country": "united_kingdom", "kind": "navy", "space": "south_china_sea"},)
    assert table.pending == ()
    assert table.cards_of("japan").responses == 0 and table.cards_of("united_kingdom").responses == 0
    assert not PrivateNote.objects.filter(game=game, kind=PrivateNote.RESPONSE, active=True).exists()
    moves = list(Event.objects.filter(game=game, kind=Event.MOVE).order_by("seq").values_list("command", flat=True))
    expected = [{k: v for k, v in c.items() if k not in ("expect", "why")} for c in data["commands"]]
    # the corpus file's sequence, but for Japan's «Пас» before its response: on the phone, revealing the response
    # from the bar is Japan's answer to the window (one tap instead of two)
    expected.remove({"type": "pass", "country": "japan"})
    assert [{k: m.get(k) for k in e} for m, e in zip(moves, expected)] == expected
    assert len(moves) == len(expected)
    for step, n in taps.steps:
        print(f"taps: {n:2d}  {step}")
    print(f"taps: {sum(n for _s, n in taps.steps):2d}  in all")


def _visible(locator):
    """The one visible element of a locator (a form may also be rendered in a hidden copy), once its phone shows
    the game's newest version (another phone's move arrives by the poll; a tap on an older page is refused as
    stale)."""
    page = locator.page
    game = Game.objects.get(pk=int(re.search(r"/g/(\d+)/", page.url).group(1))) if "/g/" in page.url else None
    if game is not None:
        expect(page.locator(f'#game[data-version="{game.version}"]')).to_have_count(1, timeout=8000)
    expect(locator.first).to_be_visible(timeout=6000)
    return locator.first

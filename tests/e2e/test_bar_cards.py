"""The decision bar on several phones at 360×640 (taps, not POSTs): a status offered the moment its trigger happens,
a face-down response asked only of the phone that holds one, a card with no legal target warned of and confirmed.
Taps and scrolls go through ``test_decision_bar.Phone`` (each target on the screen and under the finger, the page
never scrolled); ``BAR_MEASURE=1`` counts the scrolls instead of failing on them, and where the bar offers nothing
the player takes the long way (the folded «Применить статус или открыть ответ» form), so the same turn can be
measured on a page without these offers."""
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tracker.models import Event, Piece

from ..tracker.test_bar_cards import round_two, us_turn
from .test_accessibility import check
from .test_decision_bar import (MEASURE, UNDER_FINGER, Phone, answer, caught_up, join, screen, space,
                                step_choices_under_the_finger)

pytestmark = pytest.mark.django_db(transaction=True)


def bar(page):
    return page.locator("#decision-bar")


def use_by_name(phone, name):
    """The long way to use a status or reveal a response: open the folded form, type the card's name, apply."""
    phone.tap(phone.page.locator("details.use-card > summary"))
    phone.type(phone.page.locator("details.use-card input[name=card]"), name)
    phone.tap(phone.page.locator("details.use-card button[type=submit]"))


def battle(phone, where):
    phone.choose(phone.page.locator("#decision-bar select[name=card_type]").first, "land_battle")
    phone.tap(space(phone.page, where))
    expect(phone.page.locator("#decision-bar select[name=space]").first).to_have_value(where)
    phone.tap(phone.page.get_by_role("button", name="Сыграть карту"))
    phone.settled()


def test_a_blitzkrieg_battle_offers_the_status_in_the_bar(live_server, new_context):
    game, _ = round_two(Client, "Блицкриг", uk_response=None)
    germany = Phone(join(new_context, live_server, game, 1), "Германия")
    germany.turn("battle with Blitzkrieg")
    battle(germany, "western_europe")
    assert not Piece.objects.filter(game=game, country="united_kingdom", space="western_europe").exists()
    offer = bar(germany.page).locator("button.use-now", has_text="Блицкриг")
    if MEASURE and not offer.count():
        use_by_name(germany, "Блицкриг")
    else:
        expect(offer).to_contain_text("сбросьте из колоды 1 карту")
        screen(germany.page, "bar-cards-blitzkrieg-offer-360")
        check(germany.page, "a status offered in the decision bar")
        germany.tap(offer)
    germany.settled()
    build = bar(germany.page).locator("button[data-step-choice]", has_text="Западная Европа")
    expect(build).to_have_count(1)
    if not MEASURE:  # the step's choices and «Пропустить» above «Закончить ход», none covered, under the bar's cap
        step_choices_under_the_finger(germany.page)
        assert bar(germany.page).bounding_box()["height"] <= 640 / 2 + 1
        screen(germany.page, "bar-cards-blitzkrieg-step-360")
    germany.tap(build)  # the card step's space, a button in the bar
    germany.settled()
    expect(answer(germany.page)).not_to_contain_text("Закончить ход")
    germany.tap(germany.page.get_by_role("button", name="Закончить ход"))
    germany.settled()
    assert Piece.objects.filter(game=game, country="germany", space="western_europe").exists()
    game.refresh_from_db()
    assert game.qmg.turn == 1  # the UK's turn
    screen(germany.page, "bar-cards-blitzkrieg-360")
    germany.report()
    if not MEASURE:
        assert germany.turns[0][1] == 6  # card type, space, «Сыграть карту», «Блицкриг», the space, «Закончить ход»


def test_a_battle_answered_by_a_face_down_response_asks_only_its_owner(live_server, new_context):
    game, _ = round_two(Client, "Оборона")
    germany = Phone(join(new_context, live_server, game, 1), "Германия")
    uk = Phone(join(new_context, live_server, game, 2), "Великобритания")
    ussr = Phone(join(new_context, live_server, game, 4), "СССР")
    germany.turn("battle")
    battle(germany, "western_europe")
    assert Piece.objects.filter(game=game, country="united_kingdom", space="western_europe").exists()

    if not MEASURE:  # a phone the window does not ask: what is at stake in its bar, on the screen, no «Пас»
        caught_up(ussr.page, game)
        stake = bar(ussr.page).locator(".bar-stake")
        expect(stake).to_contain_text("Германия атакует — под ударом армия Великобритании")
        expect(stake).to_contain_text("Западная Европа")
        assert stake.evaluate(UNDER_FINGER)["ok"], stake.evaluate(UNDER_FINGER)
        expect(bar(ussr.page).get_by_role("button", name="Пас")).to_have_count(0)
        screen(ussr.page, "bar-cards-window-not-asked-360")

    uk.turn("answer")
    caught_up(uk.page, game)
    if not MEASURE:
        expect(bar(uk.page)).to_contain_text("Германия атакует")
        expect(bar(uk.page)).to_contain_text("Западная Европа")
    reveal = bar(uk.page).locator("button.reveal", has_text="Оборонительная позиция")
    screen(uk.page, "bar-cards-window-360")
    if not MEASURE:
        check(uk.page, "a face-down response offered in the answer window")
    if MEASURE and not reveal.count():
        use_by_name(uk, "Оборонительная позиция")
    else:
        uk.tap(reveal)
    uk.settled()
    expect(answer(uk.page)).to_contain_text("спасла карта «Оборонительная позиция»")
    screen(uk.page, "bar-cards-response-360")

    ussr.turn("never asked")
    caught_up(ussr.page, game)
    expect(bar(ussr.page).get_by_role("button", name="Пас")).to_have_count(0)
    expect(bar(ussr.page)).to_contain_text("спасла карта «Оборонительная позиция»")

    germany.turn("finish")
    caught_up(germany.page, game)
    expect(bar(germany.page)).to_contain_text("спасла карта «Оборонительная позиция»")
    germany.tap(germany.page.get_by_role("button", name="Закончить ход"))
    germany.settled()
    game.refresh_from_db()
    if game.qmg.turn == 0 and MEASURE:  # refused: the window waits for someone
        for phone in (uk, germany):
            caught_up(phone.page, game)
            pass_ = bar(phone.page).get_by_role("button", name="Пас")
            if pass_.count():
                phone.tap(pass_)
                phone.settled()
        caught_up(germany.page, game)
        germany.tap(germany.page.get_by_role("button", name="Закончить ход"))
        germany.settled()
    game.refresh_from_db()
    assert game.qmg.turn == 1
    assert Piece.objects.filter(game=game, country="united_kingdom", space="western_europe").exists()
    assert any("спасла карта «Оборонительная позиция»" in e.summary_ru for e in Event.objects.filter(game=game))
    for phone in (germany, uk, ussr):
        phone.report()
    if not MEASURE:
        assert [t[1] for t in germany.turns] == [3, 1] and [t[1] for t in uk.turns] == [1]
        assert [t[1] for t in ussr.turns] == [0]
def test_an_event_with_no_legal_target_is_warned_of_and_confirmed(live_server, new_context):
    game, _ = us_turn(Client)
    usa = Phone(join(new_context, live_server, game, 6), "США")
    usa.turn("Pearl Harbor")
    usa.type(usa.page.locator("#decision-bar input[name=card]").first, "Флот переведён в Пёрл-Харбор")
    usa.tap(usa.page.get_by_role("button", name="Сыграть карту"))
    usa.settled()
    confirm = bar(usa.page).get_by_role("button", name=re.compile("Сыграть всё равно"))
    if not (MEASURE and not confirm.count()):
        for step in ("создать флот: Восток Тихого океана", "создать флот: Север Тихого океана", "создать армию: Гавайи"):
            expect(bar(usa.page)).to_contain_text(step)
        game.refresh_from_db()
        assert game.qmg.turn == 5 and not game.qmg.played  # nothing played yet
        # the whole answer is read at once: nothing of it scrolled away or covered; the steps scroll under it
        said = bar(usa.page).locator(".bar-answer .flash")
        expect(said).to_contain_text("ещё не сыграна: проверьте её шаги ниже")
        assert said.evaluate(UNDER_FINGER)["ok"], said.evaluate(UNDER_FINGER)
        assert bar(usa.page).locator(".bar-answer").evaluate("(el) => el.scrollHeight <= el.clientHeight + 1")
        box, cover = said.bounding_box(), bar(usa.page).bounding_box()
        assert cover["y"] - 1 <= box["y"] and box["y"] + box["height"] <= cover["y"] + cover["height"] + 1
        assert bar(usa.page).evaluate("(el) => el.scrollTop === 0")
        assert confirm.evaluate(UNDER_FINGER)["ok"]
        screen(usa.page, "bar-cards-no-target-360")
        check(usa.page, "the warning before a card with no legal target")
        usa.tap(confirm)
        usa.settled()
    game.refresh_from_db()
    assert game.qmg.played
    usa.report()
    if not MEASURE:
        assert usa.turns[0][1] == 3  # the name, «Сыграть карту», «Сыграть всё равно»

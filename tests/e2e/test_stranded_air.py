"""A stranded air force offered its moves on its owner's phone (Air Marshal, card rules 6): Germany's battle removes
the Soviet army in Ukraine, and the USSR's phone — only it — shows the air force's choices in the decision bar
(air defence, Moscow, «Убрать авиацию»), one tap each, while Germany's phone waits and cannot end its step.

Chromium at 360×640, three pages: the Axis phone, the Allies phone and a spectator."""
import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.models import Piece
from tracker.qmg.views import create_game

from .test_air_marshal import ROUND_ONE
from .test_decision_bar import PHONE, Phone, _host_turn, caught_up, in_bar, join, screen, space

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stranded_air_force_is_offered_its_moves_on_its_owners_phone(live_server, new_context):
    game = create_game("Отступление авиации", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {"air_marshal": True})
    for card_type, where in ROUND_ONE:  # Germany's and the USSR's armies and air forces (Eastern Europe, Ukraine)
        _host_turn(game, card_type, where, deploy=where)
    axis = Phone(join(new_context, live_server, game, 1), "Германия")
    allies = Phone(join(new_context, live_server, game, 2), "СССР")
    watcher = new_context(viewport=PHONE).new_page()
    watcher.goto(f"{live_server.url}/watch/{game.spectator_token}/")

    axis.turn("a battle that strands the Soviet air force")
    axis.choose(axis.page.locator("select[name=card_type]").first, "land_battle")
    axis.tap(space(axis.page, "ukraine"))
    axis.tap(axis.page.get_by_role("button", name="Сыграть карту"))
    axis.settled()
    assert not Piece.objects.filter(game=game, country="soviet_union", kind="army", space="ukraine").exists()

    allies.turn("the air force's move")
    caught_up(allies.page, game)
    bar = allies.page.locator("#decision-bar")
    expect(bar).to_contain_text("Отступление авиации")
    move = allies.page.get_by_role("button", name="Перелететь: Москва")
    remove = allies.page.get_by_role("button", name="Убрать авиацию")
    defend = allies.page.get_by_role("button", name="Применить авиазащиту")
    for button in (move, remove, defend):
        expect(button).to_be_visible()
        in_bar(allies.page, button)
    screen(allies.page, "stranded-air-owner-360")

    # the other phones see what waits, without its buttons; Germany cannot end its play step meanwhile
    caught_up(axis.page, game)
    expect(axis.page.get_by_role("button", name="Перелететь: Москва")).to_have_count(0)
    expect(axis.page.locator("#decision-bar")).to_contain_text("Отступление авиации")
    expect(watcher.get_by_role("button", name="Убрать авиацию")).to_have_count(0)

    allies.tap(move)
    allies.settled()
    assert Piece.objects.filter(game=game, country="soviet_union", kind="air", space="moscow").exists()
    assert not Piece.objects.filter(game=game, country="soviet_union", kind="air", space="ukraine").exists()
    expect(allies.page.get_by_role("button", name="Убрать авиацию")).to_have_count(0)
    expect(watcher.locator('g.space[data-space="ukraine"] .piece')).to_have_count(0, timeout=3000)
    axis.report()
    allies.report()
    assert (axis.turns[0][1], allies.turns[0][1]) == (3, 1)

"""The card engine in a real browser: a protecting response played from the defender's phone.

The game is brought to round 3 through the engine's write path (the same ``log.submit`` the web
forms call); then Germany's phone attacks Ukraine, the removal waits for the Allies' answer, and the
Allies' phone reveals «Сталинград»: the Soviet army stays."""
import re

import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.models import Game, Piece, PrivateNote
from tracker.qmg.views import create_game

from .test_accessibility import check

pytestmark = pytest.mark.django_db(transaction=True)

HOST = log.Actor(is_host=True)
TURN_END = [{"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
            {"type": "draw"}]


def submit(game, command, actor=HOST):
    game.refresh_from_db()
    result = log.submit(game.pk, game.version, actor, command)
    assert result.applied, (command, result.reason)
    return result


def answer_window(game, countries):
    """Each of ``countries`` the response window waits for passes (it asks only a country whose face-down
    responses could answer the move, or whose status could)."""
    from gameplay.qmg.table import waiting_for
    from tracker.qmg import selectors
    for country in countries:
        game.refresh_from_db()
        if country in waiting_for(selectors.board_of(game), selectors.table_of(game)):
            submit(game, {"type": "pass", "country": country})


def turn(game, play, answer=()):
    submit(game, play)
    answer_window(game, answer)  # the opponents holding a face-down response pass when they are asked
    for cmd in TURN_END:
        submit(game, cmd)


def stalingrad_face_down(game):
    """Round 3 of a two-player game: the USSR holds «Сталинград» face down (on its own seat's private list) and
    an army in Ukraine, reached through the same write path as the web forms."""
    discard = {"type": "play_card", "card_type": "discard_unused"}
    # round 1: Germany builds in Eastern Europe; the USSR plays Stalingrad face down
    turn(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"})
    turn(game, discard)
    turn(game, discard)
    allies_seat = next(s for s in game.seats.all() if "soviet_union" in s.countries)
    # a face-down card is its own seat's act (the host may not play it for them)
    submit(game, {"type": "play_card", "card_type": "response", "country": "soviet_union"}, log.Actor(seat=allies_seat))
    PrivateNote.objects.create(game=game, seat=allies_seat, country="soviet_union", kind=PrivateNote.RESPONSE,
                               card_id="su_stalingrad")  # what the owner's phone records on play (page.after_submit)
    answer_window(game, ("germany", "united_kingdom"))
    for cmd in TURN_END:
        submit(game, cmd)
    turn(game, discard, answer=("united_kingdom", "italy"))
    turn(game, discard)
    # round 2: the USSR builds an army in Ukraine
    turn(game, discard, answer=("united_kingdom", "germany"))
    turn(game, discard)
    turn(game, discard, answer=("united_kingdom", "japan"))
    turn(game, {"type": "play_card", "card_type": "build_army", "space": "ukraine"})
    turn(game, discard, answer=("united_kingdom", "italy"))
    turn(game, discard)
    game.refresh_from_db()
    assert Piece.objects.filter(game=game, country="soviet_union", space="ukraine").exists()


def test_stalingrad_revealed_from_the_defenders_phone(live_server, new_context, shot):
    game = create_game("Сталинград", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {"step_by_step": True})
    stalingrad_face_down(game)

    links = {s.number: s for s in game.seats.all()}
    axis = new_context().new_page()
    axis.goto(live_server.url + f"/join/{links[1].token}/")
    allies = new_context().new_page()
    allies.goto(live_server.url + f"/join/{links[2].token}/")

    # Germany's phone: a land battle on Ukraine
    axis.select_option("select[name=card_type]", "land_battle")
    axis.select_option("section.stepper select[name=space]", "ukraine")
    axis.locator("section.stepper button[type=submit]", has_text=re.compile("Сыграть|Play")).first.click()
    expect(axis.locator(".flash-success")).to_contain_text("ждёт ответа")
    assert Piece.objects.filter(game=game, country="soviet_union", space="ukraine").exists()

    # the defender's phone: the window is the Allies'; reveal Stalingrad
    expect(allies.locator("section.card.window")).to_be_visible()
    # one tap on the owner's private list, in the decision bar while its side answers
    allies.locator(".decision-bar section.window button.reveal", has_text="Сталинград").click()
    expect(allies.locator(".flash-success")).to_contain_text("Сталинград")
    shot(allies, "qmg-cards-01-stalingrad")
    game = Game.objects.get(pk=game.pk)
    assert Piece.objects.filter(game=game, country="soviet_union", space="ukraine").exists()
    assert game.country_cards.get(country="soviet_union").responses == 0


def test_a_card_steps_targets_are_outlined_and_one_tap_on_the_map_makes_the_choice(live_server, new_context, shot):
    """«Принудительный призыв»: Germany may recruit in Germany or next to it. The phone outlines exactly the
    spaces the engine allows; a tap on one of them on the map recruits there (no second tap on a button)."""
    game = create_game("Призыв", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {})
    axis_seat = game.seats.get(number=1)
    page = new_context().new_page()
    page.goto(live_server.url + f"/join/{axis_seat.token}/")
    page.locator("input[name=card]").fill("Принудительный призыв")
    page.locator("section.stepper button[type=submit]", has_text=re.compile("Сыграть|Play")).first.click()
    expect(page.locator("#card-steps")).to_be_visible()
    outlined = page.locator("svg.board-svg g.space.target")
    expect(outlined.first).to_be_attached()
    targets = sorted(outlined.evaluate_all("els => els.map(e => e.getAttribute('data-space'))"))
    buttons = sorted(page.locator("#card-steps [data-step-choice]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-space'))"))
    # Germany itself holds the German army already: the outlined spaces are the free ones next to it
    assert targets == buttons and "western_europe" in targets and "germany" not in targets \
        and "north_africa" not in targets
    shot(page, "qmg-cards-02-targets-outlined")
    check(page, "a card step with its targets outlined")
    # tap a target on the map (the phone's first view is on the active country's home)
    space = "balkans"
    page.locator(f'svg.board-svg g.space[data-space="{space}"] .shape').click()
    expect(page.locator(".flash-success")).to_be_visible()
    assert Piece.objects.filter(game=game, country="germany", kind="army", space=space).exists()
    shot(page, "qmg-cards-03-recruited-by-map-tap")


def test_preparing_for_war_from_the_new_game_form_to_a_status_in_play(live_server, new_context, shot):
    """The host ticks «Подготовка к войне»; Germany's phone then shows one button per status it may put
    in play before the first card, and one tap puts it face up on the table for every phone."""
    host = new_context().new_page()
    host.goto(live_server.url + "/")
    host.fill("input[name=name]", "Подготовка")
    host.select_option("select[name=players]", "2")
    expect(host.locator("#div_id_air_deck_germany")).to_be_hidden()  # only with the Air Marshal box ticked
    host.locator("details.house-rules > summary").click()  # the optional rules are folded
    host.check("input[name=air_marshal]")
    expect(host.locator("#div_id_air_deck_germany")).to_be_visible()
    host.uncheck("input[name=air_marshal]")
    host.check("input[name=prepare_for_war]")
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator("h1")).to_contain_text("Подготовка")
    game = Game.objects.get(name="Подготовка")
    axis_seat = game.seats.get(number=1)
    axis = new_context().new_page()
    axis.goto(live_server.url + f"/join/{axis_seat.token}/")
    prepare = axis.locator("section.prepare")
    expect(prepare).to_be_visible()
    shot(axis, "qmg-cards-04-preparing-for-war")
    prepare.locator("button.choice", has_text="Блицкриг").first.click()
    expect(axis.locator(".flash-success")).to_contain_text("Блицкриг")
    # Germany has prepared; this phone's Italy and Japan still may
    expect(axis.locator("section.prepare h4")).to_have_text(["Япония", "Италия"])
    game.refresh_from_db()
    assert game.country_cards.get(country="germany").statuses == ["ger_blitzkrieg"]

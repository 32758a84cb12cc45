"""The decision bar offers what a seat may use the moment its trigger happens: a status face up (one tap, with
what it will do), a face-down response in an answer window (only on its owner's phone, only to the countries the
window asks, the stake said); a card whose steps have no legal target is warned of before it is played."""
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.models import Event
from tracker.qmg.views import create_game

from .test_cards_views import defended_game, pass_turn
from .test_views import as_seat, post

pytestmark = pytest.mark.django_db

NAMES = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]


def round_two(client_class, name="Бар", blitzkrieg=True, uk_response="uk_defensive_posture"):
    """Round 2, Germany's turn, six phones (``defended_game``: Germany's «Блицкриг» face up, the UK's
    ``uk_response`` face down, the USSR with no response). Returns the game and the phones by seat number."""
    return defended_game(client_class, name, blitzkrieg=blitzkrieg, uk_response=uk_response)


def us_turn(client_class, name="Пёрл-Харбор"):
    """Round 1, the USA's turn (the five countries before it passed): nothing of the USA in the Pacific."""
    game = create_game(name, list(zip(NAMES, DEFAULT_SEATING[6])), {})
    phones = {n: as_seat(client_class(), game, n) for n in range(1, 7)}
    for n in (1, 2, 3, 4, 5):
        pass_turn(phones[n], game)
    return game, phones


def page(client, game):
    return client.get(reverse("game", args=[game.pk]))


def bar_html(response) -> str:
    """The decision bar of a page, as it was sent."""
    html = response.content.decode()
    start = html.index('id="decision-bar"')
    return html[start:_end_of_bar(html, start)]


def _end_of_bar(html, start) -> int:
    """The end of the decision bar's own <section> (its nested sections counted)."""
    depth, i = 0, html.rindex("<section", 0, start)
    for m in re.finditer(r"<(/?)section\b", html[i:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return i + m.end()
    return len(html)


def test_a_status_whose_trigger_just_happened_is_offered_in_the_bar_and_one_tap_uses_it(client):
    game, phones = round_two(client.__class__, uk_response=None)
    assert page(phones[1], game).context["bar_usable"] == []  # nothing battled yet
    assert post(phones[1], game, "play_card", card_type="land_battle", space="western_europe").status_code == 200
    r = page(phones[1], game)
    offered = r.context["bar_usable"]
    assert [(u["country"], u["card_id"], u["kind"]) for u in offered] == [("germany", "ger_blitzkrieg", "status")]
    assert offered[0]["text"].startswith("«Блицкриг»: ") and "Западная Европа" in offered[0]["text"]
    assert "сбросьте из колоды 1 карту" in offered[0]["text"]
    bar = bar_html(r)
    assert re.search(r'name="card" value="Блицкриг">\s*<button class="btn choice use-now" type="submit">«Блицкриг»: ', bar)
    for n in (2, 3, 4, 5, 6):  # a status face up is public, but only its owner's phone uses it
        assert page(phones[n], game).context["bar_usable"] == []
    english = client.__class__()
    as_seat(english, game, 1)
    english.cookies["django_language"] = "en"
    r = english.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert r.context["bar_usable"][0]["text"].startswith("“Blitzkrieg”: ")
    # one tap: exactly the button's fields
    assert post(phones[1], game, "use_card", country="germany", card="Блицкриг").status_code == 200
    r = page(phones[1], game)
    assert r.context["bar_usable"] == []  # used: once per turn
    assert r.context["card_steps"]["choices"]  # its build, one tap on the map or a button


def test_superior_shipyards_is_offered_when_the_usa_builds_a_navy(client):
    game, phones = us_turn(client.__class__, "Верфи")
    us = phones[6]
    assert post(us, game, "play_card", card="Превосходные верфи", card_type="status").status_code == 200
    for cmd, fields in (("end_play", {}), ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        assert post(us, game, cmd, **fields).status_code == 200
    for n in (1, 2, 3, 4, 5):
        pass_turn(phones[n], game)
    assert page(us, game).context["bar_usable"] == []
    assert post(us, game, "play_card", card_type="build_navy", space="north_atlantic").status_code == 200
    offered = page(us, game).context["bar_usable"]
    assert [u["card_id"] for u in offered] == ["us_superior_shipyards"]
    assert "Превосходные верфи" in bar_html(page(us, game))


def test_only_the_seat_holding_a_face_down_response_is_asked_with_what_is_at_stake(client):
    game, phones = round_two(client.__class__)
    assert post(phones[1], game, "play_card", card_type="land_battle", space="western_europe").status_code == 200
    game.refresh_from_db()
    assert game.qmg.window == "allies"
    uk = page(phones[2], game)
    bar = bar_html(uk)
    stake = "Германия атакует — под ударом армия Великобритании в секторе «Западная Европа»"
    assert stake in bar and 'value="pass"' in bar
    assert [u["card_id"] for u in uk.context["bar_usable"]] == ["uk_defensive_posture"]
    assert "спасти армию Великобритании в секторе «Западная Европа» от атаки" in uk.context["bar_usable"][0]["text"]
    for n in (1, 3, 4, 5, 6):  # nobody else is asked: no «Пас», no card offered
        r = page(phones[n], game)
        bar = bar_html(r)
        assert 'value="pass"' not in bar and r.context["bar_usable"] == [], n
        assert stake in r.content.decode()  # the window's public part says it to every phone
        if n != 1:  # the phones not asked say it in the bar too (Germany's bar waits for the answer)
            assert f'<p class="bar-stake">{stake}.</p>' in bar, n
        assert "Спрашивают: Великобритания." in r.content.decode()
    # the USSR holds no response: it cannot close the window for the UK
    assert post(phones[4], game, "pass", country="soviet_union").status_code == 422
    # one tap: the UK reveals its card; every phone and the history say what happened
    assert post(phones[2], game, "use_card", country="united_kingdom", card="Оборонительная позиция").status_code == 200
    said = "Атака отбита: армия Великобритании в секторе «Западная Европа» остаётся на поле — её спасла карта " \
           "«Оборонительная позиция»."
    assert said in Event.objects.filter(game=game).order_by("seq").last().summary_ru
    for n in (1, 3, 4, 5, 6):
        assert said in bar_html(page(phones[n], game)), n
    # Germany's own turn to answer (Blitzkrieg): no «Пас» for the active country, its «Закончить ход» declines
    r = page(phones[1], game)
    assert [u["card_id"] for u in r.context["bar_usable"]] == ["ger_blitzkrieg"]
    assert 'value="pass"' not in bar_html(r) and "Закончить ход" in bar_html(r)
    assert post(phones[1], game, "finish_turn").status_code == 200
    game.refresh_from_db()
    assert game.qmg.turn == 1 and game.pieces.filter(country="united_kingdom", space="western_europe").exists()


def test_a_removal_nobody_answers_is_said_on_every_phone(client):
    game, phones = round_two(client.__class__, blitzkrieg=False)
    assert post(phones[1], game, "play_card", card_type="land_battle", space="western_europe").status_code == 200
    assert post(phones[2], game, "pass", country="united_kingdom").status_code == 200
    said = "армия Великобритании в секторе «Западная Европа» убрана"
    assert said in Event.objects.filter(game=game).order_by("seq").last().summary_ru
    for n in (1, 3, 4, 5, 6):
        assert said in bar_html(page(phones[n], game)), n


def normalised(html: str, game) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    html = re.sub(r'"csrfToken": "[^"]*"|data-csrf="[^"]*"|X-CSRFToken[^,}]*', "", html)
    for value in (game.spectator_token, game.host_token):
        html = html.replace(str(value), "TOKEN")
    return re.sub(rf"/g/{game.pk}/", "/g/N/", html)


def test_which_response_is_held_never_changes_another_phone(client):
    """The same battle against a UK holding «Оборонительная позиция» (which could save the army) or «Верность короне»
    (which could not): every other phone, the spectator's and the host's, sees exactly the same page."""
    pages = []
    for held in ("uk_defensive_posture", "uk_loyal_to_the_crown"):
        cache.clear()  # nothing rendered for the first game is taken for the second
        game, phones = round_two(client.__class__, "Один и тот же бой", uk_response=held)
        assert post(phones[1], game, "play_card", card_type="land_battle", space="western_europe").status_code == 200
        cache.clear()
        viewers = {n: phones[n] for n in (1, 2, 3, 4, 5, 6)}
        viewers["watch"] = client.__class__()
        viewers["watch"].get(reverse("watch", args=[game.spectator_token]))
        viewers["host"] = client.__class__()
        viewers["host"].get(reverse("host_link", args=[game.host_token]))
        pages.append({n: normalised(page(c, game).content.decode(), game) for n, c in viewers.items()})
    for n in pages[0]:
        if n != 2:
            assert pages[0][n] == pages[1][n], n
    assert pages[0][2] != pages[1][2]  # the owner's own phone: its card offered, or not


def test_an_event_with_no_legal_target_is_warned_of_naming_each_step_and_one_more_tap_plays_it(client):
    game, phones = us_turn(client.__class__)
    us = phones[6]
    r = post(us, game, "play_card", card="Флот переведён в Пёрл-Харбор", card_type="event")
    assert r.status_code == 409
    assert "«Флот переведён в Пёрл-Харбор» ещё не сыграна" in flash(r) and "Как сыграть карту" in bar_html(r)
    for step in ("создать флот: Восток Тихого океана", "создать флот: Север Тихого океана", "создать армию: Гавайи"):
        assert f"<li>{step} — допустимой цели нет</li>" in bar_html(r)
    game.refresh_from_db()
    assert not game.qmg.played  # nothing played yet
    bar = bar_html(r)
    confirm = re.search(r'name="confirm" value="([^"]*)"', bar)
    assert confirm and confirm.group(1) == "us_fleet_deployed_to_pearl_harbor" and "Сыграть всё равно" in bar
    assert 'value="Флот переведён в Пёрл-Харбор"' in bar  # the card is still there: no dead end
    r = post(us, game, "play_card", card="Флот переведён в Пёрл-Харбор", card_type="event",
             confirm="us_fleet_deployed_to_pearl_harbor")
    assert r.status_code == 200
    game.refresh_from_db()
    assert game.qmg.played == "event"


def test_a_card_that_can_act_is_played_at_once_and_a_confirmation_counts_for_its_own_card_only(client):
    game, phones = us_turn(client.__class__)
    us = phones[6]
    # confirmed for another card: this one is still checked
    r = post(us, game, "play_card", card="Флот переведён в Пёрл-Харбор", card_type="event", confirm="us_guadalcanal")
    assert r.status_code == 409
    english = as_seat(client.__class__(), game, 6)
    r = english.post(reverse("command", args=[game.pk]), {
        "command": "play_card", "version": game.version, "card": "Fleet Deployed to Pearl Harbor",
        "card_type": "event"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 409 and "there is no legal target" in r.content.decode()
    r = post(us, game, "play_card", card_type="build_army", space="western_us")  # a basic card: no warning
    assert r.status_code == 200


def flash(response) -> str:
    html = response.content.decode()
    start = html.index('class="flash ')
    return html[start:html.index("</div>", start)]


def test_a_success_says_what_happened_and_keeps_the_rule_that_allowed_it_folded(client):
    game, phones = round_two(client.__class__, uk_response=None, blitzkrieg=False)
    r = post(phones[1], game, "play_card", card_type="land_battle", space="western_europe")
    assert r.status_code == 200
    said = flash(r)
    main, folded = said.split('<details class="flash-why">')
    assert "сыграна карта «Атака на суше» — убрана: армия" in main
    assert "Можно атаковать" not in main  # the legality explanation: on demand only
    assert "<summary>Почему это разрешено</summary>" in folded and "Можно атаковать сектор «Западная Европа»" in folded
    r = post(phones[1], game, "play_card", card_type="land_battle", space="ukraine")  # a refusal keeps its reason
    assert r.status_code == 422 and "flash-why" not in flash(r)


def test_a_victory_step_status_is_offered_in_the_victory_step(client):
    """Step by step (a teaching game): the victory step is its own screen, and the status that scores in it is
    offered there with the points it adds (with «Закончить ход» the step is scored with the rest)."""
    game = create_game("Руда", list(zip(NAMES, DEFAULT_SEATING[6])), {"step_by_step": True})
    phones = {n: as_seat(client.__class__(), game, n) for n in range(1, 7)}
    germany = phones[1]
    assert post(germany, game, "play_card", card="Шведская железная руда", card_type="status").status_code == 200
    for cmd, fields in (("end_play", {}), ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        assert post(germany, game, cmd, **fields).status_code == 200
    for n in (2, 3, 4, 5, 6):
        pass_turn(phones[n], game)
    assert post(germany, game, "play_card", card_type="build_navy", space="baltic_sea").status_code == 200
    assert page(germany, game).context["bar_usable"] == []  # not in the play step
    for cmd in ("end_play", "supply"):
        assert post(germany, game, cmd).status_code == 200
    game.refresh_from_db()
    assert game.qmg.phase == "victory"
    r = page(germany, game)
    assert [u["card_id"] for u in r.context["bar_usable"]] == ["ger_swedish_iron_ore"]
    assert "ПО" in r.context["bar_usable"][0]["text"] and "Шведская железная руда" in bar_html(r)
    assert page(phones[2], game).context["bar_usable"] == []


def test_a_team_without_face_down_responses_is_never_asked(client):
    game, phones = round_two(client.__class__, uk_response=None, blitzkrieg=False)
    assert post(phones[1], game, "play_card", card_type="land_battle", space="western_europe").status_code == 200
    game.refresh_from_db()
    assert not game.qmg.window  # nobody could answer: the Allies passed by themselves, and so did the Axis
    assert not game.pieces.filter(country="united_kingdom", space="western_europe").exists()
    for n in range(1, 7):
        r = page(phones[n], game)
        assert 'value="pass"' not in bar_html(r) and r.context["bar_usable"] == [], n
        assert 'class="card window"' not in r.content.decode()
    assert post(phones[4], game, "pass", country="soviet_union").status_code == 422
    assert post(phones[1], game, "finish_turn").status_code == 200  # one tap ends the turn: nothing to decline
    game.refresh_from_db()
    assert game.qmg.turn == 1


def test_a_game_stored_under_card_rules_5_keeps_pass_for_the_active_team(client):
    """Card rules 5: the window waits for each team's pass, the active one's too — its phone keeps «Пас»."""
    from tracker.qmg import selectors

    game = create_game("Окно по-старому", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {})
    create = game.events.get(kind=Event.CREATE)
    create.command = {**create.command, "rules": 5}
    create.save(update_fields=["command"])
    game.refresh_from_db()
    assert selectors.options_of(game).card_rules == 5
    axis, allies = as_seat(client.__class__(), game, 1), as_seat(client.__class__(), game, 2)
    assert post(axis, game, "play_card", card_type="land_battle", space="eastern_europe").status_code == 200
    assert post(allies, game, "pass", country="soviet_union").status_code == 200
    game.refresh_from_db()
    assert game.qmg.window == "axis"
    assert 'value="pass"' in bar_html(page(axis, game))

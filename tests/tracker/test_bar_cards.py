"""The decision bar offers what a seat may use the moment its trigger happens: a status face up (one tap, with
what it will do), a face-down response in an answer window (only on its owner's phone, only to the countries the
window asks, the stake said); a card whose steps have no legal target is warned of before it is played."""
import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.models import Event, PrivateNote
from tracker.qmg.views import create_game

from .test_cards_views import pass_turn
from .test_views import as_seat, post

pytestmark = pytest.mark.django_db

NAMES = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]


def round_two(client_class, name="Бар", blitzkrieg=True, uk_response="uk_defensive_posture"):
    """Round 2, Germany's turn, six phones: a British army in Western Europe (recruited by the UK's event in round
    1), Germany with «Блицкриг» face up and the UK with ``uk_response`` face down (both put out before round 1,
    «Подготовка к войне»); the USSR holds no response. Returns the game and the phones by seat number."""
    game = create_game(name, list(zip(NAMES, DEFAULT_SEATING[6])), {"prepare_for_war": True})
    phones = {n: as_seat(client_class(), game, n) for n in range(1, 7)}
    if blitzkrieg:
        assert post(phones[1], game, "prepare", country="germany", card_type="status",
                    card_id="ger_blitzkrieg").status_code == 200
    if uk_response:
        assert post(phones[2], game, "prepare", country="united_kingdom", card_type="response",
                    card_id=uk_response).status_code == 200
    pass_turn(phones[1], game)
    uk = phones[2]
    for cmd, fields in (("play_card", {"card_type": "event"}),
                        ("step", {"country": "united_kingdom", "action": "recruit_army", "space": "western_europe"}),
                        ("end_play", {}), ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        r = post(uk, game, cmd, **fields)
        assert r.status_code == 200, (cmd, r.content.decode()[:300])
    for n in (3, 4, 5, 6):
        pass_turn(phones[n], game)
    return game, phones


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

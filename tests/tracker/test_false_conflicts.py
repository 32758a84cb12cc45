"""No false conflicts: a move sent for version N still applies when the events after N cannot change
what it means (another country's pass in the response window); a real conflict is still a 409."""
import pytest
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg.views import create_game

from .test_cards_views import defended_game
from .test_views import HTMX

pytestmark = pytest.mark.django_db


@pytest.fixture
def game6():
    names = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]
    return create_game("Шесть", list(zip(names, DEFAULT_SEATING[6])), {})


def phone(client_class, game, number):
    c = client_class()
    c.get(reverse("join", args=[game.seats.get(number=number).token]))
    return c


def send(client, game, version, command, **fields):
    return client.post(reverse("command", args=[game.pk]), {"command": command, "version": version, **fields},
                       **HTMX)


def test_another_countrys_pass_does_not_bounce_the_next_move(client):
    game, phones = defended_game(type(client), "Пас")
    germany, uk = phones[1], phones[2]
    game.refresh_from_db()
    assert send(germany, game, game.version, "play_card", card_type="land_battle",
                space="western_europe").status_code == 200
    game.refresh_from_db()
    seen_by_germany = game.version
    assert send(uk, game, game.version, "pass", country="united_kingdom").status_code == 200  # the window stays open
    r = send(germany, game, seen_by_germany, "pass", country="germany")  # rendered before the UK's pass
    assert r.status_code == 200, r.content.decode()[:500]
    assert not game.pieces.filter(country="united_kingdom", space="western_europe").exists()  # the removal


def test_a_real_change_in_between_is_still_a_conflict(client, game6):
    germany, uk = phone(type(client), game6, 1), phone(type(client), game6, 2)
    game6.refresh_from_db()
    seen = game6.version
    assert send(germany, game6, seen, "play_card", card_type="land_battle", space="eastern_europe").status_code == 200
    game6.refresh_from_db()
    r = send(germany, game6, seen, "end_play")  # the card played since changes what the phone showed
    assert r.status_code == 409
    # the UK's pass sent for a version older than the land battle: the battle is no pass
    r = send(uk, game6, seen, "pass", country="united_kingdom")
    assert r.status_code == 409


def test_a_pass_that_closed_the_window_is_a_real_change(client):
    game, phones = defended_game(type(client), "Закрыто")
    germany, uk = phones[1], phones[2]
    game.refresh_from_db()
    assert send(germany, game, game.version, "play_card", card_type="land_battle",
                space="western_europe").status_code == 200
    assert send(uk, game, game.version + 1, "pass", country="united_kingdom").status_code == 200
    game.refresh_from_db()
    seen = game.version
    assert send(germany, game, seen, "pass", country="germany").status_code == 200  # closes the window: a removal
    r = send(uk, game, seen, "end_play")  # sent before Germany's closing pass (and not the UK's move anyway)
    assert r.status_code == 409

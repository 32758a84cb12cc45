"""The table screen (tracker/qmg/screen.py, templates/qmg/screen.html): who may open it, that it shows only public
facts whoever opens it, that it is drawn once per game version and language, and where it is linked from."""
import pytest
from django.core.cache import cache
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.models import PrivateNote
from tracker.qmg import screen
from tracker.qmg.views import create_game

from .test_views import HTMX, as_host, as_seat

pytestmark = pytest.mark.django_db
HOST = log.Actor(is_host=True)


@pytest.fixture
def game():
    cache.clear()
    return create_game("Экран", list(zip(["Аня", "Боря"], DEFAULT_SEATING[2])), {})


def submit(game, command):
    game.refresh_from_db()
    assert log.submit(game.pk, game.version, HOST, command).applied, command


def test_without_a_link_the_screen_is_refused(client, game):
    assert client.get(reverse("qmg_screen", args=[game.pk])).status_code == 403


def test_the_spectator_link_opens_it(client, game):
    response = client.get(reverse("qmg_screen_watch", args=[game.spectator_token]))
    assert response.status_code == 302 and response["Location"] == reverse("qmg_screen", args=[game.pk])
    page = client.get(response["Location"]).content.decode()
    assert 'id="game"' in page and 'class="board-svg"' in page and "Раунд 1 из 20" in page
    assert client.get(reverse("qmg_screen_watch", args=["no-such-token"])).status_code == 404


def test_only_public_facts_whoever_opens_it(client, game):
    """The USSR's seat holds «Сталинград» face down and a note on its hand: neither reaches the screen, from a
    spectator's browser or from that seat's own; both browsers get the same screen."""
    allies = game.seats.get(number=2)
    submit(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"})
    for step in ({"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
                 {"type": "draw"}):
        submit(game, step)
    PrivateNote.objects.create(game=game, seat=allies, country="soviet_union", kind=PrivateNote.RESPONSE,
                               card_id="su_stalingrad")
    PrivateNote.objects.create(game=game, seat=allies, country="soviet_union", kind=PrivateNote.HAND,
                               text="Держать Москву любой ценой")
    url = reverse("qmg_screen", args=[game.pk])
    seat_page = as_seat(client, game, 2).get(url).content.decode()
    other = type(client)()
    other.get(reverse("watch", args=[game.spectator_token]))
    watch_page = other.get(url).content.decode()
    for page in (seat_page, watch_page):
        assert "Сталинград" not in page and "Держать Москву" not in page and "Вы:" not in page

    def section(page):
        return page[page.index('<section id="game"'):page.index("</main>")]

    assert section(seat_page) == section(watch_page)


def test_drawn_once_per_version_and_language(client, game, monkeypatch):
    as_host(client, game)
    calls = []
    real = screen._shown
    monkeypatch.setattr(screen, "_shown", lambda g: calls.append(g.version) or real(g))
    url = reverse("qmg_screen", args=[game.pk])
    client.get(url)
    client.get(url, **HTMX)
    assert len(calls) == 1
    client.cookies["django_language"] = "en"
    assert "Round 1 of 20" in client.get(url).content.decode()
    assert len(calls) == 2
    submit(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"})
    client.get(url)  # a new version: drawn again
    assert len(calls) == 3


def test_linked_from_the_game_page_and_the_seats_page(client, game):
    as_host(client, game)
    url = reverse("qmg_screen", args=[game.pk])
    assert f'href="{url}"' in client.get(reverse("game", args=[game.pk])).content.decode()
    seats = client.get(reverse("seats", args=[game.pk])).content.decode()
    assert f"/watch/{game.spectator_token}/table/" in seats


def test_another_games_kind_has_no_table_screen(client):
    from django.test import Client

    from tests.tracker.helpers import initial_data
    from tracker.fog_of_war.forms import NewFogGameForm
    from tracker.models import Game

    assert Client().post(reverse("fog_of_war:new"), initial_data(NewFogGameForm(), name="Туман")).status_code == 302
    fog = Game.objects.get(name="Туман")
    client.get(reverse("watch", args=[fog.spectator_token]))
    assert client.get(reverse("qmg_screen", args=[fog.pk])).status_code == 404

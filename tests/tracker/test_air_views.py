"""Air Marshal through the pages: the switch, editable air force counts, the air step, prompts."""
import pytest
from django.urls import reverse

from tracker.core import log
from tracker.models import Game
from tracker.qmg import selectors

from .test_views import post

pytestmark = pytest.mark.django_db


def new_air_game(client, **air):
    data = {"name": "Air", "players": 2, "default_seating": "on", "air_marshal": "on",
            "seat_germany": 1, "seat_united_kingdom": 2, "seat_japan": 1, "seat_soviet_union": 2,
            "seat_italy": 1, "seat_united_states": 2, **{f"air_{k}": v for k, v in air.items()}}
    assert client.post("/", data).status_code == 302
    return Game.objects.get(name="Air")


def test_air_marshal_switch_deals_12_and_keeps_editable_air_counts(client):
    game = new_air_game(client, germany=3)
    table = selectors.table_of(game)
    assert table.options.air_marshal and table.options.air_limit("germany") == 3
    assert table.options.air_limit("italy") == 1  # the default from the board data
    assert table.cards_of("germany").discard == 5


def test_air_step_deploy_and_prompts_on_the_page(client):
    game = new_air_game(client)
    client.get(reverse("host_link", args=[game.host_token]))
    assert post(client, game, "play_card", card_type="event").status_code == 200
    html = post(client, game, "end_play").content.decode()
    assert 'value="deploy_air"' in html and "Air Marshal" in html or "авиац" in html.lower()
    r = post(client, game, "deploy_air", space="russia")
    assert r.status_code == 422  # no German army there
    assert post(client, game, "deploy_air", space="germany").status_code == 200
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-space="germany"' in html
    assert post(client, game, "end_air").status_code == 200
    game.refresh_from_db()
    assert game.qmg.phase == "supply"
    assert selectors.canonical(selectors.table_of(game)) == selectors.canonical(log.replay(game))


def test_without_air_marshal_air_commands_are_refused(client):
    client.post("/", {"name": "NoAir", "players": 2, "default_seating": "on", "seat_germany": 1,
                      "seat_united_kingdom": 2, "seat_japan": 1, "seat_soviet_union": 2, "seat_italy": 1,
                      "seat_united_states": 2})
    game = Game.objects.get(name="NoAir")
    client.get(reverse("host_link", args=[game.host_token]))
    r = post(client, game, "bolster", country="germany", name="X")
    assert r.status_code == 422

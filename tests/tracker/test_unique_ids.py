"""A QMG page never repeats an HTML id: a label's ``for`` names one control, and a screen reader reads that
control's label (before: the remove-a-piece form and the private note both had ``id_country``, and every
version field was ``id_version``)."""
from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg.views import create_game

from .test_cards_views import game6  # noqa: F401 - fixture
from .test_views import HTMX, as_seat, post

pytestmark = pytest.mark.django_db

ID = re.compile(r'\bid="([^"]+)"')


def repeated(html: str) -> dict[str, int]:
    return {k: n for k, n in Counter(ID.findall(html)).items() if n > 1}


def test_the_check_finds_a_repeated_id():
    assert repeated('<input id="id_country"><select id="id_country">') == {"id_country": 2}


def test_no_seat_nor_the_host_sees_a_page_with_a_repeated_id(game6):  # noqa: F811
    url = reverse("game", args=[game6.pk])
    for number in range(1, 7):
        phone = as_seat(Client(), game6, number)
        assert repeated(phone.get(url).content.decode()) == {}, number
        assert repeated(phone.get(url, **HTMX).content.decode()) == {}, number
    host = Client()
    host.get(reverse("host_link", args=[game6.host_token]))
    assert repeated(host.get(url).content.decode()) == {}
    germany = as_seat(Client(), game6, 1)
    refused = post(germany, game6, "play_card", card_type="build_army", space="united_kingdom")  # kept form
    assert refused.status_code == 422 and repeated(refused.content.decode()) == {}
    played = post(germany, game6, "play_card", card_type="build_army", space="eastern_europe")
    assert played.status_code == 200 and repeated(played.content.decode()) == {}


def test_no_repeated_id_in_the_air_step_of_air_marshal():
    game = create_game("Ids", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {"air_marshal": True})
    axis = as_seat(Client(), game, 1)
    post(axis, game, "play_card", card_type="build_army", space="eastern_europe")
    page = post(axis, game, "end_play").content.decode()
    assert 'value="deploy_air"' in page and "bolster" in page  # the air step, the bolster form and more
    assert repeated(page) == {}
    allies = as_seat(Client(), game, 2)
    assert repeated(allies.get(reverse("game", args=[game.pk])).content.decode()) == {}

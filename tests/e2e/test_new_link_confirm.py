"""A new link asks first: the host taps «Выдать новую ссылку» under a player's code, the next page names
whose phone will lose access; «Отмена» keeps the link (the phone plays on), «Да» makes the new link and
that phone shows the page asking for a link. The same step guards every game's links page (QMG,
«Генералиссимус», The Fog of War)."""
import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.models import Game
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db(transaction=True)


def _qmg():
    return create_game("Ссылки QMG", list(zip(["Гер", "Бри"], DEFAULT_SEATING[2])), {})


def _generalissimus():
    from gameplay.generalissimus.stepper import STEPPER
    from tracker.generalissimus.forms import preset_units
    initial = STEPPER.new_state({"units": preset_units("standard"), "terrain": None, "settings": {}, "piles": None,
                                 "players": {"south": "Гер", "north": "Бри"}})
    return log.create_game(Game.GENERALISSIMUS, "Ссылки Генералиссимус", [("Гер", ["south"]), ("Бри", ["north"])], initial)


def _fog_of_war():
    from django.test import Client
    from django.urls import reverse

    from tests.tracker.helpers import initial_data
    from tracker.fog_of_war.forms import NewFogGameForm
    assert Client().post(reverse("fog_of_war:new"), initial_data(
        NewFogGameForm(), name="Ссылки Туман", axis_player="Гер", allies_player="Бри")).status_code == 302
    return Game.objects.get(name="Ссылки Туман")


@pytest.mark.parametrize("make", [_qmg, _generalissimus, _fog_of_war], ids=["qmg", "generalissimus", "fog_of_war"])
def test_the_host_is_asked_before_a_phone_loses_its_link(asgi_live_server, new_context, shot, make):
    game = make()
    url = asgi_live_server.url
    seat = game.seats.get(number=2)
    old = seat.token
    phone = new_context().new_page()
    phone.goto(f"{url}/join/{old}/")
    expect(phone.locator("#game")).to_be_visible()
    host = new_context().new_page()
    host.goto(f"{url}/host/{game.host_token}/")
    host.goto(f"{url}/g/{game.pk}/seats/")
    host.locator(f'form:has(input[name="seat"][value="{seat.pk}"]) button').click()
    confirm = host.locator("#new-link-confirm")
    expect(confirm).to_contain_text("Бри")
    expect(confirm).to_contain_text("потеряет доступ")
    shot(host, f"new-link-confirm-{game.kind}")
    confirm.get_by_text("Отмена", exact=False).click()
    expect(host.locator(".seat-grid")).to_be_visible()
    seat.refresh_from_db()
    assert seat.token == old
    phone.reload()
    expect(phone.locator("#game")).to_be_visible()
    host.locator(f'form:has(input[name="seat"][value="{seat.pk}"]) button').click()
    host.locator('#new-link-confirm button[type="submit"]').click()
    expect(host.locator(".messages")).to_contain_text("Бри")
    seat.refresh_from_db()
    assert seat.token != old
    expect(phone.get_by_text("нет ссылки", exact=False)).to_be_visible(timeout=5000)
    expect(phone.locator("#game")).to_have_count(0)

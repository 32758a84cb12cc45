"""Every refusal a browser can meet is one of the app's styled, translated pages (no plain text, no
Django default page with an inline style the CSP would block)."""
import pytest
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log, views
from tracker.core.models import Event
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return create_game("Вечер", list(zip(["А", "Б"], DEFAULT_SEATING[2])), {})


def styled(response, status):
    html = response.content.decode()
    assert response.status_code == status
    assert "<!doctype html>" in html.lower() and "<style" not in html and 'class="card error-page"' in html, html[:500]
    return html


def test_a_spectators_move_and_a_seat_on_the_hosts_page_are_styled_403s(game):
    watcher = Client()
    watcher.get(reverse("watch", args=[game.spectator_token]))
    r = watcher.post(reverse("command", args=[game.pk]), {"command": "end_play", "version": game.version})
    assert "Зрители" in styled(r, 403) or "Spectators" in r.content.decode()
    seat = Client()
    seat.get(reverse("join", args=[game.seats.get(number=1).token]))
    styled(seat.get(reverse("seats", args=[game.pk])), 403)


def test_a_csrf_failure_is_the_apps_page(game):
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("host_link", args=[game.host_token]))
    r = client.post(reverse("command", args=[game.pk]), {"command": "end_play", "version": game.version})
    html = styled(r, 403)
    assert "Перезагрузите страницу" in html or "Reload the page" in html


def test_a_database_fault_in_the_middle_of_a_one_tap_run_writes_nothing_of_it_and_says_so(game, monkeypatch):
    """«Закончить ход» is one transaction (``log.submit_run``): a fault at its third step rolls back the two
    before it; the phone is told that nothing was written, and the same tap then goes through."""
    axis = Client()
    axis.get(reverse("join", args=[game.seats.get(number=1).token]))
    game.refresh_from_db()
    r = axis.post(reverse("command", args=[game.pk]), {"command": "play_card", "card_type": "build_army",
                                                     "space": "eastern_europe", "version": game.version},
                  HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    real, calls = log._check, []

    def flaky(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:
            raise DatabaseError("disk I/O error")
        return real(*args, **kwargs)

    monkeypatch.setattr(log, "_check", flaky)
    game.refresh_from_db()
    version = game.version
    r = axis.post(reverse("command", args=[game.pk]), {"command": "finish_turn", "version": game.version},
                  HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and "ничего не записано" in html
    moves = list(Event.objects.filter(game=game, kind=Event.MOVE).order_by("seq").values_list("command__type",
                                                                                                 flat=True))
    assert moves == ["play_card"]
    game.refresh_from_db()
    assert game.version == version and game.qmg.phase == "play"
    monkeypatch.setattr(log, "_check", real)
    r = axis.post(reverse("command", args=[game.pk]), {"command": "finish_turn", "version": version},
                  HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    moves = list(Event.objects.filter(game=game, kind=Event.MOVE).order_by("seq").values_list("command__type",
                                                                                                 flat=True))
    assert moves[:3] == ["play_card", "end_play", "supply"] and len(moves) >= 5

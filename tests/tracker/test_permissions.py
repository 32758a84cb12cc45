"""Every write endpoint refuses other seats, spectators, missing/forged/revoked links and missing CSRF,
with the right status code and no change to the game."""
import pytest
from django.test import Client
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.models import Event, Game, PrivateNote, Seat
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = create_game("Права", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    axis = log.Actor(seat=game.seats.get(number=1))
    assert log.submit(game.pk, game.version, axis, {"type": "play_card", "card_type": "event"}).applied
    game.refresh_from_db()
    return game


def snapshot(game):
    game.refresh_from_db()
    return (game.version, Event.objects.filter(game=game).count(), game.pieces.count(),
            tuple(Seat.objects.filter(game=game).values_list("token", flat=True)),
            PrivateNote.objects.filter(game=game).count())


def client_as(game, role, csrf=False):
    c = Client(enforce_csrf_checks=csrf)
    if role == "axis":
        c.get(reverse("join", args=[game.seats.get(number=1).token]))
    elif role == "allies":
        c.get(reverse("join", args=[game.seats.get(number=2).token]))
    elif role == "spectator":
        c.get(reverse("watch", args=[game.spectator_token]))
    elif role == "host":
        c.get(reverse("host_link", args=[game.host_token]))
    return c


def writes(game):
    """(url, data) of every write endpoint of a QMG game, each a legal request for the right actor."""
    v = game.version
    seat = game.seats.get(number=1)
    move = reverse("command", args=[game.pk])
    return [
        (move, {"command": "step", "version": v, "action": "build_army", "country": "germany",
                "space": "eastern_europe"}),
        (reverse("undo", args=[game.pk]), {"version": v}),
        (move, {"command": "step", "version": v, "action": "remove", "country": "germany", "space": "germany"}),
        (reverse("note", args=[game.pk]), {"country": "germany", "text": "секрет"}),
        (reverse("seats", args=[game.pk]), {"seat": seat.pk, "confirm": "yes"}),  # regenerate a join link (host only)
    ]


@pytest.mark.parametrize("role,expected", [
    ("allies", {403}),      # the other seat: not its country / not the host
    ("spectator", {403}),
    ("nobody", {403}),      # no link at all
])
def test_write_endpoints_refuse_who_may_not_act(game, role, expected):
    c = client_as(game, role)
    for url, data in writes(game):
        before = snapshot(game)
        r = c.post(url, data)
        if role == "allies" and url.endswith("/note/"):
            assert r.status_code == 400  # a seat may only note its own countries
        else:
            assert r.status_code in expected, (role, url, r.status_code)
        assert snapshot(game) == before, (role, url)


def test_forged_and_revoked_links(game):
    forged = Client()
    assert forged.get(reverse("join", args=["x" * 32])).status_code == 404
    assert forged.get(reverse("watch", args=["forged"])).status_code == 404
    assert forged.get(reverse("host_link", args=["forged"])).status_code == 404
    # a session bound to a link that the host then regenerates loses its rights at once
    revoked = client_as(game, "axis")
    seat = game.seats.get(number=1)
    client_as(game, "host").post(reverse("seats", args=[game.pk]), {"seat": seat.pk, "confirm": "yes"})
    for url, data in writes(game):
        before = snapshot(game)
        assert revoked.post(url, data).status_code == 403, url
        assert snapshot(game) == before
    assert revoked.get(reverse("game", args=[game.pk])).status_code == 403


def test_forged_session_token_is_worthless(game):
    c = Client()
    session = c.session
    session["access"] = {str(game.pk): {"host": "guess", "seat": "guess", "watch": "guess"}}
    session.save()
    assert c.get(reverse("game", args=[game.pk])).status_code == 403
    url, data = writes(game)[0]
    before = snapshot(game)
    assert c.post(url, data).status_code == 403
    assert snapshot(game) == before


def test_missing_csrf_is_refused(game):
    for role in ("axis", "host"):
        c = client_as(game, role, csrf=True)
        for url, data in writes(game):
            before = snapshot(game)
            assert c.post(url, data).status_code == 403, (role, url)
            assert snapshot(game) == before
    anonymous = Client(enforce_csrf_checks=True)
    assert anonymous.post("/", {"name": "x", "players": 2, "default_seating": "on"}).status_code == 403
    assert anonymous.post(reverse("boards"), {"name": "x", "patch": "extends: standard"}).status_code == 403
    assert Game.objects.count() == 1


def test_the_right_actor_succeeds_and_the_host_is_recorded(game):
    host = client_as(game, "host")
    r = host.post(reverse("command", args=[game.pk]), {"command": "step", "version": snapshot(game)[0],
                                                    "action": "build_army", "country": "germany",
                                                    "space": "eastern_europe"})
    assert r.status_code == 302
    last = Event.objects.filter(game=game).last()
    assert last.by_host and last.seat is None


def test_get_on_write_endpoints_is_not_allowed(game):
    c = client_as(game, "axis")
    assert c.get(reverse("command", args=[game.pk])).status_code == 405
    assert c.get(reverse("undo", args=[game.pk])).status_code == 405
    assert c.get(reverse("redo", args=[game.pk])).status_code == 405
    assert c.get(reverse("note", args=[game.pk])).status_code == 405


def test_the_host_and_spectator_links_can_be_made_anew(game):
    """Like a seat's link: the old host or spectator link stops working at once; the host's own browser
    keeps its rights through the new link."""
    host, watcher = client_as(game, "host"), client_as(game, "spectator")
    old_host, old_watch = game.host_token, game.spectator_token
    other_host = Client()
    other_host.get(reverse("host_link", args=[old_host]))
    assert watcher.get(reverse("game", args=[game.pk])).status_code == 200
    assert host.post(reverse("seats", args=[game.pk]), {"link": "watch", "confirm": "yes"}).status_code == 302
    game.refresh_from_db()
    assert game.spectator_token != old_watch
    assert watcher.get(reverse("game", args=[game.pk])).status_code == 403
    assert Client().get(reverse("watch", args=[old_watch])).status_code == 404
    assert host.post(reverse("seats", args=[game.pk]), {"link": "host", "confirm": "yes"}).status_code == 302
    game.refresh_from_db()
    assert game.host_token != old_host
    assert host.get(reverse("seats", args=[game.pk])).status_code == 200  # still the host
    assert other_host.get(reverse("seats", args=[game.pk])).status_code == 403  # the old link is dead
    assert Client().get(reverse("host_link", args=[old_host])).status_code == 404
    # only the host may do it
    seat = client_as(game, "axis")
    assert seat.post(reverse("seats", args=[game.pk]), {"link": "host", "confirm": "yes"}).status_code == 403
    game.refresh_from_db()
    assert host.get(reverse("seats", args=[game.pk])).status_code == 200

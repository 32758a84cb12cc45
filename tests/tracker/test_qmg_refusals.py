"""Quartermaster General: a refusal reveals nothing hidden (``tests/refusals.py``).

Twin six-player games differ only in what the USSR's seat keeps to itself: which response it holds face down
(«Сталинград» in one, «Москва» in the other) and its private note on its hand. Every QMG command, every
endpoint a phone posts to, is sent by the other seats' phone (Germany), a spectator and the host, with choices
that name each of the USSR's responses (by name and by id: to reveal, to prepare, to play, to take as a card
step, to settle as discarded unseen), and bare, at the current version and at a stale one; the answers to the
twins must be the same in status, text and markup. The bare commands the host may make move both twins on
(the USSR's play step ends, its turn goes on), so the named choices are asked again in the later phase."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tests.refusals import CURRENT, assert_refusals_alike, viewers_without_the_seat
from tracker.models import PrivateNote
from tracker.qmg.page import FORMS
from tracker.qmg.views import create_game

from .test_cards_views import pass_turn
from .test_views import post

pytestmark = pytest.mark.django_db

RESPONSES = {"su_stalingrad": "Сталинград", "su_moscow": "Москва", "su_leningrad": "Ленинград",
             "su_rasputitsa": "Распутица"}


def twin(face_down: str, note: str):
    """Germany, the UK and Japan pass their turns; the USSR plays ``face_down`` face down and keeps ``note``."""
    game = create_game("Близнецы", list(zip(["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"], DEFAULT_SEATING[6])), {})
    phone = Client()
    for number in (1, 2, 3):
        phone.get(reverse("join", args=[game.seats.get(number=number).token]))
        pass_turn(phone, game)
    ussr = Client()
    ussr.get(reverse("join", args=[game.seats.get(number=4).token]))
    assert post(ussr, game, "play_card", card=RESPONSES[face_down], card_type="event").status_code == 200
    assert ussr.post(reverse("note", args=[game.pk]), {"country": "soviet_union", "text": note}).status_code == 302
    seat = game.seats.get(number=4)
    assert PrivateNote.objects.filter(seat=seat, card_id=face_down, active=True).exists()
    game.refresh_from_db()
    return game


VIEWERS = viewers_without_the_seat("Germany", 1)


def named_choices(version):
    """Every form that can name one of the USSR's responses, with each of them."""
    for card_id, name in RESPONSES.items():
        yield "command", {"command": "use_card", "country": "soviet_union", "card": name, "version": version}
        yield "command", {"command": "prepare", "country": "soviet_union", "card_type": "response",
                          "card_id": card_id, "version": version}
        yield "command", {"command": "play_card", "card": name, "card_type": "event", "version": version}
        for action in ("to_hand", "discard", "to_deck", "play", "reveal"):
            yield "command", {"command": "card_step", "country": "soviet_union", "action": action,
                              "card_id": card_id, "card_type": "response", "version": version}
        yield "qmg_unseen", {"country": "soviet_union", "card_id": card_id}
    yield "note", {"country": "soviet_union", "text": "моя заметка"}


def bare_commands(version):
    """Every command of the page with nothing but its name (and the USSR's country where a form asks)."""
    for command in sorted(FORMS):
        yield "command", {"command": command, "country": "soviet_union", "version": version}
    yield "undo", {"version": version}
    yield "redo", {"version": version}


def test_no_qmg_refusal_reveals_which_response_a_seat_holds_or_its_note():
    twins = [twin("su_stalingrad", "держу Москву"), twin("su_moscow", "")]
    assert [g.version for g in twins] == [twins[0].version] * 2
    posts = [*named_choices(CURRENT), *named_choices("1"), *bare_commands("1"), *bare_commands(CURRENT),
             *named_choices(CURRENT)]
    compared = assert_refusals_alike(twins, VIEWERS, posts)
    assert compared == len(VIEWERS) * len(posts)
    for game in twins:  # the hidden facts are still there and still the seat's own
        assert PrivateNote.objects.filter(game=game, kind=PrivateNote.RESPONSE, active=True).count() == 1

"""Two requests at the same moment: the same board-variant name, the first save of the same hand note.

With threads against a real database (``real_db``: a file on SQLite, PostgreSQL as it is with
``DATABASE_URL=postgres://…``), and each race also simulated deterministically (the other request's
row appears between this request's check and its write), since threads do not always collide.
Run with ``-s`` to see the times.
"""
from __future__ import annotations

import time
from unittest import mock

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Q
from django.test import Client
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tests.tracker.helpers import fire
from tracker.core.models import PrivateNote
from tracker.models import BoardVariant
from tracker.qmg import forms as qmg_forms
from tracker.qmg.views import create_game, save_hand_note

N = 8
BEFORE = [("tracker", "0002_qmg_table_commands_log")]


def new_game():
    return create_game("Гонка", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})


def seated(game, number=1) -> Client:
    client = Client()
    client.get(reverse("join", args=[game.seats.get(number=number).token]))
    return client


# --- board variants of the same name --------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_the_same_variant_name_posted_by_eight_browsers_saves_once(real_db):
    clients = [Client(raise_request_exception=False) for _ in range(N)]

    def work(i):
        return clients[i].post(reverse("boards"), {"name": "Клуб", "patch": f"extends: standard\n# {i}\n"}).status_code

    statuses = sorted(fire(N, work, report=True))
    assert statuses == [302] + [409] * (N - 1), statuses
    assert BoardVariant.objects.filter(name="Клуб").count() == 1


@pytest.mark.django_db
def test_a_variant_name_lost_between_check_and_save_is_a_409_not_a_500(monkeypatch):
    checked = qmg_forms.BoardVariantForm.validate_unique

    def check_then_lose_the_race(form):
        checked(form)
        BoardVariant.objects.create(name=form.cleaned_data["name"], patch="extends: standard\n")

    monkeypatch.setattr(qmg_forms.BoardVariantForm, "validate_unique", check_then_lose_the_race)
    response = Client(raise_request_exception=False).post(
        reverse("boards"), {"name": "Клуб", "patch": "extends: standard\nadd_stars: [balkans]\n"})
    assert response.status_code == 409
    assert list(BoardVariant.objects.values_list("patch", flat=True)) == ["extends: standard\n"]


# --- hand notes -----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_hand_note_constraint_exists_in_the_model_and_the_database():
    constraint = next(c for c in PrivateNote._meta.constraints if c.name == "hand_note_unique")
    assert constraint.fields == ("game", "seat", "country", "kind")
    assert constraint.condition == Q(kind="hand")
    with connection.cursor() as cursor:
        in_db = connection.introspection.get_constraints(cursor, PrivateNote._meta.db_table)
    assert "hand_note_unique" in in_db
    game = new_game()
    seat = game.seats.get(number=1)
    PrivateNote.objects.create(game=game, seat=seat, country="germany", kind=PrivateNote.HAND, text="1")
    with pytest.raises(IntegrityError), transaction.atomic():
        PrivateNote.objects.create(game=game, seat=seat, country="germany", kind=PrivateNote.HAND, text="2")
    # face-down responses are not hand notes: a seat keeps several per country
    for card in ("a", "b"):
        PrivateNote.objects.create(game=game, seat=seat, country="germany", kind=PrivateNote.RESPONSE, card_id=card)
    assert PrivateNote.objects.filter(game=game, kind=PrivateNote.RESPONSE).count() == 2


@pytest.mark.django_db(transaction=True)
def test_eight_first_saves_of_a_hand_note_at_once_leave_one_note(real_db):
    game = new_game()
    clients = [seated(game) for _ in range(N)]
    url = reverse("note", args=[game.pk])

    def work(i):
        return clients[i].post(url, {"country": "germany", "text": f"note {i}"}).status_code

    assert fire(N, work, report=True) == [302] * N
    notes = PrivateNote.objects.filter(game=game, kind=PrivateNote.HAND, country="germany")
    assert notes.count() == 1 and notes.get().text in {f"note {i}" for i in range(N)}
    # and every later save for the seat works
    assert clients[0].post(url, {"country": "germany", "text": "later"}).status_code == 302
    assert notes.get().text == "later"


@pytest.mark.django_db(transaction=True)
def test_save_hand_note_from_eight_threads_at_once(real_db):
    game = new_game()
    seat = game.seats.get(number=1)
    fire(N, report=True, work=lambda i: save_hand_note(game, seat, "italy", f"t{i}").pk)
    assert PrivateNote.objects.filter(game=game, seat=seat, country="italy", kind=PrivateNote.HAND).count() == 1


@pytest.mark.django_db
def test_a_first_save_that_loses_the_race_updates_the_winners_row():
    """The race, simulated: this request looked before the other one's note was there, then inserts."""
    game = new_game()
    seat = game.seats.get(number=1)
    other = PrivateNote.objects.create(game=game, seat=seat, country="germany", kind=PrivateNote.HAND,
                                       text="the other phone")
    real_lookup = PrivateNote.objects.select_for_update
    looked = []

    def too_early():
        looked.append(1)
        return PrivateNote.objects.none() if len(looked) == 1 else real_lookup()

    start = time.perf_counter()
    with mock.patch.object(PrivateNote.objects, "select_for_update", side_effect=too_early):
        note = save_hand_note(game, seat, "germany", "mine")
    print(f"\n  a hand note's save that lost the race: {(time.perf_counter() - start) * 1000:.1f} ms")
    assert len(looked) == 2 and note.pk == other.pk
    assert list(PrivateNote.objects.filter(game=game).values_list("text", flat=True)) == ["mine"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_newest_of_duplicate_hand_notes():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Game, Seat, Note = (old.get_model("tracker", m) for m in ("Game", "Seat", "PrivateNote"))
    game = Game.objects.create(kind="qmg", name="Old", host_token="h", spectator_token="s")
    seat = Seat.objects.create(game=game, number=1, player_name="A", countries=["germany"], token="t")
    for text in ("old", "older?", "newest"):
        Note.objects.create(game=game, seat=seat, country="germany", kind="hand", text=text)
    Note.objects.create(game=game, seat=seat, country="italy", kind="hand", text="alone")
    for card in ("a", "b"):
        Note.objects.create(game=game, seat=seat, country="germany", kind="response", card_id=card)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("tracker"))
    hand = dict(PrivateNote.objects.filter(kind="hand").values_list("country", "text"))
    assert hand == {"germany": "newest", "italy": "alone"}  # same created_at to the clock: the highest id wins
    assert PrivateNote.objects.filter(kind="response").count() == 2

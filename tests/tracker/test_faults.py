"""Faults: a database error in the middle of a move leaves nothing half-done, and a restart loses nothing.

These tests use real transactions (``transactional_db``): what is checked is what a committed
database holds after the failure, not a test-wrapping savepoint.
"""
from __future__ import annotations

import pytest
from django.db import DatabaseError, connections
from django.test import Client
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.core.log import Actor
from tracker.core.selectors import history
from tracker.models import BoardVariant, CountryCards, Event, Game, Piece
from tracker.qmg import selectors
from tracker.qmg.adapter import QmgAdapter
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db(transaction=True)

HOST = Actor(is_host=True)
BUILD = {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}


def new_game(board_variant=None):
    return create_game("Сбой", list(zip(["A", "B"], DEFAULT_SEATING[2])), {}, board_variant)


def state(game_id) -> dict:
    """What the database holds for a game, read afresh."""
    game = Game.objects.get(pk=game_id)
    return {
        "version": game.version,
        "events": list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "kind")),
        "pieces": sorted(Piece.objects.filter(game=game).values_list("country", "kind", "space")),
        "cards": sorted(CountryCards.objects.filter(game=game).values_list("country", "deck", "hand", "discard",
                                                                          "responses")),
        "table": selectors.canonical(selectors.table_of(game)),
    }


def assert_consistent(game_id):
    game = Game.objects.get(pk=game_id)
    seqs = list(game.events.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    assert selectors.canonical(selectors.table_of(game)) == selectors.canonical(log.replay(game))


def boom(*args, **kwargs):
    raise DatabaseError("disk I/O error (injected)")


def _after_real(real):
    """Run the real function (the projection is written), then fail: the worst moment."""
    def wrapper(*args, **kwargs):
        real(*args, **kwargs)
        raise DatabaseError("connection lost (injected)")
    return wrapper


def _failing_sql(*starts: str):
    """The database refuses every statement that starts with one of ``starts``, however the write path
    issues it (the ORM or its prepared statements: ``tracker.core.prepared``)."""
    def wrapper(execute, sql, params, many, context):
        if sql.lstrip().startswith(starts):
            raise DatabaseError("disk I/O error (injected)")
        return execute(sql, params, many, context)

    def install(mp):
        connection = connections["default"]
        mp.setattr(connection, "execute_wrappers", [*connection.execute_wrappers, wrapper])
    return install


FAULTS = {
    "projection save fails": lambda mp: mp.setattr(QmgAdapter, "save", boom),
    "projection save fails after writing": lambda mp: mp.setattr(QmgAdapter, "save", _after_real(QmgAdapter.save)),
    "event append fails": _failing_sql('INSERT INTO "tracker_event"'),
    # a build adds a piece, its undo removes it: either write fails
    "pieces write fails": _failing_sql('INSERT INTO "tracker_piece"', 'DELETE FROM "tracker_piece"'),
    "card update fails": _failing_sql('UPDATE "tracker_countrycards"'),
    "game save fails": _failing_sql('UPDATE "tracker_game" '),
}


@pytest.mark.parametrize("fault", list(FAULTS), ids=list(FAULTS))
def test_a_database_error_during_a_move_leaves_no_partial_state(monkeypatch, fault):
    game = new_game()
    before = state(game.pk)
    with monkeypatch.context() as mp:
        FAULTS[fault](mp)
        with pytest.raises(DatabaseError):
            log.submit(game.pk, before["version"], HOST, BUILD)
    assert state(game.pk) == before
    assert_consistent(game.pk)
    # nothing is stuck: the same move, at the same version, now applies
    assert log.submit(game.pk, before["version"], HOST, BUILD).applied
    assert_consistent(game.pk)


@pytest.mark.parametrize("kind", ["undo", "redo"])
@pytest.mark.parametrize("fault", list(FAULTS), ids=list(FAULTS))
def test_a_database_error_during_undo_or_redo_leaves_no_partial_state(monkeypatch, fault, kind):
    game = new_game()
    assert log.submit(game.pk, 1, HOST, BUILD).applied
    if kind == "redo":
        assert log.undo(game.pk, 2, HOST).applied
    before = state(game.pk)
    action = log.undo if kind == "undo" else log.redo
    with monkeypatch.context() as mp:
        FAULTS[fault](mp)
        with pytest.raises(DatabaseError):
            action(game.pk, before["version"], HOST)
    assert state(game.pk) == before
    assert_consistent(game.pk)
    assert action(game.pk, before["version"], HOST).applied
    assert_consistent(game.pk)


def test_a_database_error_through_the_move_view_is_a_500_and_changes_nothing(monkeypatch):
    game = new_game()
    client = Client(raise_request_exception=False)
    client.get(reverse("join", args=[game.seats.get(number=1).token]))
    before = state(game.pk)
    data = {"command": "play_card", "version": before["version"], "card_type": "build_army",
            "space": "eastern_europe"}
    with monkeypatch.context() as mp:
        mp.setattr(QmgAdapter, "save", _after_real(QmgAdapter.save))
        r = client.post(reverse("command", args=[game.pk]), data, HTTP_HX_REQUEST="true")
    assert r.status_code == 500 and b"Traceback" not in r.content
    assert state(game.pk) == before
    r = client.post(reverse("command", args=[game.pk]), data, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    assert_consistent(game.pk)


def test_a_database_error_while_creating_a_game_creates_nothing(monkeypatch):
    counts = (Game.objects.count(), Event.objects.count(), Piece.objects.count())
    with monkeypatch.context() as mp:
        _failing_sql('INSERT INTO "tracker_piece"')(mp)
        with pytest.raises(DatabaseError):
            new_game()
    assert (Game.objects.count(), Event.objects.count(), Piece.objects.count()) == counts


def _play(game_id, actor, commands):
    for cmd in commands:
        version = Game.objects.get(pk=game_id).version
        r = log.submit(game_id, version, actor, cmd)
        assert r.applied, (cmd, r.reason)


def test_a_server_restart_mid_game_loses_nothing():
    variant = BoardVariant.objects.create(name="Клуб", patch="extends: standard\nadd_stars: [balkans]\n")
    game = new_game(variant)
    gid = game.pk
    axis = Actor(seat=game.seats.get(number=1))
    _play(gid, axis, [BUILD, {"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
                      {"type": "draw"}])
    assert log.undo(gid, Game.objects.get(pk=gid).version, HOST).applied
    before = state(gid)
    rows = [(r["event"].seq, r["undone"]) for r in history(Game.objects.get(pk=gid))]

    # "restart": every connection closed, every in-process cache of the board dropped
    connections.close_all()
    selectors._variant_board.cache_clear()
    del game, axis

    game = Game.objects.get(pk=gid)
    assert state(gid) == before
    assert [(r["event"].seq, r["undone"]) for r in history(game)] == rows
    assert_consistent(gid)
    assert selectors.board_of(game).spaces["balkans"].supply  # the variant is read back from the database
    # the game goes on: redo the undone draw, then the next country's move
    assert log.redo(gid, game.version, HOST).applied
    allies = Actor(seat=game.seats.get(number=2))
    _play(gid, allies, [{"type": "play_card", "card_type": "build_navy", "space": "north_sea"}])
    game = Game.objects.get(pk=gid)
    assert game.qmg.turn == 1 and Piece.objects.filter(game=game, space="north_sea").exists()
    assert_consistent(gid)

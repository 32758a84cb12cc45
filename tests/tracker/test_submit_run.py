"""One tap, several moves (``log.submit_run``, QMG's «Закончить ход»): one transaction, each move its own
event, the projections written once and equal to the replayed log, the table told once."""
from __future__ import annotations

import pytest

from tracker.core import live, log
from tracker.models import Event, Game
from tracker.qmg import selectors
from tracker.qmg.adapter import QmgAdapter

from .test_faults import BUILD, HOST, assert_consistent, new_game, state

pytestmark = pytest.mark.django_db(transaction=True)

TURN_END = [{"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
            {"type": "draw"}]


@pytest.fixture
def announced(monkeypatch):
    calls = []
    real = live.announce
    monkeypatch.setattr(live, "announce", lambda game: (calls.append(game.version), real(game)))
    return calls


def play_turns(game_id, turns: int) -> None:
    for _ in range(turns):
        game = Game.objects.get(pk=game_id)
        results = log.submit_run(game_id, game.version, HOST, [{"type": "play_card", "card_type": "event"},
                                                               *TURN_END])
        assert all(r.applied for r in results), [r.reason for r in results]


def test_a_run_writes_each_move_as_its_own_event_and_tells_the_table_once(announced):
    game = new_game()
    assert log.submit(game.pk, 1, HOST, BUILD).applied
    results = log.submit_run(game.pk, 2, HOST, TURN_END)
    assert [r.status for r in results] == [log.APPLIED] * 5
    assert [r.event.seq for r in results] == [3, 4, 5, 6, 7]
    assert list(Event.objects.filter(game=game).order_by("seq").values_list("command__type", flat=True)) == [
        None, "play_card", "end_play", "supply", "score", "discard", "draw"]
    assert announced == [2, 7]  # the build, then the run once
    assert_consistent(game.pk)
    # each move of the run is undone on its own
    assert log.undo(game.pk, 7, HOST).applied
    assert_consistent(game.pk)


def test_the_vp_track_of_a_run_across_rounds_equals_the_log(announced):
    game = new_game()
    play_turns(game.pk, 7)  # two players, six countries: the run of the 6th turn ends round 1
    game = Game.objects.get(pk=game.pk)
    events = list(game.events.order_by("seq"))
    assert game.qmg.round >= 2
    assert game.qmg.vp_rounds == QmgAdapter()._vp_rounds(game, events)
    assert_consistent(game.pk)


def test_a_run_stops_at_the_first_refused_move_and_keeps_the_moves_before_it(announced):
    game = new_game()
    assert log.submit(game.pk, 1, HOST, BUILD).applied
    results = log.submit_run(game.pk, 2, HOST, [{"type": "end_play"}, {"type": "draw"}, {"type": "supply"}])
    assert [r.status for r in results] == [log.APPLIED, log.REFUSED]  # draw before supply: refused, supply not tried
    game = Game.objects.get(pk=game.pk)
    assert game.version == 3 and selectors.table_of(game).phase == "supply"
    assert announced == [2, 3]
    assert_consistent(game.pk)


def test_a_stale_run_changes_nothing(announced):
    game = new_game()
    assert log.submit(game.pk, 1, HOST, BUILD).applied
    before = state(game.pk)
    results = log.submit_run(game.pk, 1, HOST, TURN_END)
    assert [r.status for r in results] == [log.STALE]
    assert state(game.pk) == before and announced == [2]

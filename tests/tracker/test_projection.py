"""The stored projection is the replay of the log, status cards in play included."""
import pytest

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.qmg import selectors
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db
HOST = log.Actor(is_host=True)


def test_a_status_card_in_play_stays_in_the_stored_position():
    game = create_game("S", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    r = log.submit(game.pk, game.version, HOST,
                   {"type": "play_card", "card_type": "status", "card_id": "ger_dive_bombers"})
    assert r.applied, r.reason
    game.refresh_from_db()
    stored, replayed = selectors.table_of(game), log.replay(game)
    assert "ger_dive_bombers" in replayed.position.statuses
    # before the redesign the projection dropped Position.statuses: the next move was checked without them
    assert stored.position.statuses == replayed.position.statuses
    assert selectors.canonical(stored) == selectors.canonical(replayed)

"""The writes of a move as prepared statements (``tracker.core.prepared``: insert, update, save): the rows
they leave are the rows Django's ``bulk_create``, ``update`` and ``save(update_fields=…)`` leave, on SQLite and
PostgreSQL, and each statement's SQL is written once per connection."""
import pytest
from django.db import DatabaseError, IntegrityError, connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tracker.core import prepared
from tracker.core.models import Event, Game, GameState
from tracker.qmg.models import CountryCards, Piece

from .test_cards_views import game6  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

COMMAND = {"type": "play_card", "space": "ukraine", "nested": {"list": [1, "два", None], "ok": True}}


def _row(obj, skip=("id",)) -> dict:
    fresh = type(obj).objects.get(pk=obj.pk)
    return {f.attname: getattr(fresh, f.attname) for f in fresh._meta.concrete_fields if f.attname not in skip}


def _events(game, first: int, n: int) -> list[Event]:
    return [Event(game=game, seq=first + i, round=2, country="germany", phase="play", seat=game.seats.first(),
                  command={**COMMAND, "i": i}, summary_ru=f"ход «{i}»", summary_en=f"move {i}") for i in range(n)]


@pytest.mark.parametrize("n", [1, 5])
def test_insert_leaves_the_rows_bulk_create_leaves(game6, n):  # noqa: F811
    before = timezone.now()
    fast, orm = _events(game6, 100, n), _events(game6, 200, n)
    prepared.insert(fast)
    Event.objects.bulk_create(orm)
    for a, b in zip(fast, orm):
        assert a.pk is not None and a._state.adding is False and a._state.db == "default"
        assert before <= a.created_at <= timezone.now()  # auto_now_add stamped, as bulk_create stamps it
        row_a, row_b = _row(a, ("id", "seq", "created_at")), _row(b, ("id", "seq", "created_at"))
        assert row_a == row_b and row_a["command"]["nested"] == COMMAND["nested"]  # JSON as JSON
        assert Event.objects.get(pk=a.pk).seq == a.seq


def test_a_second_event_of_the_same_number_is_refused_as_by_the_orm(game6):  # noqa: F811
    prepared.insert(_events(game6, 300, 1))
    with pytest.raises(IntegrityError), transaction.atomic():  # the version guard's race (tracker.core.log)
        prepared.insert(_events(game6, 300, 1))


def test_update_changes_exactly_the_rows_the_orm_update_changes(game6):  # noqa: F811
    assert prepared.update(CountryCards, {"game_id": game6.pk, "country": "germany"},
                           {"deck": 3, "hand": 4, "discard": 5, "responses": 1, "statuses": ["blitzkrieg", "статус"]}) == 1
    germany = CountryCards.objects.get(game=game6, country="germany")
    assert (germany.deck, germany.hand, germany.discard, germany.responses, germany.statuses) == \
        (3, 4, 5, 1, ["blitzkrieg", "статус"])
    untouched = CountryCards.objects.get(game=game6, country="japan")
    assert untouched.deck != 3 or untouched.hand != 4
    assert prepared.update(CountryCards, {"game_id": game6.pk, "country": "atlantis"}, {"deck": 1}) == 0
    state = {"pending": [{"kind": "manual", "text": "«x»"}], "hold": None}
    assert prepared.update(GameState, {"game_id": game6.pk}, {"state": state}) == 1
    assert GameState.objects.get(game=game6).state == state


def test_save_stamps_auto_now_and_fails_on_a_row_that_is_gone(game6):  # noqa: F811
    game = Game.objects.get(pk=game6.pk)
    stamped = game.updated_at
    game.version += 7
    game.done_moves = [*game.done_moves, 99]
    prepared.save(game, ["version", "done_moves", "updated_at"])
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.version == game.version and fresh.done_moves == game.done_moves
    assert fresh.updated_at == game.updated_at and fresh.updated_at > stamped
    gone = Piece(game=game, country="germany", kind="army", space="test_only_space")
    prepared.insert([gone])
    Piece.objects.filter(pk=gone.pk).delete()
    with pytest.raises(DatabaseError):
        prepared.save(gone, ["space"])


def test_each_statement_is_written_once_per_connection(game6):  # noqa: F811
    real = connections["default"]  # the connection itself (``connection`` is a proxy of it)
    real.__dict__.pop("_prepared_writes", None)
    for i in range(3):
        with CaptureQueriesContext(connection) as queries:
            prepared.update(CountryCards, {"game_id": game6.pk, "country": "italy"}, {"hand": i})
        assert len(queries) == 1
    kept = real.__dict__["_prepared_writes"]
    assert [k[0] for k in kept] == ["update"]
    prepared.update(CountryCards, {"game_id": game6.pk, "country": "italy"}, {"deck": 1})  # other columns: its own
    assert len(real.__dict__["_prepared_writes"]) == 2


def test_a_held_state_is_the_same_object_for_every_request_of_its_version(game6):  # noqa: F811
    """QMG's states are immutable: one object per version serves every read in this process; the fixture in
    tests/conftest.py fails any test in which a request changed a held state in place."""
    from tracker.core import statecache
    from tracker.core.registry import adapter_of

    game = Game.objects.get(pk=game6.pk)
    adapter = adapter_of(game)
    assert adapter.immutable_state
    first = statecache.load(game, adapter)
    assert statecache.load(Game.objects.get(pk=game.pk), adapter) is first
    statecache.forget()
    again = statecache.load(game, adapter)  # from the shared cache (pickled) or the projection
    assert again is not first and again == first

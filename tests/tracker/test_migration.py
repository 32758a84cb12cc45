"""A database made before the redesign migrates without loss, and its games still replay.

``tests/fixtures/pre_core_db.json`` holds the rows the pre-redesign code wrote (two QMG games with
undo/redo and a private note, a Fog of War game, a Generalissimus battle), read back with
``Model.objects.values()``. The test loads them into the 0001 schema, migrates to the newest
schema and checks every game: the projection equals the replay of the log (now by commands), and
QMG's table fields moved to ``QmgTable`` unchanged.
"""
import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tracker.core import log
from tracker.core.models import Game, PrivateNote
from tracker.core.registry import adapter_of
from tracker.qmg import selectors as qmg_selectors

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pre_core_db.json"
OLD = [("tracker", "0001_initial")]
ORDER = ["BoardVariant", "Game", "Seat", "GameState", "Piece", "CountryCards", "Event", "PrivateNote"]
QMG_FIELDS = ("round", "turn", "phase", "played", "vp_axis", "vp_allies", "end_reason", "used", "window",
              "window_passes", "attack", "vp_rounds")


def _latest(executor):
    return executor.loader.graph.leaf_nodes("tracker")


@pytest.fixture
def old_rows(transactional_db):
    """The old rows loaded into the 0001 schema, then the database migrated to the newest one."""
    rows = json.loads(FIXTURE.read_text(encoding="utf-8"))
    executor = MigrationExecutor(connection)
    executor.migrate(OLD)
    old_apps = executor.loader.project_state(OLD).apps
    for name in ORDER:
        model = old_apps.get_model("tracker", name)
        model.objects.bulk_create(model(**row) for row in rows[name])
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(_latest(executor))
    return rows


def test_a_pre_redesign_database_migrates_and_its_games_replay(old_rows):
    games = {g["id"]: g for g in old_rows["Game"]}
    assert set(Game.objects.values_list("pk", flat=True)) == set(games)
    for game in Game.objects.all():
        old = games[game.pk]
        assert (game.kind, game.name, game.version, game.done_moves, game.undone_moves, game.winner) == \
               (old["kind"], old["name"], old["version"], old["done_moves"], old["undone_moves"], old["winner"])
        assert game.events.count() == sum(1 for e in old_rows["Event"] if e["game_id"] == game.pk)
        stepper = adapter_of(game).stepper(game)
        replayed, stored = log.replay(game), log.current_state(game)
        if game.kind == Game.QMG:
            assert {f: getattr(game.qmg, f) for f in QMG_FIELDS} == {f: old[f] for f in QMG_FIELDS}
            assert qmg_selectors.canonical(replayed) == qmg_selectors.canonical(stored)
        else:
            assert stepper.to_json(replayed) == stepper.to_json(stored)
    assert PrivateNote.objects.count() == len(old_rows["PrivateNote"])


def test_a_migrated_game_goes_on(old_rows):
    """After the migration the old games accept undo and redo through the new write path."""
    host = log.Actor(is_host=True)
    for game in Game.objects.all():
        before = log.current_state(game)
        assert log.undo(game.pk, game.version, host).applied
        game.refresh_from_db()
        assert log.redo(game.pk, game.version, host).applied
        game.refresh_from_db()
        adapter = adapter_of(game)
        stepper = adapter.stepper(game)

        def same(state, other):
            return adapter.comparable(game, stepper.to_json(state)) == adapter.comparable(game, stepper.to_json(other))

        assert same(log.current_state(game), before)
        assert same(log.replay(game), log.current_state(game))

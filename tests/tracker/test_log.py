"""The event log, the projection and the version guard (``tracker.core.log``), through a whole round."""
import pytest

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.core.log import Actor
from tracker.core.registry import adapter_of
from tracker.core.selectors import history
from tracker.models import Event, Piece
from tracker.qmg import selectors
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db

HOST = Actor(is_host=True)


def new_game(players=2, **options):
    names = [f"P{i}" for i in range(1, players + 1)]
    return create_game("Test", list(zip(names, DEFAULT_SEATING[players])), options)


def move(game, command, actor=HOST):
    game.refresh_from_db()
    return log.submit(game.pk, game.version, actor, command)


def vp_rounds_from_log(game, events) -> list[list[int]]:
    """[[round, axis, allies], ...]: the VP after the last move in effect of each round, from the log alone."""
    done, _ = log.effective_moves(events)
    stepper = adapter_of(game).stepper(game)
    table = log.initial_state(game, events)
    per_round: dict[int, list[int]] = {}
    for e in done:
        table = stepper.apply(table, e.command).state
        per_round[e.round] = [e.round, table.vp_axis, table.vp_allies]
    return [per_round[r] for r in sorted(per_round)]


def assert_projection_equals_replay(game):
    game.refresh_from_db()
    assert selectors.canonical(selectors.table_of(game)) == selectors.canonical(log.replay(game))
    events = list(game.events.all())
    done, undone = log.effective_moves(events)
    assert game.done_moves == [e.seq for e in done] and game.undone_moves == [e.seq for e in undone]
    assert game.qmg.vp_rounds == vp_rounds_from_log(game, events)


def test_new_game_sets_up_the_table():
    game = new_game(2)
    table = selectors.table_of(game)
    assert sorted(p.space for p in table.position.pieces) == sorted(
        ["germany", "united_kingdom", "japan", "moscow", "italy", "eastern_us"])
    assert table.cards_of("germany").hand == 7 and table.cards_of("germany").deck == 30
    assert table.cards_of("germany").discard == 3
    assert game.version == 1 and game.events.count() == 1
    assert [s.countries for s in game.seats.all()] == DEFAULT_SEATING[2]
    assert_projection_equals_replay(game)


def full_turn(game, country, card):
    for cmd in ([{"type": "play_card", **card}, {"type": "end_play"}] if card else [{"type": "end_play"}]) + [
            {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"}]:
        r = move(game, cmd)
        assert r.applied, (country, cmd, r.reason)


def test_a_whole_round_of_six_countries_replays_to_the_stored_state():
    game = new_game(6)
    turns = [
        ("germany", {"card_type": "build_army", "space": "eastern_europe"}),
        ("united_kingdom", {"card_type": "build_navy", "space": "north_sea"}),
        ("japan", {"card_type": "build_navy", "space": "sea_of_japan"}),
        ("soviet_union", {"card_type": "land_battle", "space": "ukraine"}),
        ("italy", {"card_type": "status"}),
        ("united_states", {"card_type": "build_army", "space": "western_us"}),
    ]
    for country, card in turns:
        full_turn(game, country, card)
        assert_projection_equals_replay(game)
    game.refresh_from_db()
    assert game.qmg.round == 2 and game.qmg.turn == 0 and game.qmg.phase == "play"
    # Germany 2+0 (Eastern Europe is no star), Japan 2, Italy 2 | UK 2, USSR 2, USA 2+2
    assert (game.qmg.vp_axis, game.qmg.vp_allies) == (6, 8)
    assert selectors.vp_series(game)[-1] == (1, 6, 8)


def test_refused_move_changes_nothing_and_logs_nothing():
    game = new_game(2)
    before = (game.version, Event.objects.count(), Piece.objects.count())
    r = move(game, {"type": "play_card", "card_type": "build_army", "space": "russia"})
    assert r.status == log.REFUSED and "«Создайте армию»" in r.reason.ru
    game.refresh_from_db()
    assert (game.version, Event.objects.count(), Piece.objects.count()) == before


def test_stale_version_is_refused_with_the_game_changed_message():
    game = new_game(2)
    v = game.version
    assert log.submit(game.pk, v, HOST, {"type": "play_card", "card_type": "build_army",
                                              "space": "eastern_europe"}).applied
    r = log.submit(game.pk, v, HOST, {"type": "play_card", "card_type": "build_army", "space": "balkans"})
    assert r.status == log.STALE and "изменилась" in r.reason.ru
    assert Piece.objects.filter(game=game, space="balkans").count() == 0


def test_seat_may_act_only_for_its_countries():
    game = new_game(2)
    axis_seat, allies_seat = game.seats.all()
    r = move(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}, Actor(seat=allies_seat))
    assert r.status == log.FORBIDDEN
    assert move(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"},
                Actor(seat=axis_seat)).applied
    assert move(game, {"type": "end_play"}, Actor()).status == log.FORBIDDEN  # spectator


def test_undo_and_redo_to_any_depth_keep_history():
    game = new_game(2)
    axis = game.seats.get(number=1)
    actor = Actor(seat=axis)
    full_turn(game, "germany", {"card_type": "build_army", "space": "eastern_europe"})
    game.refresh_from_db()
    snapshot_after = selectors.canonical(selectors.table_of(game))
    moves = game.events.filter(kind=Event.MOVE).count()
    for _ in range(moves):
        game.refresh_from_db()
        assert log.undo(game.pk, game.version, HOST).applied
        assert_projection_equals_replay(game)
    game.refresh_from_db()
    start = log.replay(game, list(game.events.filter(kind=Event.CREATE)))
    assert selectors.canonical(selectors.table_of(game)) == selectors.canonical(start)
    assert log.undo(game.pk, game.version, HOST).status == log.REFUSED  # nothing left
    for _ in range(moves):
        game.refresh_from_db()
        assert log.redo(game.pk, game.version, HOST).applied
    game.refresh_from_db()
    assert selectors.canonical(selectors.table_of(game)) == snapshot_after
    # undone moves stay in the history, marked
    rows = history(game)
    assert len(rows) == game.events.count()
    del actor


def test_undo_only_by_host_or_the_seat_that_moved():
    game = new_game(2)
    axis, allies = game.seats.all()
    assert move(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}, Actor(seat=axis)).applied
    game.refresh_from_db()
    assert log.undo(game.pk, game.version, Actor(seat=allies)).status == log.FORBIDDEN
    assert log.undo(game.pk, game.version, Actor(seat=axis)).applied


def test_a_new_move_after_undo_clears_redo_and_history_marks_the_undone_move():
    game = new_game(2)
    assert move(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}).applied
    game.refresh_from_db()
    assert log.undo(game.pk, game.version, HOST).applied
    assert move(game, {"type": "play_card", "card_type": "build_army", "space": "balkans"}).applied
    game.refresh_from_db()
    assert log.redo(game.pk, game.version, HOST).status == log.REFUSED
    undone = [row["event"].summary_en for row in history(game) if row["undone"]]
    assert len(undone) == 1 and "Eastern Europe" in undone[0]
    assert_projection_equals_replay(game)


def test_sudden_victory_ends_the_game_and_no_move_is_accepted_after():
    game = new_game(2)
    assert move(game, {"type": "play_card", "card_type": "event"}).applied
    for cmd in ({"action": "eliminate", "space": "moscow"}, {"action": "recruit_army", "space": "moscow"},
                {"action": "eliminate", "space": "united_kingdom"}):
        assert move(game, {"type": "step", "country": "germany", **cmd}).applied
    r = move(game, {"type": "step", "country": "germany", "action": "recruit_army", "space": "united_kingdom"})
    assert r.applied and any(n.code == "sudden_victory" for n in r.notes)
    game.refresh_from_db()
    assert (game.winner, game.qmg.end_reason) == ("axis", "sudden")
    r = move(game, {"type": "end_play"})
    assert r.status == log.REFUSED and "окончена" in r.reason.ru
    assert_projection_equals_replay(game)

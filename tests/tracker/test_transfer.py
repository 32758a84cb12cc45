"""Export and import of a whole game (tracker.core.transfer), its views and its management commands."""
from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gameplay.common import Reason, accepted, refused, replay_commands
from gameplay.qmg.seating import DEFAULT_SEATING
from tests.tracker import test_fog_of_war_views as fow
from tests.tracker import test_generalissimus_views as gen
from tracker.core import log, transfer
from tracker.core.log import Actor
from tracker.core.models import Event, Game, GameState, PrivateNote, Seat
from tracker.core.registry import REGISTRY, GameAdapter, adapter_of
from tracker.core.selectors import history
from tracker.qmg import selectors as qmg_selectors
from tracker.qmg.models import BoardVariant, CountryCards, Piece, QmgTable
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db

HOST = Actor(is_host=True)
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
SECRET = "SECRET-NOTE-TEXT-never-exported"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "pre_core_db.json"
QMG_FIELDS = ("round", "turn", "phase", "played", "vp_axis", "vp_allies", "end_reason", "used", "window",
              "window_passes", "attack", "vp_rounds")


@pytest.fixture(autouse=True)
def _english():
    """Messages are matched in English (the app speaks Russian by default)."""
    with translation.override("en"):
        yield


# ------------------------------------------------------------------------------------------
# A played game: two full turns and part of a third, with undo and redo
# ------------------------------------------------------------------------------------------

def _move(game, command, actor=HOST):
    game.refresh_from_db()
    r = log.submit(game.pk, game.version, actor, command)
    assert r.applied, (command, r.status, r.reason)
    return r


def _undo(game, actor=HOST):
    game.refresh_from_db()
    assert log.undo(game.pk, game.version, actor).applied


def _redo(game, actor=HOST):
    game.refresh_from_db()
    assert log.redo(game.pk, game.version, actor).applied


def play_some(game):
    axis, allies = (Actor(seat=s) for s in game.seats.order_by("number"))
    # Germany (seat 1): build, undo, redo, then the rest of the turn
    _move(game, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe"}, axis)
    _undo(game, axis)
    _redo(game, axis)
    for cmd in ({"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 1},
                {"type": "draw"}):
        _move(game, cmd, axis)
    # United Kingdom (seat 2), moved by the host
    _move(game, {"type": "play_card", "card_type": "build_navy", "space": "north_sea"})
    for cmd in ({"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
                {"type": "draw"}):
        _move(game, cmd, allies)
    # Japan: an event card with a step, the step undone and replaced (a dead redo branch stays)
    _move(game, {"type": "play_card", "card_type": "event"}, axis)
    _move(game, {"type": "step", "country": "japan", "action": "build_navy", "space": "sea_of_japan"}, axis)
    _undo(game)
    _move(game, {"type": "step", "country": "japan", "action": "gain_vp", "n": 3}, axis)
    _move(game, {"type": "step", "country": "japan", "action": "build_navy", "space": "sea_of_japan"}, axis)
    _undo(game, axis)  # still redoable at export time
    game.refresh_from_db()
    return game


def new_game(players=2, **options):
    names = [f"Игрок {i}" for i in range(1, players + 1)]
    return create_game("Вечер «Ось»", list(zip(names, DEFAULT_SEATING[players])), options)


@pytest.fixture
def played():
    game = play_some(new_game(2, early_victory=True))
    seat = game.seats.get(number=1)
    PrivateNote.objects.create(game=game, seat=seat, country="germany", kind=PrivateNote.RESPONSE,
                               card_id="ger_secret_card", text=SECRET)
    return game


# ------------------------------------------------------------------------------------------
# What is compared
# ------------------------------------------------------------------------------------------

def _events(game) -> list[tuple]:
    return [(e.seq, e.kind, e.round, e.country, e.phase, e.seat.number if e.seat else None, e.by_host,
             e.created_at, e.command, e.target, e.summary_ru, e.summary_en)
            for e in game.events.select_related("seat").order_by("seq")]


def snapshot(game) -> dict:
    """Everything an imported QMG game must reproduce (no ids, no tokens)."""
    game = Game.objects.get(pk=game.pk)
    return {
        "game": {f: getattr(game, f) for f in ("kind", "name", "options", "version", "created_at", "winner",
                                                "done_moves", "undone_moves")},
        "qmg": {f: getattr(game.qmg, f) for f in QMG_FIELDS},
        "variant": (game.qmg.board_variant.patch if game.qmg.board_variant_id else None),
        "seats": [(s.number, s.player_name, s.countries) for s in game.seats.order_by("number")],
        "events": _events(game),
        "history": [(row["event"].seq, row["undone"]) for row in history(game)],
        "effective": [[e.seq for e in part] for part in log.effective_moves(list(game.events.order_by("seq")))],
        "vp": qmg_selectors.vp_series(game),
        "table": qmg_selectors.canonical(log.current_state(game)),
        "replay": qmg_selectors.canonical(log.replay(game)),
    }


def json_snapshot(game) -> dict:
    """Everything an imported game of any kind must reproduce."""
    game = Game.objects.get(pk=game.pk)
    stepper = adapter_of(game).stepper(game)
    return {
        "game": (game.kind, game.name, game.options, game.version, game.winner, game.done_moves, game.undone_moves),
        "seats": [(s.number, s.player_name, s.countries) for s in game.seats.order_by("number")],
        "events": _events(game),
        "history": [(row["event"].seq, row["undone"]) for row in history(game)],
        "state": stepper.to_json(log.current_state(game)),
    }


def row_counts() -> dict:
    return {m.__name__: m.objects.count() for m in (Game, Seat, Event, Piece, CountryCards, QmgTable, GameState,
                                                    BoardVariant, PrivateNote)}


def roundtrip(game) -> Game:
    return transfer.import_game(transfer.loads(transfer.dumps(transfer.export_game(game)).encode("utf-8")))


# ------------------------------------------------------------------------------------------
# Round trip
# ------------------------------------------------------------------------------------------

def test_export_is_a_versioned_document_without_tokens_or_private_notes(played):
    doc = transfer.export_game(played)
    assert doc["format"] == transfer.FORMAT and doc["format_version"] == transfer.FORMAT_VERSION == 2
    assert set(doc) == {"format", "format_version", "exported_at", "game", "seats", "events", "state"}
    assert set(doc["game"]) == {"kind", "name", "options", "version", "created_at", "winner", "setup"}
    assert doc["game"]["setup"] is None  # the standard board
    assert [e["seq"] for e in doc["events"]] == list(range(1, played.version + 1))
    assert {e["kind"] for e in doc["events"]} == {"create", "move", "undo", "redo"}
    assert all("ops" not in e for e in doc["events"])  # the log stores commands only
    stepper = adapter_of(played).stepper(played)
    assert doc["state"] == stepper.to_json(log.current_state(played))
    text = transfer.dumps(doc)
    tokens = [played.host_token, played.spectator_token, *(s.token for s in played.seats.all())]
    for token in tokens:
        assert token not in text
    assert SECRET not in text and "ger_secret_card" not in text and "token" not in text
    assert "Вечер «Ось»" in text  # readable, not \u-escaped
    json.loads(text)


def test_import_after_the_original_is_deleted_gives_the_same_game(played):
    before = snapshot(played)
    text = transfer.dumps(transfer.export_game(played))
    old_tokens = {played.host_token, played.spectator_token, *(s.token for s in played.seats.all())}
    played.delete()
    assert Game.objects.count() == 0 and PrivateNote.objects.count() == 0
    game = transfer.import_game(transfer.loads(text.encode("utf-8")))
    after = snapshot(game)
    assert after == before
    assert after["table"] == after["replay"]
    # undone marks and the still-redoable move survived
    assert any(undone for _seq, undone in after["history"])
    assert after["effective"][1]  # something to redo
    # new links, no private notes
    new_tokens = {game.host_token, game.spectator_token, *(s.token for s in game.seats.all())}
    assert not new_tokens & old_tokens and len(new_tokens) == 2 + game.seats.count()
    assert PrivateNote.objects.count() == 0
    # the imported game goes on: redo, then the next move
    _redo(game)
    _move(game, {"type": "end_play"}, Actor(seat=game.seats.get(number=1)))
    game.refresh_from_db()
    assert qmg_selectors.canonical(log.current_state(game)) == qmg_selectors.canonical(log.replay(game))


def test_import_next_to_the_original_and_export_again_gives_the_same_document(played):
    first = transfer.export_game(played)
    game = roundtrip(played)
    assert game.pk != played.pk
    assert snapshot(game) == snapshot(played)
    second = transfer.export_game(game)
    first.pop("exported_at"), second.pop("exported_at")
    assert second == first


def test_a_finished_game_and_a_board_variant_survive(played):
    patch = "extends: standard\nadd_edges: [[kazakhstan, india]]\nremove_stars: [hawaii]\n"
    variant = BoardVariant.objects.create(name="Клуб", patch=patch)
    game = create_game("V", list(zip(["A", "B"], DEFAULT_SEATING[2])), {}, variant)
    _move(game, {"type": "play_card", "card_type": "event"})
    for cmd in ({"action": "eliminate", "space": "moscow"}, {"action": "recruit_army", "space": "moscow"},
                {"action": "eliminate", "space": "united_kingdom"},
                {"action": "recruit_army", "space": "united_kingdom"}):
        _move(game, {"type": "step", "country": "germany", **cmd})
    game.refresh_from_db()
    assert game.winner == "axis"
    doc = transfer.export_game(game)
    assert doc["game"]["setup"] == {"board_variant": {"name": "Клуб", "patch": patch}}
    assert doc["game"]["winner"] == "axis"
    copy_ = roundtrip(game)
    assert copy_.qmg.board_variant_id == variant.pk  # same name and patch: the variant is reused
    assert snapshot(copy_) == snapshot(game)
    # a different variant under the same name (the log still replays on it) is kept under a new name
    doc["game"]["setup"]["board_variant"]["patch"] = "extends: standard\nremove_stars: [hawaii]\n"
    other = transfer.import_game(copy.deepcopy(doc))
    assert other.qmg.board_variant.name.startswith("Клуб (") and other.qmg.board_variant.patch.endswith("[hawaii]\n")
    assert BoardVariant.objects.count() == 2
    # a refused import leaves no variant behind
    doc["game"]["setup"]["board_variant"] = {"name": "Третий", "patch": "extends: standard\n"}
    doc["state"]["vp"]["axis"] += 1
    with pytest.raises(transfer.ImportError_, match="replaying its event log"):
        transfer.import_game(doc)
    assert BoardVariant.objects.count() == 2


def test_a_named_status_card_in_play_survives():
    game = new_game(2)
    _move(game, {"type": "play_card", "card_type": "status", "card_id": "ger_dive_bombers"})
    assert log.replay(game).position.statuses == ("ger_dive_bombers",)  # the engine applies it
    doc = transfer.export_game(game)
    assert doc["state"]["cards"]["germany"]["statuses"] == ["ger_dive_bombers"]
    copy_ = roundtrip(game)
    assert snapshot(copy_) == snapshot(game)
    doc["state"]["cards"]["germany"]["statuses"] = []
    with pytest.raises(transfer.ImportError_, match="replaying its event log"):
        transfer.import_game(doc)


# ------------------------------------------------------------------------------------------
# Every game uses the same format: a toy engine behind the default adapter
# ------------------------------------------------------------------------------------------

class CounterStepper:
    """A toy engine: each side adds to its own counter; more than 10 at once is refused; 20 wins."""

    kind = Game.GENERALISSIMUS
    sides = ("a", "b")

    def new_state(self, setup):
        return dict(setup)

    def prepare(self, state, command, rng):
        return command

    def apply(self, state, command):
        n = command.get("n")
        if not isinstance(n, int) or not 0 < n <= 10:
            return refused(Reason("bad", "нет", "no more than 10 at once"))
        side = command["side"]
        return accepted({**state, side: state.get(side, 0) + n}, Reason("ok", "да", "yes"))

    def replay(self, initial, commands):
        return replay_commands(self, initial, commands)

    def acting_side(self, state, command):
        return command.get("side")

    def view_for(self, state, viewer):
        return state

    def side_name(self, side, lang):
        return side.upper()

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)


class CounterAdapter(GameAdapter):
    kind = Game.GENERALISSIMUS

    def stepper(self, game):
        return CounterStepper()

    def winner(self, state):
        return next((side for side in ("a", "b") if state.get(side, 0) >= 20), None)


@pytest.fixture
def counter_game(monkeypatch):
    """The toy engine stands in for Generalissimus (the registry is put back afterwards)."""
    monkeypatch.setitem(REGISTRY, Game.GENERALISSIMUS, CounterAdapter())
    game = log.create_game(Game.GENERALISSIMUS, "G", [("A", ["a"]), ("B", ["b"])], {"a": 0, "b": 0},
                           {"preset": "toy"})
    seats = {s.number: Actor(seat=s) for s in game.seats.all()}
    for side, n in (("a", 3), ("b", 4), ("a", 5)):
        _move(game, {"side": side, "n": n}, seats[1 if side == "a" else 2])
    _undo(game)
    return game


def test_a_json_state_game_round_trips_and_a_forged_state_is_refused(counter_game):
    game = counter_game
    assert log.current_state(game) == {"a": 3, "b": 4}
    doc = transfer.export_game(game)
    assert doc["state"] == {"a": 3, "b": 4} and doc["game"]["setup"] is None
    assert doc["events"][0]["command"] == {"initial": {"a": 0, "b": 0}, "options": {"preset": "toy"}}
    copy_ = transfer.import_game(copy.deepcopy(doc))
    assert json_snapshot(copy_) == json_snapshot(game)
    assert log.current_state(copy_) == log.replay(copy_) == {"a": 3, "b": 4}
    assert GameState.objects.get(game=copy_).state == {"a": 3, "b": 4}
    counts = row_counts()
    forged = copy.deepcopy(doc)
    forged["state"] = {"a": 99, "b": 4}
    with pytest.raises(transfer.ImportError_, match="replaying its event log"):
        transfer.import_game(forged)
    forged = copy.deepcopy(doc)
    forged["events"][1]["command"]["n"] = 1000  # the engine refuses it on replay
    with pytest.raises(transfer.ImportError_, match="cannot be replayed.*no more than 10"):
        transfer.import_game(forged)
    forged = copy.deepcopy(doc)
    forged["events"][0]["command"]["initial"] = {"a": 5, "b": 4}  # a start the game never had
    with pytest.raises(transfer.ImportError_, match="replaying its event log"):
        transfer.import_game(forged)
    forged = copy.deepcopy(doc)
    forged["events"][0]["command"]["options"] = {"preset": "other"}  # not the game's options
    with pytest.raises(transfer.ImportError_, match="create event"):
        transfer.import_game(forged)
    forged = copy.deepcopy(doc)
    forged["game"]["setup"] = {"board_variant": None}  # this kind of game has no setup beside its log
    with pytest.raises(transfer.ImportError_, match="game.setup"):
        transfer.import_game(forged)
    forged = copy.deepcopy(doc)
    forged["seats"][0]["countries"] = ["c"]  # a side the engine does not have
    with pytest.raises(transfer.ImportError_, match="unknown country or side"):
        transfer.import_game(forged)
    forged = copy.deepcopy(doc)
    forged["game"]["winner"] = "a"
    with pytest.raises(transfer.ImportError_, match="replaying its event log"):
        transfer.import_game(forged)
    assert row_counts() == counts


def test_the_winner_is_the_replayed_one(counter_game):
    game = counter_game
    seat = Actor(seat=game.seats.get(number=1))
    for n in (10, 10):
        _move(game, {"side": "a", "n": n}, seat)
    game.refresh_from_db()
    assert game.winner == "a"
    copy_ = roundtrip(game)
    assert copy_.winner == "a" and json_snapshot(copy_)["state"] == {"a": 23, "b": 4}


def test_a_game_of_an_engine_this_app_lacks_is_refused(counter_game, monkeypatch):
    doc = transfer.export_game(counter_game)
    monkeypatch.delitem(REGISTRY, Game.GENERALISSIMUS)
    with pytest.raises(transfer.ImportError_, match="cannot replay"):
        transfer.import_game(doc)


# ------------------------------------------------------------------------------------------
# Malformed and forged files: refused with a message, nothing created
# ------------------------------------------------------------------------------------------

def _set(path, value):
    def mutate(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return mutate


def _delete(path):
    def mutate(doc):
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return mutate


def _insert_move(doc, index, command, country="germany"):
    """A move inserted into the log before ``doc["events"][index]`` (the later ones renumbered)."""
    for e in doc["events"][index:]:
        e["seq"] += 1
        if e["target"] is not None and e["target"] > index:
            e["target"] += 1
    doc["events"].insert(index, {"seq": index + 1, "kind": "move", "round": 1, "country": country, "phase": "play",
                                 "seat": None, "by_host": True, "created_at": None, "command": command,
                                 "target": None, "summary_ru": "", "summary_en": ""})
    doc["game"]["version"] += 1


def _move_event(doc, **match):
    return next(e for e in doc["events"] if e["kind"] == "move" and match.items() <= e["command"].items())


def _swap_events(doc):
    doc["events"][3], doc["events"][4] = doc["events"][4], doc["events"][3]


def _gap(doc):
    doc["events"][5]["seq"] = 7


def _second_create(doc):
    doc["events"][2]["kind"] = "create"


def _drop_last(doc):
    doc["events"].pop()


def _forge_vp_step(doc):
    _move_event(doc, action="gain_vp")["command"]["n"] = 8


def _forge_vp_step_and_state(doc):
    # log and state agree, but no card gives more than 20 VP at once
    _move_event(doc, action="gain_vp")["command"]["n"] = 25
    doc["state"]["vp"]["axis"] += 22


def _forge_build_elsewhere(doc):
    _move_event(doc, card_type="build_army")["command"]["space"] = "ukraine"


def _illegal_command_inserted(doc):
    # log and state agree, but Germany builds far from any of its armies
    _insert_move(doc, 1, {"type": "play_card", "card_type": "build_army", "space": "australia", "country": "germany"})


def _impossible_table_in_log_and_state(doc):
    # log and state agree, but a step of Japan's event card places a German army in Moscow beside the Soviet one
    index = doc["events"].index(_move_event(doc, card_type="event")) + 1
    _insert_move(doc, index, {"type": "step", "country": "germany", "action": "build_army", "space": "moscow"})
    doc["state"]["position"]["pieces"].append({"country": "germany", "kind": "army", "space": "moscow"})


def _wrong_country(doc):
    _move_event(doc, type="supply")["command"]["country"] = "japan"


def _unknown_command(doc):
    doc["events"][1]["command"] = {"type": "teleport", "country": "germany"}


def _command_with_a_list_for_a_name(doc):
    doc["events"][1]["command"]["space"] = ["eastern_europe"]


def _target_not_a_move(doc):
    e = next(e for e in doc["events"] if e["kind"] == "undo")
    e["target"] = 1


def _target_not_the_last_move(doc):
    e = [e for e in doc["events"] if e["kind"] == "undo"][1]
    e["target"] -= 1


def _redo_with_nothing_undone(doc):
    e = next(e for e in doc["events"] if e["kind"] == "redo")
    e["kind"], e["target"] = "undo", 2


def _seat_with_token(doc):
    doc["seats"][0]["token"] = "a-token-from-elsewhere"


def _deep(doc):
    value = []
    for _ in range(200):
        value = [value]
    doc["events"][1]["command"]["deep"] = value


def _nan(doc):
    doc["events"][1]["command"]["n"] = float("nan")


def _piece_moved(doc):
    doc["state"]["position"]["pieces"][0]["space"] = "ukraine"


def _hand_forged(doc):
    doc["state"]["cards"]["germany"]["hand"] += 1


MUTATIONS = {
    "wrong format": _set(["format"], "something-else"),
    "future format version": _set(["format_version"], 3),
    "format version as text": _set(["format_version"], "2"),
    "format version as bool": _set(["format_version"], True),
    "missing game": _delete(["game"]),
    "missing state": _delete(["state"]),
    "unknown top-level key": _set(["extra"], 1),
    "version 1 keys in a version 2 file": _set(["pieces"], []),
    "unknown kind": _set(["game", "kind"], "chess"),
    "unknown game field": _set(["game", "round"], 1),
    "name too long": _set(["game", "name"], "x" * 101),
    "empty name": _set(["game", "name"], "  "),
    "name with NUL": _set(["game", "name"], "a\x00b"),
    "name with a lone surrogate": _set(["game", "name"], "a\ud800b"),
    "options not an object": _set(["game", "options"], []),
    "options not the create event's": _set(["game", "options"], {"early_victory": False}),
    "version not a number": _set(["game", "version"], "20"),
    "version as bool": _set(["game", "version"], True),
    "version mismatch": _set(["game", "version"], 3),
    "bad created_at": _set(["game", "created_at"], "yesterday"),
    "bad exported_at": _set(["exported_at"], 5),
    "winner forged": _set(["game", "winner"], "axis"),
    "winner not a text": _set(["game", "winner"], None),
    "no seats": _set(["seats"], []),
    "seat token smuggled in": _seat_with_token,
    "unknown seat country": _set(["seats", 0, "countries"], ["atlantis"]),
    "seat country not a text": _set(["seats", 0, "countries"], [["germany"]]),
    "country in two seats": _set(["seats", 1, "countries"], ["germany", "united_kingdom"]),
    "duplicate seat number": _set(["seats", 1, "number"], 1),
    "player name too long": _set(["seats", 0, "player_name"], "p" * 61),
    "no events": _set(["events"], []),
    "events not a list": _set(["events"], {"1": {}}),
    "events swapped": _swap_events,
    "seq gap": _gap,
    "second create": _second_create,
    "unknown event kind": _set(["events", 1, "kind"], "teleport"),
    "event seat unknown": _set(["events", 1, "seat"], 9),
    "event country unknown": _set(["events", 1, "country"], "atlantis"),
    "event command not an object": _set(["events", 1, "command"], "play"),
    "ops smuggled into an event": _set(["events", 1, "ops"], []),
    "create without options": _set(["events", 0, "command"], {}),
    "create with other options": _set(["events", 0, "command"], {"options": {"early_victory": False}}),
    "undo target not a move": _target_not_a_move,
    "undo target not the last move": _target_not_the_last_move,
    "undo after everything was undone": _redo_with_nothing_undone,
    "target on a move": _set(["events", 1, "target"], 1),
    "summary too long": _set(["events", 1, "summary_en"], "s" * (transfer.MAX_TEXT + 1)),
    "summary with NUL": _set(["events", 1, "summary_ru"], "\x00"),
    "by_host not a bool": _set(["events", 1, "by_host"], "yes"),
    "command nested deeply": _deep,
    "command with NaN": _nan,
    "last event dropped": _drop_last,
    "vp step forged": _forge_vp_step,
    "vp step forged in the log and the state": _forge_vp_step_and_state,
    "a build moved elsewhere": _forge_build_elsewhere,
    "an illegal command inserted": _illegal_command_inserted,
    "impossible table in the log and the state": _impossible_table_in_log_and_state,
    "a move for a country not on turn": _wrong_country,
    "unknown command": _unknown_command,
    "a list where a space is named": _command_with_a_list_for_a_name,
    "piece moved in the state": _piece_moved,
    "two opposing pieces share a space": lambda d: d["state"]["position"]["pieces"].append(
        {"country": "germany", "kind": "army", "space": "moscow"}),
    "duplicate piece": lambda d: d["state"]["position"]["pieces"].append(dict(d["state"]["position"]["pieces"][0])),
    "pieces missing": _delete(["state", "position", "pieces"]),
    "card counts forged": _hand_forged,
    "card row missing": _delete(["state", "cards", "italy"]),
    "round forged": _set(["state", "round"], 5),
    "vp forged": _set(["state", "vp", "allies"], 40),
    "state not an object": _set(["state"], []),
    "state too deep": _set(["state", "attack"], json.loads("[" * 100 + "]" * 100)),
    "setup with an unknown field": _set(["game", "setup"], {"board_variant": None, "x": 1}),
    "setup not an object": _set(["game", "setup"], "standard"),
    "board variant with a bad patch": _set(["game", "setup"], {"board_variant": {"name": "X", "patch": "add_stars: 5"}}),
    "board variant extending a file": _set(["game", "setup"], {"board_variant": {
        "name": "X", "patch": "extends: /etc/passwd\n"}}),
    "board variant with aliases": _set(["game", "setup"], {"board_variant": {
        "name": "X", "patch": "a: &a [x, x]\nb: &b [*a, *a]\nremove_stars: *b\n"}}),
    "board variant not YAML": _set(["game", "setup"], {"board_variant": {"name": "X", "patch": "extends: [\n"}}),
    "board variant without a name": _set(["game", "setup"], {"board_variant": {"name": "", "patch": "extends: standard\n"}}),
    "board variant patch too long": _set(["game", "setup"], {"board_variant": {
        "name": "X", "patch": "#" * 50_001}}),
    "board variant the log does not fit": _set(["game", "setup"], {"board_variant": {
        "name": "X", "patch": "remove_edges: [[germany, eastern_europe]]\n"}}),
}


_BASE: list[dict] = []


@pytest.fixture
def base_doc(db):
    """An export of a played game, made once for the module (the game itself is rolled back)."""
    if not _BASE:
        game = play_some(new_game(2, early_victory=True))
        _BASE.append(transfer.export_game(game))
        game.delete()
    return copy.deepcopy(_BASE[0])


def test_the_unchanged_base_document_imports(base_doc):
    assert transfer.import_game(base_doc).version == base_doc["game"]["version"]


@pytest.mark.parametrize("mutation", list(MUTATIONS), ids=list(MUTATIONS))
def test_malformed_or_forged_document_is_refused_and_nothing_is_created(base_doc, mutation):
    doc = base_doc
    MUTATIONS[mutation](doc)
    counts = row_counts()
    with pytest.raises(transfer.ImportError_) as info:
        transfer.import_game(doc)
    message = str(info.value)
    assert message and "\n" not in message and len(message) < 600
    assert "Traceback" not in message and "unexpected structure" not in message
    assert row_counts() == counts


@pytest.mark.parametrize("data", [
    b"", b"not json", b"\xff\xfe\x00garbage", b"[1, 2]", b'"text"', b"null", b"{" * 100_000,
    b'{"format": "wargame-companion/game"}', "{}".encode(), b'{"format_version": 2}',
    b'{"format": "wargame-companion/game", "format_version": 2}',
    b'{"format": "wargame-companion/game", "format_version": 1}',
])
def test_files_that_are_not_an_export_are_refused(data):
    counts = row_counts()
    with pytest.raises(transfer.ImportError_):
        transfer.import_game(transfer.loads(data))
    assert row_counts() == counts


def test_an_oversized_file_is_refused_before_parsing():
    with pytest.raises(transfer.ImportError_, match="too large"):
        transfer.loads(b" " * (transfer.MAX_BYTES + 1))


# ------------------------------------------------------------------------------------------
# Format 1 (before the shared core): converted, then imported the same way
# ------------------------------------------------------------------------------------------

V1_GAME_FIELDS = ("attack", "done_moves", "end_reason", "phase", "played", "round", "turn", "undone_moves", "used",
                  "vp_allies", "vp_axis", "vp_rounds", "window", "window_passes", "winner")


def old_rows() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def v1_document(game_id: int, rows: dict | None = None) -> dict:
    """What the pre-redesign ``export_game`` wrote for a game of the fixture database."""
    rows = rows or old_rows()
    g = next(g for g in rows["Game"] if g["id"] == game_id)
    seats = sorted((s for s in rows["Seat"] if s["game_id"] == game_id), key=lambda s: s["number"])
    number_of = {s["id"]: s["number"] for s in seats}
    doc = {
        "format": transfer.FORMAT, "format_version": 1, "exported_at": "2026-11-23T11:00:00+00:00",
        "game": {"kind": g["kind"], "name": g["name"], "options": g["options"], "board_variant": None,
                 "version": g["version"], "created_at": g["created_at"], **{f: g[f] for f in V1_GAME_FIELDS}},
        "seats": [{"number": s["number"], "player_name": s["player_name"], "countries": s["countries"]} for s in seats],
        "events": [{"seq": e["seq"], "kind": e["kind"], "round": e["round"], "country": e["country"],
                    "phase": e["phase"], "seat": number_of.get(e["seat_id"]), "by_host": e["by_host"],
                    "created_at": e["created_at"], "command": e["command"], "ops": e["ops"], "target": e["target"],
                    "summary_ru": e["summary_ru"], "summary_en": e["summary_en"]}
                   for e in sorted((e for e in rows["Event"] if e["game_id"] == game_id), key=lambda e: e["seq"])],
    }
    if g["kind"] == Game.QMG:
        doc["pieces"] = [{"country": p["country"], "kind": p["kind"], "space": p["space"]}
                         for p in sorted((p for p in rows["Piece"] if p["game_id"] == game_id), key=lambda p: p["id"])]
        doc["country_cards"] = [{k: c[k] for k in ("country", "deck", "hand", "discard", "responses", "statuses")}
                                for c in rows["CountryCards"] if c["game_id"] == game_id]
    else:
        doc["state"] = next(s["state"] for s in rows["GameState"] if s["game_id"] == game_id)
    return doc


@pytest.mark.parametrize("game_id", [1, 2], ids=["early victory", "reallocate"])
def test_a_format_1_qmg_file_imports(game_id):
    rows = old_rows()
    old = next(g for g in rows["Game"] if g["id"] == game_id)
    game = transfer.import_game(v1_document(game_id, rows))
    assert (game.kind, game.name, game.options, game.version, game.winner, game.done_moves, game.undone_moves) == \
           (old["kind"], old["name"], old["options"], old["version"], old["winner"], old["done_moves"],
            old["undone_moves"])
    assert game.created_at.isoformat() == old["created_at"]
    assert {f: getattr(game.qmg, f) for f in QMG_FIELDS} == {f: old[f] for f in QMG_FIELDS}
    assert game.qmg.board_variant_id is None
    assert sorted((p.country, p.kind, p.space) for p in game.pieces.all()) == \
           sorted((p["country"], p["kind"], p["space"]) for p in rows["Piece"] if p["game_id"] == game_id)
    assert sorted((c.country, c.deck, c.hand, c.discard) for c in game.country_cards.all()) == \
           sorted((c["country"], c["deck"], c["hand"], c["discard"]) for c in rows["CountryCards"]
                  if c["game_id"] == game_id)
    assert [e[:2] for e in _events(game)] == [(e["seq"], e["kind"]) for e in rows["Event"] if e["game_id"] == game_id]
    assert PrivateNote.objects.count() == 0
    # exported again in format 2, it imports to the same game; and the game goes on
    assert snapshot(roundtrip(game)) == snapshot(game)
    _redo(game)
    game.refresh_from_db()
    assert qmg_selectors.canonical(log.current_state(game)) == qmg_selectors.canonical(log.replay(game))


def test_a_format_1_file_with_a_board_variant_imports():
    doc = v1_document(1)
    patch = "extends: standard\nadd_edges: [[kazakhstan, india]]\n"
    doc["game"]["board_variant"] = {"name": "Клуб", "patch": patch}
    game = transfer.import_game(doc)
    assert game.qmg.board_variant.name == "Клуб" and game.qmg.board_variant.patch == patch
    assert transfer.export_game(game)["game"]["setup"] == {"board_variant": {"name": "Клуб", "patch": patch}}


@pytest.mark.parametrize("game_id", [3, 4], ids=["fog of war", "generalissimus"])
def test_a_format_1_json_state_file_imports(game_id):
    rows = old_rows()
    old = next(g for g in rows["Game"] if g["id"] == game_id)
    game = transfer.import_game(v1_document(game_id, rows))
    assert (game.kind, game.options, game.version, game.done_moves, game.undone_moves) == \
           (old["kind"], old["options"], old["version"], old["done_moves"], old["undone_moves"])
    state = next(s["state"] for s in rows["GameState"] if s["game_id"] == game_id)
    assert GameState.objects.get(game=game).state == state
    assert json_snapshot(roundtrip(game)) == json_snapshot(game)


def test_format_1_ops_are_not_trusted_the_commands_are_replayed():
    doc = v1_document(1)
    for e in doc["events"]:
        e["ops"] = [{"op": "vp", "team": "axis", "n": 99}] if e["kind"] == "move" else []
    assert transfer.import_game(doc).qmg.vp_axis == 5  # the ops are dropped, the commands decide


def _v1_piece_moved(doc):
    doc["pieces"][0]["space"] = "ukraine"


def _v1_vp_forged(doc):
    doc["game"]["vp_axis"] += 1


def _v1_command_forged(doc):
    _move_event(doc, action="gain_vp")["command"]["n"] = 8


V1_MUTATIONS = {
    "a piece moved": _v1_piece_moved,
    "vp forged": _v1_vp_forged,
    "a command forged": _v1_command_forged,
    "round forged": _set(["game", "round"], 3),
    "pieces missing": _delete(["pieces"]),
    "card row missing": lambda d: d["country_cards"].pop(),
    "negative deck": _set(["country_cards", 0, "deck"], -1),
    "deck not a number": _set(["country_cards", 0, "deck"], "many"),
    "a piece without a space": _delete(["pieces", 0, "space"]),
    "pieces not a list": _set(["pieces"], {"germany": "germany"}),
    "state on a QMG game": _set(["state"], {}),
    "event without ops": _delete(["events", 1, "ops"]),
    "unknown game field": _set(["game", "colour"], "red"),
    "create without options": _set(["events", 0, "command"], {}),
    "board variant not YAML": _set(["game", "board_variant"], {"name": "X", "patch": "extends: [\n"}),
}


@pytest.mark.parametrize("mutation", list(V1_MUTATIONS), ids=list(V1_MUTATIONS))
def test_a_forged_format_1_file_is_refused_and_nothing_is_created(mutation):
    doc = v1_document(1)
    V1_MUTATIONS[mutation](doc)
    counts = row_counts()
    with pytest.raises(transfer.ImportError_) as info:
        transfer.import_game(doc)
    message = str(info.value)
    assert message and "\n" not in message and "unexpected structure" not in message
    assert row_counts() == counts


# ------------------------------------------------------------------------------------------
# Views
# ------------------------------------------------------------------------------------------

def test_export_view_is_for_the_host_only(client, played):
    url = reverse("export_game", args=[played.pk])
    assert client.get(url).status_code == 403  # nobody
    client.get(reverse("watch", args=[played.spectator_token]))
    assert client.get(url).status_code == 403  # spectator
    seat_client = Client()
    seat_client.get(reverse("join", args=[played.seats.get(number=1).token]))
    assert seat_client.get(url).status_code == 403  # a seat
    host = Client()
    host.get(reverse("host_link", args=[played.host_token]))
    r = host.get(url)
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    assert f'game-{played.pk}.json' in r["Content-Disposition"]
    doc = json.loads(r.content.decode("utf-8"))
    assert doc["format"] == transfer.FORMAT and len(doc["events"]) == played.version
    assert SECRET.encode() not in r.content and played.host_token.encode() not in r.content
    assert host.post(url).status_code == 405


def test_import_view_creates_the_game_and_makes_the_importer_its_host(played):
    data = transfer.dumps(transfer.export_game(played)).encode("utf-8")
    expected = snapshot(played)
    played.delete()
    browser = Client()
    assert browser.get(reverse("import_game")).status_code == 200
    r = browser.post(reverse("import_game"), {"file": SimpleUploadedFile("game.json", data, "application/json")})
    game = Game.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("seats", args=[game.pk])
    assert browser.get(r["Location"]).status_code == 200  # the host's seats page with new join links
    assert snapshot(game) == expected


@pytest.mark.parametrize("upload", [None, b"", b"garbage", b'{"format": "x"}'])
def test_import_view_refuses_a_bad_file_with_a_message(played, upload):
    doc = transfer.export_game(played)
    counts = row_counts()
    browser = Client()
    data = {} if upload is None else {"file": SimpleUploadedFile("game.json", upload, "application/json")}
    r = browser.post(reverse("import_game"), data)
    assert r.status_code == 400
    html = r.content.decode()
    assert "Traceback" not in html and ('class="' in html)
    assert row_counts() == counts
    # a forged file: the message tells why
    doc["state"]["vp"]["axis"] += 1
    r = browser.post(reverse("import_game"), {"file": SimpleUploadedFile("g.json", transfer.dumps(doc).encode())},
                     **EN)
    assert r.status_code == 400 and "replaying its event log" in r.content.decode()
    assert row_counts() == counts


# ------------------------------------------------------------------------------------------
# Management commands
# ------------------------------------------------------------------------------------------

def test_export_and_import_commands(played, tmp_path):
    out = io.StringIO()
    call_command("export_game", str(played.pk), stdout=out)
    path = tmp_path / "game.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    doc = json.loads(out.getvalue())
    assert doc["format"] == transfer.FORMAT and SECRET not in out.getvalue()
    expected = snapshot(played)
    played.delete()
    out = io.StringIO()
    call_command("import_game", str(path), stdout=out)
    game = Game.objects.get()
    assert f"Imported game {game.pk}" in out.getvalue() and f"/host/{game.host_token}/" in out.getvalue()
    assert snapshot(game) == expected


def test_the_import_command_reads_a_format_1_file(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(v1_document(4), ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    call_command("import_game", str(path), stdout=out)
    game = Game.objects.get()
    assert game.kind == Game.GENERALISSIMUS and f"Imported game {game.pk}: Бородино" in out.getvalue()


@pytest.mark.parametrize("command,args", [
    ("export_game", ["abc"]), ("export_game", ["999999"]), ("export_game", ["1" * 40]),
    ("import_game", ["/nonexistent/game.json"]), ("import_game", ["BAD"]), ("import_game", ["FORGED"]),
    ("import_game", ["DIR"]),
])
def test_commands_refuse_bad_input_with_one_line_and_status_2(played, tmp_path, command, args):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\x00\x01 not json")
    forged = transfer.export_game(played)
    forged["state"]["position"]["pieces"].pop()
    forged_path = tmp_path / "forged.json"
    forged_path.write_text(transfer.dumps(forged), encoding="utf-8")
    args = [{"BAD": str(bad), "FORGED": str(forged_path), "DIR": str(tmp_path)}.get(a, a) for a in args]
    counts = row_counts()
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as info:
        call_command(command, *args, stdout=out, stderr=err)
    assert info.value.code == 2
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(command) and "Traceback" not in err.getvalue()
    assert out.getvalue() == ""
    assert row_counts() == counts


# ------------------------------------------------------------------------------------------
# The real JSON-state companions (their games come from the fixture database, in format 1)
# ------------------------------------------------------------------------------------------

def _roundtrip_after_delete(game, via_command_line, tmp_path):
    expected = json_snapshot(game)
    stepper = adapter_of(game).stepper(game)
    assert stepper.to_json(log.replay(game)) == expected["state"]
    text = transfer.dumps(transfer.export_game(game))
    for token in (game.host_token, game.spectator_token, *(s.token for s in game.seats.all())):
        assert token not in text
    game.delete()
    if via_command_line:
        path = tmp_path / "g.json"
        path.write_text(text, encoding="utf-8")
        call_command("import_game", str(path), stdout=io.StringIO())
        copy_ = Game.objects.latest("pk")
    else:
        copy_ = transfer.import_game(transfer.loads(text.encode()))
    assert json_snapshot(copy_) == expected
    assert stepper.to_json(log.replay(copy_)) == expected["state"]
    return copy_


@pytest.mark.parametrize("via_command_line", [False, True])
def test_a_fog_of_war_game_survives_export_and_import(via_command_line, tmp_path):
    game = transfer.import_game(v1_document(3))
    copy_ = _roundtrip_after_delete(game, via_command_line, tmp_path)
    # the imported game goes on with its new links: the allies start their turn
    allies = Actor(seat=copy_.seats.get(number=2))
    _move(copy_, {"type": "start_turn", "side": "allies"}, allies)
    copy_.refresh_from_db()
    stepper = adapter_of(copy_).stepper(copy_)
    assert stepper.to_json(log.replay(copy_)) == stepper.to_json(log.current_state(copy_))


@pytest.mark.parametrize("via_command_line", [False, True])
def test_a_generalissimus_battle_survives_export_and_import(via_command_line, tmp_path):
    game = transfer.import_game(v1_document(4))
    copy_ = _roundtrip_after_delete(game, via_command_line, tmp_path)
    _redo(copy_)  # the north's undone confirmation
    copy_.refresh_from_db()
    assert copy_.undone_moves == [] and copy_.version == 9
    stepper = adapter_of(copy_).stepper(copy_)
    assert stepper.to_json(log.replay(copy_)) == stepper.to_json(log.current_state(copy_))


def test_the_host_cannot_export_a_running_game_with_hidden_cards(client):
    """The host is usually a player too: a running Fog of War or Generalissimus game would show the
    other side's hand or face-down orders in its file, so the export waits for the end of the game.
    QMG's state names no hidden card (face-down responses are counts), so it exports at any time."""
    for module in (fow, gen):
        made = module.create(Client())
        game = made[0] if isinstance(made, tuple) else made
        assert transfer.holds_hidden_information(game)
        host = Client()
        host.get(reverse("host_link", args=[game.host_token]))
        r = host.get(reverse("export_game", args=[game.pk]))
        assert r.status_code == 403 and b'"events"' not in r.content
        Game.objects.filter(pk=game.pk).update(winner="axis" if module is fow else "south")
        assert host.get(reverse("export_game", args=[game.pk])).status_code == 200
    qmg = create_game("Q", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    assert not transfer.holds_hidden_information(qmg)


def test_the_export_command_refuses_a_running_game_with_hidden_cards_unless_told(tmp_path, capsys):
    game = fow.create(Client())
    with pytest.raises(SystemExit) as exit_:
        call_command("export_game", str(game.pk), stdout=io.StringIO())
    assert exit_.value.code == 2 and "--with-hidden" in capsys.readouterr().err
    out = io.StringIO()
    call_command("export_game", str(game.pk), "--with-hidden", stdout=out)
    assert json.loads(out.getvalue())["game"]["kind"] == "fog_of_war"

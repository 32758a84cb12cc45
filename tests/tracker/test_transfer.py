"""Export and import of a whole game (tracker.transfer), its views and its management commands."""
from __future__ import annotations

import copy
import io
import json
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gameplay.qmg.reasons import Reason
from tracker import jsongames, selectors, services, transfer
from tracker.models import BoardVariant, CountryCards, Event, Game, GameState, Piece, PrivateNote, Seat
from tracker.services import Actor, DEFAULT_SEATING

pytestmark = pytest.mark.django_db

HOST = Actor(is_host=True)
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
SECRET = "SECRET-NOTE-TEXT-never-exported"


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
    r = services.submit(game.pk, game.version, actor, command)
    assert r.applied, (command, r.status, r.reason)
    return r


def _undo(game, actor=HOST):
    game.refresh_from_db()
    assert services.undo(game.pk, game.version, actor).applied


def _redo(game, actor=HOST):
    game.refresh_from_db()
    assert services.redo(game.pk, game.version, actor).applied


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
    return services.create_game("Вечер «Ось»", list(zip(names, DEFAULT_SEATING[players])), options)


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

def snapshot(game) -> dict:
    """Everything an imported game must reproduce (no ids, no tokens)."""
    game = Game.objects.get(pk=game.pk)
    events = list(game.events.select_related("seat").order_by("seq"))
    return {
        "game": {f: getattr(game, f) for f in ("kind", "name", "options", "version", "created_at", "round", "turn",
                                                "phase", "played", "vp_axis", "vp_allies", "winner", "end_reason")},
        "variant": (game.board_variant.patch if game.board_variant_id else None),
        "seats": [(s.number, s.player_name, s.countries) for s in game.seats.order_by("number")],
        "events": [(e.seq, e.kind, e.round, e.country, e.phase, e.seat.number if e.seat else None, e.by_host,
                    e.created_at, e.command, e.ops, e.target, e.summary_ru, e.summary_en) for e in events],
        "history": [(row["event"].seq, row["undone"]) for row in selectors.history(game)],
        "effective": [[e.seq for e in part] for part in selectors.effective_moves(events)],
        "vp": selectors.vp_series(game),
        "table": selectors.canonical(selectors.table_of(game)),
        "replay": selectors.canonical(selectors.replay(game)),
    }


def row_counts() -> dict:
    return {m.__name__: m.objects.count() for m in (Game, Seat, Event, Piece, CountryCards, GameState, BoardVariant,
                                                    PrivateNote)}


def roundtrip(game) -> Game:
    return transfer.import_game(transfer.loads(transfer.dumps(transfer.export_game(game)).encode("utf-8")))


# ------------------------------------------------------------------------------------------
# Round trip
# ------------------------------------------------------------------------------------------

def test_export_is_a_versioned_document_without_tokens_or_private_notes(played):
    doc = transfer.export_game(played)
    assert doc["format"] == transfer.FORMAT and doc["format_version"] == transfer.FORMAT_VERSION
    assert [e["seq"] for e in doc["events"]] == list(range(1, played.version + 1))
    assert {e["kind"] for e in doc["events"]} == {"create", "move", "undo", "redo"}
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
    assert selectors.canonical(selectors.table_of(game)) == selectors.canonical(selectors.replay(game))


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
    game = services.create_game("V", list(zip(["A", "B"], DEFAULT_SEATING[2])), {}, variant)
    _move(game, {"type": "play_card", "card_type": "event"})
    for cmd in ({"action": "eliminate", "space": "moscow"}, {"action": "recruit_army", "space": "moscow"},
                {"action": "eliminate", "space": "united_kingdom"},
                {"action": "recruit_army", "space": "united_kingdom"}):
        _move(game, {"type": "step", "country": "germany", **cmd})
    game.refresh_from_db()
    assert game.winner == "axis"
    copy_ = roundtrip(game)
    assert copy_.board_variant_id == variant.pk  # same name and patch: the variant is reused
    assert snapshot(copy_) == snapshot(game)
    # a different variant under the same name (the log still replays on it) is kept under a new name
    doc = transfer.export_game(game)
    doc["game"]["board_variant"]["patch"] = "extends: standard\nremove_stars: [hawaii]\n"
    other = transfer.import_game(copy.deepcopy(doc))
    assert other.board_variant.name.startswith("Клуб (") and other.board_variant.patch.endswith("[hawaii]\n")
    assert BoardVariant.objects.count() == 2


# ------------------------------------------------------------------------------------------
# JSON-state games (Generalissimus, The Fog of War) use the same format
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CounterRules(jsongames.JsonRules):
    """A toy engine: each side adds to its own counter; more than 10 at once is refused."""

    kind: str = Game.GENERALISSIMUS
    sides: tuple = ("a", "b")

    def apply(self, state, command):
        n = command.get("n")
        if not isinstance(n, int) or not 0 < n <= 10:
            return jsongames.Step(False, Reason("bad", "нет", "no"))
        side = command["side"]
        return jsongames.Step(True, Reason("ok", "да", "yes"), {**state, side: state.get(side, 0) + n})


@pytest.fixture
def counter_rules(monkeypatch):
    """The toy engine stands in for Generalissimus; the real adapter is imported (registered) first,
    so that it is put back afterwards and an import cannot re-register it over the toy."""
    import importlib

    importlib.import_module("tracker.generalissimus.rules")
    monkeypatch.setitem(jsongames.REGISTRY, Game.GENERALISSIMUS, CounterRules())


def test_a_json_state_game_round_trips_and_a_forged_state_is_refused(counter_rules):
    game = jsongames.create_json_game(Game.GENERALISSIMUS, "G", [("A", ["a"]), ("B", ["b"])], {"a": 0, "b": 0})
    a = Actor(seat=game.seats.get(number=1))
    for side, n in (("a", 3), ("b", 4), ("a", 5)):
        game.refresh_from_db()
        actor = a if side == "a" else Actor(seat=game.seats.get(number=2))
        assert jsongames.submit_json(game.pk, game.version, actor, {"side": side, "n": n}, round_no=1).applied
    game.refresh_from_db()
    assert services.undo(game.pk, game.version, HOST).applied
    assert jsongames.state_of(game) == {"a": 3, "b": 4}
    doc = transfer.export_game(game)
    assert doc["state"] == {"a": 3, "b": 4} and "pieces" not in doc
    copy_ = transfer.import_game(copy.deepcopy(doc))
    assert jsongames.state_of(copy_) == jsongames.replay_state(copy_) == {"a": 3, "b": 4}
    assert [(e.seq, e.kind, e.command, e.target) for e in copy_.events.all()] == \
           [(e.seq, e.kind, e.command, e.target) for e in game.events.all()]
    counts = row_counts()
    forged = copy.deepcopy(doc)
    forged["state"] = {"a": 99, "b": 4}
    with pytest.raises(transfer.ImportError_, match="replaying its event log"):
        transfer.import_game(forged)
    forged = copy.deepcopy(doc)
    forged["events"][1]["command"]["n"] = 1000  # the engine refuses it on replay
    with pytest.raises(transfer.ImportError_, match="cannot be replayed"):
        transfer.import_game(forged)
    assert row_counts() == counts


def test_a_json_state_game_of_an_engine_this_app_lacks_is_refused(counter_rules, monkeypatch):
    game = jsongames.create_json_game(Game.GENERALISSIMUS, "G", [("A", ["a"])], {"a": 0})
    doc = transfer.export_game(game)
    monkeypatch.delitem(jsongames.REGISTRY, Game.GENERALISSIMUS)
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


def _swap_events(doc):
    doc["events"][3], doc["events"][4] = doc["events"][4], doc["events"][3]


def _gap(doc):
    doc["events"][5]["seq"] = 7


def _second_create(doc):
    doc["events"][2]["kind"] = "create"


def _drop_last(doc):
    doc["events"].pop()


def _forge_vp(doc):
    for e in doc["events"]:
        for op in e["ops"]:
            if op["op"] == "vp":
                op["n"] += 5
                return


def _forge_piece_moved(doc):
    doc["pieces"][0]["space"] = "ukraine"


def _forge_extra_piece_in_log_and_table(doc):
    # log and table agree, but a German army shares Moscow with the Soviet one
    e = next(e for e in doc["events"] if e["kind"] == "move")
    e["ops"].insert(0, {"op": "place", "country": "germany", "kind": "army", "space": "moscow"})
    doc["pieces"].append({"country": "germany", "kind": "army", "space": "moscow"})


def _forge_remove_missing(doc):
    e = next(e for e in doc["events"] if e["kind"] == "move")
    e["ops"].insert(0, {"op": "remove", "country": "germany", "kind": "army", "space": "ukraine"})


def _forge_round(doc):
    doc["game"]["round"] = 5


def _seat_with_token(doc):
    doc["seats"][0]["token"] = "a-token-from-elsewhere"


def _target_not_a_move(doc):
    e = next(e for e in doc["events"] if e["kind"] == "undo")
    e["target"] = 1


def _deep(doc):
    value = []
    for _ in range(200):
        value = [value]
    doc["events"][1]["command"]["deep"] = value


def _nan(doc):
    doc["events"][1]["command"]["n"] = float("nan")


MUTATIONS = {
    "wrong format": _set(["format"], "something-else"),
    "future format version": _set(["format_version"], 2),
    "format version as text": _set(["format_version"], "1"),
    "missing game": _delete(["game"]),
    "unknown top-level key": _set(["extra"], 1),
    "unknown kind": _set(["game", "kind"], "chess"),
    "name too long": _set(["game", "name"], "x" * 101),
    "empty name": _set(["game", "name"], "  "),
    "name with NUL": _set(["game", "name"], "a\x00b"),
    "name with a lone surrogate": _set(["game", "name"], "a\ud800b"),
    "options not an object": _set(["game", "options"], []),
    "version not a number": _set(["game", "version"], "20"),
    "version as bool": _set(["game", "version"], True),
    "version mismatch": _set(["game", "version"], 3),
    "round too big": _set(["game", "round"], 10 ** 9),
    "vp as float": _set(["game", "vp_axis"], 1.5),
    "vp huge": _set(["game", "vp_axis"], 10 ** 30),
    "bad created_at": _set(["game", "created_at"], "yesterday"),
    "no seats": _set(["seats"], []),
    "seat token smuggled in": _seat_with_token,
    "unknown seat country": _set(["seats", 0, "countries"], ["atlantis"]),
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
    "event command not an object": _set(["events", 1, "command"], "play"),
    "event ops not a list": _set(["events", 1, "ops"], {"op": "vp"}),
    "unknown op": _set(["events", 1, "ops"], [{"op": "teleport"}]),
    "op with unknown space": _set(["events", 1, "ops"], [{"op": "place", "country": "germany", "kind": "army",
                                                          "space": "atlantis"}]),
    "op with negative hand": _set(["events", 1, "ops"], [{"op": "cards", "country": "germany", "hand": -1}]),
    "op step with bad turn": _set(["events", 1, "ops"], [{"op": "step", "round": 1, "turn": 9, "phase": "play"}]),
    "ops on the create event": _set(["events", 0, "ops"], [{"op": "vp", "team": "axis", "n": 1}]),
    "create without options": _set(["events", 0, "command"], {}),
    "undo target not a move": _target_not_a_move,
    "summary too long": _set(["events", 1, "summary_en"], "s" * (transfer.MAX_TEXT + 1)),
    "summary with NUL": _set(["events", 1, "summary_ru"], "\x00"),
    "by_host not a bool": _set(["events", 1, "by_host"], "yes"),
    "command nested deeply": _deep,
    "command with NaN": _nan,
    "last event dropped": _drop_last,
    "vp op forged": _forge_vp,
    "piece moved in the table": _forge_piece_moved,
    "impossible table in the log": _forge_extra_piece_in_log_and_table,
    "removing a piece that is not there": _forge_remove_missing,
    "round forged": _forge_round,
    "two opposing pieces share a space": lambda d: d["pieces"].append(
        {"country": "germany", "kind": "army", "space": "moscow"}),
    "duplicate piece": lambda d: d["pieces"].append(dict(d["pieces"][0])),
    "pieces missing": _delete(["pieces"]),
    "card row missing": lambda d: d["country_cards"].pop(),
    "negative deck": _set(["country_cards", 0, "deck"], -1),
    "statuses not a list": _set(["country_cards", 0, "statuses"], "status"),
    "state on a QMG game": _set(["state"], {}),
    "board variant with a bad patch": _set(["game", "board_variant"], {"name": "X", "patch": "add_stars: 5"}),
    "board variant extending a file": _set(["game", "board_variant"], {"name": "X",
                                                                       "patch": "extends: /etc/passwd\n"}),
    "board variant with aliases": _set(["game", "board_variant"], {
        "name": "X", "patch": "a: &a [x, x]\nb: &b [*a, *a]\nremove_stars: *b\n"}),
    "board variant not YAML": _set(["game", "board_variant"], {"name": "X", "patch": "extends: [\n"}),
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
    assert "Traceback" not in message
    assert row_counts() == counts


@pytest.mark.parametrize("data", [
    b"", b"not json", b"\xff\xfe\x00garbage", b"[1, 2]", b'"text"', b"null", b"{" * 100_000,
    b'{"format": "wargame-companion/game"}', "{}".encode(), b'{"format_version": 1}',
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
    doc["game"]["vp_axis"] += 1
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


@pytest.mark.parametrize("command,args", [
    ("export_game", ["abc"]), ("export_game", ["999999"]), ("export_game", ["1" * 40]),
    ("import_game", ["/nonexistent/game.json"]), ("import_game", ["BAD"]), ("import_game", ["FORGED"]),
    ("import_game", ["DIR"]),
])
def test_commands_refuse_bad_input_with_one_line_and_status_2(played, tmp_path, command, args):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\x00\x01 not json")
    forged = transfer.export_game(played)
    forged["pieces"].pop()
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
# The real JSON-state companions (their own view tests' helpers create and play the games)
# ------------------------------------------------------------------------------------------

def _json_snapshot(game) -> dict:
    game = Game.objects.get(pk=game.pk)
    return {
        "game": (game.kind, game.name, game.options, game.version),
        "seats": [(s.number, s.player_name, s.countries) for s in game.seats.order_by("number")],
        "events": [(e.seq, e.kind, e.round, e.country, e.phase, e.seat.number if e.seat else None, e.by_host,
                    e.created_at, e.command, e.target, e.summary_ru, e.summary_en)
                   for e in game.events.select_related("seat").order_by("seq")],
        "history": [(row["event"].seq, row["undone"]) for row in selectors.history(game)],
        "state": jsongames.state_of(game),
    }


def _roundtrip_after_delete(game, via_command_line, tmp_path):
    expected = _json_snapshot(game)
    assert jsongames.replay_state(game) == expected["state"]
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
    assert _json_snapshot(copy_) == expected
    assert jsongames.replay_state(copy_) == expected["state"]
    return copy_


@pytest.mark.parametrize("via_command_line", [False, True])
def test_a_fog_of_war_game_survives_export_and_import(client, via_command_line, tmp_path):
    from tests.tracker import test_fog_of_war_views as fow

    game = fow.create(client)
    axis, allies, _watcher = fow.clients(None, game)
    assert fow.post(axis, game, "start_turn").status_code == 200
    assert fow.post(axis, game, "new_op", target="vichy", cards=fow.hand(game, "axis")[:2]).status_code == 200
    game.refresh_from_db()
    assert services.undo(game.pk, game.version, HOST).applied
    assert fow.post(axis, game, "new_op", target="vichy", cards=fow.hand(game, "axis")[:1]).status_code == 200
    assert fow.post(axis, game, "end_turn").status_code == 200
    copy_ = _roundtrip_after_delete(game, via_command_line, tmp_path)
    # the imported game goes on with its new links
    allies = Client()
    allies.get(reverse("join", args=[copy_.seats.get(number=2).token]))
    assert fow.post(allies, copy_, "start_turn").status_code == 200
    copy_.refresh_from_db()
    assert jsongames.replay_state(copy_) == jsongames.state_of(copy_)


@pytest.mark.parametrize("via_command_line", [False, True])
def test_a_generalissimus_battle_survives_export_and_import(client, via_command_line, tmp_path):
    from django.test import Client as C

    from tests.tracker import test_generalissimus_views as gen

    game, _r = gen.create(client)
    south, north = gen.seat_client(C, game, 1), gen.seat_client(C, game, 2)
    gen.play_orders(game, south, north)
    game.refresh_from_db()
    assert services.undo(game.pk, game.version, HOST).applied
    _roundtrip_after_delete(game, via_command_line, tmp_path)

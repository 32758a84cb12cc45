"""Export and import of a whole game as one versioned JSON document, the same for every game.

A game night survives a new machine: ``export_game(game)`` writes the game, its seats (names and
roles, never a token), every event of the log (the commands as applied) and the state its
projection holds now. ``PrivateNote`` rows and tokens are never exported. ``import_game(doc)``
checks everything in memory first, within ``MAX_CHECK_SECONDS``: the shape, types and sizes, then
the game's start and a replay of the log in which the engine re-checks every stored command, and
the result against the state in the file. Only a file that gives exactly that state is written,
with new tokens, in one short transaction (the game, its seats, its log with the recorded times,
its projection); otherwise ``ImportError_`` (a one-line message for the user) is raised and nothing
is written at all. So a large or forged file costs the database nothing while it is checked: on
SQLite, where one writer at a time holds the whole file, no table's move waits for it. What differs
between the games is their adapter's (``tracker.core.registry``): the setup beside the log (QMG:
its board variant), the start, the state's canonical form.

Document (``FORMAT``, ``FORMAT_VERSION`` 2)::

    {"format": "wargame-companion/game", "format_version": 2, "exported_at": "...",
     "game": {"kind", "name", "options", "version", "created_at", "winner",
              "setup": null | {...}},                      # adapter.export_setup: QMG {"board_variant": {"name", "patch"}}
     "seats": [{"number", "player_name", "countries"}],
     "events": [{"seq", "kind", "round", "country", "phase", "seat" (a seat number or null),
                 "by_host", "created_at", "command", "target", "summary_ru", "summary_en"}],
     "state": ...}                                          # stepper.to_json of the game's current state

Format 1 (before the shared core: QMG's table as game fields + ``pieces`` + ``country_cards``,
events with ``ops``) is converted to format 2 first (``_from_v1``) and then imported the same way.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections import Counter
from typing import Any

from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from .models import Event, Game, Seat
from .registry import REGISTRY, GameAdapter, adapter_of

logger = logging.getLogger(__name__)

FORMAT = "wargame-companion/game"
FORMAT_VERSION = 2

# A club's longest game is a few thousand events and well under 1 MB; the bounds leave room for that
# many times over while keeping an import (and every later undo, which replays the log) cheap.
MAX_BYTES = 4 * 1024 * 1024
MAX_EVENTS = 10_000
MAX_CHECK_SECONDS = 5.0  # checking a file in memory, its replay included (about 0.5 s for 3,000 QMG moves)
MAX_SEATS = 12
MAX_ROLES = 20  # roles of one seat
MAX_PIECES = 500  # a format-1 QMG table
MAX_TEXT = 20_000  # a summary
MAX_JSON = 200_000  # one command, the options, the setup
MAX_STATE = 1_000_000  # the state, a create event's command
SMALL_INT = 32_767  # PositiveSmallIntegerField
MAX_DEPTH = 64  # nesting of a command or a state


class ImportError_(Exception):
    """A file that cannot be imported; ``str()`` is a one-line message for the user."""


# ------------------------------------------------------------------------------------------
# Export
# ------------------------------------------------------------------------------------------

def _iso(value) -> str | None:
    return value.isoformat() if value else None


def export_game(game: Game) -> dict:
    """The game as a JSON-compatible dict (see the module docstring). No tokens, no private notes."""
    with transaction.atomic():
        # a consistent snapshot: writers lock the game row before they append an event
        game = Game.objects.select_for_update().get(pk=game.pk)
        adapter = adapter_of(game)
        seats = list(game.seats.order_by("number"))
        number_of = {s.pk: s.number for s in seats}
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "exported_at": _iso(timezone.now()),
            "game": {"kind": game.kind, "name": game.name, "options": game.options, "version": game.version,
                     "created_at": _iso(game.created_at), "winner": game.winner,
                     "setup": adapter.export_setup(game)},
            "seats": [{"number": s.number, "player_name": s.player_name, "countries": list(s.countries)}
                      for s in seats],
            "events": [_event_json(e, number_of) for e in game.events.order_by("seq")],
            "state": adapter.stepper(game).to_json(adapter.load(game)),
        }


def _event_json(e: Event, number_of: dict) -> dict:
    return {"seq": e.seq, "kind": e.kind, "round": e.round, "country": e.country, "phase": e.phase,
            "seat": number_of.get(e.seat_id), "by_host": e.by_host, "created_at": _iso(e.created_at),
            "command": e.command, "target": e.target, "summary_ru": e.summary_ru, "summary_en": e.summary_en}


def holds_hidden_information(game: Game) -> bool:
    """Would the file show something the public may not see (face-down cards, hands, orders)? Asked of
    the game's own engine (its view for nobody differs from the state itself), and of the log (an undone
    move that handled a face-down card)."""
    adapter = adapter_of(game)
    stepper, state = adapter.stepper(game), adapter.load(game)
    public = adapter.comparable(game, stepper.to_json(stepper.view_for(state, None)))
    if public != adapter.comparable(game, stepper.to_json(state)):
        return True
    # an undone move that handled a face-down card (a QMG response revealed, then undone) names the
    # card in its command: in the log of a running game that is hidden again
    done = set(game.done_moves)
    return any(adapter.secret(e.command) for e in game.events.filter(kind=Event.MOVE).exclude(seq__in=done))


def dumps(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1)


def loads(data) -> dict:
    """Parse an uploaded file (bytes or str) into a document; ImportError_ when it is not JSON."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_BYTES:
            raise ImportError_(_("The file is too large."))
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportError_(_("The file is not UTF-8 text, so it is not an exported game.")) from None
    elif isinstance(data, str):
        if len(data) > MAX_BYTES:
            raise ImportError_(_("The file is too large."))
    else:
        raise ImportError_(_("Not an exported game file."))
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else exc.__class__.__name__
        raise ImportError_(_("The file is not valid JSON: %(error)s") % {"error": msg[:200]}) from None
    if not isinstance(doc, dict):
        raise ImportError_(_("Not an exported game file: the top level must be a JSON object."))
    return doc


# ------------------------------------------------------------------------------------------
# Validation helpers
# ------------------------------------------------------------------------------------------

def _fail(where: str, problem: str):
    raise ImportError_(_("Not a valid exported game: %(where)s: %(problem)s") % {"where": where, "problem": problem})


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return (text.splitlines()[0] if text.strip() else exc.__class__.__name__)[:200]


def _known(v, names) -> bool:
    """``v in names`` for untrusted input: a list or an object is simply not a known name."""
    return isinstance(v, str) and v in names


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(where, v, lo, hi) -> int:
    if not _is_int(v):
        _fail(where, _("a whole number is needed"))
    if not lo <= v <= hi:
        _fail(where, _("the number %(n)s is out of range %(lo)s..%(hi)s") % {"n": v, "lo": lo, "hi": hi})
    return v


def _str(where, v, max_len, allow_empty=True) -> str:
    if not isinstance(v, str):
        _fail(where, _("a text is needed"))
    if len(v) > max_len:
        _fail(where, _("the text is longer than %(n)s characters") % {"n": max_len})
    if not allow_empty and not v.strip():
        _fail(where, _("the text is empty"))
    return v


def _bool(where, v) -> bool:
    if not isinstance(v, bool):
        _fail(where, _("true or false is needed"))
    return v


def _dict(where, v, required=(), optional=()) -> dict:
    if not isinstance(v, dict):
        _fail(where, _("a JSON object is needed"))
    missing = [k for k in required if k not in v]
    if missing:
        _fail(where, _("missing field(s): %(fields)s") % {"fields": ", ".join(missing)})
    unknown = sorted(str(k) for k in set(v) - set(required) - set(optional))
    if unknown:
        _fail(where, _("unknown field(s): %(fields)s") % {"fields": ", ".join(unknown)[:200]})
    return v


def _list(where, v, max_len) -> list:
    if not isinstance(v, list):
        _fail(where, _("a list is needed"))
    if len(v) > max_len:
        _fail(where, _("more than %(n)s entries") % {"n": max_len})
    return v


def _when(where, v) -> dt.datetime | None:
    if v is None:
        return None
    _str(where, v, 64)
    try:
        when = parse_datetime(v)
    except ValueError:
        when = None
    if when is None:
        _fail(where, _("a date and time (ISO 8601) is needed"))
    if timezone.is_naive(when):
        when = timezone.make_aware(when, dt.timezone.utc)
    return when


def _check_json_value(where, value, max_chars) -> None:
    """Plain JSON (it came from json.loads), no NUL or unpaired surrogate in any text (a database
    cannot store them), and not too big."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            _fail(where, _("nested more than %(n)s levels deep") % {"n": MAX_DEPTH})
        if isinstance(v, dict):
            stack.extend((k, depth + 1) for k in v.keys())
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, str):
            if "\x00" in v:
                _fail(where, _("contains a NUL character"))
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                _fail(where, _("contains an invalid character (an unpaired surrogate)"))
        elif v is None or isinstance(v, (bool, int, float)):
            pass
        else:
            _fail(where, _("not plain JSON"))
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        _fail(where, _("not plain JSON (NaN or infinity, or nested too deeply)"))
    if len(text) > max_chars:
        _fail(where, _("too large (more than %(n)s characters)") % {"n": max_chars})


def _normal(value) -> Any:
    """A value as plain JSON (tuples become lists), so that two values compare as their JSON does."""
    return json.loads(json.dumps(value, sort_keys=True))


def _adapter(kind) -> GameAdapter:
    if not _known(kind, {k for k, _label in Game.KINDS}):
        _fail("game.kind", _("unknown game kind %(kind)s") % {"kind": repr(kind)[:40]})
    if kind not in REGISTRY:
        raise ImportError_(_("This app cannot replay games of kind %(kind)s yet.") % {"kind": kind})
    return REGISTRY[kind]


# ------------------------------------------------------------------------------------------
# Import: the checks of shape, types and sizes
# ------------------------------------------------------------------------------------------

_TOP_FIELDS = ("format", "format_version", "game", "seats", "events", "state")
_GAME_FIELDS = ("kind", "name", "options", "version", "created_at", "winner", "setup")
_SEAT_FIELDS = ("number", "player_name", "countries")
_EVENT_FIELDS = ("seq", "kind", "round", "country", "phase", "seat", "by_host", "created_at", "command", "target",
                 "summary_ru", "summary_en")
_EVENT_KINDS = {k for k, _label in Event.KINDS}


def import_game(doc: dict) -> Game:
    """Check an exported document and rebuild its game (new tokens); ImportError_ otherwise."""
    clock = Clock(MAX_CHECK_SECONDS)
    try:
        plan = _plan(_upgraded(doc), clock)
        _rehearse(plan, clock)
        return _write(plan)
    except ImportError_:
        raise
    except RecursionError:
        raise ImportError_(_("Not a valid exported game: the file is nested too deeply.")) from None
    except DatabaseError as exc:
        raise ImportError_(_("The game could not be stored: %(error)s") % {"error": _first_line(exc)}) from None
    except (TypeError, KeyError, AttributeError, ValueError, IndexError):
        # a shape the checks did not foresee: refused all the same (and logged, to be foreseen)
        logger.exception("import: unforeseen document structure")
        raise ImportError_(_("Not a valid exported game: the file has an unexpected structure.")) from None


def _upgraded(doc) -> dict:
    """The document in the current format (a format-1 file is converted first)."""
    if not isinstance(doc, dict):
        raise ImportError_(_("Not an exported game file: the top level must be a JSON object."))
    if doc.get("format") != FORMAT:
        raise ImportError_(_("Not an exported game file (the \"format\" field is not %(format)s).")
                           % {"format": FORMAT})
    version = doc.get("format_version")
    if not _is_int(version):
        _fail("format_version", _("a whole number is needed"))
    if version == 1:
        return _from_v1(doc)
    if version != FORMAT_VERSION:
        raise ImportError_(_("This file has format version %(v)s; this app reads version %(mine)s.")
                           % {"v": str(version)[:20], "mine": FORMAT_VERSION})
    return doc


class Clock:
    """The time a file's checks may take: ``check()`` refuses the import once it is spent. Every few steps it
    also lets the process's other threads run (``time.sleep(0)`` gives up the interpreter lock): a move
    answered by the same worker process while a large file is checked waits for the lock a fraction of a
    millisecond, not the interpreter's 5 ms switch interval at each of its database round trips."""

    YIELD_EVERY = 16  # steps (events checked or replayed) between two turns given to other threads

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.steps = 0

    def check(self) -> None:
        self.steps += 1
        if self.steps % self.YIELD_EVERY == 0:
            time.sleep(0)
        if time.monotonic() > self.deadline:
            raise ImportError_(_("The game was not imported: checking the file takes longer than %(n)s seconds.")
                               % {"n": f"{self.seconds:g}"})


def _plan(doc: dict, clock: Clock) -> dict:
    """Everything the import needs, each part checked for shape, types and sizes."""
    _dict(_("file"), doc, _TOP_FIELDS, ("exported_at",))
    _when("exported_at", doc.get("exported_at"))
    game = _check_game(doc["game"])
    seats = _check_seats(doc["seats"])
    events = _check_events(doc["events"], {s["number"] for s in seats}, clock)
    done, undone = _check_log_order(events)
    if game["version"] != len(events):
        _fail("game.version", _("the version must equal the number of events (%(n)s)") % {"n": len(events)})
    _check_json_value("state", doc["state"], MAX_STATE)
    return {"game": game, "adapter": _adapter(game["kind"]), "seats": seats, "events": events,
            "state": doc["state"], "done": done, "undone": undone}


def _check_game(g) -> dict:
    _dict("game", g, _GAME_FIELDS)
    _adapter(g["kind"])
    name = _str("game.name", g["name"], 100, allow_empty=False)
    _check_json_value("game.name", name, MAX_TEXT)
    if not isinstance(g["options"], dict):
        _fail("game.options", _("a JSON object is needed"))
    _check_json_value("game.options", g["options"], MAX_JSON)
    winner = _str("game.winner", g["winner"], 10)
    _check_json_value("game.winner", winner, 100)
    _check_json_value("game.setup", g["setup"], MAX_JSON)
    return {"kind": g["kind"], "name": name, "options": g["options"], "winner": winner, "setup": g["setup"],
            "version": _int("game.version", g["version"], 1, MAX_EVENTS),
            "created_at": _when("game.created_at", g["created_at"])}


def _check_seats(raw) -> list[dict]:
    seats = []
    for i, s in enumerate(_list("seats", raw, MAX_SEATS)):
        where = f"seats[{i}]"
        _dict(where, s, _SEAT_FIELDS)
        roles = _list(f"{where}.countries", s["countries"], MAX_ROLES)
        for role in roles:
            _str(f"{where}.countries", role, 20)
        seats.append({"number": _int(f"{where}.number", s["number"], 1, MAX_SEATS),
                      "player_name": _str(f"{where}.player_name", s["player_name"], 60, allow_empty=False),
                      "countries": list(roles)})
    if not seats:
        _fail("seats", _("a game needs at least one seat"))
    if len({s["number"] for s in seats}) != len(seats):
        _fail("seats", _("two seats have the same number"))
    if any(n > 1 for n in Counter(r for s in seats for r in s["countries"]).values()):
        _fail("seats", _("a country is given to two seats"))
    _check_json_value("seats", seats, MAX_JSON)
    return seats


def _check_events(raw, seat_numbers: set, clock: Clock) -> list[dict]:
    raw = _list("events", raw, MAX_EVENTS)
    if not raw:
        _fail("events", _("the event log is empty"))
    events = []
    for i, e in enumerate(raw):
        clock.check()
        events.append(_check_event(f"events[{i}]", e, seat_numbers))
    return events


def _check_event(where: str, e, seat_numbers: set) -> dict:
    _dict(where, e, _EVENT_FIELDS)
    kind = e["kind"]
    if not _known(kind, _EVENT_KINDS):
        _fail(f"{where}.kind", _("unknown event kind %(kind)s") % {"kind": repr(kind)[:40]})
    seat, target, command = e["seat"], e["target"], e["command"]
    if seat is not None and (not _is_int(seat) or seat not in seat_numbers):
        _fail(f"{where}.seat", _("no seat with this number"))
    if target is not None:
        _int(f"{where}.target", target, 1, MAX_EVENTS)
    if not isinstance(command, dict):
        _fail(f"{where}.command", _("a JSON object is needed"))
    _check_json_value(f"{where}.command", command, MAX_STATE if kind == Event.CREATE else MAX_JSON)
    texts = {"country": _str(f"{where}.country", e["country"], 20), "phase": _str(f"{where}.phase", e["phase"], 20),
             "summary_ru": _str(f"{where}.summary_ru", e["summary_ru"], MAX_TEXT),
             "summary_en": _str(f"{where}.summary_en", e["summary_en"], MAX_TEXT)}
    _check_json_value(where, list(texts.values()), 4 * MAX_TEXT)
    return {"seq": _int(f"{where}.seq", e["seq"], 1, MAX_EVENTS), "kind": kind, "seat": seat, "target": target,
            "round": _int(f"{where}.round", e["round"], 0, SMALL_INT), "by_host": _bool(f"{where}.by_host", e["by_host"]),
            "created_at": _when(f"{where}.created_at", e["created_at"]), "command": command, **texts}


def _check_log_order(events: list[dict]) -> tuple[list[int], list[int]]:
    """Events numbered 1, 2, 3, …; the one create event first; each undo or redo names the move it
    undid or redid (as ``tracker.core.log`` records them: the last move in effect, the last undone).
    The seqs of the moves in effect and of those undone and still redoable, as ``log.effective_moves``
    finds them."""
    done: list[int] = []
    undone: list[int] = []
    for i, e in enumerate(events):
        where = f"events[{i}]"
        if e["seq"] != i + 1:
            _fail(f"{where}.seq", _("event numbers must run 1, 2, 3, … without gaps (expected %(n)s, found %(seq)s)")
                  % {"n": i + 1, "seq": e["seq"]})
        if (e["kind"] == Event.CREATE) != (i == 0):
            _fail(f"{where}.kind", _("the log starts with the one \"create\" event"))
        if e["kind"] in (Event.UNDO, Event.REDO):
            source, dest = (done, undone) if e["kind"] == Event.UNDO else (undone, done)
            if not source or e["target"] != source[-1]:
                _fail(f"{where}.target", _("an undo or redo must name the move it undoes or redoes"))
            dest.append(source.pop())
        elif e["target"] is not None:
            _fail(f"{where}.target", _("only an undo or redo names a target"))
        elif e["kind"] == Event.MOVE:
            done.append(e["seq"])
            undone.clear()
    return done, undone


# ------------------------------------------------------------------------------------------
# Import: the log replayed and compared in memory, then written in one transaction
# ------------------------------------------------------------------------------------------

def _rehearse(plan: dict, clock: Clock) -> None:
    """The game's start and the replay of its log, in memory, compared with the file (``plan`` gets the
    replayed state and the states a projection keeps per round); ImportError_ if anything differs. Nothing
    touches the database."""
    adapter, g = plan["adapter"], plan["game"]
    game = Game(kind=g["kind"], name=g["name"], options=g["options"], version=g["version"])
    try:
        setup = adapter.imported_setup(g["setup"])
    except ValueError as exc:
        _fail("game.setup", _first_line(exc))
    create = plan["events"][0]["command"]
    try:
        stepper, start, command = adapter.imported_start(game, setup, create)
    except DatabaseError:
        raise
    except Exception as exc:  # noqa: BLE001 — a forged start the engine cannot even set up
        _fail("events[0].command", _("the game cannot be set up from it (%(error)s)") % {"error": _first_line(exc)})
    if _normal(command) != _normal(create):
        _fail("events[0].command", _("the create event is not the one this game's start records"))
    _check_roles(set(stepper.sides), plan)
    replayed, per_round = _replay(stepper, start, [plan["events"][seq - 1] for seq in plan["done"]], clock)
    _compare(adapter, game, stepper, replayed, plan)
    plan.update(replayed=replayed, per_round=per_round)


def _check_roles(roles: set, plan: dict) -> None:
    """The seats' and the events' roles (QMG: countries, others: sides) are the game's."""
    for i, s in enumerate(plan["seats"]):
        unknown = [r for r in s["countries"] if r not in roles]
        if unknown:
            _fail(f"seats[{i}].countries", _("unknown country or side %(c)s") % {"c": repr(unknown[0])[:40]})
    for i, e in enumerate(plan["events"]):
        if e["country"] and e["country"] not in roles:
            _fail(f"events[{i}].country", _("unknown country or side %(c)s") % {"c": repr(e["country"])[:40]})


def _event_row(e: dict) -> Event:
    """An event of the file as the row it becomes (its game and seat are set when they exist)."""
    recorded = {"created_at": e["created_at"]} if e["created_at"] is not None else {}
    return Event(seq=e["seq"], kind=e["kind"], round=e["round"], country=e["country"], phase=e["phase"],
                 by_host=e["by_host"], command=e["command"], target=e["target"], summary_ru=e["summary_ru"],
                 summary_en=e["summary_en"], **recorded)


def _replay(stepper, start: Any, done: list[dict], clock: Clock) -> tuple[Any, dict[int, tuple[int, Any]]]:
    """The log's moves in effect replayed from the start, each re-checked by the engine: (the state at the end,
    the seq of the last move of each round with the state after it: what a projection keeps per round)."""
    state, last_of_round = start, {}
    for i, event in enumerate(done, 1):
        clock.check()
        command = event["command"]
        try:
            out = stepper.apply(state, command)
        except DatabaseError:
            raise
        except Exception as exc:  # noqa: BLE001 — a forged command the engine cannot read
            out, error = None, _first_line(exc)
        else:
            error = None if out.ok else f"command {i} ({command.get('type')}) no longer applies: {out.reason.en}"
        if error is not None:
            raise ImportError_(_("The game was not imported: its event log cannot be replayed (%(error)s).")
                               % {"error": error[:200]})
        state = out.state
        last_of_round[event["round"]] = (event["seq"], state)
    return state, last_of_round


def _compare(adapter: GameAdapter, game: Game, stepper, replayed: Any, plan: dict) -> None:
    """The replayed state is the file's state (in the adapter's canonical form), and so is the winner."""
    try:
        # the file's state read and written by this version's engine: a file from before a field was
        # added to the state compares with the field's default, as its replay gives it
        in_file = stepper.to_json(stepper.from_json(plan["state"]))
        same = (adapter.comparable(game, _normal(stepper.to_json(replayed)))
                == adapter.comparable(game, _normal(in_file)))
    except DatabaseError:
        raise
    except Exception:  # noqa: BLE001 — a forged state of an unexpected shape is simply not the same
        same = False
    if not same or (adapter.winner(replayed) or "") != plan["game"]["winner"]:
        raise ImportError_(_("The game was not imported: replaying its event log does not give the position "
                             "in the file (the file was changed or is damaged)."))


def _write(plan: dict) -> Game:
    """The checked game stored, in one transaction: its row (with its recorded time), its setup and start,
    its seats (new tokens), its log (the recorded times kept) and its projection."""
    adapter, g = plan["adapter"], plan["game"]
    recorded = {"created_at": g["created_at"]} if g["created_at"] is not None else {}
    rows = [_event_row(e) for e in plan["events"]]
    with transaction.atomic():
        game = Game.objects.create(kind=g["kind"], name=g["name"], options=g["options"], version=g["version"],
                                   **recorded)
        start, _command = adapter.start_imported(game, adapter.import_setup(g["setup"]), plan["events"][0]["command"])
        seats = {s["number"]: Seat.objects.create(game=game, number=s["number"], player_name=s["player_name"],
                                                  countries=s["countries"])
                 for s in plan["seats"]}
        adapter.save(game, None, start)
        for row, e in zip(rows, plan["events"]):
            row.game, row.seat = game, seats.get(e["seat"])
        Event.objects.bulk_create(rows, batch_size=1000)
        adapter.save(game, start, plan["replayed"], moves=[(rows[seq - 1], state)
                                                           for seq, state in plan["per_round"].values()])
        game.done_moves, game.undone_moves = plan["done"], plan["undone"]
        game.save(update_fields=["done_moves", "undone_moves", "winner", "updated_at"])
    return game


# ------------------------------------------------------------------------------------------
# Format 1: converted to format 2, then imported the same way
# ------------------------------------------------------------------------------------------

_V1_TOP = ("format", "format_version", "game", "seats", "events")
_V1_TOP_OPTIONAL = ("exported_at", "pieces", "country_cards", "state")
_V1_GAME = ("kind", "name", "options", "board_variant", "version", "created_at")
# QMG's table and the log's projections, kept on the game row before the shared core
_V1_GAME_OPTIONAL = ("round", "turn", "phase", "played", "vp_axis", "vp_allies", "winner", "end_reason", "used",
                     "window", "window_passes", "attack", "vp_rounds", "done_moves", "undone_moves")


def _from_v1(doc: dict) -> dict:
    """A format-1 document as format 2: ``ops`` dropped from the events (the commands are replayed),
    the state the game's adapter reads from the old layout, the board variant as the setup."""
    _dict(_("file"), doc, _V1_TOP, _V1_TOP_OPTIONAL)
    g = _dict("game", doc["game"], _V1_GAME, _V1_GAME_OPTIONAL)
    _check_json_value("game", g, MAX_JSON)
    for key in ("pieces", "country_cards"):
        if key in doc:
            _check_json_value(key, _list(key, doc[key], MAX_PIECES), MAX_JSON)
    adapter = _adapter(g["kind"])
    try:
        state = adapter.state_from_v1(g, doc)
    except KeyError as exc:
        _fail(_("the table of a format-1 file"), _("missing field(s): %(fields)s") % {"fields": str(exc.args[0])[:40]})
    except (ValueError, TypeError, AttributeError, IndexError) as exc:
        _fail(_("the table of a format-1 file"), _first_line(exc))
    events = []
    for i, e in enumerate(_list("events", doc["events"], MAX_EVENTS)):
        _dict(f"events[{i}]", e, (*_EVENT_FIELDS, "ops"))
        events.append({k: v for k, v in e.items() if k != "ops"})
    variant = g["board_variant"]
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "exported_at": doc.get("exported_at"),
        "game": {"kind": g["kind"], "name": g["name"], "options": g["options"], "version": g["version"],
                 "created_at": g["created_at"], "winner": g.get("winner", ""),
                 "setup": None if variant is None else {"board_variant": variant}},
        "seats": doc["seats"], "events": events, "state": state,
    }

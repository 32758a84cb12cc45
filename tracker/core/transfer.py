"""Export and import of a whole game as one versioned JSON document.

A game night survives a new machine: ``export_game(game)`` writes the game, its seats (names and
countries, never a token), every event of the log and the projection (QMG pieces and country
cards, or the ``GameState`` of a JSON-state game). ``PrivateNote`` rows and tokens are never
exported. ``import_game(doc)`` validates everything first (schema, types, sizes, known kinds,
contiguous event numbers, operations), rebuilds the game in one transaction with new tokens, and
keeps it only if replaying the imported log gives exactly the imported projection; otherwise it
raises ``ImportError_`` (a user-facing message) and nothing is created.

Document (``FORMAT``, ``FORMAT_VERSION`` 1)::

    {"format": "wargame-companion/game", "format_version": 1, "exported_at": "...",
     "game": {"kind", "name", "options", "board_variant": null | {"name", "patch"}, "version",
              "created_at", "round", "turn", "phase", "played", "vp_axis", "vp_allies", "winner",
              "end_reason"},
     "seats": [{"number", "player_name", "countries"}],
     "events": [{"seq", "kind", "round", "country", "phase", "seat" (a seat number or null),
                 "by_host", "created_at", "command", "ops", "target", "summary_ru", "summary_en"}],
     "pieces": [{"country", "kind", "space"}],                       # QMG only
     "country_cards": [{"country", "deck", "hand", "discard", "responses", "statuses"}],  # QMG only
     "state": {...}}                                                  # JSON-state games only
"""
from __future__ import annotations

import datetime as dt
import json
import logging
from collections import Counter

from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from .models import BoardVariant, CountryCards, Event, Game, GameState, Piece, Seat

logger = logging.getLogger(__name__)

FORMAT = "wargame-companion/game"
FORMAT_VERSION = 1

MAX_BYTES = 20 * 1024 * 1024
MAX_EVENTS = 100_000
MAX_SEATS = 12
MAX_PIECES = 500
MAX_TEXT = 20_000  # a summary
MAX_PATCH = 50_000
MAX_JSON = 200_000  # one command, one event's ops, options
MAX_STATE = 5_000_000
MAX_INT = 1_000_000  # VP, card counts: far above anything a table can reach
SMALL_INT = 32_767
MAX_DEPTH = 64  # nesting of a command, an operation or a state  # PositiveSmallIntegerField


class ImportError_(Exception):
    """A file that cannot be imported; ``str()`` is a one-line message for the user."""


# ------------------------------------------------------------------------------------------
# Export
# ------------------------------------------------------------------------------------------

# the identity and the links of a game are not part of its projection; tokens never leave the server
_NOT_PROJECTION = {"id", "game", "kind", "name", "options", "board_variant", "version", "created_at", "updated_at",
                   "host_token", "spectator_token", "token"}


def _projection_fields(model) -> list:
    """The model's fields that mirror the table (so a field added to the projection is exported)."""
    return [f for f in model._meta.concrete_fields
            if f.name not in _NOT_PROJECTION and "token" not in f.name and not f.is_relation]


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def export_game(game: Game) -> dict:
    """The game as a JSON-compatible dict (see the module docstring). No tokens, no private notes."""
    with transaction.atomic():
        # a consistent snapshot: writers lock the game row before they append an event
        game = Game.objects.select_for_update().get(pk=game.pk)
        seats = list(game.seats.order_by("number"))
        number_of = {s.pk: s.number for s in seats}
        events = list(game.events.order_by("seq"))
        doc = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "exported_at": _iso(timezone.now()),
            "game": {
                "kind": game.kind, "name": game.name, "options": game.options,
                "board_variant": ({"name": game.board_variant.name, "patch": game.board_variant.patch}
                                  if game.board_variant_id else None),
                "version": game.version, "created_at": _iso(game.created_at),
                **{f.name: getattr(game, f.attname) for f in _projection_fields(Game)},
            },
            "seats": [{"number": s.number, "player_name": s.player_name, "countries": list(s.countries)}
                      for s in seats],
            "events": [{
                "seq": e.seq, "kind": e.kind, "round": e.round, "country": e.country, "phase": e.phase,
                "seat": number_of.get(e.seat_id), "by_host": e.by_host, "created_at": _iso(e.created_at),
                "command": e.command, "ops": e.ops, "target": e.target,
                "summary_ru": e.summary_ru, "summary_en": e.summary_en,
            } for e in events],
        }
        if game.kind == Game.QMG:
            doc["pieces"] = [{"country": p.country, "kind": p.kind, "space": p.space}
                             for p in game.pieces.order_by("id")]
            doc["country_cards"] = [{f.name: getattr(c, f.attname) for f in _projection_fields(CountryCards)}
                                    for c in game.country_cards.order_by("id")]
        else:
            state = GameState.objects.filter(game=game).values_list("state", flat=True).first()
            doc["state"] = state if state is not None else {}
    return doc


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


def _field_value(where, field, v):
    """A value for a model field, checked by the field's type (and size, for the database)."""
    from django.db import models

    if v is None and field.null:
        return None
    if isinstance(field, models.JSONField):
        _check_json_value(where, v, MAX_JSON)
        return v
    if isinstance(field, models.BooleanField):
        return _bool(where, v)
    if isinstance(field, models.PositiveSmallIntegerField):
        return _int(where, v, 0, SMALL_INT)
    if isinstance(field, models.SmallIntegerField):
        return _int(where, v, -SMALL_INT, SMALL_INT)
    if isinstance(field, (models.PositiveIntegerField, models.PositiveBigIntegerField)):
        return _int(where, v, 0, MAX_INT)
    if isinstance(field, models.IntegerField):
        return _int(where, v, -MAX_INT, MAX_INT)
    if isinstance(field, (models.CharField, models.TextField)):
        v = _str(where, v, field.max_length or MAX_TEXT)
        _check_json_value(where, v, 2 * MAX_TEXT)
        if field.choices and v not in {c for c, _label in field.flatchoices}:
            _fail(where, _("unknown value %(v)s") % {"v": repr(v)[:40]})
        return v
    _fail(where, _("this field cannot be imported"))


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


# ------------------------------------------------------------------------------------------
# Import
# ------------------------------------------------------------------------------------------

_TOP_REQUIRED = ("format", "format_version", "game", "seats", "events")
_GAME_FIELDS = ("kind", "name", "options", "board_variant", "version", "created_at")
_SEAT_FIELDS = ("number", "player_name", "countries")
_EVENT_FIELDS = ("seq", "kind", "round", "country", "phase", "seat", "by_host", "created_at", "command", "ops",
                 "target", "summary_ru", "summary_en")
_PIECE_FIELDS = ("country", "kind", "space")
_EVENT_KINDS = {k for k, _label in Event.KINDS}


def import_game(doc: dict) -> Game:
    """Validate an exported document and rebuild its game (new tokens); ImportError_ otherwise."""
    if not isinstance(doc, dict):
        raise ImportError_(_("Not an exported game file: the top level must be a JSON object."))
    if doc.get("format") != FORMAT:
        raise ImportError_(_("Not an exported game file (the \"format\" field is not %(format)s).")
                           % {"format": FORMAT})
    if doc.get("format_version") != FORMAT_VERSION:
        raise ImportError_(_("This file has format version %(v)s; this app reads version %(mine)s.")
                           % {"v": str(doc.get("format_version"))[:20], "mine": FORMAT_VERSION})
    try:
        plan = _validate(doc)
    except ImportError_:
        raise
    except RecursionError:
        raise ImportError_(_("Not a valid exported game: the file is nested too deeply.")) from None
    except (TypeError, KeyError, AttributeError, ValueError, IndexError):
        # a shape the checks above did not foresee: refused all the same (and logged, to be foreseen)
        logger.exception("import: unforeseen document structure")
        raise ImportError_(_("Not a valid exported game: the file has an unexpected structure.")) from None
    return _write(plan)


def _validate(doc: dict) -> dict:
    _dict(_("file"), doc, _TOP_REQUIRED, ("exported_at", "pieces", "country_cards", "state"))
    projection = {f.name: f for f in _projection_fields(Game)}
    g = _dict("game", doc["game"], _GAME_FIELDS, tuple(projection))
    kind = g["kind"]
    if not _known(kind, {k for k, _label in Game.KINDS}):
        _fail("game.kind", _("unknown game kind %(kind)s") % {"kind": repr(kind)[:40]})
    qmg = kind == Game.QMG
    rules = None
    if not qmg:
        from . import jsongames

        _load_rules(kind)
        rules = jsongames.REGISTRY.get(kind)
        if rules is None:
            raise ImportError_(_("This app cannot replay games of kind %(kind)s yet.") % {"kind": kind})
    name = _str("game.name", g["name"], 100, allow_empty=False)
    options = g["options"]
    if not isinstance(options, dict):
        _fail("game.options", _("a JSON object is needed"))
    _check_json_value("game.options", options, MAX_JSON)
    variant = _variant(g["board_variant"]) if g["board_variant"] is not None else None
    if variant is not None and not qmg:
        _fail("game.board_variant", _("only a Quartermaster General game has a board variant"))
    fields = {"version": _int("game.version", g["version"], 1, MAX_EVENTS)}
    for key, field in projection.items():
        if key in g:  # a field missing from an older file keeps its default
            fields[key] = _field_value(f"game.{key}", field, g[key])
    created_at = _when("game.created_at", g["created_at"])

    board = None
    if qmg:
        from gameplay.qmg import load_board

        board = variant["board"] if variant else load_board()
        roles = tuple(board.turn_order)
        if not 0 <= fields.get("turn", 0) < len(roles):
            _fail("game.turn", _("no such country in the turn order"))
    else:
        roles = tuple(rules.sides)

    # --- seats -------------------------------------------------------------------------------
    seats = []
    seen_roles: Counter = Counter()
    for i, s in enumerate(_list("seats", doc["seats"], MAX_SEATS)):
        where = f"seats[{i}]"
        _dict(where, s, _SEAT_FIELDS)
        number = _int(f"{where}.number", s["number"], 1, MAX_SEATS)
        player = _str(f"{where}.player_name", s["player_name"], 60, allow_empty=False)
        countries = _list(f"{where}.countries", s["countries"], len(roles))
        for c in countries:
            if not isinstance(c, str) or c not in roles:
                _fail(f"{where}.countries", _("unknown country or side %(c)s") % {"c": repr(c)[:40]})
        seen_roles.update(countries)
        seats.append({"number": number, "player_name": player, "countries": list(countries)})
    if not seats:
        _fail("seats", _("a game needs at least one seat"))
    if len({s["number"] for s in seats}) != len(seats):
        _fail("seats", _("two seats have the same number"))
    if qmg and any(n > 1 for n in seen_roles.values()):
        _fail("seats", _("a country is given to two seats"))
    _check_json_value("seats", seats, MAX_JSON)
    seat_numbers = {s["number"] for s in seats}

    # --- events ------------------------------------------------------------------------------
    raw_events = _list("events", doc["events"], MAX_EVENTS)
    if not raw_events:
        _fail("events", _("the event log is empty"))
    events = []
    move_seqs = set()
    for i, e in enumerate(raw_events):
        where = f"events[{i}]"
        _dict(where, e, _EVENT_FIELDS)
        seq = _int(f"{where}.seq", e["seq"], 1, MAX_EVENTS)
        if seq != i + 1:
            _fail(f"{where}.seq", _("event numbers must run 1, 2, 3, … without gaps (expected %(n)s, found %(seq)s)")
                  % {"n": i + 1, "seq": seq})
        ekind = e["kind"]
        if not _known(ekind, _EVENT_KINDS):
            _fail(f"{where}.kind", _("unknown event kind %(kind)s") % {"kind": repr(ekind)[:40]})
        if (ekind == Event.CREATE) != (i == 0):
            _fail(f"{where}.kind", _("the log starts with the one \"create\" event"))
        country = _str(f"{where}.country", e["country"], 20)
        if country and country not in roles:
            _fail(f"{where}.country", _("unknown country or side %(c)s") % {"c": repr(country)[:40]})
        seat = e["seat"]
        if seat is not None and (not _is_int(seat) or seat not in seat_numbers):
            _fail(f"{where}.seat", _("no seat with this number"))
        command = e["command"]
        if not isinstance(command, dict):
            _fail(f"{where}.command", _("a JSON object is needed"))
        _check_json_value(f"{where}.command", command, MAX_JSON if ekind != Event.CREATE else MAX_STATE)
        ops = _list(f"{where}.ops", e["ops"], 10_000)
        _check_json_value(f"{where}.ops", ops, MAX_JSON)
        target = e["target"]
        if ekind in (Event.UNDO, Event.REDO):
            if not _is_int(target) or target not in move_seqs:
                _fail(f"{where}.target", _("an undo or redo must name an earlier move"))
        elif target is not None:
            _fail(f"{where}.target", _("only an undo or redo names a target"))
        if ekind == Event.MOVE:
            move_seqs.add(seq)
        if qmg:
            if ekind == Event.MOVE:
                _check_ops(f"{where}.ops", ops, board)
            elif ops:
                _fail(f"{where}.ops", _("only a move has operations"))
            if ekind == Event.CREATE and command != {"options": options}:
                _fail(f"{where}.command", _("the create event must hold the game's options"))
        else:
            if ops:
                _fail(f"{where}.ops", _("this kind of game stores commands, not operations"))
            if ekind == Event.CREATE and not isinstance(command.get("initial"), dict):
                _fail(f"{where}.command", _("the create event must hold the initial state"))
        events.append({
            "seq": seq, "kind": ekind, "round": _int(f"{where}.round", e["round"], 0, SMALL_INT),
            "country": country, "phase": _str(f"{where}.phase", e["phase"], 20), "seat": seat,
            "by_host": _bool(f"{where}.by_host", e["by_host"]), "created_at": _when(f"{where}.created_at", e["created_at"]),
            "command": command, "ops": ops, "target": target,
            "summary_ru": _str(f"{where}.summary_ru", e["summary_ru"], MAX_TEXT),
            "summary_en": _str(f"{where}.summary_en", e["summary_en"], MAX_TEXT),
        })
    if fields["version"] != len(events):
        _fail("game.version", _("the version must equal the number of events (%(n)s)") % {"n": len(events)})
    _check_json_value("game.name", name, MAX_TEXT)
    for i, e in enumerate(events):
        _check_json_value(f"events[{i}]", [e["country"], e["phase"], e["summary_ru"], e["summary_en"]],
                          4 * MAX_TEXT)

    plan = {"kind": kind, "name": name, "options": options, "variant": variant, "fields": fields,
            "created_at": created_at, "seats": seats, "events": events, "board": board}

    # --- projection --------------------------------------------------------------------------
    if qmg:
        if "state" in doc:
            _fail("state", _("a Quartermaster General game has pieces and country cards, not a state"))
        plan["pieces"] = _pieces(doc.get("pieces"), board)
        plan["cards"] = _cards(doc.get("country_cards"), board)
        _check_log_positions(board, events, options)
    else:
        if "pieces" in doc or "country_cards" in doc:
            _fail("pieces", _("only a Quartermaster General game has pieces and country cards"))
        state = doc.get("state")
        if not isinstance(state, dict):
            _fail("state", _("a JSON object is needed"))
        _check_json_value("state", state, MAX_STATE)
        plan["state"] = state
    return plan


def _load_rules(kind: str) -> None:
    """A JSON-state engine registers itself when its adapter module is imported (by its views, in a
    web process; not necessarily in ``manage.py import_game``)."""
    import importlib

    try:
        importlib.import_module(f"tracker.{kind}.rules")
    except ImportError:
        pass


def _variant(raw) -> dict:
    import yaml

    from gameplay.qmg.board import BoardError, build_board, resolve_patch

    _dict("game.board_variant", raw, ("name", "patch"))
    name = _str("game.board_variant.name", raw["name"], 100, allow_empty=False)
    patch = _str("game.board_variant.patch", raw["patch"], MAX_PATCH)
    _check_json_value("game.board_variant", [name, patch], MAX_PATCH + 1000)
    where = "game.board_variant.patch"
    try:
        # anchors and aliases could expand a short text into a huge structure: a patch needs none
        for ev in yaml.parse(patch, Loader=yaml.SafeLoader):
            if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None):
                _fail(where, _("YAML anchors and aliases are not allowed in a board patch"))
        data = yaml.safe_load(patch)
    except yaml.YAMLError as exc:
        _fail(where, _("not valid YAML: %(error)s") % {"error": str(exc).splitlines()[0][:200]})
    if not isinstance(data, dict):
        _fail(where, _("the patch must be a mapping"))
    data.setdefault("extends", "standard")
    if data["extends"] != "standard":
        _fail(where, _("a patch can only extend the standard board"))
    try:
        board = build_board(resolve_patch(data))
    except BoardError as exc:
        _fail(where, str(exc).splitlines()[0][:300])
    except Exception as exc:  # a malformed patch the board builder did not foresee
        _fail(where, _("the patch cannot be applied (%(error)s)") % {"error": exc.__class__.__name__})
    return {"name": name, "patch": patch, "board": board}


def _check_ops(where, ops, board) -> None:
    """Each operation is one the engine knows; pieces name known countries, kinds and spaces, card
    counts are whole numbers, VP a whole number for a team. (Whether the operations fit together is
    checked by folding the log.)"""
    from gameplay.qmg import state as pieces_module, table as engine

    known = getattr(engine, "_OPS", {})
    kinds = getattr(pieces_module, "KINDS", ("army", "navy"))
    for j, op in enumerate(ops):
        w = f"{where}[{j}]"
        if not isinstance(op, dict) or not isinstance(op.get("op"), str) or op["op"] not in known:
            _fail(w, _("unknown operation"))
        name = op["op"]
        if "country" in op and not _known(op["country"], board.countries):
            _fail(w, _("unknown country"))
        if name in ("place", "remove"):
            _dict(w, op, ("op", "country", "kind", "space"))
            if not _known(op["kind"], kinds):
                _fail(w, _("unknown piece kind"))
            if not isinstance(op["space"], str) or op["space"] not in board.spaces:
                _fail(w, _("unknown space"))
        elif name == "cards":
            if "country" not in op:
                _fail(w, _("missing field(s): %(fields)s") % {"fields": "country"})
            for f in ("deck", "hand", "discard", "responses"):
                if f in op:
                    _int(f"{w}.{f}", op[f], 0, MAX_INT)
            if "statuses" in op:
                for s in _list(f"{w}.statuses", op["statuses"], 200):
                    _str(f"{w}.statuses", s, 60)
        elif name == "vp":
            if not _known(op.get("team"), ("axis", "allies")):
                _fail(w, _("unknown team"))
            _int(f"{w}.n", op.get("n"), -MAX_INT, MAX_INT)
        elif name == "step":
            _int(f"{w}.round", op.get("round"), 0, SMALL_INT)
            _int(f"{w}.turn", op.get("turn"), 0, len(board.turn_order) - 1)
            if not _known(op.get("phase"), engine.PHASES):
                _fail(w, _("unknown phase"))
            if op.get("played") is not None and not _known(op["played"], engine.CARD_TYPES):
                _fail(w, _("unknown card type"))
        elif name == "end":
            if not _known(op.get("winner"), ("axis", "allies")):
                _fail(w, _("unknown team"))
            _str(f"{w}.reason", op.get("reason"), 20)


def _pieces(raw, board) -> list[dict]:
    from gameplay.qmg import Piece as P, Position, PositionError, validate_position

    pieces = []
    for i, p in enumerate(_list("pieces", raw, MAX_PIECES)):
        _dict(f"pieces[{i}]", p, _PIECE_FIELDS)
        for f in _PIECE_FIELDS:
            _str(f"pieces[{i}].{f}", p[f], 40)
        pieces.append({f: p[f] for f in _PIECE_FIELDS})
    try:
        validate_position(board, Position.of([P(p["country"], p["kind"], p["space"]) for p in pieces]))
    except PositionError as exc:
        _fail("pieces", str(exc))
    return pieces


def _cards(raw, board) -> list[dict]:
    fields = {f.name: f for f in _projection_fields(CountryCards)}
    required = ("country", "deck", "hand", "discard")
    cards = []
    for i, c in enumerate(_list("country_cards", raw, len(board.turn_order))):
        where = f"country_cards[{i}]"
        _dict(where, c, required, tuple(k for k in fields if k not in required))
        row = {}
        for key, field in fields.items():
            if key in c:
                row[key] = _field_value(f"{where}.{key}", field, c[key])
        for key in ("deck", "hand", "discard", "responses"):
            if key in row and row[key] < 0:
                _fail(f"{where}.{key}", _("a card count cannot be negative"))
        if "statuses" in row:
            for s in _list(f"{where}.statuses", row["statuses"], 200):
                _str(f"{where}.statuses", s, 60)
        cards.append(row)
    if sorted(c["country"] for c in cards) != sorted(board.turn_order):
        _fail("country_cards", _("exactly one row for each country of the board is needed"))
    return cards


def _check_log_positions(board, events, options) -> None:
    """Fold the log (as the tracker does) and check that every table on the way could stand on a
    real board: known spaces, one piece of a kind per country per space, no opposing pieces
    sharing, piece limits; and that every removed piece was there."""
    from types import SimpleNamespace

    from gameplay.qmg import PositionError, validate_position
    from gameplay.qmg.table import apply_ops, new_table

    from .selectors import effective_moves, options_of

    rows = [SimpleNamespace(kind=e["kind"], seq=e["seq"], ops=e["ops"]) for e in events]
    done, _undone = effective_moves(rows)
    table = new_table(board, options_of(SimpleNamespace(options=options)))
    for e in done:
        try:
            table = apply_ops(table, e.ops)
            validate_position(board, table.position)
        except PositionError as exc:
            _fail(f"events[{e.seq - 1}]", _("the log leads to an impossible table: %(error)s") % {"error": exc})
        except Exception:  # noqa: BLE001 — a forged operation the engine cannot fold
            _fail(f"events[{e.seq - 1}]", _("the operations do not fit the table (a piece removed that is not there?)"))


@transaction.atomic
def _create(plan: dict) -> Game:
    variant = None
    if plan["variant"]:
        variant = _variant_row(plan["variant"])
    f = plan["fields"]
    game = Game.objects.create(kind=plan["kind"], name=plan["name"], options=plan["options"],
                               board_variant=variant, **f)
    seats = {}
    for s in plan["seats"]:
        seats[s["number"]] = Seat.objects.create(game=game, number=s["number"], player_name=s["player_name"],
                                                 countries=s["countries"])
    Event.objects.bulk_create(
        (Event(game=game, seq=e["seq"], kind=e["kind"], round=e["round"], country=e["country"], phase=e["phase"],
               seat=seats.get(e["seat"]), by_host=e["by_host"], command=e["command"], ops=e["ops"],
               target=e["target"], summary_ru=e["summary_ru"], summary_en=e["summary_en"])
         for e in plan["events"]), batch_size=500)
    # auto_now_add stamped "now": put back the recorded times
    rows = list(Event.objects.filter(game=game).order_by("seq").only("id", "seq"))
    changed = []
    for row, e in zip(rows, plan["events"]):
        if e["created_at"] is not None:
            row.created_at = e["created_at"]
            changed.append(row)
    if changed:
        Event.objects.bulk_update(changed, ["created_at"], batch_size=500)
    if plan["created_at"] is not None:
        Game.objects.filter(pk=game.pk).update(created_at=plan["created_at"])
    if plan["kind"] == Game.QMG:
        Piece.objects.bulk_create(Piece(game=game, **p) for p in plan["pieces"])
        CountryCards.objects.bulk_create(CountryCards(game=game, **c) for c in plan["cards"])
    else:
        GameState.objects.create(game=game, state=plan["state"])
    game = Game.objects.get(pk=game.pk)
    _check_replay(game)
    return game


def _variant_row(v: dict) -> BoardVariant:
    existing = BoardVariant.objects.filter(name=v["name"]).first()
    if existing is not None and existing.patch == v["patch"]:
        return existing
    name, n = v["name"], 1
    while BoardVariant.objects.filter(name=name).exists():
        label = _("imported")
        suffix = f" ({label})" if n == 1 else f" ({label} {n})"
        name = v["name"][:100 - len(suffix)] + suffix
        n += 1
    return BoardVariant.objects.create(name=name, patch=v["patch"])


def _check_replay(game: Game) -> None:
    from . import jsongames, selectors

    try:
        if game.kind == Game.QMG:
            same = selectors.canonical(selectors.replay(game)) == selectors.canonical(selectors.table_of(game))
        else:
            replayed = jsongames.replay_state(game)
            stored = GameState.objects.get(game=game).state
            same = json.loads(json.dumps(replayed, sort_keys=True)) == json.loads(json.dumps(stored, sort_keys=True))
    except DatabaseError:
        raise
    except Exception as exc:  # a forged log the engine cannot even fold
        raise ImportError_(_("The game was not imported: its event log cannot be replayed (%(error)s).")
                           % {"error": str(exc).splitlines()[0][:200] if str(exc) else exc.__class__.__name__}) from None
    if not same:
        raise ImportError_(_("The game was not imported: replaying its event log does not give the position "
                             "in the file (the file was changed or is damaged)."))


def _write(plan: dict) -> Game:
    try:
        return _create(plan)
    except ImportError_:
        raise
    except DatabaseError as exc:
        raise ImportError_(_("The game could not be stored: %(error)s")
                           % {"error": str(exc).splitlines()[0][:200] if str(exc) else "database error"}) from None

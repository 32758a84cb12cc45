"""Reads shared by every game: the newest events and the history list a page shows."""
from __future__ import annotations


from typing import NamedTuple

from django.core.cache import cache
from django.db import connection

from gameplay.common import Reason

from . import rows as sql
from .models import Event, Game, Seat
from .registry import adapter_of


# what the history says of an undone move that handled a face-down card: its text could name the card
HIDDEN_AGAIN = ("Ход с закрытой картой (отменён: карта снова рубашкой вверх).",
                "A move with a face-down card (undone: the card is face down again).")


RECENT = 40  # events a page shows in its history


class LogSeat(NamedTuple):
    """The seat of an event, as the history names it."""
    pk: int
    player_name: str


class LogEvent(NamedTuple):
    """An event as the history shows it: the values of its row (``recent_events``), no model instance."""
    pk: int
    seq: int
    kind: str
    round: int
    country: str
    by_host: bool
    seat: LogSeat | None
    command: dict
    target: int | None
    summary_ru: str
    summary_en: str


_LOG_FIELDS = ("id", "seq", "kind", "round", "country", "by_host", "command", "target", "summary_ru", "summary_en")


def recent_events(game: Game, limit: int = RECENT) -> list[LogEvent]:
    """The newest events with their seats' names, oldest first: one query, whatever the length of the game, its
    rows read as plain values (tracker.core.rows: a model instance per event would cost more than the query)."""
    quote = connection.ops.quote_name
    events, seats = sql.table(Event), sql.table(Seat)
    fields = [Event._meta.get_field(name) for name in _LOG_FIELDS]
    names = ", ".join([f"{events}.{quote(f.column)}" for f in fields]
                      + [f"{seats}.{quote(Seat._meta.pk.column)}", f"{seats}.{quote(Seat._meta.get_field('player_name').column)}"])
    seat, of_game, seq_column = (Event._meta.get_field(name).column for name in ("seat", "game", "seq"))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {names} FROM {events} LEFT OUTER JOIN {seats} ON {events}.{quote(seat)} = "
                       f"{seats}.{quote(Seat._meta.pk.column)} WHERE {events}.{quote(of_game)} = %s "
                       f"ORDER BY {events}.{quote(seq_column)} DESC LIMIT {int(limit)}", [game.pk])
        rows = cursor.fetchall()
    command = Event._meta.get_field("command")
    out = []
    for pk, seq, kind, rnd, country, by_host, cmd, target, ru, en, seat_pk, player in reversed(rows):
        out.append(LogEvent(pk, seq, kind, rnd, country, bool(by_host), LogSeat(seat_pk, player) if seat_pk else None,
                            command.from_db_value(cmd, None, connection) if cmd is not None else {}, target, ru, en))
    return out


def history(game: Game, events=None, limit: int = RECENT) -> list[dict]:
    """The newest events, newest first, with whether each is in effect (undone moves stay, marked)."""
    events = recent_events(game, limit) if events is None else events[-limit:]
    done = set(game.done_moves)
    secret = adapter_of(game).secret
    rows = []
    for e in reversed(events):
        undone = e.kind == Event.MOVE and e.seq not in done
        hidden = undone and secret(e.command)  # e.g. a response revealed, then undone: face down again
        rows.append({"event": e, "undone": undone,
                     "text_ru": HIDDEN_AGAIN[0] if hidden else e.summary_ru,
                     "text_en": HIDDEN_AGAIN[1] if hidden else e.summary_en})
    return rows


def undo_sealed(game: Game, state, events=None) -> Reason | None:
    """Why the Undo button is off although a move is in effect: that move showed hidden information.
    The same for every viewer of a game version: asked once per version (the render cache)."""
    if not game.done_moves:
        return None
    key = f"sealed:{game.pk}:{game.spectator_token}:{game.version}"
    return cache.get_or_set(key, lambda: (_undo_sealed(game, state, events),), 600)[0]  # (None is a value)


def _undo_sealed(game: Game, state, events) -> Reason | None:
    """``events``: a callable giving the newest events, if the caller reads them anyway."""
    top = game.done_moves[-1]
    event = next((e for e in events() if e.seq == top), None) if events is not None else None
    if event is None:
        event = sql.fetch(Event, "game_id = %s AND seq = %s", [game.pk, top])[0]
    return adapter_of(game).sealed(event.command, state)

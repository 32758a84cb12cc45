"""Reads shared by every game: the newest events and the history list a page shows."""
from __future__ import annotations


from django.core.cache import cache

from gameplay.common import Reason

from . import rows as sql
from .models import Event, Game
from .registry import adapter_of


# what the history says of an undone move that handled a face-down card: its text could name the card
HIDDEN_AGAIN = ("Ход с закрытой картой (отменён: карта снова рубашкой вверх).",
                "A move with a face-down card (undone: the card is face down again).")


RECENT = 40  # events a page shows in its history


def recent_events(game: Game, limit: int = RECENT) -> list[Event]:
    """The newest events with their seats, oldest first (one query, whatever the length of the game;
    tracker.core.rows)."""
    events = sql.fetch_with(Event, "seat", f"{sql.table(Event)}.game_id = %s", [game.pk],
                            order=f"{sql.table(Event)}.seq DESC LIMIT {int(limit)}", outer=True)
    for e in events:
        e.game = game  # each knows its game, as a related manager leaves them
    return events[::-1]


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

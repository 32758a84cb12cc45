"""Reads shared by every game: the newest events and the history list a page shows."""
from __future__ import annotations


from gameplay.common import Reason

from . import once
from .memo import Memo
from .models import Event, Game
from .prepared import Prepared
from .registry import adapter_of


# what the history says of an undone move that handled a face-down card: its text could name the card
HIDDEN_AGAIN = ("Ход с закрытой картой (отменён: карта снова рубашкой вверх).",
                "A move with a face-down card (undone: the card is face down again).")


RECENT = 40  # events a page shows in its history


def recent_events(game: Game, limit: int = RECENT) -> list[Event]:
    """The newest events, oldest first (one query, whatever the length of the game; asked again for
    the same game object at the same version, the shell and the game's page share that query; the
    events a write of this process has just appended are remembered, so its answer needs no query)."""
    key = (game.pk, game.version, limit)
    memo = getattr(game, "_recent_events", None)
    if memo is None or memo[0] != key:
        if limit != RECENT:
            events = list(reversed(game.events.select_related("seat").order_by("-seq")[:limit]))
        else:
            events = _remembered(game)
            if events is None:
                events = _NEWEST.run(pk=game.pk)[::-1]
                for event in events:  # as the related manager leaves them: each knows its game
                    _EVENT_GAME.set_cached_value(event, game)
                _keep(game, game.version, events)
        memo = (key, events)
        game._recent_events = memo
    return memo[1]


# the newest RECENT events with their seats, compiled once per database connection (tracker.core.prepared)
_NEWEST = Prepared(lambda pk: Event.objects.filter(game_id=pk).select_related("seat").order_by("-seq")[:RECENT],
                   pk=1_999_999_973)
_EVENT_GAME = Event.game.field

# per process: game → (version, its newest RECENT events), kept by reads and extended by this process's writes
_RECENT = Memo(1024)  # (game id, spectator token) -> (version, events)


def _remembered(game: Game) -> list[Event] | None:
    found = _RECENT.get((game.pk, game.spectator_token))
    return found[1] if found is not None and found[0] == game.version else None


def _keep(game: Game, version: int, events: list[Event]) -> None:
    _RECENT.keep((game.pk, game.spectator_token), (version, events))


def appended(game: Game, before: int, events: list[Event]) -> None:
    """After a write committed ``events`` (seqs ``before``+1 …, the game now at ``game.version``): the newest
    events of the new version are the old version's plus these, if this process knows the old ones."""
    found = _RECENT.get((game.pk, game.spectator_token))
    if found is None or found[0] != before or not events or events[-1].seq != game.version:
        return
    _keep(game, game.version, [*found[1], *events][-RECENT:])


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


def undo_sealed(game: Game, state) -> Reason | None:
    """Why the Undo button is off although a move is in effect: that move showed hidden information.
    The same for every viewer of a game version: asked once per version (the render cache)."""
    if not game.done_moves:
        return None
    key = f"sealed:{game.pk}:{game.spectator_token}:{game.version}"
    return once.cached(key, lambda: (_undo_sealed(game, state),), 600)[0]  # (None is a value)


def _undo_sealed(game: Game, state) -> Reason | None:
    top = game.done_moves[-1]
    event = next((e for e in recent_events(game) if e.seq == top), None)
    if event is None:
        event = game.events.get(seq=top)
    return adapter_of(game).sealed(event.command, state)

"""Reads: the table as the engine sees it, the effective history, and what a page shows."""
from __future__ import annotations

from functools import lru_cache

from gameplay.qmg import Board, Piece, Position, load_board
from gameplay.qmg.board import build_board, resolve_patch
from gameplay.qmg.table import Cards, Options, Table, apply_ops, new_table

import yaml

from .models import Event, Game


def board_of(game: Game) -> Board:
    if game.board_variant_id is None:
        return load_board()
    return _variant_board(game.board_variant_id, game.board_variant.patch)


@lru_cache(maxsize=32)
def _variant_board(variant_id: int, patch: str) -> Board:
    return build_board(resolve_patch(yaml.safe_load(patch)))


def options_of(game: Game) -> Options:
    return options_from(game.options or {})


def options_from(o: dict) -> Options:
    """The engine's options from a game's stored options (Air Marshal: 12 dealt, air forces per country)."""
    air = bool(o.get("air_marshal"))
    limits = o.get("air_forces") or (dict(load_board().air_forces_default) if air else {})
    return Options(early_victory=bool(o.get("early_victory")), reallocate=bool(o.get("reallocate")),
                   dealt=12 if air else 10, air_marshal=air,
                   air_limits=tuple(sorted((k, int(v)) for k, v in limits.items())) if air else ())


def table_of(game: Game) -> Table:
    """The table from the projection models (two queries)."""
    pieces = [Piece(p.country, p.kind, p.space) for p in game.pieces.all().order_by("id")]
    cards = {c.country: Cards(c.deck, c.hand, c.discard, c.responses, tuple(c.statuses))
             for c in game.country_cards.all()}
    board = board_of(game)
    return Table(
        position=Position.of(pieces), cards=tuple((c, cards[c]) for c in board.turn_order),
        round=game.round, turn=game.turn, phase=game.phase, played=game.played or None,
        vp_axis=game.vp_axis, vp_allies=game.vp_allies, winner=game.winner or None,
        end_reason=game.end_reason or None, options=options_of(game), used=tuple(game.used or ()),
        window=game.window or None, window_passes=game.window_passes, attack=game.attack,
    )


def empty_table(like: Table) -> Table:
    """A table with no pieces and the same cards: the 'before' of a brand-new game's projection."""
    from dataclasses import replace

    return replace(like, position=Position())


def effective_moves(events) -> tuple[list[Event], list[Event]]:
    """(moves in effect, moves undone and still redoable), both oldest first."""
    done: list[Event] = []
    undone: list[Event] = []
    for e in events:
        if e.kind == Event.MOVE:
            done.append(e)
            undone.clear()
        elif e.kind == Event.UNDO and done:
            undone.append(done.pop())
        elif e.kind == Event.REDO and undone:
            done.append(undone.pop())
    return done, undone


def replay(game: Game, events=None) -> Table:
    """The table rebuilt from the event log alone."""
    events = list(game.events.all()) if events is None else events
    done, _ = effective_moves(events)
    table = new_table(board_of(game), options_of(game))
    for e in done:
        table = apply_ops(table, e.ops)
    return table


def canonical(table: Table) -> dict:
    """The table as data with pieces in a fixed order (the order of placement is not on the board)."""
    d = table.to_dict()
    d["position"]["pieces"] = sorted(d["position"]["pieces"], key=lambda p: (p["country"], p["kind"], p["space"]))
    return d


def recent_events(game: Game, limit: int = 40) -> list[Event]:
    """The newest events, oldest first (one query, whatever the length of the game)."""
    return list(reversed(game.events.select_related("seat").order_by("-seq")[:limit]))


def history(game: Game, events=None, limit: int = 40) -> list[dict]:
    """The newest events, newest first, with whether each is in effect (undone moves stay, marked)."""
    events = recent_events(game, limit) if events is None else events[-limit:]
    done = set(game.done_moves)
    return [{"event": e, "undone": e.kind == Event.MOVE and e.seq not in done} for e in reversed(events)]


def vp_series(game: Game) -> list[tuple[int, int, int]]:
    """Team VP after each round's moves so far, [(round, axis, allies), ...] from round 0, filled forward."""
    return fill_rounds(game.vp_rounds)


def fill_rounds(points) -> list[tuple[int, int, int]]:
    per_round = {0: (0, 0), **{int(r): (a, b) for r, a, b in points}}
    series, current = [], (0, 0)
    for r in range(0, max(per_round) + 1):
        current = per_round.get(r, current)
        series.append((r, *current))
    return series


def vp_rounds_from_log(events) -> list[list[int]]:
    """[[round, axis, allies], ...]: the VP after the last move in effect of each round (from the log)."""
    done, _ = effective_moves(events)
    axis = allies = 0
    per_round: dict[int, list[int]] = {}
    for e in done:
        for op in e.ops:
            if op["op"] == "vp":
                if op["team"] == "axis":
                    axis += op["n"]
                else:
                    allies += op["n"]
        per_round[e.round] = [e.round, axis, allies]
    return [per_round[r] for r in sorted(per_round)]

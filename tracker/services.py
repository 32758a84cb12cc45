"""Writes: every change of a game goes through here, one transaction per move.

A move is checked by the rules engine (``gameplay.qmg.table.apply_command``), appended to the
event log and projected onto the table models in the same transaction, guarded by the game's
version: a form rendered for version N can only change the game while it is still at N.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from gameplay.qmg.reasons import Reason
from gameplay.qmg.table import CommandError, Table, apply_command, new_table

from . import jsongames, selectors
from .models import CountryCards, Event, Game, GameState, Piece, Seat

APPLIED, REFUSED, STALE, FORBIDDEN, INVALID = "applied", "refused", "stale", "forbidden", "invalid"

# 2–6 players: the rulebook's table «Распределение игроков»
DEFAULT_SEATING = {
    2: [["germany", "italy", "japan"], ["united_kingdom", "soviet_union", "united_states"]],
    3: [["germany", "italy"], ["united_kingdom", "soviet_union", "united_states"], ["japan"]],
    4: [["germany", "italy"], ["united_kingdom", "united_states"], ["japan"], ["soviet_union"]],
    5: [["germany", "italy"], ["united_kingdom"], ["japan"], ["soviet_union"], ["united_states"]],
    6: [["germany"], ["united_kingdom"], ["japan"], ["soviet_union"], ["italy"], ["united_states"]],
}


@dataclass(frozen=True)
class Actor:
    """Who is asking: the host (may act for anyone), a seat, or a spectator (read-only)."""

    is_host: bool = False
    seat: Seat | None = None

    def countries(self, board) -> tuple[str, ...]:
        return self.allowed(board.turn_order)

    def allowed(self, all_ids) -> tuple[str, ...]:
        """The countries (QMG) or sides (other games) this actor may act for."""
        if self.is_host:
            return tuple(all_ids)
        if self.seat is not None:
            return tuple(self.seat.countries)
        return ()

    @property
    def can_write(self) -> bool:
        return self.is_host or self.seat is not None


@dataclass(frozen=True)
class Result:
    status: str
    reason: Reason | None = None
    notes: tuple[Reason, ...] = field(default=())
    event: Event | None = None

    @property
    def applied(self) -> bool:
        return self.status == APPLIED


_STALE = Reason("stale", "Игра изменилась, пока вы вводили ход: вот новое положение. Проверьте и повторите.",
                "The game changed while you were entering your move: here is the new state. Check and try again.")
_FORBIDDEN = Reason("forbidden", "Вы не можете ходить за эту страну.", "You cannot act for this country.")


def _text(r: Reason) -> tuple[str, str]:
    return r.ru, r.en


@transaction.atomic
def create_game(name: str, seats: list[tuple[str, list[str]]], options: dict | None = None,
                board_variant=None) -> Game:
    options = dict(options or {})
    game = Game.objects.create(name=name, options=options, board_variant=board_variant)
    for number, (player, countries) in enumerate(seats, 1):
        Seat.objects.create(game=game, number=number, player_name=player, countries=list(countries))
    board = selectors.board_of(game)
    table = new_table(board, selectors.options_from(options))
    Event.objects.create(game=game, seq=1, kind=Event.CREATE, round=1, by_host=True, command={"options": options},
                         summary_ru="Игра создана: по армии в каждом домашнем секторе, на руке по 7 карт.",
                         summary_en="Game created: one army in every home space, 7 cards in every hand.")
    CountryCards.objects.bulk_create(
        CountryCards(game=game, country=c, deck=k.deck, hand=k.hand, discard=k.discard) for c, k in table.cards)
    _save_projection(game, selectors.empty_table(table), table)
    game.version = 1
    game.save()
    return game


def submit(game_id: int, version: int, actor: Actor, command: dict) -> Result:
    """Check and apply one move, or say why not. Nothing changes unless it is applied."""
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.version != version:
                return Result(STALE, _STALE)
            board = selectors.board_of(game)
            table = selectors.table_of(game)
            country = command.get("country") or table.active(board)
            command = {**command, "country": country}
            if country not in actor.countries(board):
                return Result(FORBIDDEN, _FORBIDDEN)
            try:
                outcome = apply_command(board, table, command)
            except CommandError as exc:
                return Result(INVALID, Reason("invalid", f"Неверный ввод: {exc}", f"Invalid input: {exc}"))
            if not outcome.ok:
                return Result(REFUSED, outcome.reason)
            ru, en = _text(outcome.reason)
            event = _append(game, Event.MOVE, actor, table, board, command=command, ops=list(outcome.ops),
                            summary_ru=ru, summary_en=en, country=country)
            track_move(game, event.seq, event.round, outcome.table.vp_axis, outcome.table.vp_allies)
            _save_projection(game, table, outcome.table)
            return Result(APPLIED, outcome.reason, outcome.notes, event)
    except IntegrityError:
        # another request appended the same event number first: the version guard of the other
        # database connection won the race
        return Result(STALE, _STALE)


def undo(game_id: int, version: int, actor: Actor) -> Result:
    return _undo_redo(game_id, version, actor, Event.UNDO)


def redo(game_id: int, version: int, actor: Actor) -> Result:
    return _undo_redo(game_id, version, actor, Event.REDO)


def _undo_redo(game_id, version, actor, kind) -> Result:
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.version != version:
                return Result(STALE, _STALE)
            stack = game.done_moves if kind == Event.UNDO else game.undone_moves
            if not stack:
                msg = (("Отменять нечего.", "Nothing to undo.") if kind == Event.UNDO
                       else ("Возвращать нечего.", "Nothing to redo."))
                return Result(REFUSED, Reason("nothing", *msg))
            target = Event.objects.get(game=game, seq=stack[-1])
            events = list(game.events.all())
            if not actor.is_host and (actor.seat is None or target.seat_id != actor.seat.id):
                return Result(FORBIDDEN, Reason("forbidden", "Отменить или вернуть ход может ведущий или тот, кто его сделал.",
                                                "Only the host or the seat that made a move may undo or redo it."))
            if kind == Event.UNDO:
                ru, en = f"Отменено: {target.summary_ru}", f"Undone: {target.summary_en}"
            else:
                ru, en = f"Возвращено: {target.summary_ru}", f"Redone: {target.summary_en}"
            if game.kind != Game.QMG:
                game.version += 1
                event = Event.objects.create(game=game, seq=game.version, kind=kind, round=target.round,
                                             country=target.country, seat=actor.seat, by_host=actor.is_host,
                                             target=target.seq, summary_ru=ru, summary_en=en)
                GameState.objects.filter(game=game).update(state=jsongames.replay_state(game, [*events, event]))
                track_log(game, [*events, event])
                game.save()
                return Result(APPLIED, Reason(kind, ru, en), (), event)
            board = selectors.board_of(game)
            old = selectors.table_of(game)
            event = _append(game, kind, actor, old, board, target=target.seq, summary_ru=ru, summary_en=en,
                            country=target.country)
            new = selectors.replay(game, [*events, event])
            track_log(game, [*events, event])
            _save_projection(game, old, new)
            return Result(APPLIED, Reason(kind, ru, en), (), event)
    except IntegrityError:
        return Result(STALE, _STALE)


def track_done(game: Game, seq: int) -> None:
    """A new move is in effect and nothing can be redone any more (any game)."""
    game.done_moves = [*game.done_moves, seq]
    game.undone_moves = []


def track_move(game: Game, seq: int, round_no: int, vp_axis: int, vp_allies: int) -> None:
    """Keep the log's projections (moves in effect, redo stack, VP per round) after a new QMG move."""
    track_done(game, seq)
    rounds = [p for p in game.vp_rounds if p[0] != round_no]
    game.vp_rounds = sorted([*rounds, [round_no, vp_axis, vp_allies]])


def track_log(game: Game, events) -> None:
    """The same projections recomputed from the whole log (after an undo or a redo)."""
    done, undone = selectors.effective_moves(events)
    game.done_moves = [e.seq for e in done]
    game.undone_moves = [e.seq for e in undone]
    game.vp_rounds = selectors.vp_rounds_from_log(events)


def _append(game, kind, actor, table: Table, board, country="", **fields) -> Event:
    game.version += 1
    return Event.objects.create(
        game=game, seq=game.version, kind=kind, round=table.round, phase=table.phase, country=country,
        seat=actor.seat, by_host=actor.is_host, **fields)


def _save_projection(game: Game, old: Table, new: Table) -> None:
    """Write the difference between two tables onto the models (and the game's version)."""
    before, after = set(old.position.pieces), set(new.position.pieces)
    for p in before - after:
        Piece.objects.filter(game=game, country=p.country, kind=p.kind, space=p.space).delete()
    Piece.objects.bulk_create(Piece(game=game, country=p.country, kind=p.kind, space=p.space)
                              for p in new.position.pieces if p not in before)
    old_cards = dict(old.cards)
    for country, k in new.cards:
        if old_cards.get(country) != k:
            CountryCards.objects.filter(game=game, country=country).update(
                deck=k.deck, hand=k.hand, discard=k.discard, responses=k.responses, statuses=list(k.statuses))
    game.round, game.turn, game.phase, game.played = new.round, new.turn, new.phase, new.played or ""
    game.vp_axis, game.vp_allies = new.vp_axis, new.vp_allies
    game.winner, game.end_reason = new.winner or "", new.end_reason or ""
    game.used, game.window, game.window_passes = list(new.used), new.window or "", new.window_passes
    game.attack = new.attack
    game.save()

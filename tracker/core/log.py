"""The one write path of every game: create, submit, undo, redo — the log and its projections.

Event sourcing by **commands**: a move's event stores the command exactly as its engine accepted
it (the engine's ``prepare`` writes dice and draws into it first), and the state is rebuilt by
replaying the commands in effect from the game's start. Commands rather than state changes ("ops")
because the command is what the table did, every engine already checks it, a replay re-checks
every stored move against the rules (an import cannot smuggle in an illegal state), and one game
kind needs no second vocabulary of changes beside its commands.

Every write happens in one transaction that locks the game row and is guarded by the game's
version: a form rendered for version N can change the game only while it is still at N. Undo and
redo are events too; nothing in the log is ever rewritten. What each game projects (its JSON
state, QMG's mirror models) is the adapter's (``tracker.core.registry``).
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import random
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from gameplay.common import Reason, ReplayError

from . import live, statecache
from .models import Event, Game, Seat
from .registry import adapter_of, locked_with
from .selectors import HIDDEN_AGAIN

logger = logging.getLogger(__name__)

APPLIED, REFUSED, STALE, FORBIDDEN, INVALID = "applied", "refused", "stale", "forbidden", "invalid"
HTTP_STATUS = {APPLIED: 200, REFUSED: 422, STALE: 409, FORBIDDEN: 403, INVALID: 400}

STALE_REASON = Reason(
    "stale", "Игра изменилась, пока вы вводили ход: вот новое положение. Проверьте и повторите.",
    "The game changed while you were entering your move: here is the new state. Check and try again.")
FORBIDDEN_REASON = Reason("forbidden", "Вы не можете ходить за эту сторону.", "You cannot act for this side.")
SECRET_REASON = Reason(
    "secret", "Закрытыми картами стороны распоряжается только её игрок: ведущий не может сделать это за него.",
    "Only a side's own player handles its face-down cards: the host cannot do it for them.")
NOT_YOURS_REASON = Reason(
    "forbidden", "Отменить или вернуть ход может ведущий или тот, кто его сделал.",
    "Only the host or the seat that made a move may undo or redo it.")
NO_REPLAY_REASON = Reason(
    "no_replay", "Отменить или вернуть этот ход нельзя: журнал партии не воспроизводится по нынешним правилам "
    "приложения (партию начали в более старой версии). Исправьте положение новым ходом.",
    "This move cannot be undone or redone: the game's log does not replay under the app's current rules (the "
    "game was started with an older version). Correct the table with a new move.")
NOTHING = {Event.UNDO: Reason("nothing", "Отменять нечего.", "Nothing to undo."),
           Event.REDO: Reason("nothing", "Возвращать нечего.", "Nothing to redo.")}



def dice_for(game: Game) -> random.Random:
    """The random source of the game's next move: seeded from the server's secret key, the game and
    the number of moves in effect. A roll or draw that is undone and made again at the same point of
    the game gives the same result (undo cannot buy a new roll), and a redo or a replay reuses the
    result stored in the command. Unpredictable to the players: the key never leaves the server."""
    message = f"{game.pk}:{game.created_at.isoformat() if game.created_at else ''}:{len(game.done_moves)}"
    digest = hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


@dataclass(frozen=True)
class Actor:
    """Who is asking: the host (may act for anyone), a seat, or a spectator (read-only)."""

    is_host: bool = False
    seat: Seat | None = None

    def allowed(self, roles) -> tuple[str, ...]:
        """The roles (QMG countries, or sides) this actor may act for."""
        if self.is_host:
            return tuple(roles)
        if self.seat is not None:
            return tuple(self.seat.countries)
        return ()

    @property
    def own_roles(self) -> tuple[str, ...]:
        """The roles whose secrets this browser may see: a seat's own (the host's powers show none)."""
        return tuple(self.seat.countries) if self.seat is not None else ()

    @property
    def can_write(self) -> bool:
        return self.is_host or self.seat is not None


@dataclass(frozen=True)
class Result:
    status: str
    reason: Reason | None = None
    notes: tuple[Reason, ...] = field(default=())
    event: Event | None = None
    data: dict = field(default_factory=dict)

    @property
    def applied(self) -> bool:
        return self.status == APPLIED

    @property
    def http_status(self) -> int:
        return HTTP_STATUS[self.status]


# ------------------------------------------------------------------------------------------
# create
# ------------------------------------------------------------------------------------------

@transaction.atomic
def create_game(kind: str, name: str, seats: list[tuple[str, list[str]]], setup: Any, options: dict | None = None,
                summary: tuple[str, str] = ("Игра создана.", "Game created.")) -> Game:
    game = Game.objects.create(kind=kind, name=name, options=dict(options or {}), version=1)
    for number, (player, roles) in enumerate(seats, 1):
        Seat.objects.create(game=game, number=number, player_name=player, countries=list(roles))
    adapter = adapter_of(kind)
    state, create_command = adapter.start(game, setup)
    Event.objects.create(game=game, seq=1, kind=Event.CREATE, round=1, by_host=True, command=create_command,
                         summary_ru=summary[0], summary_en=summary[1])
    adapter.save(game, None, state)
    game.save()
    return game


# ------------------------------------------------------------------------------------------
# submit
# ------------------------------------------------------------------------------------------

def submit(game_id: int, version: int, actor: Actor, command: dict) -> Result:
    """Check and apply one move, or say why not. Nothing changes unless it is applied."""
    return submit_run(game_id, version, actor, [command])[0]


MOVED_FIELDS = ["version", "done_moves", "undone_moves", "winner", "updated_at"]  # what a move changes on Game


def submit_run(game_id: int, version: int, actor: Actor, commands: list[dict]) -> list[Result]:
    """Several moves of one tap (QMG's «Закончить ход») in one transaction: each is checked against the
    state the one before it left and becomes its own event (each undoable on its own); the run stops at
    the first move that is not applied, and the moves before it are written. The game is locked once,
    the projections are written once (the last state), and the table is told once. A fault of the
    database rolls back the whole run: nothing of it is written."""
    try:
        with transaction.atomic():
            game = _locked(game_id)
            adapter = adapter_of(game)
            if game.version != version and not _commutes(game, version, commands[0]):
                return [Result(STALE, STALE_REASON)]
            return _submit_locked(game, adapter, actor, commands)
    except IntegrityError:
        # another request appended the same event number first: its version guard won the race
        return [Result(STALE, STALE_REASON)]


def _locked(game_id: int) -> Game:
    """The game row locked for this transaction (only that row), read in one query with the games'
    one-to-one projections (``GameAdapter.locked_with``: QMG's table)."""
    return Game.objects.select_for_update(of=("self",)).select_related(*locked_with()).get(pk=game_id)


def _commutes(game: Game, version: int, command: dict) -> bool:
    """The version guard's one exception: the game's adapter says the events since ``version``
    cannot change what this command means (e.g. the other side's secret orders)."""
    if version > game.version:
        return False
    later = list(game.events.filter(seq__gt=version).order_by("seq"))
    return bool(later) and adapter_of(game).commutes(command, later)


def _check(game: Game, stepper, state, actor: Actor, adapter, command: dict):
    """(the refusal, None, None) or (None, the engine's outcome, the command as prepared, the side)."""
    try:
        side = stepper.acting_side(state, command)
        allowed = actor.allowed(adapter.roles(game))
        if (side is None and not allowed) or (side is not None and side not in allowed):
            return Result(FORBIDDEN, FORBIDDEN_REASON), None, None, None
        if side is not None and side not in actor.own_roles and adapter.secret(command):
            return Result(FORBIDDEN, SECRET_REASON), None, None, None  # before the engine: its answer could reveal a card
        command = stepper.prepare(state, command, dice_for(game))
        outcome = stepper.apply(state, command)
    except ValueError as exc:  # the engines' malformed-command errors (not merely illegal moves)
        reason = getattr(exc, "reason", None)
        if not isinstance(reason, Reason):
            reason = Reason("invalid", f"Неверный ввод: {exc}", f"Invalid input: {exc}")
        return Result(INVALID, reason), None, None, None
    if not outcome.ok:
        return Result(REFUSED, outcome.reason, outcome.notes, data=outcome.data), None, None, None
    return None, outcome, command, side


def _submit_locked(game: Game, adapter, actor: Actor, commands: list[dict]) -> list[Result]:
    stepper = adapter.stepper(game)
    first = state = statecache.load(game, adapter)  # the state at the locked version
    results: list[Result] = []
    moves: list[tuple[Event, Any]] = []
    for command in commands:
        refusal, outcome, command, side = _check(game, stepper, state, actor, adapter, command)
        if refusal is not None:
            results.append(refusal)
            break
        game.version += 1
        event = Event(
            game=game, seq=game.version, kind=Event.MOVE, country=side or "", seat=actor.seat, by_host=actor.is_host,
            command=command, summary_ru=outcome.reason.ru, summary_en=outcome.reason.en,
            **adapter.event_fields(game, state, command))
        game.done_moves = [*game.done_moves, event.seq]  # the next move's dice (``dice_for``) count this one
        game.undone_moves = []
        moves.append((event, outcome.state))
        results.append(Result(APPLIED, outcome.reason, outcome.notes, event, outcome.data))
        state = outcome.state
    if moves:
        Event.objects.bulk_create([event for event, _after in moves])
        adapter.save(game, first, state, moves=moves)
        game.save(update_fields=MOVED_FIELDS)
        statecache.remember(game, state)
        live.announce(game)
    return results


# ------------------------------------------------------------------------------------------
# undo, redo
# ------------------------------------------------------------------------------------------

def undo(game_id: int, version: int, actor: Actor) -> Result:
    return _undo_redo(game_id, version, actor, Event.UNDO)


def redo(game_id: int, version: int, actor: Actor) -> Result:
    return _undo_redo(game_id, version, actor, Event.REDO)


def _undo_redo(game_id: int, version: int, actor: Actor, kind: str) -> Result:
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.version != version:
                return Result(STALE, STALE_REASON)
            stack = game.done_moves if kind == Event.UNDO else game.undone_moves
            if not stack:
                return Result(REFUSED, NOTHING[kind])
            target = Event.objects.get(game=game, seq=stack[-1])
            if not actor.is_host and (actor.seat is None or target.seat_id != actor.seat.id):
                return Result(FORBIDDEN, NOT_YOURS_REASON)
            word_ru, word_en = ("Отменено", "Undone") if kind == Event.UNDO else ("Возвращено", "Redone")
            adapter = adapter_of(game)
            if kind == Event.UNDO and adapter.secret(target.command):  # the card goes face down again
                ru, en = f"{word_ru}: {HIDDEN_AGAIN[0]}", f"{word_en}: {HIDDEN_AGAIN[1]}"
            else:
                ru, en = f"{word_ru}: {target.summary_ru}", f"{word_en}: {target.summary_en}"
            old = statecache.load(game, adapter)
            sealed = adapter.sealed(target.command, old) if kind == Event.UNDO else None
            if sealed is not None:
                return Result(REFUSED, sealed)
            fields = dict(game=game, seq=game.version + 1, kind=kind, round=target.round, country=target.country,
                          phase=target.phase, seat=actor.seat, by_host=actor.is_host, target=target.seq,
                          summary_ru=ru, summary_en=en)
            earlier = list(game.events.order_by("seq"))
            try:  # replayed before anything is written: a log that no longer replays changes nothing
                new = replay(game, [*earlier, Event(**fields)])
            except (ReplayError, ValueError, KeyError, TypeError) as exc:
                logger.warning("game %s: %s refused, the log does not replay: %s", game.pk, kind, exc)
                return Result(REFUSED, NO_REPLAY_REASON)
            game.version += 1
            event = Event.objects.create(**fields)
            events = [*earlier, event]
            adapter.save(game, old, new, events)
            done, undone = effective_moves(events)
            game.done_moves = [e.seq for e in done]
            game.undone_moves = [e.seq for e in undone]
            game.save()
            statecache.remember(game, new)
            live.announce(game)
            return Result(APPLIED, Reason(kind, ru, en), (), event)
    except IntegrityError:
        return Result(STALE, STALE_REASON)


# ------------------------------------------------------------------------------------------
# replay
# ------------------------------------------------------------------------------------------

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


def initial_state(game: Game, events) -> Any:
    create = next(e for e in events if e.kind == Event.CREATE)
    return adapter_of(game).initial_state(game, create)


def replay(game: Game, events=None) -> Any:
    """The state rebuilt from the log alone: the start, then every command in effect."""
    events = list(game.events.order_by("seq")) if events is None else list(events)
    done, _ = effective_moves(events)
    return adapter_of(game).stepper(game).replay(initial_state(game, events), [e.command for e in done])


def current_state(game: Game) -> Any:
    """The state as projected now (no replay)."""
    return adapter_of(game).load(game)

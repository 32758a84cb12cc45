"""Shared infrastructure for games whose engine state is one JSON value (Generalissimus, The Fog of War).

Each such game registers a ``JsonRules`` adapter around its pure engine. The event log stores every
command exactly as applied (dice and random draws are written into the command before it is
stored), so replaying the commands from the initial state rebuilds the state; ``GameState``
holds the current value as the projection. Undo, redo, the version guard, seats, links and live
polling are the same as for QMG (``tracker.services``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from gameplay.qmg.reasons import Reason

from .models import Event, Game, GameState, Seat


@dataclass(frozen=True)
class Step:
    """An adapter's answer to one command: refused with a reason, or the new state."""

    ok: bool
    reason: Reason
    state: dict | None = None
    notes: tuple[Reason, ...] = field(default=())


class JsonRules:
    """Adapter interface; subclasses wrap a pure engine. All methods are pure functions."""

    kind: str = ""
    sides: tuple[str, ...] = ()  # the seat roles of this game, e.g. ("a", "b")

    def side_name(self, side: str, lang: str) -> str:
        return side

    def acting_side(self, state: dict, command: dict) -> str | None:
        """Which side a command acts for (None: any seat of the game may send it)."""
        return command.get("side")

    def apply(self, state: dict, command: dict) -> Step:
        raise NotImplementedError


REGISTRY: dict[str, JsonRules] = {}


def register(rules: JsonRules) -> JsonRules:
    REGISTRY[rules.kind] = rules
    return rules


def rules_of(game: Game) -> JsonRules:
    return REGISTRY[game.kind]


@transaction.atomic
def create_json_game(kind: str, name: str, seats: list[tuple[str, list[str]]], initial: dict,
                     options: dict | None = None, summary=("Игра создана.", "Game created.")) -> Game:
    game = Game.objects.create(kind=kind, name=name, options=dict(options or {}), version=1)
    for number, (player, sides) in enumerate(seats, 1):
        Seat.objects.create(game=game, number=number, player_name=player, countries=list(sides))
    GameState.objects.create(game=game, state=initial)
    Event.objects.create(game=game, seq=1, kind=Event.CREATE, round=1, by_host=True,
                         command={"initial": initial, "options": game.options},
                         summary_ru=summary[0], summary_en=summary[1])
    return game


def state_of(game: Game) -> dict:
    return GameState.objects.get(game=game).state


def replay_state(game: Game, events=None) -> dict:
    """The state rebuilt from the log: the initial state, then every command in effect."""
    from .selectors import effective_moves

    events = list(game.events.all()) if events is None else events
    create = next(e for e in events if e.kind == Event.CREATE)
    state = create.command["initial"]
    rules = rules_of(game)
    done, _ = effective_moves(events)
    for e in done:
        step = rules.apply(state, e.command)
        if not step.ok:  # the log only holds applied commands; a refusal here means the engine changed
            raise RuntimeError(f"event {e.seq} no longer applies: {step.reason.en}")
        state = step.state
    return state


def submit_json(game_id: int, version: int, actor, command: dict, round_no: int = 0):
    """Check and apply one command of a JSON-state game, guarded by the game's version."""
    from .services import APPLIED, FORBIDDEN, REFUSED, STALE, Result, _FORBIDDEN, _STALE, track_done

    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.version != version:
                return Result(STALE, _STALE)
            rules = rules_of(game)
            state = state_of(game)
            side = rules.acting_side(state, command)
            allowed = actor.allowed(rules.sides)
            if (side is None and not allowed) or (side is not None and side not in allowed):
                return Result(FORBIDDEN, _FORBIDDEN)
            step = rules.apply(state, command)
            if not step.ok:
                return Result(REFUSED, step.reason)
            game.version += 1
            event = Event.objects.create(
                game=game, seq=game.version, kind=Event.MOVE, round=round_no, country=side or "",
                seat=actor.seat, by_host=actor.is_host, command=command,
                summary_ru=step.reason.ru, summary_en=step.reason.en)
            GameState.objects.filter(game=game).update(state=step.state)
            track_done(game, event.seq)  # the log's projections, as for QMG
            game.save(update_fields=["version", "updated_at", "done_moves", "undone_moves"])
            return Result(APPLIED, step.reason, step.notes, event)
    except IntegrityError:
        return Result(STALE, _STALE)

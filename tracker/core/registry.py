"""Each game plugs into the shared core through one adapter, registered in ``TrackerConfig.ready()``.

An adapter knows how its game's engine is built for one stored game, where the game's projection
lives, how a phone's form becomes a command, and what its page shows. The core (log, views,
transfer) never branches on the kind of game.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from gameplay.common import Reason, Stepper

from .models import Event, Game, GameState


class Unavailable(Exception):
    """A stored game that cannot be opened as it is (e.g. its QMG board variant breaks the current
    bounds): every view answers a 409 page with this message (``tracker.core.limits``), never a 500."""


class GameAdapter:
    """Defaults fit a game whose engine state is one JSON value kept in ``GameState``."""

    kind: str = ""
    partial_template: str = ""  # the game's part of the page, the #game section (it extends core/_shell.html)
    # one-to-one projections of the game read with the locked game row in the write path (one query)
    locked_with: tuple[str, ...] = ()

    # --- the engine ---------------------------------------------------------------------------
    def stepper(self, game: Game) -> Stepper:
        raise NotImplementedError

    def initial_state(self, game: Game, create: Event) -> Any:
        """The state the log starts from (the create event holds the setup)."""
        return self.stepper(game).from_json(create.command["initial"])

    def start(self, game: Game, setup: Any) -> tuple[Any, dict]:
        """A new game: (its first state, what the create event stores so that ``initial_state``
        rebuilds that state). ``setup`` is what the game's new-game form produced."""
        state = self.stepper(game).from_json(setup)
        return state, {"initial": setup, "options": game.options}

    # --- the projection -----------------------------------------------------------------------
    def load(self, game: Game) -> Any:
        """The current state from the projection (no replay)."""
        return self.stepper(game).from_json(GameState.objects.get(game=game).state)

    def save(self, game: Game, old: Any, new: Any, events=None, moves=None) -> None:
        """Write the projection of ``new`` (``old`` is what is stored now). ``moves``: the moves just
        appended, [(event, the state after it), …] (``new`` is the last state); ``events``: the whole log
        after an undo or redo. Saving ``game`` is the caller's."""
        data = self.stepper(game).to_json(new)
        if old is None:
            GameState.objects.create(game=game, state=data)
        else:
            GameState.objects.filter(game=game).update(state=data)
        game.winner = self.winner(new) or ""

    def winner(self, state: Any) -> str | None:
        return None

    def event_fields(self, game: Game, state: Any, command: dict) -> dict:
        """The log's public columns of a move made on ``state``: round and phase."""
        return {"round": 0, "phase": ""}

    def secret(self, command: dict) -> bool:
        """Does ``command`` handle its side's face-down cards? Then only that side's own seat may send it:
        the host's powers never include seeing (or probing) what its own seat may not see."""
        return False

    def explains(self, note: Reason) -> bool:
        """Does this note of an accepted move only explain why the move was allowed? The answer folds such notes
        (shown on demand), so that it says first what happened; a refusal keeps its reason as it is."""
        return False

    def sealed(self, command: dict, state_after: Any) -> Reason | None:
        """Why the move ``command`` (the last in effect; ``state_after`` the state it left) cannot be
        undone, or None. A move that showed someone hidden information (a spy's look, cards turned
        face up) is sealed: undoing it would let them choose again knowing what they saw. Randomness
        needs no seal: a roll made again at the same point gives the same result (``log.dice_for``)."""
        return None

    def commutes(self, command: dict, later: list) -> bool:
        """May ``command``, sent against an older version, still be applied after the ``later``
        events? (Only for moves that cannot mean anything else, e.g. simultaneous secret orders.)"""
        return False

    # --- seats ----------------------------------------------------------------------------------
    def roles(self, game: Game) -> tuple[str, ...]:
        return tuple(self.stepper(game).sides)

    def role_name(self, game: Game, role: str, lang: str) -> str:
        return self.stepper(game).side_name(role, lang)

    # --- export and import (tracker.core.transfer) ----------------------------------------------
    def export_setup(self, game: Game) -> dict | None:
        """What the game's start needs that its log does not hold, as JSON (QMG: its board variant)."""
        return None

    def import_setup(self, raw: Any) -> Any:
        """``export_setup``'s JSON as the setup ``start`` takes, checked: ValueError (a one-line
        message) if it is not acceptable. Called inside the import's transaction, so rows it needs
        (QMG: a board variant) are created there and vanish with a refused import."""
        if raw is not None:
            raise ValueError(_("this kind of game has no setup beside its event log"))
        return None

    def start_imported(self, game: Game, setup: Any, create_command: dict) -> tuple[Any, dict]:
        """``start`` an imported game again (its projection rows of the start): with ``setup`` from
        ``import_setup``, or, for a game whose create event holds its setup (the default), with that.
        Returns what ``start`` returns; the import checks that this create command is the recorded one."""
        return self.start(game, create_command.get("initial"))

    def imported_setup(self, raw: Any) -> Any:
        """``import_setup`` in memory, before anything is stored: the setup checked (ValueError, a one-line
        message, if it is not acceptable) in the form ``imported_start`` takes. The default's setup stores nothing."""
        return self.import_setup(raw)

    def imported_start(self, game: Game, setup: Any, create_command: dict) -> tuple[Stepper, Any, dict]:
        """An imported game's engine and start, in memory, before anything is stored: (its stepper, its start
        state, the create command that start records). ``game`` is not saved (its kind, name and options are
        the file's), ``setup`` is ``imported_setup``'s. The import replays and compares the whole log with
        these, and stores the game (``import_setup``, ``start_imported``) only if it matches."""
        state, command = self.start_imported(game, setup, create_command)
        return self.stepper(game), state, command

    def comparable(self, game: Game, data: Any) -> Any:
        """A state's JSON in the form in which two states are compared (QMG: pieces in a fixed order)."""
        return data

    def state_from_v1(self, fields: dict, doc: dict) -> Any:
        """The state held by a format-1 export (read only to import old files): its ``state``.
        ``fields``: the file's "game" object; ValueError (a one-line message) if it holds none."""
        if "state" not in doc or "pieces" in doc or "country_cards" in doc:
            raise ValueError(_("a game of this kind is exported with a state, not pieces and country cards"))
        return doc["state"]

    # --- the web page ---------------------------------------------------------------------------
    def parse(self, request, game: Game, actor, current):
        """A posted form as a ``tracker.core.commands.Parsed`` (or raise ``BadInput``). ``current()``
        loads the state if the form needs it to be read (the write path loads it again under lock)."""
        raise NotImplementedError

    def context(self, request, game: Game, actor, state: Any, keep=None) -> dict:
        """What the game's partial template needs (``keep``: the failed form to show again)."""
        raise NotImplementedError

    def preview(self, request, game: Game, actor, parsed):
        """The answer to a form that only asks what a command would do (``parsed.preview``; The Fog of
        War's battle calculator): nothing is stored."""
        raise NotImplementedError

    def after_submit(self, game: Game, actor, parsed, result) -> None:
        """Side records of an applied move outside the log (QMG: a face-down response's identity)."""


def seen(what_ru: str, what_en: str) -> Reason:
    """The refusal of an undo that would take back hidden information (the policy in the rules lookup)."""
    return Reason(
        "seen", f"Этот ход нельзя отменить: {what_ru}. Увиденное не забыть — исправьте положение новым ходом.",
        f"This move cannot be undone: {what_en}. What was seen stays seen: correct the table with a new move.",
        "undo_seen")


REGISTRY: dict[str, GameAdapter] = {}


def register(adapter: GameAdapter) -> GameAdapter:
    REGISTRY[adapter.kind] = adapter
    return adapter


def locked_with() -> tuple[str, ...]:
    """Every game kind's ``locked_with``: the write path reads them with the locked game (a kind without
    that projection gets an empty one, which it never reads)."""
    return tuple(sorted({name for adapter in REGISTRY.values() for name in adapter.locked_with}))


def adapter_of(game_or_kind) -> GameAdapter:
    kind = game_or_kind if isinstance(game_or_kind, str) else game_or_kind.kind
    return REGISTRY[kind]

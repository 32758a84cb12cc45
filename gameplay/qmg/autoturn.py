"""«Закончить ход» (finish the turn): which steps of a QMG turn need no decision of the player.

A turn is play → [air] → supply → victory → discard → draw. Most of it is arithmetic the engine
already does: the supply step removes what the rules say, the victory step counts, the draw step
fills the hand. The player's one tap closes the step they are in (that tap *is* their decision),
then every following step that needs no decision is done too, each as its own command — so the
log keeps one event per step and every step stays undoable on its own. The run stops:

- when the turn has passed to the next country (after the draw) or the game is over;
- at a step that needs the player: the air step (Air Marshal), a supply step that would remove
  pieces (the table sees which pieces leave and may still answer first), a victory or discard step
  where the active country has a status in play that is used in that step by hand.

Pure: ``finish_turn`` only plans; the caller submits the commands one after another through the
game's one write path, each against the version the previous one produced.
"""
from __future__ import annotations

from dataclasses import dataclass

from gameplay.common import Reason

from .air import air_prompts
from .airretreat import air_retreat_on, air_steps_open
from .board import Board
from .effects import status_uses
from .rules import compute_supply
from .state import AIR
from .table import Table, apply_command, turn_context
from .usable import usable_now
from .triggers import waiting_for

MAX_STEPS = 8  # play, air, supply, victory, discard, draw: never more commands than a turn has steps
MAX_DISCARD = 99
# statuses in play that the player uses by hand in this step (the automated ones the engine applies itself)
STEP_TIMINGS = {"victory": ("victory_phase",), "discard": ("discard_phase",)}


@dataclass(frozen=True)
class Plan:
    """The commands «Закончить ход» sends, in order, and why it stops before the turn is over
    (``stop``: the step that needs the player; None when the turn passes or the game ends)."""

    commands: tuple[dict, ...]
    stop: Reason | None = None


def _r(code: str, ru: str, en: str) -> Reason:
    return Reason(code, ru, en)


MUST_PLAY = _r("auto.must_play", "Сначала сыграйте или сбросьте карту: закончить ход можно после розыгрыша "
               "(правило «Как сыграть карту»).",
               "First play or discard a card: the turn can be finished after the play step (rule “Playing a card”).")


def closing_command(board: Board, table: Table, discard: int = 0) -> dict | None:
    """The command that closes the active country's current step, or None in a play step before a
    card is played with cards in hand (the card is the decision; no tap can skip it)."""
    if table.finished:
        return None
    country = table.active(board)
    phase = table.phase
    if phase == "play":
        if not table.played and table.cards_of(country).hand > 0:
            return None
        if table.options.at_least(6) and table.hold and country in waiting_for(board, table):
            return {"type": "pass", "country": country}  # its own turn to answer, declined: the removal happens
        return {"type": "end_play", "country": country}
    if phase == "air":
        return {"type": "end_air", "country": country}
    if phase == "discard":
        return {"type": "discard", "country": country, "n": discard}
    return {"type": {"supply": "supply", "victory": "score", "draw": "draw"}[phase], "country": country}


AIR_WAITING = _r("auto.air_waiting", "Ждём решения по авиации: защита или удар авиации либо отступление авиации "
                 "без снабжения — его принимает страна, чья это авиация (Air Marshal).",
                 "Waiting for an air decision: air defence, an air strike or the retreat of an air force out of "
                 "supply — the country whose air force it is decides (Air Marshal).")


def _air_waiting(board: Board, table: Table) -> bool:
    """Does some country (any, not only the active one) have an air decision open now? Finishing the
    turn would clear the last attack and with it the chance to answer it."""
    if not any(p.kind == AIR for p in table.position.pieces):
        return False
    supply = compute_supply(board, table.position, turn_context(table))
    prompts = air_prompts(board, table.position, table.attack, supply)
    return bool(prompts.stranded or prompts.defence or prompts.strike_from)


def window_waiting(board: Board, table: Table) -> Reason | None:
    """Card rules 6: the response window waits for countries other than the active one (asked, not yet passed)."""
    if not table.options.at_least(6) or table.phase != "play":
        return None
    others = [c for c in waiting_for(board, table) if c != table.active(board)]
    if not others:
        return None
    return _r("auto.window", "Окно ответов: ждём ответа или паса — " + ", ".join(board.countries[c].ru for c in others)
              + " (правило «Использование карт статусов и ответов»).", "The response window: waiting for an answer "
              "or a pass — " + ", ".join(board.countries[c].en for c in others) + " (rule “Using statuses and "
              "responses”).")


def usable_again(board: Board, table: Table) -> Reason | None:
    """After the active country declined and a removal happened: what it may use now (Blitzkrieg in the space just
    emptied), so that «Закончить ход» stops there instead of declining that too."""
    country = table.active(board)
    if country not in waiting_for(board, table):
        return None
    found = usable_now(board, table, country)
    if not found:
        return None
    return _r("auto.usable", "Теперь можно использовать: " + "; ".join(u.text.ru for u in found)
              + " — или закончите ход ещё раз.", "Usable now: " + "; ".join(u.text.en for u in found)
              + " — or finish the turn again.")


def decision(board: Board, table: Table) -> Reason | None:
    """Why the current step needs the player (None: the engine can do it alone)."""
    if table.finished:
        return _r("auto.over", "Игра окончена.", "The game is over.")
    if _air_waiting(board, table):
        return AIR_WAITING
    waits = window_waiting(board, table)
    if waits is not None:
        return waits
    country = table.active(board)
    phase = table.phase
    if phase == "play":
        if table.played or table.cards_of(country).hand == 0:
            return None if not table.played else _r(
                "auto.play", "Фаза розыгрыша: карта сыграна, её шаги вводит игрок.",
                "Play step: a card is played; its player enters its steps.")
        return MUST_PLAY
    if phase == "air":
        return _r("auto.air", "Фаза авиации: разместите или переместите авиацию либо закончите ход ещё раз "
                  "(Air Marshal).", "Air step: deploy or move an air force, or finish the turn again (Air Marshal).")
    if phase == "supply":
        gone = compute_supply(board, table.position, turn_context(table)).unsupplied_of(country)
        if gone:
            return _r("auto.supply", "Фаза снабжения: фишки без снабжения уйдут с поля — проверьте их список и "
                      "закончите ход ещё раз (правило «Снабжение»).",
                      "Supply step: pieces out of supply will leave the board — check the list and finish the "
                      "turn again (rule “Supply”).")
        return None
    timings = STEP_TIMINGS.get(phase, ())
    if timings and any(u.timing in timings and not u.automatic for u in status_uses(table.position, country)):
        return _r(f"auto.{phase}_status", "У страны есть статус, который используют в этой фазе: используйте его "
                  "или закончите ход ещё раз (правило «Статусы»).",
                  "The country has a status used in this step: use it, or finish the turn again (rule “Statuses”).")
    return None


def finish_turn(board: Board, table: Table, discard: int = 0) -> Plan:
    """What one «Закончить ход» does from ``table``: the command closing the current step, then every
    following step of the same turn that needs no decision. ``discard``: cards the player discards
    from hand in this turn's discard step (0 unless they said otherwise).

    A command the engine refuses ends the plan (it is still sent, so the player sees the refusal)."""
    if not 0 <= discard <= MAX_DISCARD:
        raise ValueError(f"discard out of range 0..{MAX_DISCARD}: {discard}")
    if air_steps_open(table) and air_retreat_on(table):  # a stranded air force's owner chooses first
        return Plan((), AIR_WAITING)
    waits = window_waiting(board, table)
    if waits is not None:  # the other phones answer first; nothing is sent
        return Plan((), waits)
    first = closing_command(board, table, discard)
    if first is None:
        return Plan((), MUST_PLAY if not table.finished else decision(board, table))
    commands = [first]
    turn = (table.round, table.turn)
    current = table
    while len(commands) <= MAX_STEPS:
        outcome = apply_command(board, current, commands[-1])
        if not outcome.ok:
            return Plan(tuple(commands))
        current = outcome.state
        if current.finished or (current.round, current.turn) != turn:
            return Plan(tuple(commands))
        if commands[-1]["type"] == "pass" and current.phase == "play":  # the window was declined: what next
            again = usable_again(board, current)
            if again is not None:  # the removal it let happen gives the player something new to use
                return Plan(tuple(commands), again)
            why = _air_waiting(board, current) and AIR_WAITING or window_waiting(board, current)
            if why is not None:
                return Plan(tuple(commands), why)
            commands.append(closing_command(board, current, discard))
            continue
        why = decision(board, current)
        if why is not None:
            return Plan(tuple(commands), why)
        nxt = closing_command(board, current, discard)
        if nxt is None:  # cannot happen after the play step; kept as a guard
            return Plan(tuple(commands), MUST_PLAY)
        commands.append(nxt)
    raise AssertionError("a turn has at most six steps")  # pragma: no cover


__all__ = ["MAX_DISCARD", "MUST_PLAY", "Plan", "closing_command", "decision", "finish_turn"]

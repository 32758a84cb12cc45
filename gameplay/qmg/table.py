"""The whole QMG table as a value, and the turn stepper as pure functions (the façade).

``Table`` holds what the physical table shows: round, active country, phase, pieces, card
counts (deck, hand, discard, statuses face up, responses face down), team VP and the end of
the game. ``apply_command(board, table, command)`` checks a player's entry against the rules
and returns a ``gameplay.common.Outcome``: refused with a reason (nothing changes), or accepted
with the new table (``state``) and the list of *operations* it caused (``changes``).
``apply_ops`` folds operations into a table, so replaying the stored operations of a game's
event log rebuilds its state exactly, as does replaying its commands (``stepper.QmgStepper``).

The engine lives in modules by concern, lower ones never importing higher ones:
``tablestate`` (the value and its operations) → ``commands_base`` (shared helpers) → ``battles``
(held removals, protections) → ``legacy`` (the free rules of old games) → ``steps`` (the card-step
interpreter) → ``guided``, ``playfrom`` → ``cardsteps`` (step/skip) → ``window`` (use_card, pass)
→ ``phases``, ``airsteps``, ``reminders`` → this module, which dispatches the commands and
re-exports the public names the rest of the project imports from here.
"""
from __future__ import annotations

from dataclasses import replace

from gameplay.common import Outcome
from gameplay.common.kept import Kept

from .airretreat import AIR_STEP_ACTIONS, air_first_refusal, settle_air
from .airsteps import (
    _cmd_air_defence, _cmd_air_retreat, _cmd_air_step, _cmd_air_strike, _cmd_bolster, _cmd_deploy_air, _cmd_end_air,
    _cmd_move_air,
)
from .board import AXIS, Board
from .cardsteps import _cmd_skip, _cmd_step, free_steps_allowed, pending_view, step_choices
from .commands_base import (
    CARD_TYPE_NAMES, PHASE_NAMES, CommandError, _r, _refused, discard_from_deck, piece_names, pieces_moved,
    play_condition_refusal,
)
from .guided import GUIDED_ACTIONS, guided_choices
from .inputs import listed, one_of, unknown
from .phases import (
    _cmd_discard, _cmd_draw, _cmd_end_play, _cmd_play_card, _cmd_prepare, _cmd_reallocate, _cmd_score, _cmd_supply,
    draw_count, prepare_choices,
)
from .playfrom import play_from_choices
from .reasons import Reason
from .reminders import reminders
from .rules import strait_status, sudden_victory, sudden_victory_reason
from .state import Position
from .usable import StepWarning, Usable, steps_without_target, usable_now, use_text
from .tablestate import (
    BASIC_CARD_ACTION, CARD_RULES, CARD_TYPES, FREE_STEP_TYPES, HAND_SIZE, MAX_DECK, PHASES, STEP_TYPES, Cards,
    Options, Table, apply_ops, named_statuses, new_table, turn_context,
)
from .triggers import asked, battle_context, response_usable, status_usable, waiting_for
from .window import WindowView, _cmd_pass, _cmd_use_card, face_down_refusal, is_face_down_play, settle_window, window_view

__all__ = [
    "BASIC_CARD_ACTION", "CARD_RULES", "CARD_TYPES", "CARD_TYPE_NAMES", "COMMAND_TYPES", "FREE_STEP_TYPES",
    "GUIDED_ACTIONS", "HAND_SIZE", "MAX_DECK", "PHASES", "PHASE_NAMES", "STEP_TYPES", "Cards", "CommandError",
    "Options", "Table", "apply_command", "apply_ops", "battle_context", "discard_from_deck", "draw_count",
    "face_down_refusal", "free_steps_allowed", "guided_choices", "is_face_down_play", "named_statuses",
    "new_table", "pending_view", "piece_names", "pieces_moved", "play_condition_refusal", "play_from_choices",
    "prepare_choices", "reminders", "step_choices", "turn_context",
    # the decision bar's questions (card rules 6): who the response window waits for, what each country may use
    # now, what a card would do for nothing
    "StepWarning", "Usable", "WindowView", "asked", "response_usable", "status_usable", "steps_without_target",
    "usable_now", "use_text", "waiting_for", "window_view",
]


_TEXT_FIELDS = ("country", "space", "from_space", "card_id", "card_type", "action", "target_country", "kind", "name")


_ANSWERS = Kept(64)  # (board id, table id, legacy, command) -> (board, table, outcome): the last answers


def apply_command(board: Board, table: Table, command: dict, legacy: bool = False) -> Outcome:
    """Check one entry of a player and return what it changes (or why it is refused).

    ``legacy``: the rules of games stored before the card engine (free card steps, the window closed
    by ``end_play``): used only to replay such a game's log (``stepper.QmgStepper.replay``).

    A pure function of immutable values: the last answers are kept by the very board and table objects
    they were asked about (and the command's value), so asking the same again — «Закончить ход» plans its
    steps, then the write checks each of them on the same tables — costs a look-up."""
    try:
        key = (id(board), id(table), legacy, tuple(sorted(command.items())))
        found = _ANSWERS.get(key)
    except (TypeError, AttributeError):  # a command with a list or dict in it, or not a dict: not kept
        return _apply_command(board, table, command, legacy)
    if found is not None and found[0] is board and found[1] is table:
        return found[2]
    outcome = _apply_command(board, table, command, legacy)
    _ANSWERS.keep(key, (board, table, outcome))  # the objects kept alive: their ids are not reused meanwhile
    return outcome


def _apply_command(board: Board, table: Table, command: dict, legacy: bool) -> Outcome:
    if not isinstance(command, dict) or not isinstance(command.get("type"), str) or command["type"] not in _COMMANDS:
        kind = command.get("type") if isinstance(command, dict) else command
        raise CommandError((one_of("command type", kind, _COMMANDS) if isinstance(command, dict) and "type" in command
                            else f"a command needs 'type' — accepted: {listed(_COMMANDS)}")[:400])
    if table.finished:
        return _refused("game.over", "Игра окончена: ходы больше не принимаются.",
                        "The game is over: no more moves are accepted.")
    for key in _TEXT_FIELDS:  # ids and names are text; anything else is malformed, not merely illegal
        if command.get(key) is not None and not isinstance(command[key], str):
            raise CommandError(f"'{key}' must be text, got {type(command[key]).__name__}")
    country = command.get("country")
    if country is not None and country not in board.countries:
        raise CommandError(unknown("country", country, board.turn_order))
    if not legacy:
        waits = air_first_refusal(board, table, command)  # a stranded air force's owner chooses first
        if waits is not None:
            return Outcome(False, waits)
    handler = _COMMANDS[command["type"]]
    if command["type"] == "step" and command.get("action") in AIR_STEP_ACTIONS and not legacy:
        handler = _cmd_air_step
    outcome = handler(board, table, {**command, "_legacy": True} if legacy else command)
    if not outcome.ok:
        return outcome
    ops = list(outcome.changes)
    new = apply_ops(table, ops)
    notes = list(outcome.notes)
    reason = outcome.reason
    # strait changes and sudden victory follow any change of pieces
    if any(op["op"] in ("place", "remove") for op in ops):
        notes += _strait_notes(board, table.position, new.position)
        team = sudden_victory(board, new.position)
        if team is not None:
            end = {"op": "end", "winner": team, "reason": "sudden"}
            ops.append(end)
            new = apply_ops(new, [end])
            notes.append(sudden_victory_reason(board, new.position, team))
    data = dict(outcome.data)
    if not legacy:
        forget = _forget_auto(table, new, reason)  # the engine's own steps are spelt out right after, or never
        if forget:
            ops += forget
            new = apply_ops(new, forget)
        opened = command["type"] != "pass" and any(op["op"] == "window" and op.get("team") for op in outcome.changes)
        if opened and new.options.at_least(6):  # what the window that opens is about, for the phones' prompt
            stake = [{"op": "last", "last": {**(new.last or {}), "stake": {
                "by": command.get("country"), "ru": reason.ru, "en": reason.en}}}]
            ops += stake
            new = apply_ops(new, stake)
        more, said, closed = settle_window(board, new)  # a team nobody can answer for passes by itself
        if more:
            ops += more
            new = apply_ops(new, more)
        for note in said:
            reason = Reason(reason.code, f"{reason.ru} {note.ru}", f"{reason.en} {note.en}", reason.rule)
        if closed:
            data["window"] = {**(data.get("window") or {}), **closed["window"]}
        if command["type"] == "pass" and (closed.get("window") or {}).get("removed"):  # the pass that let it happen
            reason = Reason("window.removed", reason.ru, reason.en, reason.rule)
        elif command["type"] == "pass" and closed.get("window"):
            reason = Reason("window.done", f"{reason.ru} Ответов больше нет — окно ответов закрыто.",
                            f"{reason.en} No more answers — the response window is closed.", reason.rule)
        more, said = settle_air(board, new)  # an air force left with no army or navy: its step, or it goes
        if more:
            ops += more
            new = apply_ops(new, more)
        for note in said:  # what the engine did by itself goes into everyone's log line
            reason = Reason(reason.code, f"{reason.ru} {note.ru}", f"{reason.en} {note.en}", reason.rule)
        notes += said
    return replace(outcome, reason=reason, changes=tuple(ops), state=new, notes=tuple(notes), data=data)


def _forget_auto(before: Table, after: Table, reason: Reason) -> list[dict]:
    """The steps the engine carried out by itself in an earlier command are forgotten after this one (unless this
    one was such a step spelt out by hand): only the command right after may spell them."""
    old = list((before.last or {}).get("auto") or ())
    if not old or reason.code == "step.automatic":
        return []
    now = list((after.last or {}).get("auto") or ())
    kept = [e for e in now if e not in old]
    return [] if kept == now else [{"op": "last", "last": {**after.last, "auto": kept}}]


_COMMANDS = {
    "play_card": _cmd_play_card, "step": _cmd_step, "end_play": _cmd_end_play, "supply": _cmd_supply,
    "score": _cmd_score, "discard": _cmd_discard, "draw": _cmd_draw, "use_card": _cmd_use_card,
    "pass": _cmd_pass, "reallocate": _cmd_reallocate, "deploy_air": _cmd_deploy_air, "move_air": _cmd_move_air,
    "end_air": _cmd_end_air, "air_retreat": _cmd_air_retreat, "air_defence": _cmd_air_defence,
    "air_strike": _cmd_air_strike, "bolster": _cmd_bolster, "skip": _cmd_skip,
    "prepare": _cmd_prepare,
}
COMMAND_TYPES = tuple(_COMMANDS)


def _strait_notes(board, before: Position, after: Position) -> list[Reason]:
    old, new = strait_status(board, before), strait_status(board, after)
    notes = []
    for sid, team in new.items():
        if old[sid] != team:
            s = board.straits[sid]
            a, b = (board.spaces[x] for x in s.seas)
            closed_ru, open_ru = ("коалиции", "«оси»") if team == AXIS else ("«оси»", "коалиции")
            closed_en, open_en = ("Allies", "Axis") if team == AXIS else ("Axis", "Allies")
            notes.append(_r("reminder.strait", f"Пролив «{s.ru}» теперь открыт для {open_ru}: для {closed_ru} моря "
                            f"«{a.ru}» и «{b.ru}» больше не соседние.",
                            f"The {s.en} strait is now open for the {open_en}: for the {closed_en}, {a.en} and "
                            f"{b.en} are no longer adjacent."))
    return notes

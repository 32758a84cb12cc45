"""The card-step interpreter's core: a played or used card's steps (``program.compile_card``) are opened
in front of those already open; the engine applies the mechanical ones (one legal choice left), closes
the ones with nothing to do, and the rest wait for the player's choice (``_apply_step``)."""
from __future__ import annotations

from gameplay.common import Outcome, refused

from . import program
from .battles import _attack_over, _battle_ops, _held_note, _is_protected, _place_ops, _protected_refusal
from .cards import default_catalogue
from .commands_base import (
    CommandError, RULE_PLAY_EN, RULE_PLAY_RU, RULE_USE_EN, RULE_USE_RU, _card_title, _done, _r, _refused,
    discard_from_deck, piece_names,
)
from .reasons import Reason
from .effects import condition_holds, describe_condition
from .rules import Action, apply_action, compute_supply
from .state import NAVY, Piece
from .tablestate import STEP_TYPES, apply_ops, turn_context

def _choice_ops(board, table, step: dict, cand: dict) -> tuple[list[dict], list[Reason], Reason] | Outcome:
    """Apply one legal choice of ``step``: (operations, notes, reason) or a refusal."""
    kind = step["kind"]
    ctx = turn_context(table)
    if kind in ("build", "recruit"):
        action = Action(cand["action"], cand["country"], cand["space"])
        verdict, _ = apply_action(board, table.position, action, context=ctx)
        if not verdict.legal:
            return refused(verdict.reason)
        return _place_ops(board, table, verdict, kind, step["by"]), list(verdict.warnings), verdict.reason
    if kind == "battle":
        action = Action(cand["action"], step["by"], cand["space"], step.get("target_country"))
        verdict, _ = apply_action(board, table.position, action, context=ctx)
        if not verdict.legal:
            return refused(verdict.reason)
        if verdict.removes and _is_protected(table, verdict.removes[0]):
            return _protected_refusal(board, verdict.removes[0])
        ops = _battle_ops(board, table, verdict, action)
        if any(op["op"] == "hold" for op in ops):
            r, e = piece_names(board, verdict.removes)
            return ops, [_held_note(board, verdict), *verdict.warnings], _r(
                "battle.held", f"Атака: под ударом {r}; удаление ждёт ответа противника ({RULE_USE_RU}).",
                f"Battle: {e} is under attack; the removal waits for the opponents' answer ({RULE_USE_EN}).")
        return ops, list(verdict.warnings), verdict.reason
    if kind == "eliminate":
        piece = Piece(cand["country"], cand["kind"], cand["space"])
        if _is_protected(table, piece):
            return _protected_refusal(board, piece)
        c, sp = board.countries[piece.country], board.spaces[piece.space]
        last = {**(table.last or {}), "removed": piece.to_dict()}
        answer = [{"op": "window", "team": board.team_of(piece.country), "passes": 0}] \
            if table.options.at_least(6) else []  # card rules 6: the owner's team may answer the elimination
        return ([{"op": "remove", **piece.to_dict()}, {"op": "last", "last": last}, *answer], [],
                _r("card.eliminated", f"Уничтожена фишка страны {c.ru} в «{sp.ru}».",
                   f"{c.en}'s piece in {sp.en} is eliminated."))
    if kind == "protect":
        piece = {"country": cand["country"], "kind": cand["kind"], "space": cand["space"]}
        c, sp = board.countries[cand["country"]], board.spaces[cand["space"]]
        ops = [{"op": "protect", "piece": piece}]
        if table.hold and table.hold["piece"] == piece:
            ops += [{"op": "hold", "hold": None}, *_attack_over(table)]
        return (ops, [], _r("card.protect", f"Фишку страны {c.ru} в «{sp.ru}» в этом ходу не убирают.",
                            f"{c.en}'s piece in {sp.en} is not removed this turn."))
    if kind == "discard" and cand.get("action") == "eliminate":  # the card's alternative: one's own piece removed
        piece = Piece(cand["country"], cand["kind"], cand["space"])
        if _is_protected(table, piece):
            return _protected_refusal(board, piece)
        c, sp = board.countries[piece.country], board.spaces[piece.space]
        ru, en = _card_title(step["card"])
        last = {**(table.last or {}), "removed": piece.to_dict()}
        return ([{"op": "remove", **piece.to_dict()}, {"op": "last", "last": last}], [],
                _r("card.alternative", f"«{ru}»: {c.ru} вместо сброса карт убирает "
                   f"{'свой флот' if piece.kind == NAVY else 'свою армию'} из сектора «{sp.ru}» (текст карты).", f"“{en}”: instead of discarding, {c.en} removes its "
                   f"{piece.kind} from {sp.en} (card text)."))
    if kind == "discard":
        target = cand["target_country"]
        out = discard_from_deck(board, table, target, int(step.get("n", 1)))
        ops = list(out.changes)
        played = default_catalogue().get(step["card"])
        if played is not None and played.type == "economic_warfare":  # remembered for a card that cancels it
            k = table.cards_of(target)
            lost = -sum(op["n"] for op in ops if op["op"] == "vp")
            hits = {**((table.last or {}).get("ew_hits") or {}),
                    target: {"deck": k.deck, "hand": k.hand, "discard": k.discard, "vp": lost}}
            ops.append({"op": "last", "last": {**(table.last or {}), "ew": played.id,
                                               "by": step.get("player", step["by"]), "ew_hits": hits}})
            if table.options.at_least(6):  # card rules 6: the target's team may answer the discard
                ops.append({"op": "window", "team": board.team_of(target), "passes": 0})
        return ops, [], out.reason
    if kind == "discard_status" and not cand.get("card_id"):
        kind = "discard_response"
    if kind == "discard_status":
        target = cand["target_country"]
        k = table.cards_of(target)
        sid = cand.get("card_id")
        if sid not in k.statuses:
            return _refused("card.no_status", "Такого статуса у этой страны на столе нет (текст карты).",
                            "That country has no such status on the table (card text).")
        rest = list(k.statuses)
        rest.remove(sid)
        ru, en = _card_title(sid)
        # to its owner's discard pile: one copy gone (a one-copy status cannot come back into play twice)
        ops = [{"op": "cards", "country": target, "statuses": rest, "discard": k.discard + 1}]
        if table.options.new_card_rules:  # card rules 2: the copy was not counted as gone
            ops.append({"op": "gone", "card": sid})
        return (ops, [],
                _r("card.status_discarded", f"Статус «{ru}» сброшен.", f"The status “{en}” is discarded."))
    if kind == "discard_response":
        target = cand["target_country"]
        k = table.cards_of(target)
        return ([{"op": "cards", "country": target, "responses": k.responses - 1, "discard": k.discard + 1}], [],
                _r("card.response_discarded", "Закрытый ответ сброшен не глядя.", "A face-down response is discarded unseen."))
    raise CommandError(f"not a step with choices: {kind}")


def _auto_choice(board, table, step, cands) -> dict | None:
    """The one choice a mechanical step leaves (the engine applies it), or None (the player taps)."""
    kind = step["kind"]
    if kind == "manual":
        return None
    if kind in ("discard", "discard_response"):
        if kind == "discard_response" and table.cards_of(step["targets"][0]).responses <= 0:
            return None
        return cands[0] if len(cands) == 1 else None
    if kind == "discard_status":
        return None
    if step.get("optional") or kind == "protect":
        return None
    return cands[0] if len(cands) == 1 else None


def run_pending(board, table, steps) -> tuple[list[dict], list[Reason]]:
    """Open ``steps`` (in front of those already open): mechanical steps at the head are applied by
    the engine, steps with nothing left to do close; the rest wait for the player (one ``pending`` op).
    A step's targets are judged when its turn comes; the steps of an "any order" card (card rules 6) wait
    together while any of them has a target, and close (each with its reason) when none has."""
    ops: list[dict] = []
    notes: list[Reason] = []
    steps = [dict(x) for x in steps]
    current = table
    while steps:
        head = steps[0]
        if current.finished:
            break
        group = program.any_order_group(steps)
        if group > 1:
            if any(_step_targets(board, current, st) for st in steps[:group]):
                break  # the player chooses which of them comes first
            notes += [void_note(board, current, st) for st in steps[:group]]
            del steps[:group]
            continue
        cands = _step_targets(board, current, head)
        if head["kind"] == "discard_response" and current.cards_of(head["targets"][0]).responses <= 0:
            cands = []

        if head.get("all") and cands:
            for cand in cands:
                piece = Piece(cand["country"], cand["kind"], cand["space"])
                if not _is_protected(current, piece):
                    more = [{"op": "remove", **piece.to_dict()}]
                    more += _remember_auto(apply_ops(current, more), head, {**cand, "action": "eliminate"})
                    ops += more
                    current = apply_ops(current, more)
            steps.pop(0)
            continue
        if head["kind"] not in ("manual", "play_from") and not cands:
            notes.append(void_note(board, current, head))
            steps.pop(0)
            continue
        choice = _auto_choice(board, current, head, cands)
        if choice is None:
            break
        done = _choice_ops(board, current, head, choice)
        if isinstance(done, Outcome):
            break
        more, extra, reason = done
        more = list(more) + _remember_auto(apply_ops(current, more), head, choice)
        current = apply_ops(current, more)
        ops += more
        notes += extra + [reason]
        if head.get("left", 1) > 1:
            steps[0] = {**head, "left": head["left"] - 1}
        else:
            steps.pop(0)
    ops.append({"op": "pending", "steps": steps})
    return ops, notes


def void_note(board, table, step) -> Reason:
    """Why a step closes without being carried out: it has no legal target when its turn comes (or the card's
    condition for it does not hold then), named so the player knows which of the card's steps it was."""
    ru, en = _card_title(step["card"])
    what_ru, what_en = program.describe(board, step, "ru", title=False), program.describe(board, step, "en", title=False)
    cond = step.get("requires")
    if cond and step["kind"] != "protect" and not condition_holds(
            board, table.position.pieces, cond, step["by"], compute_supply(board, table.position, turn_context(table))):
        need_ru, need_en = describe_condition(board, cond, step["by"])
        return _r("card.step_void", f"«{ru}»: шаг «{what_ru}» пропущен — условие карты не выполнено ({need_ru}) "
                  f"({RULE_PLAY_RU}).", f"“{en}”: the step “{what_en}” is skipped — the card's condition does not "
                  f"hold (it {need_en}) ({RULE_PLAY_EN}).")
    return _r("card.step_void", f"«{ru}»: шаг «{what_ru}» пропущен — когда до него дошла очередь, допустимой цели "
              f"нет ({RULE_PLAY_RU}: действия карты выполняются по очереди, шаг без цели пропускается).",
              f"“{en}”: the step “{what_en}” is skipped — it has no legal target now that its turn has come "
              f"({RULE_PLAY_EN}: a card's actions are carried out in turn; a step with no target is skipped).")


# a step's kind -> the ``step`` command's action that carries out its choices (when the choice names none)
STEP_ACTION = {"discard": "discard_from_deck", "discard_status": "discard_status",
               "discard_response": "discard_response", "protect": "protect", "eliminate": "eliminate"}


def auto_entry(step: dict, choice: dict) -> dict:
    """A choice the engine made by itself, as the ``step`` command that would have made it."""
    action = choice.get("action") if choice.get("action") in STEP_TYPES else STEP_ACTION.get(step["kind"], step["kind"])
    entry = {"card": step["card"], "action": action}
    for key in ("space", "kind", "card_id"):
        if choice.get(key):
            entry[key] = choice[key]
    who = choice.get("target_country") or choice.get("country")
    if who:
        entry["country"] = who
    return entry


def _remember_auto(table, step, choice) -> list[dict]:
    """Card rules 6: a choice the engine applied by itself is remembered until the next command, so the same
    step written out by hand (a rulings file that spells every step) is accepted as already done."""
    if not table.options.at_least(6):
        return []
    last = dict(table.last or {})
    last["auto"] = [*(last.get("auto") or ()), auto_entry(step, choice)]
    return [{"op": "last", "last": last}]


def _step_targets(board, table, step) -> list[dict]:
    found = program.targets(board, table.position, step, table.protected, turn_context(table))
    if step["kind"] == "discard_status":
        out = [{**t, "card_id": sid} for t in found for sid in dict.fromkeys(table.cards_of(t["target_country"]).statuses)]
        if step.get("responses"):  # «Мэджик»: a status or a face-down response
            out += [{**t, "action": "discard_response"} for t in found
                    if table.cards_of(t["target_country"]).responses > 0]
        return out
    return found


def _apply_step(board, table, index: int, cand: dict) -> Outcome:
    """Carry out a choice of the open step ``index``: the "may" steps before it are passed over — unless they
    belong to the same "any order" card's group at the head, which stay open (card rules 6)."""
    step = table.pending[index]
    done = _choice_ops(board, table, step, cand)
    if isinstance(done, Outcome):
        return done
    ops, notes, reason = done
    kept = list(table.pending[:index]) if index < program.any_order_group(table.pending) else []
    rest = list(table.pending[index:])
    if step.get("left", 1) > 1:
        rest[0] = {**step, "left": step["left"] - 1}
    else:
        rest.pop(0)
    rest = kept + rest
    after = apply_ops(table, ops)
    more, more_notes = run_pending(board, after, rest) if not after.hold else ([{"op": "pending", "steps": rest}], [])
    return _done(reason, tuple(ops + more), notes=tuple(notes + more_notes))

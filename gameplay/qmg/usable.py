"""What a country may use right now, and what a card would do for nothing — for the phones' decision bar.

``usable_now(board, table, country)`` lists the country's face-up statuses whose trigger has just happened and,
while a response window is open for its team, the response *kinds* of its deck it could reveal (the engine knows
only how many responses a country holds face down; the owner's phone keeps which): each with a one-line text of
what it will do and the exact command that uses it.

``steps_without_target(board, table, card_id, country)`` says, for a card about to be played (or a status or
response about to be used), which of its steps would have no legal target — taking the order of its steps into
account: a step an earlier step of the card makes possible is not reported. The play stays legal (the rules let a
card be played for nothing); this is a warning to show before it.

Pure Python, no Django.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import program
from .board import Board
from .cards import Card, default_catalogue
from .commands_base import _card_cost
from .effects import condition_holds, describe_condition
from .inputs import cards_en, cards_ru_acc
from .reasons import Reason
from .rules import compute_supply, victory_step
from .steps import _choice_ops, _step_targets
from .tablestate import Table, apply_ops, turn_context
from .triggers import battle_context, response_usable, status_usable


@dataclass(frozen=True)
class Usable:
    """A status or response ``country`` may use now."""

    card_id: str
    kind: str  # "status" (face up) or "response" (a kind of card the country may hold face down)
    country: str
    text: Reason  # what it will do, one line («Блицкриг»: создать армию в секторе «Юг СССР» — цена: …)
    command: dict  # the command that uses it: {"type": "use_card", "country": …, "card_id": …}


def usable_now(board: Board, table: Table, country: str) -> list[Usable]:
    """The country's statuses face up that may be used right now, then the response kinds of its deck it could
    reveal now (only while it holds face-down responses and its team may answer), in the catalogue's order."""
    if table.finished or country not in board.countries:
        return []
    cat = default_catalogue()
    out = []
    for sid in dict.fromkeys(table.cards_of(country).statuses):
        card = cat.get(sid)
        if card is not None and status_usable(board, table, country, card):
            out.append(_usable(board, table, country, card))
    for card in cat.by_type("response", country):
        if response_usable(board, table, country, card):
            out.append(_usable(board, table, country, card))
    return out


def _usable(board, table, country, card: Card) -> Usable:
    return Usable(card.id, card.type, country, use_text(board, table, card, country),
                  {"type": "use_card", "country": country, "card_id": card.id})


def use_text(board: Board, table: Table, card: Card, country: str) -> Reason:
    """What using ``card`` now would do, in one line per language: its steps as they stand now (where they act),
    the piece it would save, the points it adds, then its cost."""
    what_ru, what_en = _what(board, table, card, country)
    cost = _card_cost(card) or {}
    cost_ru = cost_en = ""
    if cost.get("own_deck"):
        n = int(cost["own_deck"])
        cost_ru = f" — цена: сбросьте из колоды {cards_ru_acc(n)}"
        cost_en = f" — cost: discard {cards_en(n)} from the top of your deck"
    elif cost.get("own_hand"):
        n = int(cost["own_hand"])
        cost_ru = f" — цена: сбросьте с руки {cards_ru_acc(n)}"
        cost_en = f" — cost: discard {cards_en(n)} from your hand"
    return Reason("usable." + card.type, f"«{card.name_ru}»: {what_ru}{cost_ru}",
                  f"“{card.name_en}”: {what_en}{cost_en}")


def _what(board, table, card: Card, country) -> tuple[str, str]:
    if card.timing == "victory_phase":
        result = victory_step(board, table.position, country, context=turn_context(table))
        points = sum(line.points for line in result.lines if line.card == card.id)
        return (f"+{points} ПО в этой фазе победных очков (начисляются вместе с остальными)",
                f"+{points} VP in this victory step (scored with the rest)")
    held = (table.hold or {}).get("piece")
    steps = program.compile_card(board, table.position, card, country,
                                 battle_context(table, card, country, board) or table.last, lazy=True)
    if held and any(t["country"] == held["country"] and t["kind"] == held["kind"] and t["space"] == held["space"]
                    for st in steps if st["kind"] == "protect" for t in _step_targets(board, table, st)):
        c, sp = board.countries[held["country"]], board.spaces[held["space"]]
        kind_ru = {"army": "армию", "navy": "флот"}[held["kind"]]
        return (f"спасти {kind_ru} {c.of_ru()} в секторе «{sp.ru}» от атаки — до конца хода её не убирают",
                f"save {c.en}'s {held['kind']} in {sp.en} from the attack — it stays for the rest of the turn")
    cancel = card.effects_of("cancel_card")
    if cancel:
        ew = default_catalogue().get((table.last or {}).get("ew") or "")
        name_ru, name_en = (ew.name_ru, ew.name_en) if ew else ("карту", "the card")
        c = board.countries[country]
        return (f"отменить «{name_ru}»: {c.ru} {c.verb_ru('возвращает', 'возвращают')} сброшенные ею карты",
                f"cancel “{name_en}”: {c.en} gets back the cards it made {c.en} discard")
    kept = card.effects_of("always_supplied")
    if kept:
        e = kept[0]
        c = board.countries[e.get("country") or country]
        kind_ru = {"army": "армии", "navy": "флоты"}.get(e.get("piece"), "фишки")
        return (f"все {kind_ru} {c.of_ru()} снабжаются до конца хода",
                f"every {e.get('piece', 'piece')} of {c.en} counts as supplied for the rest of the turn")
    shown = []
    for st in steps:
        if st["kind"] == "manual":
            continue
        found = sorted({t["space"] for t in _step_targets(board, table, st) if t.get("space")})
        shown.append({**st, "spaces": found} if found and st["kind"] in ("build", "recruit", "battle") else st)
    if shown:
        ru = " — затем ".join(program.describe(board, {**st, "optional": False}, "ru", title=False) for st in shown)
        en = "; then ".join(program.describe(board, {**st, "optional": False}, "en", title=False) for st in shown)
        return ru, en
    return card.summary_ru.rstrip("."), card.summary_en.rstrip(".")


# ------------------------------------------------------------------------------------------
# B3: the steps a card would carry out for nothing
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepWarning:
    """A step of a card that would have no legal target if the card were played (or used) now."""

    effect: int  # the index of the card's effect the step carries out (0 = the first action printed)
    kind: str  # build, recruit, battle, eliminate, protect
    text: Reason  # which step and why, in both languages
    short: Reason | None = None  # the same in a few words, for a list under the card's name: «создать флот: … — допустимой цели нет»


MAX_STATES = 240  # positions explored for one card (each choice of each step, and leaving a "may" step out)
SEARCHED = ("build", "recruit", "battle", "eliminate", "protect")


def steps_without_target(board: Board, table: Table, card_id: str, country: str | None = None) -> list[StepWarning]:
    """The steps of ``card_id`` (an event or Economic Warfare card to play, a status or response to use) that would
    have no legal target now. A step counts as possible when some choice of the steps before it gives it a target
    (the engine judges a step's targets when its turn comes); an "any order" card's steps may come in any order.
    Empty for a card whose effects are not steps (a basic card chooses its space at play; scoring, supply)."""
    card = default_catalogue().get(card_id)
    if card is None or card.type not in ("event", "economic_warfare", "status", "response"):
        return []
    country = country or card.country
    probe = replace(table, used=table.used + (card.id,))  # a card used this turn acts for the turn (Truk)
    last = battle_context(table, card, country, board) if card.type in ("status", "response") else None
    steps = [st for st in program.compile_card(board, probe.position, card, country, last or probe.last, lazy=True)]
    wanted = {st["effect"]: st for st in steps if st["kind"] in SEARCHED}
    if not wanted:
        return []
    possible = _explore(board, probe, steps, set(wanted))
    out = []
    for effect, st in sorted(wanted.items()):
        if effect not in possible:
            out.append(StepWarning(effect, st["kind"], *_warning(board, probe, card, st)))
    return out


def _explore(board, table, steps, wanted: set[int]) -> set[int]:
    """The effects among ``wanted`` that get a target on some way through the card's steps (breadth first, each
    position once, at most MAX_STATES)."""
    possible: set[int] = set()
    frontier = [(table, tuple(steps))]
    seen = set()
    explored = 0
    while frontier and explored < MAX_STATES and possible != wanted:
        t, rest = frontier.pop(0)
        key = (frozenset(t.position.pieces), tuple((st.get("effect"), st.get("left", 1)) for st in rest))
        if key in seen or not rest:
            continue
        seen.add(key)
        explored += 1
        group = max(1, program.any_order_group(list(rest)))
        open_ = list(range(group))
        if rest[0]["kind"] not in SEARCHED:  # a discard, a card played, a guided step: it does not move pieces here
            frontier.append((t, rest[1:]))
            continue
        any_target = False
        for i in open_:
            st = rest[i]
            cands = _step_targets(board, t, st)
            if not cands:
                continue
            any_target = True
            possible.add(st.get("effect"))
            for cand in cands:
                done = _choice_ops(board, t, st, cand)
                if not isinstance(done, tuple):
                    continue
                after = apply_ops(t, done[0])
                if after.hold:  # assume nobody saves it: the removal happens
                    after = apply_ops(after, [{"op": "remove", **after.hold["piece"]}, {"op": "hold", "hold": None}])
                left = list(rest)
                if st.get("left", 1) > 1:
                    left[i] = {**st, "left": st["left"] - 1}
                else:
                    left.pop(i)
                frontier.append((after, tuple(left)))
            if st.get("optional") or group > 1:  # a "may" step left out
                frontier.append((t, tuple(x for j, x in enumerate(rest) if j != i)))
        if not any_target:
            frontier.append((t, tuple(rest[group:])))
    if frontier and explored >= MAX_STATES:  # not every way looked at: report only what no way could reach
        possible |= {st.get("effect") for _, rest in frontier for st in rest}
    return possible


def _warning(board, table, card: Card, step: dict) -> tuple[Reason, Reason]:
    what_ru = program.describe(board, {**step, "optional": False}, "ru", title=False)
    what_en = program.describe(board, {**step, "optional": False}, "en", title=False)
    cond = step.get("requires")
    if cond and step["kind"] != "protect" and not condition_holds(
            board, table.position.pieces, cond, step["by"], compute_supply(board, table.position, turn_context(table))):
        need_ru, need_en = describe_condition(board, cond, step["by"])
        why_ru, why_en = f"условие карты не выполнено ({need_ru})", f"the card's condition does not hold (it {need_en})"
    else:
        why_ru, why_en = "допустимой цели нет", "there is no legal target"
    return (Reason("card.step_without_target",
                   f"«{card.name_ru}»: шаг «{what_ru}» сейчас ничего не сделает — {why_ru}; карту всё равно можно "
                   f"сыграть (правило «Как сыграть карту»).",
                   f"“{card.name_en}”: the step “{what_en}” would do nothing now — {why_en}; the card may still be "
                   f"played (rule “Playing a card”)."),
            Reason("card.step_without_target", f"{what_ru} — {why_ru}", f"{what_en} — {why_en}"))


__all__ = ["MAX_STATES", "StepWarning", "Usable", "steps_without_target", "usable_now", "use_text"]

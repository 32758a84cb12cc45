"""``play_from`` steps: a card played from the deck, the discard pile or the hand because another card
says so — the choices offered, the checks (type, copies, the pile, its own play condition) and the
counts moved, then the played card's own steps opened."""
from __future__ import annotations

from gameplay.common import Outcome

from . import program
from .board import Board
from .cards import default_catalogue
from .commands_base import (
    CARD_TYPE_NAMES, CommandError, _card_title, _copies_left, _copies_refusal, _done, _r, _refused,
    play_condition_refusal,
)
from .inputs import a_an, unknown
from .state import ARMY, NAVY
from .steps import run_pending
from .tablestate import BASIC_CARD_ACTION, CARD_TYPES, Table, apply_ops

PLAY_FROM_RULE = ("правило «Как сыграть карту»: карта, сыгранная по тексту другой карты",
                  "rule “Playing a card”: a card played by another card's text")


PLAY_FROM_TYPES = tuple(BASIC_CARD_ACTION) + ("status", "response", "event", "economic_warfare")
PILES = {"own_deck": "deck", "own_discard": "discard", "hand": "hand"}


def play_from_choices(board: Board, table: Table, step: dict) -> list[dict]:
    """Every card a ``play_from`` step may play now, each with its command: a basic card by type; a
    status, event or Economic Warfare card by id (its copies respected; from the discard pile any named
    card of which a copy is not in play — the pile holds cards the engine cannot name, and its owner may
    look through it); a response face down, anonymous (no ``card_id``), offered only when one of the
    country's responses may be there. Keys: action, country, card_type, card_id (None for a basic card or a
    face-down response), source (own_deck, own_discard, hand), response_ids (the face-down response only:
    the ids of the country's response cards that may go face down, for its owner's phone), command."""
    by = step["by"]
    source = step.get("source", "hand")
    pile = PILES.get(source, "hand")
    if getattr(table.cards_of(by), pile) <= 0:
        return []
    allowed = step.get("card_types")
    types = PLAY_FROM_TYPES if allowed in (None, "any") else [t for t in PLAY_FROM_TYPES if t in allowed]
    cat = default_catalogue()
    out: list[dict] = []

    def offer(card_type, card_id=None, **more):
        command = {"type": "step", "country": by, "action": "play_from", "card_type": card_type}
        if card_id:
            command["card_id"] = card_id
        out.append({"action": "play_from", "country": by, "card_type": card_type, "card_id": card_id,
                    "source": source, **more, "command": command})

    for t in types:
        if t in BASIC_CARD_ACTION:
            offer(t)
        elif t == "response":
            ids = [card.id for card in cat.by_type(t, by) if _may_take(table, card, pile)]
            if ids:
                offer(t, response_ids=ids)
        else:
            for card in cat.by_type(t, by):
                if card.id != step["card"] and _may_take(table, card, pile) \
                        and play_condition_refusal(board, table, card, by) is None:
                    offer(t, card.id)
    return out[:program.MAX_CANDIDATES]


def _may_take(table, card, pile: str) -> bool:
    """May a copy of this named card be taken from ``pile`` now? From the deck or the hand only while a
    copy is neither in play nor known discarded. From the discard pile (card rules 3) while a copy is not in
    play as a status: the pile also holds the cards the engine cannot name (setup, hand and deck discards),
    and its owner may look through it; card rules 2: a copy known to be there (``gone``) or one left."""
    if pile == "discard":
        if table.options.new_card_rules:
            return card.copies - sum(k.statuses.count(card.id) for _, k in table.cards) > 0
        return card.id in table.gone or _copies_left(table, card) > 0
    return _copies_left(table, card) > 0


def _play_from(board, table, index: int, cmd) -> Outcome:
    """A card played from the deck, the discard pile or the hand because another card says so: the counts
    move (the card comes out of its pile and goes where a played card goes), then its own steps open."""
    step = table.pending[index]
    by = step["by"]
    card_type = cmd.get("card_type")
    allowed = step.get("card_types")
    ru, en = _card_title(step["card"])
    if card_type not in CARD_TYPES or card_type in ("discard_unused", "bombing") or (
            allowed != "any" and card_type not in allowed):
        names = "любую" if allowed == "any" else ", ".join(CARD_TYPE_NAMES[t][0] for t in allowed)
        names_en = "any" if allowed == "any" else ", ".join(CARD_TYPE_NAMES[t][1] for t in allowed)
        return _refused("play_from.type", f"«{ru}» позволяет сыграть только: {names} ({PLAY_FROM_RULE[0]}).",
                        f"“{en}” lets you play only: {names_en} ({PLAY_FROM_RULE[1]}).")
    if card_type == "response":  # face down: its identity stays in its owner's private list, never in the log
        if cmd.get("card_id"):
            raise CommandError("a response is played face down: send it without card_id (the owner's private "
                               "list keeps its name)")
        card = None
    else:
        card = default_catalogue().get(cmd.get("card_id") or "")
        if card is None and cmd.get("card_id"):
            raise CommandError(unknown("card id", cmd.get("card_id"),
                                       [c.id for c in default_catalogue().by_country(by)]))
        if card is None:
            basic = default_catalogue().by_type(card_type, by)
            card = basic[0] if card_type in BASIC_CARD_ACTION and basic else None
        if card is None:
            c = board.countries[by]
            return _refused("play_from.name", f"«{ru}»: назовите карту — статус, событие или «Экономическая война» "
                            f"из колоды страны {c.ru} ({PLAY_FROM_RULE[0]}).", f"“{en}”: name the card — a "
                            f"status, event or Economic Warfare card of {c.en}'s deck ({PLAY_FROM_RULE[1]}).")
        if card.country != by or card.type != card_type:
            c = board.countries[by]
            return _refused("play_from.other_card", f"«{ru}»: «{card.name_ru}» — не карта «"
                            f"{CARD_TYPE_NAMES[card_type][0]}» из колоды страны {c.ru} ({PLAY_FROM_RULE[0]}).",
                            f"“{en}”: “{card.name_en}” is not {a_an(CARD_TYPE_NAMES[card_type][1])} card of "
                            f"{c.en}'s deck ({PLAY_FROM_RULE[1]}).")
    new_rules = table.options.new_card_rules  # card rules 2: none of the refusals below but the copies'
    if new_rules and card is not None and card.id == step["card"]:
        return _refused("play_from.itself", f"«{ru}» не может сыграть саму себя: по её тексту играют другую карту "
                        f"({PLAY_FROM_RULE[0]}).", f"“{en}” cannot play itself: its text plays another card "
                        f"({PLAY_FROM_RULE[1]}).")
    if card is not None:  # a card played through another card's text keeps its own play condition
        problem = play_condition_refusal(board, table, card, by)
        if problem:
            return problem
    pile = PILES[step.get("source", "hand")]
    # a card taken back from the discard pile is one of its copies already gone there
    from_discard = card is not None and pile == "discard" and card.id in table.gone
    k = table.cards_of(by)
    if getattr(k, pile) <= 0:
        return _refused("play_from.empty", f"«{ru}»: в этой стопке нет карт ({PLAY_FROM_RULE[0]}).",
                        f"“{en}”: that pile is empty ({PLAY_FROM_RULE[1]}).")
    if new_rules and card is not None and card_type not in BASIC_CARD_ACTION and pile == "discard" \
            and not from_discard and not _may_take(table, card, pile):
        return _refused("play_from.not_in_discard", f"«{ru}»: карты «{card.name_ru}» нет в вашей стопке сброса — "
                        f"все её экземпляры в игре ({PLAY_FROM_RULE[0]}).", f"“{en}”: “{card.name_en}” is not in "
                        f"your discard pile — every copy of it is in play ({PLAY_FROM_RULE[1]}).")
    if card is not None and card_type not in BASIC_CARD_ACTION and _copies_left(table, card) <= 0 \
            and not from_discard:
        return _copies_refusal(card)
    if new_rules and card_type == "response" and not any(_may_take(table, r, pile)
                                           for r in default_catalogue().by_type("response", by)):
        c = board.countries[by]
        return _refused("play_from.no_response", f"«{ru}»: ни одной карты ответа страны {c.ru} не может быть в этой "
                        f"стопке ({PLAY_FROM_RULE[0]}).", f"“{en}”: none of {c.en}'s response cards can be in that "
                        f"pile ({PLAY_FROM_RULE[1]}).")
    counts = {"deck": k.deck, "hand": k.hand, "discard": k.discard}
    counts[pile] -= 1
    change = {"op": "cards", "country": by, **counts}
    if card_type == "status":
        change["statuses"] = list(k.statuses) + [card.id]
    elif card_type == "response":
        change["responses"] = k.responses + 1
    else:
        change["discard"] = counts["discard"] + 1
    ops: list[dict] = [change]
    if from_discard:
        ops.append({"op": "gone", "card": card.id, "back": True})
    if card_type in ("event", "economic_warfare"):
        ops.append({"op": "gone", "card": card.id})
    if step.get("then") == "draw_1" and counts["deck"] > 0:
        ops.append({"op": "cards", "country": by, "deck": counts["deck"] - 1, "hand": counts["hand"] + 1})
    after = apply_ops(table, ops)
    follow: list[dict] = []
    if card_type in BASIC_CARD_ACTION:
        kind, extra = {"build_army": ("build", {"countries": [by], "piece": ARMY}),
                       "build_navy": ("build", {"countries": [by], "piece": NAVY}),
                       "land_battle": ("battle", {"domain": "land"}),
                       "sea_battle": ("battle", {"domain": "sea"})}[card_type]
        follow.append({"card": card.id, "kind": kind, "by": by, "spaces": None, "optional": True, "left": 1, **extra})
    elif card_type in ("event", "economic_warfare"):
        follow = program.compile_card(board, after.position, card, by, after.last,
                                      alternatives=table.options.new_card_rules,
                                      per_piece=table.options.at_least(4), lazy=table.options.at_least(6))
    rest = follow + list(table.pending[index + 1:])  # "may" steps before it are passed over
    more, notes = run_pending(board, after, rest)
    c_ru, c_en = (card.name_ru, card.name_en) if card_type != "response" else CARD_TYPE_NAMES["response"]
    reason = _r("play_from.ok", f"«{ru}»: сыграна карта «{c_ru}».", f"“{en}”: the card “{c_en}” is played.")
    return _done(reason, tuple(ops + more), notes=tuple(notes))

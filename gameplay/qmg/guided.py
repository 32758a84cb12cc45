"""Guided cards: a card whose text the engine cannot run step by step opens a manual step that accepts
only what the text allows (``GUIDED_ACTIONS``), and puts cards back into the deck (``to_deck``) with the
card's own cost charged."""
from __future__ import annotations

from gameplay.common import Outcome

from .board import Board
from .commands_base import (
    CommandError, RULE_PLAY_EN, RULE_PLAY_RU, STEP_WORDS, _card_title, _done, _int, _pay_cost, _r, _refused,
    _turn_card,
)
from .inputs import cards_en, cards_ru, one_of
from .tablestate import Table, apply_ops

# What each guided card's text lets its manual step enter (besides removing one's own piece, always allowed):
# action -> limits. ``own``: own pieces only; ``kinds``: piece kinds; ``spaces``: where; ``piles``/``n``: to_deck's
# pile and most cards; discard_from_deck: own deck, at most ``n``. Nothing else (no VP, no other board action).
GUIDED_ACTIONS: dict[str, dict[str, dict]] = {
    "ger_volkssturm": {"land_battle": {"spaces": ("germany",)}},
    "ger_superior_planning": {},  # looking at and reordering the top of the deck changes no count
    # ``rebuilds``: only an army this step took off may be built again, one at a time (card rules 5)
    "ger_autobahn": {"build_army": {"own": True, "rebuilds": True}},
    # to_deck's ``played``: the card moved is this turn's played card; ``card``: this named card itself;
    # ``cost``: paid by the engine when the card is moved (as ``_pay_cost``: the rulebook's fallbacks)
    "uk_rationing": {"to_deck": {"piles": ("discard",), "n": 1, "played": True, "cost": {"own_hand": 1}}},
    "su_women_conscripts": {"to_deck": {"piles": ("discard",), "n": 1, "played": True}},
    "su_trans_siberian_railroad": {"build_army": {"own": True}, "build_navy": {"own": True}},
    "us_rosie_the_riveter": {"to_deck": {"piles": ("hand",), "n": 2}},
    "us_lend_lease": {"discard_from_deck": {"n": 3},
                      "to_deck": {"piles": ("discard",), "n": 1, "card": "us_lend_lease", "cost": {"own_deck": 3}}},
    "us_theater_shift": {"build_army": {"own": True}, "build_navy": {"own": True}},
}
GUIDED_WORDS = {**STEP_WORDS, "to_deck": ("карты в колоду", "cards into the deck"),
                "discard_from_deck": ("сброс из своей колоды", "discards from one's own deck")}


def _guided_refusal(board, table, step: dict, country: str, cmd: dict) -> Outcome | None:
    """A guided manual step takes only what its card's text allows (``GUIDED_ACTIONS``); its own deck
    discard (Lend Lease: the top 3) at most ``n`` in all, however many entries it is split into."""
    allowed = GUIDED_ACTIONS.get(step["card"])
    if allowed is None:
        return None
    action = cmd.get("action")
    limits = allowed.get(action)
    if limits is not None and action == "discard_from_deck" and table.options.new_card_rules \
            and cmd.get("target_country") == country:
        paid = int(step.get("paid", 0))
        if paid + _int(cmd.get("n"), 1, 40) > limits["n"]:
            ru, en = _card_title(step["card"])
            return _refused("guided.paid", f"«{ru}»: по тексту карты из своей колоды сбрасывают {limits['n']} "
                            f"верхние карты, не больше; уже сброшено {paid} ({RULE_PLAY_RU}: выполняется только "
                            f"текст карты).", f"“{en}”: the card discards the top {limits['n']} cards of your own "
                            f"deck, no more; {paid} already discarded ({RULE_PLAY_EN}: only the card's text is "
                            f"carried out).")
    if limits is not None and limits.get("rebuilds") and table.options.at_least(5) \
            and int(step.get("taken", 0)) <= int(step.get("rebuilt", 0)):
        ru, en = _card_title(step["card"])
        return _refused("guided.not_on_card", f"«{ru}»: по тексту карты создают заново только армию, снятую этой "
                        f"картой, — сначала снимите свою армию ({RULE_PLAY_RU}: выполняется только текст карты).",
                        f"“{en}”: the card builds again only an army it took off — take one of your armies off "
                        f"first ({RULE_PLAY_EN}: only the card's text is carried out).")
    ok = limits is not None
    if ok and limits.get("own") and (cmd.get("target_country") or country) != country:
        ok = False
    if ok and "spaces" in limits and cmd.get("space") not in limits["spaces"]:
        ok = False
    if ok and action == "to_deck":
        ok = (cmd.get("name") or "hand") in limits["piles"] and _int(cmd.get("n"), 0, 3) <= limits["n"]
    if ok and action == "discard_from_deck":
        ok = cmd.get("target_country") == country and _int(cmd.get("n"), 1, 40) <= limits["n"]
    if ok:
        return None
    ru, en = _card_title(step["card"])
    can_ru = ", ".join(GUIDED_WORDS.get(a, (a, a))[0] for a in allowed) or "ничего на поле и в стопках"
    can_en = ", ".join(GUIDED_WORDS.get(a, (a, a))[1] for a in allowed) or "nothing on the board or in the piles"
    return _refused("guided.not_on_card", f"Карта «{ru}» этого не позволяет: по её тексту можно только {can_ru} "
                    f"(и снять свою фишку) — затем «Готово» ({RULE_PLAY_RU}: выполняется только текст карты).",
                    f"“{en}” does not allow that: its text allows only {can_en} (and removing one's own piece) — "
                    f"then Done ({RULE_PLAY_EN}: only the card's text is carried out).")


def _rebuild_count(board, table, index: int, country: str, cmd: dict) -> list[dict]:
    """A rebuilding card's manual step (``rebuilds``) counts the armies it took off and built again."""
    step = table.pending[index]
    limits = (GUIDED_ACTIONS.get(step["card"]) or {}).get("build_army") or {}
    if not limits.get("rebuilds") or not table.options.at_least(5):
        return []
    action, space = cmd.get("action"), board.spaces.get(cmd.get("space") or "")
    if action == "remove" and space is not None and (cmd.get("kind") or ("army" if space.is_land else "navy")) == "army":
        key = "taken"
    elif action == "build_army" and (cmd.get("target_country") or country) == country:
        key = "rebuilt"
    else:
        return []
    steps = list(table.pending)
    steps[index] = {**step, key: int(step.get(key, 0)) + 1}
    return [{"op": "pending", "steps": steps}]


def guided_choices(board: Board, table: Table, step: dict) -> list[dict]:
    """The taps that complete a guided manual step's card moves (``GUIDED_ACTIONS``' ``to_deck``): one per
    number of cards and pile, each with its command. Keys: action ("to_deck"), country, card (the guided
    card), n, pile ("hand" or "discard"), card_id (the named card moved, when known, else None), cost (what
    the engine charges with it: {"own_hand": n} or {"own_deck": n}, or None), command. Board actions stay
    with the generic step form."""
    limits = (GUIDED_ACTIONS.get(step["card"]) or {}).get("to_deck")
    if not limits:
        return []
    by = step["by"]
    k = table.cards_of(by)
    new_rules = table.options.new_card_rules  # card rules 2: no cost charged, no running total
    room = limits["n"] - (int(step.get("moved", 0)) if new_rules else 0)
    moved_id = _to_deck_card(table, limits)
    if limits.get("card") and moved_id is None:
        return []  # the card to put back is not in the discard pile
    out = []
    for pile in limits["piles"]:
        for n in range(1, room + 1):
            if getattr(k, pile) < n:
                break
            out.append({"action": "to_deck", "country": by, "card": step["card"], "n": n, "pile": pile,
                        "card_id": moved_id, "cost": limits.get("cost") if new_rules else None,
                        "command": {"type": "step", "country": by, "action": "to_deck", "n": n, "name": pile}})
    return out


def _to_deck_card(table, limits) -> str | None:
    """The named card a guided to_deck moves from the discard pile (known to be there), or None."""
    if limits.get("card"):
        return limits["card"] if limits["card"] in table.gone else None
    if limits.get("played"):
        played = _turn_card(table)
        return played if played in table.gone else None
    return None


def _to_deck(board, table, index: int, country, cmd) -> Outcome:
    """A guided step of a card that puts cards back into the deck (Rosie the Riveter, Women Conscripts,
    Rationing, Lend Lease): ``n`` cards from the hand or the discard pile, so the counts stay true; the
    card's own cost is charged with it (Rationing: 1 from the hand; Lend Lease: the top 3 of the deck,
    unless already entered), and a named card taken back from the discard pile leaves ``gone``.
    Card rules 2 (a game stored before these): ``_to_deck_v2``."""
    step = table.pending[index]
    n = _int(cmd.get("n"), 0, 3)
    pile = cmd.get("name") or "hand"
    if pile not in ("hand", "discard"):
        raise CommandError(one_of("to_deck name", pile, ("hand", "discard")))
    if not table.options.new_card_rules:
        return _to_deck_v2(table, country, n, pile)
    limits = (GUIDED_ACTIONS.get(step["card"]) or {}).get("to_deck") or {}
    ru, en = _card_title(step["card"])
    moved = int(step.get("moved", 0))
    if limits and moved + n > limits["n"]:
        return _refused("to_deck.limit", f"«{ru}»: по тексту карты в колоду кладут не больше {limits['n']}; уже "
                        f"положено {moved} ({RULE_PLAY_RU}: выполняется только текст карты).",
                        f"“{en}”: the card puts at most {limits['n']} into the deck; {moved} already put "
                        f"({RULE_PLAY_EN}: only the card's text is carried out).")
    k = table.cards_of(country)
    if getattr(k, pile) < n:
        return _refused("to_deck.count", f"«{ru}»: в этой стопке только {cards_ru(getattr(k, pile))} (текст карты).",
                        f"“{en}”: that pile holds only {cards_en(getattr(k, pile))} (card text).")
    ops: list[dict] = []
    cost = dict(limits.get("cost") or {}) if n else {}
    if cost.get("own_deck"):
        cost["own_deck"] = max(0, int(cost["own_deck"]) - int(step.get("paid", 0)))
    if any(cost.values()):
        ops += _pay_cost(board, table, country, cost)
    after = apply_ops(table, ops)
    k = after.cards_of(country)
    ops.append({"op": "cards", "country": country, "deck": k.deck + n, pile: getattr(k, pile) - n})
    moved_id = _to_deck_card(table, limits) if n and pile == "discard" else None
    if moved_id:
        ops.append({"op": "gone", "card": moved_id, "back": True})
    steps = list(table.pending)
    steps[index] = {**step, "moved": moved + n, **({"paid": int(step.get("paid", 0)) + cost["own_deck"]}
                                                    if cost.get("own_deck") else {})}
    ops.append({"op": "pending", "steps": steps})
    ru_text, en_text = f"«{ru}»: в колоду положено карт: {n}", f"“{en}”: cards put into the deck: {n}"
    if moved_id:
        m_ru, m_en = _card_title(moved_id)
        ru_text += f" («{m_ru}»)"
        en_text += f" (“{m_en}”)"
    if cost.get("own_hand"):
        ru_text += f"; цена — {cost['own_hand']} карта с руки в сброс"
        en_text += f"; the cost: {cost['own_hand']} card from the hand discarded"
    if cost.get("own_deck"):
        ru_text += f"; цена — {cost['own_deck']} верхние карты колоды в сброс"
        en_text += f"; the cost: the top {cost['own_deck']} cards of the deck discarded"
    return _done(_r("to_deck.ok", ru_text + ".", en_text + "."), tuple(ops))


def _to_deck_v2(table, country, n: int, pile: str) -> Outcome:
    """to_deck by card rules 2: ``n`` cards from the pile into the deck — no cost charged, no total limit
    per step, a named card not taken out of ``gone`` (so a stored game replays as it was played)."""
    k = table.cards_of(country)
    if getattr(k, pile) < n:
        return _refused("to_deck.count", f"В этой стопке только {cards_ru(getattr(k, pile))} (текст карты).",
                        f"That pile holds only {cards_en(getattr(k, pile))} (card text).")
    counts = {"deck": k.deck + n, pile: getattr(k, pile) - n}
    return _done(_r("to_deck.ok", f"В колоду возвращено карт: {n}.", f"Cards put back into the deck: {n}."),
                 ({"op": "cards", "country": country, **counts},))

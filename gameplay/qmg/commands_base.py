"""What every QMG command shares: the malformed-command error, accepted/refused outcomes, phase
checks, the names of phases, card types and pieces for the log, the board-action and deck-discard
operations, and the card-copy and card-cost bookkeeping. Helpers with a leading underscore are the
package's own (the command modules use them; the web layer does not)."""
from __future__ import annotations

from gameplay.common import Outcome, refused

from .board import ALLIES, AXIS
from .cards import default_catalogue
from .effects import condition_holds, describe_condition
from .inputs import a_an, one_of, unknown
from .reasons import Reason
from .rules import Action, compute_supply
from .tablestate import Table, turn_context

class CommandError(ValueError):
    """A command that is malformed (not merely illegal): unknown type, missing field, …"""


def _done(reason: Reason, ops=(), notes=()) -> Outcome:
    """Accepted, with the operations it causes; ``apply_command`` adds the new table as ``state``."""
    return Outcome(True, reason, changes=tuple(ops), notes=tuple(notes))


def _r(code: str, ru: str, en: str) -> Reason:
    return Reason(code, ru, en)


def _refused(code, ru, en) -> Outcome:
    return refused(_r(code, ru, en))


def _need_phase(board, table, command, phase) -> Outcome | None:
    active = table.active(board)
    if command.get("country", active) != active:
        c = board.countries[active]
        return _refused("turn.not_active", f"Сейчас ход страны {c.ru} (правило «Порядок хода»).",
                        f"It is {c.en}'s turn (rule “Turn order”).")
    if table.phase != phase:
        return _refused("turn.wrong_phase", f"Сейчас фаза «{PHASE_NAMES[table.phase][0]}», а не «{PHASE_NAMES[phase][0]}» "
                        "(правило «Фазы хода»).",
                        f"This is the {PHASE_NAMES[table.phase][1]} step, not the {PHASE_NAMES[phase][1]} step "
                        "(rule “Turn phases”).")
    return None


PHASE_NAMES = {
    "air": ("Авиация", "air"),
    "play": ("Розыгрыш карты", "play"), "supply": ("Снабжение", "supply"), "victory": ("Победные очки", "victory"),
    "discard": ("Сброс карт", "discard"), "draw": ("Добор карт", "draw"),
}
CARD_TYPE_NAMES = {
    "build_army": ("Создайте армию", "Build Army"), "build_navy": ("Создайте флот", "Build Navy"),
    "land_battle": ("Атака на суше", "Land Battle"), "sea_battle": ("Атака на море", "Sea Battle"),
    "status": ("Статус", "Status"), "response": ("Ответ", "Response"), "event": ("Событие", "Event"),
    "economic_warfare": ("Экономическая война", "Economic Warfare"),
    "discard_unused": ("Сброс без розыгрыша", "Discard unused"),
    "deploy_air": ("Развёртывание авиации", "Deploy Air Force"),
    "bombing": ("Бомбардировка", "Bombing"),
    "bolster": ("Усиление", "Bolster"),
}


def _advance(table: Table, phase: str, played=None) -> dict:
    return {"op": "step", "round": table.round, "turn": table.turn, "phase": phase, "played": played}


def _other(team: str) -> str:
    return ALLIES if team == AXIS else AXIS


def _check_named(board, country, card_id, card_type) -> Outcome | None:
    cat = default_catalogue()
    card = cat.get(card_id)
    if card is None:
        raise CommandError(unknown("card id", card_id, [c.id for c in cat.by_country(country)] or cat.ids))
    if card.country != country:
        c = board.countries[country]
        return _refused("card.other_deck", f"Карта «{card.name_ru}» не из колоды страны {c.ru} (правило «Карты»).",
                        f"“{card.name_en}” is not in {c.en}'s deck (rule “Cards”).")
    if card.type != card_type:
        raise CommandError(f"card {card_id} is {a_an(card.type)} card, not {a_an(str(card_type))} card: write "
                           f"\"card_type\": \"{card.type}\" with it")
    return None


def play_condition_refusal(board, table, card, country) -> Outcome | None:
    """A card whose printed play condition («можно сыграть, только если…», ``play_requires``) is not met is
    refused: nothing is discarded and the card stays in hand (it may still be discarded unused). Card rules
    ≤3: no such check (the condition only limited the card's effects)."""
    cond = card.play_requires
    if cond is None or not table.options.at_least(4):
        return None
    supply = compute_supply(board, table.position, turn_context(table))
    if condition_holds(board, table.position.pieces, cond, country, supply):
        return None
    need_ru, need_en = describe_condition(board, cond, country)
    return _refused("play.condition", f"«{card.name_ru}» можно сыграть, только если выполнено условие карты: "
                    f"{need_ru}; сейчас это не так — карта остаётся на руке (текст карты; {RULE_PLAY_RU}).",
                    f"“{card.name_en}” may be played only when its condition holds: it {need_en}; it does not "
                    f"now — the card stays in hand (card text; {RULE_PLAY_EN}).")


def _action(board, cmd) -> Action:
    space = cmd.get("space")
    if space not in board.spaces:
        raise CommandError("a board action needs 'space' (a space id)" if space is None
                           else unknown("space", space, board.spaces))
    target = cmd.get("target_country") or None
    if target is not None and target not in board.countries:
        raise CommandError(unknown("target_country", target, board.turn_order))
    kind = cmd.get("kind") or None
    if kind not in (None, "army", "navy"):
        raise CommandError(one_of("piece kind", kind, ("army", "navy")))
    return Action(cmd["type"], cmd["country"], space, target, kind)


PIECE_RU = {"army": "армия", "navy": "флот", "air": "авиация"}


def piece_names(board, pieces) -> tuple[str, str]:
    """Pieces named for everyone's log: kind, whose, where (no case to agree: the country in brackets)."""
    ru = ", ".join(f"{PIECE_RU.get(p.kind, p.kind)} ({board.countries[p.country].ru}) в секторе «{board.spaces[p.space].ru}»"
                   for p in pieces)
    en = ", ".join(f"{board.countries[p.country].en} {p.kind} in {board.spaces[p.space].en}" for p in pieces)
    return ru, en


def pieces_moved(board, verdict) -> tuple[str, str]:
    """" — removed: …; placed: …" for a log line (empty when the action moved nothing)."""
    ru, en = "", ""
    if verdict.removes:
        r, e = piece_names(board, verdict.removes)
        ru, en = ru + f" — убрана: {r}", en + f" — removed: {e}"
    if verdict.places:
        r, e = piece_names(board, verdict.places)
        ru, en = ru + f" — поставлена: {r}", en + f" — placed: {e}"
    return ru, en


def _piece_ops(verdict, action: Action | None = None) -> list[dict]:
    ops = ([{"op": "remove", **p.to_dict()} for p in verdict.removes]
           + [{"op": "place", **p.to_dict()} for p in verdict.places])
    if action is not None and action.type in ("land_battle", "sea_battle") and verdict.removes:
        hit = verdict.removes[0]  # remembered for Air Marshal's air defence and air strike
        ops.append({"op": "attack", "attack": {"space": hit.space, "country": hit.country, "kind": hit.kind,
                                               "attacker": action.country, "defended": False}})
    return ops


STEP_WORDS = {
    "build_army": ("создание армии", "build army"), "build_navy": ("создание флота", "build navy"),
    "recruit_army": ("найм армии", "recruit army"), "recruit_navy": ("найм флота", "recruit navy"),
    "land_battle": ("атака на суше", "land battle"), "sea_battle": ("атака на море", "sea battle"),
    "eliminate": ("уничтожение", "eliminate"), "remove": ("своя фишка снята с поля", "own piece removed"),
    "protect": ("защита до конца хода", "protected for the rest of the turn"),
    "discard_from_deck": ("сброс из колоды", "discard from the deck"),
}


def _step_summary(board, action: Action, verdict) -> Reason:
    """A step for everyone's log, in the third person (the verdict to the player is a note)."""
    c = board.countries[action.country]
    ru, en = STEP_WORDS.get(action.type, (action.type, action.type))
    moved_ru, moved_en = pieces_moved(board, verdict)
    return _r(verdict.reason.code, f"{c.ru}: {ru}{moved_ru}.", f"{c.en}: {en}{moved_en}.")


def _discard_ops(board, table, country, n, hand_first=False) -> tuple[list[dict], int, int, int]:
    """Discard n from the deck, the hand when the deck runs out (``hand_first``: the other way round);
    1 VP per card neither has. (ops, from the deck, from the hand, missing)."""
    k = table.cards_of(country)
    if hand_first:
        from_hand = min(n, k.hand)
        from_deck = min(n - from_hand, k.deck)
    else:
        from_deck = min(n, k.deck)
        from_hand = min(n - from_deck, k.hand)
    missing = n - from_deck - from_hand
    ops = [{"op": "cards", "country": country, "deck": k.deck - from_deck, "hand": k.hand - from_hand,
            "discard": k.discard + from_deck + from_hand}]
    if missing:
        ops.append({"op": "vp", "team": board.team_of(country), "n": -missing})
    return ops, from_deck, from_hand, missing


def discard_from_deck(board, table, country, n) -> Outcome:
    """Discard n from the deck; from the hand when the deck runs out; 1 VP per card neither has."""
    ops, from_deck, from_hand, missing = _discard_ops(board, table, country, n)
    c = board.countries[country]
    ru = f"{c.ru} {c.verb_ru('сбрасывает', 'сбрасывают')} {from_deck} из колоды"
    en = f"{c.en} discards {from_deck} from the deck"
    if from_hand:
        ru += f" и {from_hand} с руки (колода пуста)"
        en += f" and {from_hand} from the hand (the deck is empty)"
    if missing:
        ru += f"; карт больше нет — лагерь теряет {missing} ПО (правило «Карты»)"
        en += f"; no cards left — the team loses {missing} VP (rule “Cards”)"
    return _done(_r("discard.deck", ru + ".", en + "."), tuple(ops))


def _int(value, lo, hi) -> int:
    if isinstance(value, bool):
        raise CommandError(f"a whole number {lo}..{hi} is needed, got {value!r}")
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise CommandError(f"a whole number {lo}..{hi} is needed, got {value!r}") from None
    if not lo <= n <= hi:
        raise CommandError(f"number out of range {lo}..{hi}: {n}")
    return n

# statuses that let their owner's basic battle card target a space with no adjacent supplied piece: card id →
# (card type, space); «Фольксштурм»: Germany's Land Battle cards may always target Germany (card rules 5)
BATTLE_WAIVERS = {"ger_volkssturm": ("land_battle", "germany")}

RULE_PLAY_RU, RULE_PLAY_EN = "правило «Как сыграть карту»", "rule “Playing a card”"
RULE_USE_RU, RULE_USE_EN = "правило «Использование карт статусов и ответов»", "rule “Using statuses and responses”"


def _card_title(card_id: str | None) -> tuple[str, str]:
    card = default_catalogue().get(card_id or "")
    if card is not None:
        return card.name_ru, card.name_en
    if card_id in CARD_TYPE_NAMES:
        return CARD_TYPE_NAMES[card_id]
    return ("карта", "card")


def _last_card(table) -> str | None:
    """The named card played or used last this turn (its steps are the ones that ran), or None."""
    cat = default_catalogue()
    return next((x for x in reversed(table.used) if cat.get(x) is not None), None)


def _turn_card(table) -> str | None:
    """The named card played from hand this turn (the last one of the played type), or None."""
    cat = default_catalogue()
    for x in reversed(table.used):
        card = cat.get(x)
        if card is not None and card.type == table.played:
            return card.id
    return None


def _pay_cost(board, table, country, cost) -> list[dict]:
    """A card's cost, paid before its effect: the top of your deck (the hand when the deck is empty) or
    cards from your hand (the deck when the hand is empty); 1 VP per card neither has."""
    if not cost:
        return []
    if cost.get("own_deck"):
        return list(discard_from_deck(board, table, country, int(cost["own_deck"])).changes)
    return _discard_ops(board, table, country, int(cost.get("own_hand", 0)), hand_first=True)[0]


def _card_cost(card):
    for e in card.effects:
        if e.get("cost"):
            return e["cost"]
    return None


def _copies_left(table, card) -> int:
    in_play = sum(k.statuses.count(card.id) for _, k in table.cards)
    return card.copies - in_play - table.gone.count(card.id)


def _copies_refusal(card) -> Outcome:
    return _refused("card.copies", f"«{card.name_ru}»: в колоде {card.copies} экз., и все уже в игре или в сбросе "
                    "(правило «Карты»: состав колоды).", f"“{card.name_en}”: the deck holds {card.copies} "
                    "cop(ies), all already in play or discarded (rule “Cards”: deck composition).")

"""Turn commands of the stepper (§2.2-2.4, §2.10, §2.12): rotation, the hand actions, intel, end of turn.

Each handler is ``handler(st, table, command) -> Outcome`` (see ``commands_base``).
"""
from __future__ import annotations

import random
from dataclasses import replace

from gameplay.common import Outcome
from gameplay.common.words import cards_en, cards_ru

from . import actions as act
from .cards import Card, parse_card
from .limits import MAX_CARDS
from .commands_base import (MAX_INTEL, R, BadCommand, card_ids, card_record, done, need_rotation, no,
                            province_name, side_en, side_ru)
from .intel import intel as do_intel
from .state import GameState


def start_turn(st: GameState, table: dict, c: dict) -> Outcome:
    if c["side"] != st.active_side:
        return no("not_your_turn", f"Сейчас ход: {side_ru(st.active_side)}.", f"It is the {side_en(st.active_side)} turn.",
                  "§2.2")
    if st.turn_started:
        return no("already_rotated", "Колесо в этом ходу уже повёрнуто.", "The wheel has already been rotated this turn.",
                  "§2.2")
    r = act.start_turn(st)
    if not r.ok:
        return r
    s, exp = c["side"], r.data["expired"]
    ru = f"{side_ru(s)}: колесо повёрнуто, на NEW OP — {r.data['pointer']}."
    en = f"{side_en(s)}: wheel rotated, {r.data['pointer']} at NEW OP."
    if exp:
        ru += f" Отменены просроченные операции: {', '.join(exp)}."
        en += f" Expired operations cancelled: {', '.join(exp)}."
    p = r.data.get("partner")
    if p:
        ru += (f" {side_ru(p)} (колода кончилась): колесо повёрнуто, на NEW OP — {r.data['partner_pointer']}; "
               "в этом ходу можно разведывать и вести операции.")
        en += (f" {side_en(p)} (deck run out): wheel rotated, {r.data['partner_pointer']} at NEW OP; "
               "may spy and run operations in this turn.")
        if r.data["partner_expired"]:
            ru += f" Отменены: {', '.join(r.data['partner_expired'])}."
            en += f" Cancelled: {', '.join(r.data['partner_expired'])}."
    return done(r.state, R("start_turn", ru, en))


def partner_done(st: GameState, table: dict, c: dict) -> Outcome:
    r = act.partner_done(st, c["side"])
    if not r.ok:
        return r
    return done(r.state, R("partner_done", f"{side_ru(c['side'])} (без колоды): действия в этом ходу закончены.",
                           f"{side_en(c['side'])} (no deck): done acting in this turn."))


def defend(st: GameState, table: dict, c: dict) -> Outcome:
    r = need_rotation(st, c) or act.defend(st, c["side"], c["province"], card_ids(c))
    if not r.ok:
        return r
    n, p = len(c["cards"]), c["province"]
    return done(r.state, R("defend", f"{side_ru(c['side'])}: {cards_ru(n)} в оборону «{province_name(st, p, 'ru')}».",
                           f"{side_en(c['side'])}: {cards_en(n)} defend {province_name(st, p, 'en')}."))


def new_op(st: GameState, table: dict, c: dict) -> Outcome:
    r = need_rotation(st, c) or act.new_operation(st, c["side"], c["target"], card_ids(c),
                                                  replace=bool(c.get("replace")))
    if not r.ok:
        return r
    n = len(c["cards"])
    # the target stays secret until launch: the public summary names only the slot
    return done(r.state, R("new_op", f"{side_ru(c['side'])}: новая операция {r.data['slot']} ({cards_ru(n)}).",
                           f"{side_en(c['side'])}: new operation {r.data['slot']} ({cards_en(n)})."))


def cancel_op(st: GameState, table: dict, c: dict) -> Outcome:
    r = need_rotation(st, c) or act.cancel_operation(st, c["side"], c["slot"])
    if not r.ok:
        return r
    return done(r.state, R("cancel_op", f"{side_ru(c['side'])}: операция {c['slot']} отменена.",
                           f"{side_en(c['side'])}: operation {c['slot']} cancelled."))


def reinforce_op(st: GameState, table: dict, c: dict) -> Outcome:
    r = need_rotation(st, c) or act.reinforce_operation(st, c["side"], c["slot"], card_ids(c))
    if not r.ok:
        return r
    n = len(c["cards"])
    return done(r.state, R("reinforce_op", f"{side_ru(c['side'])}: операция {c['slot']} усилена ({n}).",
                           f"{side_en(c['side'])}: operation {c['slot']} reinforced ({n})."))


def reinforce_quagmire(st: GameState, table: dict, c: dict) -> Outcome:
    r = need_rotation(st, c) or act.reinforce_quagmire(st, c["side"], c["province"], card_ids(c))
    if not r.ok:
        return r
    ru_p, en_p = province_name(st, c["province"], "ru"), province_name(st, c["province"], "en")
    ru, en = f"{side_ru(c['side'])}: упорные бои в «{ru_p}» усилены.", f"{side_en(c['side'])}: quagmire in {en_p} reinforced."
    if r.data.get("must_resolve"):
        ru += " Бой нужно разрешить до конца хода."
        en += " The battle must be resolved before the turn ends."
    return done(r.state, R("reinforce_quagmire", ru, en))


def intel_target_label(st: GameState, target: dict, lang: str) -> str:
    kind = target.get("kind")
    if kind == "op":
        return ("operation " if lang == "en" else "операция ") + str(target.get("slot"))
    if kind == "objectives":
        return "objectives by Morocco" if lang == "en" else "цели у Марокко"
    name = province_name(st, target.get("province", ""), lang)
    what = {"defence": ("оборона", "defence"), "neutral": ("нейтральные карты", "neutral cards"),
            "quagmire": ("упорные бои", "quagmire")}.get(kind, (kind, kind))
    return f"{what[1 if lang == 'en' else 0]}: {name}"


def intel(st: GameState, table: dict, c: dict) -> Outcome:
    bad = need_rotation(st, c)
    if bad:
        return bad
    target = c.get("target")
    if not isinstance(target, dict):
        raise BadCommand("target")
    rounds = int(c.get("counter_rounds", 0))
    if rounds < 0 or rounds > 20:
        raise BadCommand("counter_rounds")
    r = do_intel(st, c["side"], target, end_of_turn=bool(c.get("end_of_turn")), counter_rounds=rounds,
                 rng=random.Random(int(c.get("seed", 0))))
    if not r.ok:
        return r
    spy = c["side"]
    label_ru, label_en = intel_target_label(st, target, "ru"), intel_target_label(st, target, "en")
    rec = {"turn": st.turn_no, "spy": spy, "target": target, "label_ru": label_ru, "label_en": label_en,
           "result": r.data["result"], "paid": r.data["paid"], "n": r.data["n"], "k": r.data["k"]}
    table["intel"] = (table["intel"] + [rec])[-MAX_INTEL:]
    if r.data["result"] != "success":
        return done(r.state, R("intel", f"{side_ru(spy)}: разведка «{label_ru}» сорвана контрразведкой.",
                               f"{side_en(spy)}: intel on {label_en} was cancelled by counter-intel."))
    seen = [card_record(x) if isinstance(x, Card) else {"id": str(x), "code": str(x), "name": ""} for x in r.data["seen"]]
    table["intel_seen"][spy] = (table["intel_seen"][spy] + [{**rec, "seen": seen}])[-MAX_INTEL:]
    return done(r.state, R("intel", f"{side_ru(spy)}: разведка «{label_ru}» удалась — видно {r.data['k']} из {r.data['n']}.",
                           f"{side_en(spy)}: intel on {label_en} succeeded — {r.data['k']} of {r.data['n']} seen."))


def end_turn(st: GameState, table: dict, c: dict) -> Outcome:
    r = need_rotation(st, c) or act.end_turn(st, c["side"])
    if not r.ok:
        return r
    s = c["side"]
    ru, en = f"{side_ru(s)}: ход окончен, взято {r.data['drawn']}.", f"{side_en(s)}: turn ended, {r.data['drawn']} drawn."
    if r.data["winter_now"]:
        ru += " Колода кончилась: жетон года перевёрнут на зиму."
        en += " A deck ran out: the year token turns to winter."
    if r.data["year_end"]:
        ru += " Обе колоды пусты: конец года."
        en += " Both decks are empty: year end."
    elif r.data.get("again"):
        ru += f" У противника колода пуста: снова ходит {side_ru(s)}."
        en += f" The opponent's deck is empty: the {side_en(s)} play again."
    return done(r.state, R("end_turn", ru, en))


def name_cards(st: GameState, table: dict, c: dict) -> Outcome:
    """A side tells the app what is printed on the hand cards it has not named yet (kind and strength, in the order
    given): from then on they are named as printed and need not be typed at a reveal. Any time; only the side's own
    seat sends it (the values are its secret)."""
    codes = c.get("codes")
    if not isinstance(codes, list) or not codes or not all(isinstance(x, str) for x in codes) or len(codes) > MAX_CARDS:
        raise BadCommand("codes")
    hand = st.sides[c["side"]].hand
    blank = [i for i, x in enumerate(hand) if x.category == "unknown"]
    if len(codes) > len(blank):
        return no("name_too_many", f"Неназванных карт на руке: {len(blank)}, а названо {len(codes)}.",
                  f"Unnamed cards in hand: {len(blank)}, but {len(codes)} named.", "§2.10")
    try:
        named = [parse_card(code, c["side"]) for code in codes]
    except ValueError:
        return no("name_code", "Карту называют родом войск и силой, как напечатано: L3, N2, F1, A2 или Z.",
                  "A card is named by its kind and strength as printed: L3, N2, F1, A2 or Z.", "§2.5")
    for i, card in zip(blank, named):
        hand[i] = replace(card, id=hand[i].id)
    n = len(codes)
    return done(st, R("name_cards", f"{side_ru(c['side'])}: карты на руке названы ({cards_ru(n)}).",
                      f"{side_en(c['side'])}: hand cards named ({cards_en(n)})."))


def must_play(st: GameState, side: str | None) -> bool:
    """§2.2 step 3: the side's turn is under way (or it acts inside it without a deck, B-4) and it must still
    play a hand card before ending it."""
    acting = side == st.active_side or (side is not None and side == act.partner(st) and not st.partner_done)
    return acting and st.phase == "turn" and st.turn_started and not st.winner and not act.must_play_ok(st, side)


HANDLERS = {"start_turn": start_turn, "defend": defend, "new_op": new_op, "cancel_op": cancel_op,
            "reinforce_op": reinforce_op, "reinforce_quagmire": reinforce_quagmire, "intel": intel,
            "end_turn": end_turn, "partner_done": partner_done, "name_cards": name_cards}

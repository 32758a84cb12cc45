"""Bilingual refusal reasons, names, and the shared ``Outcome`` every rule check returns.

Every engine function answers with a :class:`gameplay.common.Outcome`: refused with a
:class:`gameplay.common.Reason` (code, Russian, English, rule), or accepted with the new state
(``state``) and what it computed (``data``).
"""
from __future__ import annotations

from gameplay.common import Outcome, Reason
from gameplay.common.words import cards_en, cards_ru

# code -> (rule reference, Russian text, English text). Texts may hold {placeholders}.
REASONS: dict[str, tuple[str, str, str]] = {
    # turn / actions
    "not_your_turn": ("§2.2", "Сейчас ход другой стороны ({side_ru}).", "It is the other side's turn ({side_en})."),
    "wrong_phase": ("§2.2", "Это действие сейчас недоступно: {phase_ru}.", "This action is not available now: {phase_en}."),
    "game_over": ("§2.14", "Игра уже окончена.", "The game is already over."),
    "no_cards_given": ("§2.4", "Не выбрано ни одной карты из руки.", "No hand card was chosen."),
    "card_not_in_hand": ("§2.4", "Выбранной карты нет у вас на руке.", "A chosen card is not in your hand."),
    "reduced_turn_no_play": ("§2.12 / B-4", "Колода кончилась: в сокращённом ходу нельзя играть карты с руки.",
                             "The deck has run out: no hand card may be played in a reduced turn."),
    "partner_wait_rotation": ("§2.12 / B-4", "Сначала активная сторона поворачивает колесо (начало хода).",
                              "The active side rotates its wheel first (start of the turn)."),
    "partner_already_done": ("§2.12 / B-4", "Вы уже закончили действовать в этом ходу.",
                             "You have already finished acting in this turn."),
    "partner_action": ("§2.12 / 2.10.1 / B-4", "Без колоды в ходу противника можно только разведка и операции "
                       "(новая, усиление, отмена, запуск).",
                       "Without a deck, inside the other side's turn only intel and operations (new, reinforce, "
                       "cancel, launch) are allowed."),
    "partner_not": ("§2.12 / B-4", "Сейчас нет хода противника, в котором вы действуете без колоды.",
                    "There is no turn of the other side for you to act in without a deck."),
    "partner_pending": ("§2.12 / 2.9 / B-4", "Сторона без колоды ({side_ru}) ещё действует в этом ходу: дождитесь "
                        "её подтверждения.", "The side without a deck ({side_en}) is still acting in this turn: wait "
                        "for its confirmation."),
    "target_unreached": ("§2.5 п.3 / §2.9 / B-17", "Линия снабжения не доходит до «{target}»: рядом нет своей точки "
                         "снабжения или снабжаемой провинции не в упорных боях.",
                         "The supply line does not reach '{target}': no own supply point or supplied province "
                         "outside quagmire borders it."),
    "wheel_mark_unknown": ("§2.3 / B-3", "Отметка позиции {position} колеса не введена: укажите, что на ней "
                           "напечатано (не готова, A+1, D+1 или ничего).",
                           "The mark of wheel position {position} is not entered: say what your wheel prints there "
                           "(not ready, A+1, D+1 or nothing)."),
    "climate_unknown": ("§2.6 / B-42", "Климат провинции «{province_ru}» неизвестен: укажите значок (зимний бонус).",
                        "The climate of {province} is unknown: enter its icon (winter bonus)."),
    "intel_only_now": ("§2.10", "После разведки в конце хода можно только снова разведывать в конце хода или закончить ход.",
                       "After an end-of-turn intel only further end-of-turn intel or ending the turn is allowed."),
    "unknown_province": ("§1.2", "Такой провинции нет на карте.", "There is no such province on the map."),
    "defend_not_own": ("§2.4 #1 / B-28", "Оборонять можно только свою или нейтральную провинцию.",
                       "Only an own or a neutral province can be defended."),
    "in_quagmire": ("§2.8", "В провинции «{province}» идут упорные бои.", "Province '{province}' is in quagmire."),
    "target_own": ("§2.4 #2", "Цель операции должна быть нейтральной или вражеской.",
                   "The operation's target must be neutral or enemy-controlled."),
    "province_card_missing": ("§2.4 #2", "Карты провинции «{province}» нет в вашей колоде провинций.",
                              "The card of province '{province}' is not in your province deck."),
    "confirm_replace": ("§2.4 #2 / B-35", "На NEW OP уже есть операция; новая отменит её — подтвердите.",
                        "An operation already sits at NEW OP; a new one cancels it — confirm first."),
    "no_such_op": ("§2.3", "Операции в ячейке {slot} нет.", "There is no operation in slot {slot}."),
    "not_launchable": ("§2.3 / B-3", "Операция на позиции {position} ещё не готова к запуску.",
                       "The operation at position {position} is not ready to launch."),
    "must_play": ("§2.2 п.3 / B-39", "Нужно сыграть хотя бы одну карту с руки, прежде чем закончить ход.",
                  "At least one hand card must be played before ending the turn."),
    "quagmire_pending": ("§2.4 #6 / B-19", "Вы усилили свои упорные бои в «{province}»: разрешите бой до конца хода.",
                         "You reinforced your own quagmire in '{province}': resolve it before ending the turn."),
    "not_quagmire": ("§2.8", "В провинции «{province}» нет упорных боёв.", "Province '{province}' is not in quagmire."),
    "not_originator": ("§2.4 #6", "Разрешать упорные бои может только сторона, которая их начала.",
                       "Only the side that started the quagmire may resolve it again."),
    # origin / supply
    "origin_not_own": ("§2.4 origin", "Атаковать можно только из своей провинции.", "An attack must come from an own province."),
    "origin_not_adjacent": ("§2.4 origin", "«{origin}» не граничит с «{target}».", "'{origin}' is not adjacent to '{target}'."),
    "origin_forbidden": ("§2.4 origin", "Из «{origin}» нельзя атаковать «{target}» (Рур нельзя атаковать из Северного моря).",
                         "'{target}' cannot be attacked from '{origin}' (Ruhr cannot be attacked from the North Sea)."),
    "origin_quagmire": ("§2.8", "Провинция с упорными боями не может быть исходной для атаки.",
                        "A province in quagmire cannot be an attack origin."),
    "origin_unsupplied": ("§2.9 / B-17", "Исходная провинция «{origin}» без снабжения.", "Origin '{origin}' is not supplied."),
    "supply_unknown": ("§2.9 / B-1", "Снабжение неизвестно без карты поля — спросите игроков.",
                       "Supply is unknown without a board map — ask the players."),
    "card_values_missing": ("§1.5 / B-2", "Не введены значения одной из карт: введите род войск и силу каждой вскрытой карты.", "A card's values have not been entered: enter the kind and strength of every revealed card."),
    # battle
    "wins_not_own": ("§2.7 / B-21", "Одна из выбранных карт не участвовала в бою на стороне победителя.",
                     "A chosen card did not fight on the winner's side."),
    "wins_too_small": ("§2.7", "Сумма карт в стопку побед {total} меньше силы противника {need}.",
                       "The wins-pile cards total {total}, below the opponent's strength {need}."),
    "wins_not_minimal": ("B-21", "Домашнее правило требует наименьшего набора: карту «{card_ru}» можно оставить.",
                         "The house rule asks for a minimal set: the {card_en} could be left out."),
    "wins_neutral": ("§2.7 Rout / B-21", "Нейтральные карты нельзя класть в стопку побед.", "Neutral cards cannot go to the wins pile."),
    "quag_wrong_count": ("§2.7 Quagmire", "В потери должно уйти ровно {k_ru}, выбрано {got}.",
                         "Exactly {k_en} must go to losses, {got} chosen."),
    "quag_own_first": ("§2.7 Quagmire / B-22", "Нейтральные карты теряются только после всех своих.",
                       "Neutral cards are lost only after all own cards."),
    "quag_unknown_card": ("§2.7 Quagmire", "Одна из выбранных карт не участвует в этом бою.", "A chosen card is not part of this battle."),
    "superiority_not_held": ("§2.6", "Жетон превосходства у другой стороны.", "The superiority token is held by the other side."),
    # intel
    "intel_no_tokens": ("§2.10", "Недостаточно жетонов разведки: нужно {need}, есть {have}.",
                        "Not enough intel tokens: {need} needed, {have} available."),
    "intel_counter_no_tokens": ("§2.10", "{side_ru}: не хватает жетонов на ставку в торге ({need}).",
                                "{side_en}: not enough tokens for the bid ({need})."),
    "intel_empty": ("§2.10 / B-25", "Стопка пуста — разведывать нечего.", "The stack is empty — nothing to spy on."),
    "intel_new_op": ("§2.10", "Операцию на позиции NEW OP (No Intel) разведывать нельзя.",
                     "The operation at NEW OP (no-intel mark) cannot be spied on."),
    "intel_own": ("§2.10", "Разведывать можно только карты противника или нейтральные.", "Only enemy or neutral cards can be spied on."),
    "intel_objectives_axis": ("§2.10 / B-8", "Тайные цели у Марокко может разведывать только игрок Союзников.",
                              "Only the Allies may spy on the objectives by Morocco."),
    "intel_objectives_free": ("B-8", "По настройке Союзники смотрят цели у Марокко бесплатно.",
                              "With this setting the Allies look at the Morocco objectives for free."),
    "intel_bad_target": ("§2.10", "Недопустимая цель разведки.", "Not a legal intel target."),
    "intel_multi": ("B-25", "Разведка в конце хода уже была; настройка запрещает повтор.",
                    "An end-of-turn intel was already made; the setting forbids another."),
    "free_look_denied": ("§1.4 п.12", "Бесплатно смотреть можно только Союзникам и только Прибалтику, Киев и Одессу.",
                         "Only the Allies may look for free, and only at the Baltics, Kiev and Odessa."),
    # year end
    "ye_order": ("§2.13 {step}", "Сначала должна действовать сторона без жетона превосходства.",
                 "The side without the superiority token must act first."),
    "ye_already": ("§2.13 {step}", "{side_ru}: этот шаг уже сделан.", "{side_en}: this step is already done."),
    "pp_exceeded": ("§2.13 3.5", "Покупки стоят {cost} ОП, доступно {pp}.", "The purchases cost {cost} PP, {pp} available."),
    "vp_allies": ("§2.13 3.5", "Покупать ПО может только Ось.", "Only the Axis may buy VP."),
    "not_in_losses": ("§2.13 3.5", "Выбранной карты нет в стопке потерь.", "A chosen card is not in the losses pile."),
    "cap_reached": ("B-26 / B-27", "Превышен предел: {cap_ru}.", "The cap would be exceeded: {cap_en}."),
    "recall_quagmire": ("§2.8 / §2.13 3.6", "Карты из провинции с упорными боями отзывать нельзя.",
                        "Cards cannot be recalled from a province in quagmire."),
    "recall_not_there": ("§2.13 3.6", "Выбранной карты там нет.", "A chosen card is not there."),
    "needs_value": ("§2.13 {step} / B-1", "Без карты поля введите «{what}» вручную.",
                    "Without a board map, enter '{what}' by hand."),
    "needs_missing": ("§2.13 {step} / B-1", "На карте не указаны {what_ru}: {names_ru}. Введите их сумму.",
                      "The map leaves the {what_en} of {names_en} blank: enter their total."),
    "objectives_unknown": ("§2.14", "Провинции тайных целей Оси не введены.", "The provinces of the Axis objectives are not entered."),
    "preplace": ("§1.4 п.8 / B-41", "До 3 карт, каждая в другой союзной или нейтральной провинции.",
                 "Up to 3 cards, each in a different Allied or neutral province."),
}


OK = Reason("ok", "Принято.", "Accepted.")

SIDE_NAMES = {"axis": ("Ось", "Axis"), "allies": ("Союзники", "Allies")}
OUTCOME_NAMES = {"victory": ("Победа", "Victory"), "quagmire": ("Упорные бои", "Quagmire"),
                 "defeat": ("Поражение", "Defeat"), "rout": ("Разгром", "Rout")}


def reason(code: str, **kw) -> Reason:
    """The reason of ``REASONS[code]`` in Russian and English, naming its rule."""
    rule, ru, en = REASONS[code]
    return Reason(code, ru.format(**_words(kw, "ru")), en.format(**_words(kw, "en")), rule.format(**kw))


PHASE_NAMES = {"turn": ("идёт ход", "a turn is under way"), "year_end": ("идёт конец года", "the year is ending"),
               "finished": ("игра окончена", "the game is over")}
CAP_NAMES = {"production_cap": ("уровень производства", "the production level"),
             "intel_token_cap": ("число жетонов разведки", "the number of intel tokens")}


def _words(kw: dict, lang: str) -> dict:
    """A reason's values in the player's words: side, phase and cap by name, counted cards, a card by what is
    printed on it (never an id or a key)."""
    i = 1 if lang == "en" else 0
    out = dict(kw)
    if "side" in kw:
        out[f"side_{lang}"] = side_name(kw["side"], lang)
    if "phase" in kw:
        out[f"phase_{lang}"] = PHASE_NAMES.get(kw["phase"], ("", ""))[i]
    if "cap" in kw:
        out[f"cap_{lang}"] = CAP_NAMES.get(kw["cap"], ("", ""))[i]
    if "k" in kw:
        out[f"k_{lang}"] = cards_en(kw["k"]) if lang == "en" else cards_ru(kw["k"])
    if "card" in kw:
        out[f"card_{lang}"] = card_name(kw["card"], lang) if not isinstance(kw["card"], str) else ""
    return out


def refuse(code: str, **kw) -> Outcome:
    """A refusal naming the rule, in Russian and English."""
    return Outcome(False, reason(code, **kw))


def ok(state=None, **data) -> Outcome:
    return Outcome(True, OK, state, data=data)


def named(r: Reason) -> Reason:
    """The reason with its rule written into both sentences (for a page that shows only the text)."""
    if not r.rule or r.rule in r.ru:
        return r
    return Reason(r.code, f"{r.ru} ({r.rule})", f"{r.en} ({r.rule})", r.rule)


def side_name(side: str | None, lang: str = "ru") -> str:
    names = SIDE_NAMES.get(side, (side or "", side or ""))
    return names[1] if lang == "en" else names[0]


def outcome_name(outcome: str, lang: str = "ru") -> str:
    names = OUTCOME_NAMES.get(outcome, (outcome, outcome))
    return names[1] if lang == "en" else names[0]


KIND_NAMES = {"land": ("суша", "land"), "naval": ("флот", "naval"), "fort": ("форт", "fort"),
              "air": ("авиация", "air"), "zero": ("ноль", "zero")}


def card_name(card, lang: str = "ru") -> str:
    """A card as printed: its kind and strength («суша 3», "naval 2", «ноль»); ``""`` for a card whose values
    were never entered (nothing a player could match it by)."""
    names = KIND_NAMES.get(card.category)
    if names is None:
        return ""
    word = names[1] if lang == "en" else names[0]
    if card.category == "zero":
        return word
    value = card.sea if card.category == "naval" else card.land if card.land is not None else card.sea
    return f"{word} {value or 0}"


def cards_text(cards, lang: str = "ru") -> str:
    """Cards as a player can match them: the known ones by kind and strength, the others only counted
    («суша 3, флот 2, 2 карты без значений»)."""
    names = [card_name(c, lang) for c in cards]
    known = [n for n in names if n]
    unknown = len(names) - len(known)
    if unknown:
        known.append(cards_en(unknown) if lang == "en" else cards_ru(unknown))
    return ", ".join(known)

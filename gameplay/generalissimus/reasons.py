"""The bilingual reason catalogue (each reason names its rule) and the engine's answers.

Every rule check and action answers with the shared :class:`gameplay.common.Outcome`: ``ok``
(alias ``legal``), ``reason`` (a :class:`gameplay.common.Reason` with the catalogue code),
``state`` (the new state when accepted), ``data`` (the figures: dice, hits, totals...) and
``changes`` (the events on the table). :func:`outcome_dict` gives the JSON shape the case CLI
prints (``legal``, ``code``, ``reason``, ``details``, ``events``).
"""
from __future__ import annotations

from typing import Any

from gameplay.common import Outcome, Reason

KIND_RU = {"infantry": "Пехота", "cavalry": "Конница", "artillery": "Артиллерия"}
KIND_EN = {"infantry": "Infantry", "cavalry": "Cavalry", "artillery": "Artillery"}
TERRAIN_RU = {"field": "поле", "forest": "лес", "river": "реку", "hill": "возвышенность", "village": "посёлок"}
TERRAIN_EN = {"field": "a field", "forest": "a forest", "river": "a river", "hill": "a hill", "village": "a village"}
# names per language: (ru, en)
TERRAIN_NAMES = {"field": ("поле", "field"), "forest": ("лес", "forest"), "river": ("река", "river"),
                 "hill": ("возвышенность", "hill"), "village": ("посёлок", "village")}
SIDE_NAMES = {"south": ("Юг", "South"), "north": ("Север", "North")}
ZONE_NAMES = {"west": ("запад", "west"), "center": ("центр", "centre"), "east": ("восток", "east")}
FORMATION_NAMES = {"column": ("колонна", "column"), "line": ("линия", "line"), "square": ("каре", "square"),
                   "disordered": ("расстроенный строй", "disordered")}
CARD_NAMES = {
    "artillery_volley": ("«Залп орудий!»", "Artillery volley"),
    "musket_volley": ("«Ружейный залп!»", "Musket volley"),
    "manoeuvre": ("«Маневр!»", "Manoeuvre"),
    "move": ("«Переместиться!»", "Move"),
    "bayonets": ("«В Штыки!»", "Bayonets!"),
    "retreat": ("«Отступить!»", "Retreat"),
    "form_up": ("«Построиться!»", "Form up"),
    "rally": ("два «Построиться!» (сбор)", "two Form up (rally)"),
}

# code: (ru, en). Placeholders: {unit} {sector} {target} {n} ... and {kind}/{terrain} (localised).
MESSAGES: dict[str, tuple[str, str]] = {
    # generic
    "no_unit": ("Отряда {unit} нет на поле (правило «один приказ — один отряд»)",
                "Unit {unit} is not on the board (one card, one unit rule)"),
    "not_own": ("Отряд {unit} принадлежит другой стороне (правило «один приказ — один отряд»)",
                "Unit {unit} belongs to the other side (one card, one unit rule)"),
    "wrong_zone": ("Отряд {unit} стоит вне зоны {zone}, где лежит карта (правило «один приказ — один отряд»)",
                   "Unit {unit} is outside zone {zone} where the card lies (one card, one unit rule)"),
    "routed_no_orders": ("Флаг отряда {unit} лежит: бегущим приказы не отдают (правило бегства)",
                         "Unit {unit} has its flag down: routed units take no orders (rout rule)"),
    "game_over": ("Игра уже окончена (правило победы)", "The game is already over (victory rule)"),
    # movement
    "moved": ("Отряд {unit} переместился в {sector} (правила перемещения)",
              "Unit {unit} moved to {sector} (movement rules)"),
    "off_board": ("Добровольно уйти с поля нельзя (правила перемещения)",
                  "A unit never leaves the board by choice (movement rules)"),
    "occupied": ("Сектор {sector} занят: в секторе может стоять только один отряд (правило занятости)",
                 "Sector {sector} is taken: a sector holds one unit only (occupancy rule)"),
    "no_entry": ("{kind} не может войти в {terrain} (таблица местности)",
                 "{kind} cannot enter {terrain} (terrain table)"),
    "not_forward": ("Пехота и орудия ходят ровно на один сектор вперёд по фронту (правила перемещения)",
                    "Infantry and artillery move exactly one sector straight ahead (movement rules)"),
    "no_crew_move": ("Батарея без прислуги не может двигаться (артиллерия)",
                     "A battery without crew cannot move (artillery rules)"),
    "cav_path_len": ("Конница проходит один или два сектора (правила конницы)",
                     "Cavalry moves one or two sectors (cavalry rules)"),
    "cav_step_dir": ("Шаг конницы в {sector} идёт не прямо и не по диагонали вперёд от начального фронта (правила конницы)",
                     "The cavalry step to {sector} is neither straight nor diagonal forward from the starting facing (cavalry rules)"),
    "cav_enemy": ("Конница не проходит сквозь сектор врага {sector} (правила конницы)",
                  "Cavalry cannot pass through enemy-held {sector} (cavalry rules)"),
    "cav_stop_terrain": ("Вход в {terrain} в {sector} останавливает конницу, дальше идти нельзя (таблица местности)",
                         "Entering {terrain} at {sector} stops the cavalry, it cannot go on (terrain table)"),
    "cav_facing": ("После хода конница может повернуться лишь на 90° (правила конницы, настройка cavalry_free_turn)",
                   "After moving, cavalry may only turn by 90° (cavalry rules, setting cavalry_free_turn)"),
    "not_reserve": ("Отряд {unit} не в резерве (ввод резерва)", "Unit {unit} is not in reserve (reserve entry)"),
    "reserve_sector": ("Резерв входит только на свободный сектор своего тылового ряда в зоне карты (ввод резерва)",
                       "A reserve enters only on an empty home-row sector in the card's zone (reserve entry)"),
    "reserve_in": ("Отряд {unit} введён из резерва в {sector} (ввод резерва)",
                   "Unit {unit} entered from reserve at {sector} (reserve entry)"),
    # manoeuvre / form up
    "turned": ("Отряд {unit} повернулся на 90° и смотрит на {facing} (карта «Маневр!»)",
               "Unit {unit} turned 90° and now faces {facing} (Manoeuvre card)"),
    "formed": ("Отряд {unit} построился: {formation} (карта «Построиться!»)",
               "Unit {unit} formed {formation} (Form up card)"),
    "square_blocks": ("Каре невозможно при 1–2 фишках (правило построений)",
                      "A square is impossible with 1 or 2 blocks (formation rules)"),
    "single_block": ("Отряд из одной фишки всегда расстроен, перестроение не поможет (правило построений)",
                     "A one-block unit is always disordered, forming up cannot change that (formation rules)"),
    "kind_formation": ("{kind} строится только в колонну (правило построений)",
                       "{kind} can only form column (formation rules)"),
    "rally_needs_two": ("Бегство останавливают только две карты «Построиться!» сразу (правило бегства)",
                        "Only two Form up cards together stop a rout (rout rule)"),
    "not_routed": ("Отряд {unit} не бежит: собирать нечего (правило бегства)",
                   "Unit {unit} is not routed, there is nothing to rally (rout rule)"),
    "rallied": ("Флаг отряда {unit} поднят, отряд остаётся расстроенным (правило бегства)",
                "Unit {unit} raises its flag and stays disordered (rout rule)"),
    # retreat card
    "retreat_blocked": ("Отход назад невозможен: {sector} вне поля, занят или недоступен (карта «Отступить!»)",
                        "Cannot step back: {sector} is off the board, taken or impassable (Retreat card)"),
    "retreated": ("Отряд {unit} организованно отошёл в {sector} (карта «Отступить!»)",
                  "Unit {unit} fell back in order to {sector} (Retreat card)"),
    # attacks
    "attack_used": ("Отряд {unit} уже совершал эту атаку в этот ход: две одинаковые атаки за ход запрещены (лимит атак)",
                    "Unit {unit} already made this attack this turn: no attack type twice per turn (attack limit)"),
    "not_enemy": ("Цель {target} — не отряд врага на поле (правила атаки)",
                  "Target {target} is not an enemy unit on the board (attack rules)"),
    "musket_kind": ("Ружейный залп дают только пехотные отряды (ружейный залп)",
                    "Only infantry fires a musket volley (musket volley)"),
    "musket_arc": ("Цель {target} не прямо впереди и не по диагонали впереди (ружейный залп)",
                   "Target {target} is neither straight ahead nor diagonally ahead (musket volley)"),
    "no_blocks": ("У отряда не осталось фишек (ружейный залп)", "The unit has no blocks left (musket volley)"),
    "art_kind": ("Залп орудий дают только батареи (артиллерия)", "Only a battery fires an artillery volley (artillery rules)"),
    "art_no_crew": ("Без прислуги орудие не стреляет (артиллерия)", "Without crew the gun cannot fire (artillery rules)"),
    "art_no_gun": ("Прислуга без своего орудия стрелять не может (артиллерия)",
                   "A crew without its gun cannot fire (artillery rules)"),
    "art_disordered": ("Расстроенная батарея не стреляет, пока «Построиться!» не вернёт колонну (артиллерия)",
                       "A disordered battery cannot fire until Form up restores its column (artillery rules)"),
    "art_river": ("Со сектора с рекой орудия не стреляют (таблица местности)",
                  "Guns cannot fire from a river sector (terrain table)"),
    "art_arc": ("Цель {target} не на линии фронта батареи (прямо или по диагонали вперёд) (дальность артиллерии)",
                "Target {target} is not along the battery's facing, straight or diagonal (artillery range)"),
    "art_range": ("Цель {target} дальше предела: {n} прямо, {d} по диагонали (дальность артиллерии)",
                  "Target {target} is out of range: {n} straight, {d} diagonal (artillery range)"),
    "art_blocked_terrain": ("Линия огня проходит через {terrain} в {sector} (линия огня артиллерии)",
                            "The line of fire crosses {terrain} at {sector} (artillery line of fire)"),
    "art_blocked_unit": ("Нельзя стрелять через отряд в {sector} (линия огня артиллерии)",
                         "Cannot fire over the unit at {sector} (artillery line of fire)"),
    "fired": ("{unit} стреляет по {target}: попаданий {n} (правила стрельбы)",
              "{unit} fires at {target}: {n} hit(s) (fire rules)"),
    "charge_kind": ("В штыки идут только пехота и конница (штыковая атака)",
                    "Only infantry and cavalry charge with bayonets (bayonet charge)"),
    "charge_target": ("Штыковая атака — только на врага прямо перед собой, цель {target} не там (штыковая атака)",
                      "A charge only hits the enemy straight ahead; {target} is not there (bayonet charge)"),
    "counter_kind": ("Отряд {target} не может принять бой «В штыки!»: это не строевая пехота или конница (штыковая атака)",
                     "Unit {target} cannot meet the charge with Bayonets!: it is not formed infantry or cavalry (bayonet charge)"),
    "counter_timing": ("Встречный бой требует карты «В штыки!», открытой в том же шаге (домашнее правило «Когда на атаку можно ответить «В штыки!»»)",
                       "Meeting a charge needs a Bayonets! card revealed in the same step (house rule “When a charge can be met with Bayonets!”)"),
    "cav_vs_routed": ("Конница атакует бегущих: без кубиков отряд {target} уничтожен (правила конницы)",
                      "Cavalry charges a routed unit: {target} is destroyed without dice (cavalry rules)"),
    "art_gives_way": ("Артиллерия не ведёт рукопашную: прислуга отходит, орудие остаётся (артиллерия)",
                      "Artillery cannot melee: the crew falls back and the gun stays (artillery rules)"),
    "gives_way": ("Без карты «В штыки!» отряд {target} не принимает боя и отходит расстроенным (штыковая атака)",
                  "Without Bayonets! unit {target} refuses the fight and falls back disordered (bayonet charge)"),
    "melee_won": ("Рукопашная: {winner} побеждает {a}:{d} (штыковая атака)",
                  "Melee: {winner} wins {a} to {d} (bayonet charge)"),
    "melee_tie": ("Рукопашная вничью {a}:{d}: оба остаются на месте расстроенными (штыковая атака)",
                  "Melee tied {a} to {d}: both stay where they are, disordered (bayonet charge)"),
    "advance_off": ("Без врага впереди карта «В Штыки!» в этой игре не действует (настройка bayonets_advance)",
                    "With no enemy in front, Bayonets! does nothing in this battle (setting bayonets_advance)"),
    "advance_enemy": ("Впереди враг {target}: «В Штыки!» здесь — атака, а не наступление (штыковая атака)",
                      "Enemy {target} stands in front: here Bayonets! is a charge, not an advance (bayonet charge)"),
    "advanced": ("Отряд {unit} наступает в {sector}, строй сохранён (карта «В Штыки!», наступление)",
                 "Unit {unit} advances to {sector}, keeping its formation (Bayonets! card, advance)"),
    "no_charge_came": ("Карта ждала атаки на отряд {unit}, но атаки не было (карта «В Штыки!», встречный бой)",
                       "The card waited for a charge on unit {unit}, and none came (Bayonets! card, meeting a charge)"),
    "bad_use": ("«В Штыки!» — атака, наступление или встречный бой; {use} не подходит (карта «В Штыки!»)",
                "Bayonets! is a charge, an advance or meeting a charge; {use} is none of them (Bayonets! card)"),
    "deploy_ok": ("Каждый отряд стоит на ближайших к своей стороне рядах и на доступной ему местности (расстановка)",
                  "Every unit stands on its side's nearest rows and on terrain its kind may enter (deployment)"),
    "corrected": ("Ручное исправление отряда {unit}: стол — главный, приложение подстроилось (исправление)",
                  "Manual correction of unit {unit}: the table is the truth, the app follows it (correction)"),
    "correction_bad": ("Такого положения на столе быть не может: {why} (исправление)",
                       "The table cannot look like that: {why} (correction)"),
    # flight, victory
    "flight_done": ("Бегущие отряды отошли к своему краю поля (обязательное бегство)",
                    "Routed units fell back towards their own edge (forced flight)"),
    "bad_choice": ("Сектор {sector} нельзя выбрать для отхода {unit}: варианты {n} (порядок отступления)",
                   "Sector {sector} is not an option for {unit} to fall back to: options {n} (retreat procedure)"),
    "victory": ("Победа стороны {winner}: {why} (правило победы)", "{winner} wins: {why} (victory rule)"),
    "draw": ("Ничья: обе стороны разбиты одновременно (правило победы)",
             "Draw: both sides are beaten at the same moment (victory rule)"),
    "no_victory": ("Победителя пока нет (правило победы)", "No winner yet (victory rule)"),
    # turn machine
    "wrong_phase": ("Сейчас фаза {phase}, это действие недоступно (порядок хода)",
                    "The phase is {phase}; this action is not available (turn sequence)"),
    "pile_empty": ("В стопке нет карты «{card}» (стопка приказов)", "No '{card}' card left in the pile (order pile)"),
    "cap_reached": ("Достигнут лимит карт за ход ({n}) (настройка orders_per_turn_cap)",
                    "The per-turn card limit ({n}) is reached (setting orders_per_turn_cap)"),
    "placed": ("Карта положена рубашкой вверх в зону {zone} (фаза приказов)",
               "Card placed face down in zone {zone} (orders phase)"),
    "initiative_tie": ("Ничья при броске инициативы {n}: перебросить (фаза инициативы)",
                       "Initiative tie at {n}: roll again (initiative phase)"),
    "initiative_won": ("Инициативу выиграл {winner} (фаза инициативы)", "{winner} wins the initiative (initiative phase)"),
    "not_initiative_winner": ("Порядок зон выбирает победитель инициативы (фаза инициативы)",
                              "Only the initiative winner sets the zone order (initiative phase)"),
    "bad_sequence": ("Порядок зон должен содержать west, center и east по одному разу (фаза инициативы)",
                     "The zone order must list west, center and east once each (initiative phase)"),
    "zones_set": ("Порядок зон: {n} (фаза действий)", "Zone order: {n} (actions phase)"),
    "card_not_placed": ("Карта {card} не лежит в текущей зоне {zone} рубашкой вверх (фаза действий)",
                        "Card {card} is not face down in the current zone {zone} (actions phase)"),
    "must_reveal": ("Игрок {side} обязан открыть одну карту в зоне, пока они есть (фаза действий)",
                    "Player {side} must reveal one card in the zone while any remain (actions phase)"),
    "nothing_to_reveal": ("У игрока {side} нет карт в этой зоне (фаза действий)",
                          "Player {side} has no cards in this zone (actions phase)"),
    "step_done": ("Шаг разыгран (фаза действий)", "Step resolved (actions phase)"),
    "void_card": ("Карта {card} снята: {why} (неисполнимый приказ)", "Card {card} removed: {why} (order cannot be carried out)"),
    "turn_ended": ("Ход {n} закончен (конец хода)", "Turn {n} is over (end of turn)"),
    "confirmed": ("Приказы стороны {side} подтверждены (фаза приказов)", "Orders of {side} confirmed (orders phase)"),
}


def reason(code: str, **kw: Any) -> dict[str, str]:
    ru, en = MESSAGES[code]
    kind = kw.pop("kind", None)
    terrain = kw.pop("terrain", None)
    ru_kw = dict(kw, kind=KIND_RU.get(kind, kind), terrain=TERRAIN_RU.get(terrain, terrain))
    en_kw = dict(kw, kind=KIND_EN.get(kind, kind), terrain=TERRAIN_EN.get(terrain, terrain))
    return {"ru": ru.format(**ru_kw), "en": en.format(**en_kw)}


def bilingual(code: str, ru: str, en: str, **kw: Any) -> Reason:
    """A Reason from two templates; a ``(ru, en)`` tuple value is filled in per language."""
    ru_kw = {k: v[0] if isinstance(v, tuple) else v for k, v in kw.items()}
    en_kw = {k: v[1] if isinstance(v, tuple) else v for k, v in kw.items()}
    return Reason(code, ru.format(**ru_kw), en.format(**en_kw))


def names(table: dict[str, tuple[str, str]], keys) -> tuple[str, str]:
    """Several names joined per language, e.g. ``names(FORMATION_NAMES, ["line", "square"])``."""
    keys = list(keys)
    return (", ".join(table.get(k, (k, k))[0] for k in keys), ", ".join(table.get(k, (k, k))[1] for k in keys))


def side_names(side: str) -> tuple[str, str]:
    return SIDE_NAMES.get(side, (side, side))


def reason_of(code: str, **kw: Any) -> Reason:
    """The catalogue sentence as a shared :class:`Reason` (its text names the rule)."""
    r = reason(code, **kw)
    return Reason(code, r["ru"], r["en"])


def ok(code: str, state=None, details: dict | None = None, events: list | None = None, **kw) -> Outcome:
    return Outcome(True, reason_of(code, **kw), state, tuple(events or ()), (), details if details is not None else {})


def no(code: str, **kw) -> Outcome:
    return Outcome(False, reason_of(code, **kw))


def reason_dict(r: Reason) -> dict[str, str]:
    """A reason as the engine's stored/printed JSON: {'ru', 'en'}."""
    return {"ru": r.ru, "en": r.en}


def outcome_dict(out: Outcome) -> dict:
    """The JSON shape of an answer printed by ``manage.py generalissimus_resolve`` (docs/generalissimus.md)."""
    return {"legal": out.ok, "code": out.reason.code, "reason": reason_dict(out.reason),
            "details": out.data, "events": list(out.changes)}

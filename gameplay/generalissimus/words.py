"""What a player reads: units, cards, sides and house rules named as players name them.

The engine's state and commands keep their identifiers (``N-cav-1``, ``S-move-2``, ``south``,
``cavalry_free_turn``); every sentence a player reads passes through :func:`plain_reason`, which
names a unit «конница Севера на a6» / "North's cavalry at a6", a card by its title, a side by its
name and a house rule by its title.
"""
from __future__ import annotations

import re

from gameplay.common import Outcome, Reason

KIND_WORDS = {"infantry": ("пехота", "infantry"), "cavalry": ("конница", "cavalry"), "artillery": ("батарея", "battery")}
SIDE_OF = {"south": ("Юга", "South's"), "north": ("Севера", "North's")}
SIDE_WORDS = {"south": ("Юг", "South"), "north": ("Север", "North")}
ZONE_WORDS = {"west": ("запад", "west"), "center": ("центр", "centre"), "east": ("восток", "east")}
PHASE_WORDS = {"orders": ("приказов", "orders"), "initiative": ("инициативы", "initiative"),
               "actions": ("действий", "actions"), "end_of_turn": ("конца хода", "end of turn"),
               "finished": ("конца битвы", "battle over")}
CARD_WORDS = {
    "artillery_volley": ("«Залп орудий!»", "Artillery volley"), "musket_volley": ("«Ружейный залп!»", "Musket volley"),
    "manoeuvre": ("«Маневр!»", "Manoeuvre"), "move": ("«Переместиться!»", "Move"), "bayonets": ("«В Штыки!»", "Bayonets!"),
    "retreat": ("«Отступить!»", "Retreat"), "form_up": ("«Построиться!»", "Form up"),
}
# the house rules' titles (the new-battle page shows the same titles)
SETTING_WORDS = {
    "rear_reference": ("Что значит «назад»", "What “back” means"),
    "musket_arc": ("Диагонали ружейного залпа", "Musket volley diagonals"),
    "bayonets_advance": ("«В Штыки!» без врага впереди", "Bayonets! with no enemy in front"),
    "cavalry_stop_terrain": ("Местность, останавливающая конницу", "Terrain that stops cavalry"),
    "cavalry_free_turn": ("Поворот конницы после хода", "Cavalry turn after moving"),
    "cavalry_step_dirs": ("Направления шага конницы", "Cavalry step directions"),
    "deploy_rows": ("Ряды расстановки", "Deployment rows"),
    "max_units_per_side": ("Отрядов на сторону", "Units per side"),
    "max_blocks_per_side": ("Фишек на сторону", "Blocks per side"),
    "orders_per_turn_cap": ("Карт за ход", "Cards per turn"),
    "allow_digital_dice": ("Цифровые кубики", "Digital dice"),
    "counter_charge_timing": ("Когда на атаку можно ответить «В штыки!»", "When a charge can be met with Bayonets!"),
    "retreat_distance": ("Дальность отхода по карте «Отступить!»", "Retreat card distance"),
    "blocked_retreat": ("Отходящему некуда отойти", "A unit falling back with nowhere to go"),
    "flight_choice": ("Бегство без свободного сектора", "Flight without a free sector"),
    "reserve_entry": ("Ввод резерва", "Reserve entry"),
    "card_scope": ("Кому отдаёт приказ одна карта", "What one card orders"),
    "initiative_tie": ("Ничья в инициативе", "Initiative tie"),
    "flank_rule": ("Атака во фланг", "Flank attack"),
    "artillery_arc": ("Сектор огня артиллерии", "Artillery arc"),
    "artillery_blockers": ("Кто заслоняет огонь артиллерии", "Units that block artillery fire"),
    "winner_advance": ("Продвижение победителя рукопашной", "Melee winner's advance"),
    "victory_check": ("Проверка победы", "Victory check"),
}
_SETTING_RE = re.compile(r"(настройк[аи]|settings?) ((?:[a-z]+_[a-z_]+)(?:, [a-z]+_[a-z_]+)*)")
_LANGS = {"ru": 0, "en": 1}


def unit_name(u, lang: str = "ru") -> str:
    """«конница Севера на a6» / "North's cavalry at a6" (off the board: in reserve, destroyed, deserted)."""
    i = _LANGS.get(lang, 0)
    kind = KIND_WORDS.get(u.kind, (u.kind, u.kind))[i]
    side = SIDE_OF.get(u.owner, (u.owner, u.owner))[i]
    if u.on_board:
        where = f"на {u.sector}" if i == 0 else f"at {u.sector}"
    else:
        where = {"reserve": ("в резерве", "in reserve"), "destroyed": ("(уничтожена)", "(destroyed)"),
                 "deserted": ("(ушла с поля)", "(deserted)")}.get(u.location, (u.location, u.location))[i]
    return f"{kind} {side} {where}" if i == 0 else f"{side} {kind} {where}"


def card_name(ctype: str, lang: str = "ru") -> str:
    return CARD_WORDS.get(ctype, (ctype, ctype))[_LANGS.get(lang, 0)]


def _namer(st, lang: str):
    """A function naming every identifier of this battle in ``lang`` inside a sentence."""
    i = _LANGS.get(lang, 0)
    names: dict[str, str] = {}
    for u in getattr(st, "units", ()) if st is not None else ():
        names[u.id] = unit_name(u, lang)
    for c in getattr(st, "cards", ()) if st is not None else ():
        names[c.id] = card_name(c.type, lang)
    tables = (SIDE_WORDS, ZONE_WORDS, PHASE_WORDS) if i == 0 else (SIDE_WORDS,)
    words = {k: v[i] for table in tables for k, v in table.items()}
    ids = sorted(names, key=len, reverse=True)
    unit_re = (re.compile(r"(?<![\w-])(?:(Отряд|отряд|Unit|unit) )?(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
               if ids else None)
    word_re = re.compile(r"(?<![\w-])(" + "|".join(words) + r")(?![\w-])")

    def unit_sub(m):
        name = names[m.group(2)]
        if m.group(1) and m.group(1)[0].isupper():
            name = name[0].upper() + name[1:]
        return name

    def setting_sub(m):
        keys = m.group(2).split(", ")
        titles = "; ".join(f"«{SETTING_WORDS[k][i]}»" if k in SETTING_WORDS else k.replace("_", " ") for k in keys)
        return ("домашнее правило " if i == 0 else "house rule ") + titles

    def name(text: str) -> str:
        if not text:
            return text
        if unit_re is not None:
            text = unit_re.sub(unit_sub, text)
        text = _SETTING_RE.sub(setting_sub, text)
        return word_re.sub(lambda m: words[m.group(1)], text)
    return name


def plain_text(text: str, st, lang: str) -> str:
    return _namer(st, lang)(text)


def plain_reason(reason: Reason | None, st) -> Reason | None:
    """The reason with every identifier of ``st`` named in each language."""
    if reason is None:
        return None
    return Reason(reason.code, _namer(st, "ru")(reason.ru), _namer(st, "en")(reason.en), reason.rule)


def plain_outcome(out: Outcome, st) -> Outcome:
    """The outcome's reason and notes as a player reads them (names taken before the command ran)."""
    return Outcome(out.ok, plain_reason(out.reason, st), out.state, out.changes,
                   tuple(plain_reason(n, st) for n in out.notes), out.data)

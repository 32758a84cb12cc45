"""House-rule settings: one field per [DEFAULT] of the spec (§5), with RU/EN notes."""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any


class SettingsError(ValueError):
    """A settings dict has an unknown key or a bad value. ``ru``: the Russian text when there is one
    (the bounds below), else ``None``."""

    def __init__(self, message: str, ru: str | None = None):
        super().__init__(message)
        self.ru = ru


# Bounds, checked before anything is built or copied from a settings value (an import or a hand-typed
# JSON field can hold anything). Every default fits with room to spare: the deepest, terrain_effects,
# is {kind: {terrain: [flags]}}, 3 levels and some 25 values.
MAX_DEPTH = 4  # nesting of a dict / list setting
MAX_ITEMS = 100  # dicts, lists and scalars inside one setting
MAX_TEXT = 40  # a string inside a setting (keys included)
MAX_PILE_PER_TYPE = 20  # cards of one type in a side's pile (the new-battle form's own bound)
MAX_SETTING_INT = 100  # a soft limit, a per-turn cap (the box holds 60 blocks)
MAX_DEPLOY_ROWS = 3  # a side's half of the 6-row board


def _oversize(value) -> bool:
    """More than ``MAX_DEPTH`` levels, ``MAX_ITEMS`` values or a string over ``MAX_TEXT`` characters.

    Iterative and stops at the first excess, so it never recurses and never walks a huge value."""
    todo, seen = [(value, 0)], 0
    while todo:
        v, depth = todo.pop()
        seen += 1
        if seen > MAX_ITEMS or depth > MAX_DEPTH:
            return True
        if isinstance(v, str) and len(v) > MAX_TEXT:
            return True
        if isinstance(v, dict):
            if len(v) > MAX_ITEMS:
                return True
            todo += [(k, depth + 1) for k in v] + [(x, depth + 1) for x in v.values()]
        elif isinstance(v, list):
            if len(v) > MAX_ITEMS:
                return True
            todo += [(x, depth + 1) for x in v]
    return False


def _texts(values) -> bool:
    return all(isinstance(v, str) for v in values)


def _opt(default, ref: str, ru: str, en: str, choices=None, kind=None):
    meta = {"ref": ref, "ru": ru, "en": en, "choices": choices, "kind": kind or type(default).__name__}
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda d=default: _clone(d), metadata=meta)
    return field(default=default, metadata=meta)


def _clone(v):
    if isinstance(v, dict):
        return {k: _clone(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_clone(x) for x in v]
    return v


CARD_TYPES = ("artillery_volley", "musket_volley", "manoeuvre", "move", "bayonets", "retreat", "form_up")
DEFAULT_PILE = {"move": 4, "musket_volley": 3, "artillery_volley": 2, "bayonets": 3,
                "manoeuvre": 3, "form_up": 3, "retreat": 2}
DEFAULT_ZONES = {"west": ["a", "b"], "center": ["c", "d"], "east": ["e", "f"]}
# Terrain effect flags per unit kind (§2.4). Field has no effect for anybody.
DEFAULT_TERRAIN_EFFECTS = {
    "infantry": {"forest": ["disorder"], "river": ["disorder"]},
    "cavalry": {"forest": ["no_entry"], "river": ["disorder"], "hill": ["disorder"],
                "village": ["disorder"]},
    "artillery": {"forest": ["no_entry", "blocks_fire"], "river": ["no_fire_from"],
                  "hill": ["blocks_fire", "fire_platform"], "village": ["blocks_fire"]},
}
TERRAIN_FLAGS = {"disorder", "no_entry", "blocks_fire", "no_fire_from", "fire_platform"}
TERRAINS = ("field", "forest", "river", "hill", "village")


# Keys of earlier versions that did nothing at the table and were removed. A stored battle
# or a case file that still holds one loads: the value is kept as it was and has no effect.
REMOVED = ("pile_composition_public", "commit_unit_at_placement")
# Keys added with them: absent from battles stored before, where they keep their defaults.
ADDED = ("musket_arc", "bayonets_advance", "blocked_retreat", "deploy_terrain_disorder")


@dataclass
class Settings:
    max_units_per_side: int = _opt(6, "A-2", "Флажков 12 на двоих, а отрядов больше: считаем по 6 на сторону и только предупреждаем.",
                                   "The flags (12) and blocks (60) do not match, so 6 units per side is only a soft warning.")
    max_blocks_per_side: int = _opt(30, "A-2", "Половина от 60 фишек; в правилах лимит на сторону не назван.",
                                    "Half of the 60 blocks; the rules never give a per-side limit.")
    pile_composition: dict = _opt(DEFAULT_PILE, "A-3", "Сколько карт каждого типа, в правилах не сказано: состав задаёт группа.",
                                  "The rules do not say how many cards of each type exist; the group sets it.")
    zone_columns: dict = _opt(DEFAULT_ZONES, "A-4", "Границы зон на схеме поля не прорисованы; берём по два столбца.",
                              "The board picture does not draw zone borders; two columns per zone are used.")
    deploy_rows: int = _opt(1, "A-5", "«Ближайшие сектора» могут значить один ряд или больше; берём один.",
                            "'Nearest sectors' may mean one row or more; one row is used.")
    deploy_terrain_disorder: bool = _opt(False, "A-5", "Расстановка — не перемещение: местность запрещает вход, но не расстраивает.",
                                         "Placing is not a move: terrain forbids entry but does not disorder.")
    reserve_entry: str = _opt("move_card", "A-6", "Как и когда входят отряды из резерва, не описано.",
                              "How and when reserve units come in is not described.", ["move_card"])
    terrain_map: dict = _opt({}, "A-7", "Раскладка местности в правилах не задана; по умолчанию всё поле.",
                             "The rules give no terrain layout; every sector is field by default.")
    terrain_effects: dict = _opt(DEFAULT_TERRAIN_EFFECTS, "A-8", "Ячейки таблицы местности в тексте могли съехать; каждую можно поправить.",
                                 "The terrain table cells may be shifted in the text; each one is editable.")
    facings: int = _opt(4, "A-9", "Допустимы ли диагональные направления, не сказано; манёвр поворачивает на 90°.",
                        "The rules do not say if diagonal facings exist; a Manoeuvre turns by 90°.", [4])
    cavalry_step_dirs: str = _opt("forward3", "A-10", "«Прямо или по диагонали» не уточняет, только ли вперёд.",
                                  "'Straight or diagonal' does not say whether only forward steps count.", ["forward3", "any8"])
    cavalry_free_turn: str = _opt("any", "A-10", "Раздел о перемещении разрешает любой разворот, раздел о коннице — 90°.",
                                  "The movement section allows any turn, the cavalry section says 90°.", ["any", "quarter"])
    cavalry_stop_terrain: list = _opt(["river", "hill", "village"], "A-11",
                                      "Два сектора конница проходит лишь по обычной местности: река, холм и посёлок останавливают её.",
                                      "Cavalry makes its two-sector move over ordinary ground only: river, hill and village stop it.")
    card_scope: str = _opt("one_unit", "A-12", "Приказ одному отряду или всей зоне — в правилах не сказано.",
                           "The rules do not say if a card orders one unit or the whole zone.", ["one_unit"])
    orders_per_turn_cap: Any = _opt(None, "A-13", "Ограничения на число карт за ход в правилах нет.",
                                    "The rules set no limit on cards per turn.", kind="int_or_none")
    cards_reusable: bool = _opt(True, "A-13", "Что происходит с сыгранными картами, не описано; они возвращаются в стопку.",
                                "What happens to played cards is not described; they return to the pile.")
    initiative_tie: str = _opt("reroll", "A-14", "Сказано лишь «бросьте кубик»; ничья перебрасывается.",
                               "Only 'roll a die' is written; a tie is re-rolled.", ["reroll"])
    step_order: str = _opt("fire_first", "A-16", "«Одновременно» и «спорная ситуация» не расписаны по шагам.",
                           "'Simultaneous' and 'disputed situation' are not broken into steps.", ["fire_first"])
    fire_bonus_mode: str = _opt("per_die", "A-17", "Как применять «+1» к стрельбе (к кубику или лишний кубик), не сказано.",
                                "How a +1 applies to fire (to each die or as an extra die) is not said.", ["per_die", "extra_die"])
    melee_bonus_mode: str = _opt("total", "A-17", "В рукопашной сравнивают суммы, поэтому бонус прибавляется к сумме.",
                                 "Melee compares sums, so a bonus is added to the sum.", ["total"])
    column_bonus_defender: bool = _opt(True, "A-17", "Не ясно, получает ли колонна +1, встречая атаку своей картой «В штыки!».",
                                       "Unclear whether a column gets +1 when meeting a charge with its own Bayonets!.")
    flank_rule: str = _opt("front_row", "A-18", "Что считается атакой во фланг и считается ли тыл, не определено.",
                           "What a flank attack is, and whether the rear counts, is not defined.", ["front_row"])
    musket_arc: str = _opt("front_diagonals", "A-37", "«Прямо перед собой или по диагонали»: диагонали только спереди или все четыре.",
                           "'Straight in front or diagonally': the front diagonals only, or all four.",
                           ["front_diagonals", "any_diagonal"])
    bayonets_advance: str = _opt("one_sector", "A-38", "«В Штыки!» значит и «наступать»: без врага впереди отряд идёт на сектор вперёд.",
                                 "Bayonets! also means 'advance': with no enemy in front the unit steps one sector forward.",
                                 ["one_sector", "none", "as_move"])
    artillery_arc: str = _opt("facing", "A-19", "Стреляет ли батарея только по своему фронту, не сказано.",
                              "Whether a battery fires only along its facing is not said.", ["facing"])
    artillery_hill_diag_range: int = _opt(1, "A-19", "Холм увеличивает дальность, но про диагональ ничего нет.",
                                          "A hill raises the range, but nothing is said about the diagonal.", [1, 2])
    artillery_blockers: str = _opt("own", "A-19", "Запрещено стрелять только через свои отряды; про чужие — ничего.",
                                   "Only firing over own units is forbidden; enemy units are not mentioned.", ["own", "any"])
    artillery_hit_order: str = _opt("crew_first", "A-20", "Какую фишку батареи снимает попадание, не сказано.",
                                    "Which battery block a hit removes is not said.", ["crew_first", "gun_first"])
    abandoned_gun_rule: str = _opt("capture", "A-20", "Судьба брошенного орудия не описана; враг, вошедший в сектор, его захватывает.",
                                   "The fate of a left gun is not described; an enemy entering the sector takes it.", ["capture"])
    counter_charge_timing: str = _opt("same_step", "A-22", "Когда защитник может ответить картой «В штыки!», не уточнено.",
                                      "When the defender may answer with Bayonets! is not specified.", ["same_step", "reaction"])
    give_way_flag: str = _opt("up", "A-23", "При отходе без боя не сказано, падает ли флаг.",
                              "When giving way without a fight, the rules do not say if the flag falls.", ["up", "down"])
    give_way_advance: bool = _opt(True, "A-23", "Занимает ли атакующий освободившийся сектор без боя, не сказано.",
                                  "Whether the attacker takes the sector left without a fight is not said.")
    give_way_disorder_attacker: bool = _opt(False, "A-23", "Рукопашной не было, а расстройство описано только для боя.",
                                            "No melee took place, and disorder is only described for a melee.")
    winner_advance: str = _opt("mandatory", "A-24", "Обязательно ли продвижение победителя и что делать с запретной местностью, не сказано.",
                               "Whether the winner must advance, and what if it cannot enter, is not said.", ["mandatory", "none"])
    flight_choice: str = _opt("free_first", "A-25", "Порядок выбора при бегстве без свободного сектора не описан.",
                              "The priority when a fleeing unit has no free sector is not described.", ["free_first"])
    blocked_retreat: str = _opt("stay", "A-36", "Покидает поле только бегущий отряд; отходящему без бегства некуда — он остаётся.",
                                "Only a fleeing unit leaves the board; one falling back with its flag up and nowhere to go stays.",
                                ["stay", "destroyed"])
    chain_push_routs: bool = _opt(True, "A-26", "Бежит ли отряд, которого толкнули в цепной панике, или только отходит, не ясно.",
                                  "Unclear whether a unit pushed in a chain panic routs or only steps back.")
    flight_timing: str = _opt("end_of_turn", "A-27", "«Каждый ход» бежать — но в какой момент хода, не сказано.",
                              "Routed units flee 'every turn', but the moment in the turn is not said.", ["end_of_turn"])
    rear_reference: str = _opt("home_edge", "A-27", "«Назад» может значить от лица отряда или к своему краю поля.",
                               "'Back' may mean away from the facing or towards the own edge.", ["home_edge", "facing"])
    rally_formation: str = _opt("disordered", "A-28", "Какое построение у отряда после остановки бегства, не сказано.",
                                "The formation of a rallied unit is not said.", ["disordered"])
    counter_charge_counts_as_attack: bool = _opt(False, "A-29", "Считается ли встречный штыковой бой атакой отряда за ход, не сказано.",
                                                 "Whether meeting a charge counts as the unit's bayonet attack is not said.")
    retreat_distance: int = _opt(1, "A-30", "Направление и длина отступления по карте не заданы.",
                                 "The direction and length of a Retreat card move are not given.", [1, 2])
    square_break_to: str = _opt("disordered", "A-31", "Что бывает с каре, потерявшим фишки, не сказано.",
                                "What happens to a square that loses blocks is not said.", ["disordered", "line", "column"])
    victory_check: str = _opt("immediate_and_end_of_turn", "A-33", "Когда проверять победу и как считать резерв, не сказано.",
                              "When to check victory and how to count reserves is not said.", ["immediate_and_end_of_turn"])
    reserves_count: bool = _opt(True, "A-33", "Считается ли невведённый резерв разбитым, не сказано.",
                                "Whether a reserve that never entered counts as beaten is not said.")
    cav_vs_routed_advance: bool = _opt(True, "A-34", "Продвигается ли конница после уничтожения бегущих, не сказано.",
                                       "Whether cavalry advances after destroying a routed unit is not said.")
    terrain_cover: str = _opt("none", "A-35", "Укрытий от местности в правилах нет.",
                              "The rules list no terrain cover.", ["none"])
    allow_digital_dice: bool = _opt(True, "§6", "Число кубиков не задано; приложение может бросить за игрока.",
                                    "The number of dice is not given; the app may roll for a player.")

    @classmethod
    def from_dict(cls, data: dict | None) -> "Settings":
        """Build settings from a partial dict; unknown keys or bad values raise SettingsError."""
        data = data or {}
        if not isinstance(data, dict):
            raise SettingsError("settings must be an object")
        known = {f.name: f for f in fields(cls)}
        legacy = {k: _clone(data[k]) for k in REMOVED if k in data and not _oversize(data[k])}
        data = {k: v for k, v in data.items() if k not in REMOVED}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise SettingsError(f"unknown setting key(s): {', '.join(unknown)}")
        for key, value in data.items():
            if _oversize(value):
                raise SettingsError(
                    f"setting {key} is too large or too deeply nested (at most {MAX_DEPTH} levels, {MAX_ITEMS} values, "
                    f"texts of {MAX_TEXT} characters)",
                    f"настройка {key} слишком велика или глубоко вложена (не больше {MAX_DEPTH} уровней, "
                    f"{MAX_ITEMS} значений, строк по {MAX_TEXT} символов)")
            _check(known[key], value)
        out = cls(**{k: _clone(v) for k, v in data.items()})
        out.legacy, out.given = legacy, frozenset(data)
        return out

    def to_dict(self) -> dict:
        """Every setting; a setting added since a battle was stored and left at its default is not
        written into it, and a removed one is written back as it was, so a stored battle reads and
        writes to the same JSON (an import compares a replay with the file)."""
        given = getattr(self, "given", None)
        out = {f.name: _clone(getattr(self, f.name)) for f in fields(self)
               if not (given is not None and f.name in ADDED and f.name not in given
                       and getattr(self, f.name) == f.default)}
        out.update(_clone(getattr(self, "legacy", None) or {}))
        return out


def _check(f, value) -> None:
    meta = f.metadata
    kind = meta["kind"]
    ok = {
        "bool": isinstance(value, bool),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "str": isinstance(value, str),
        "dict": isinstance(value, dict),
        "list": isinstance(value, list),
        "int_or_none": value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0),
    }[kind]
    if not ok:
        raise SettingsError(f"setting {f.name} must be of type {kind}, got {value!r}")
    if kind in ("int", "int_or_none") and value is not None:
        top = MAX_DEPLOY_ROWS if f.name == "deploy_rows" else MAX_SETTING_INT
        if not 0 <= value <= top:
            raise SettingsError(f"setting {f.name} must be between 0 and {top}, got {value!r}",
                                f"настройка {f.name} — от 0 до {top}, а не {value!r}")
    if meta["choices"] is not None and value not in meta["choices"]:
        raise SettingsError(f"setting {f.name} must be one of {meta['choices']}, got {value!r}")
    if f.name == "terrain_effects":
        for unit_kind, table in value.items():
            if unit_kind not in DEFAULT_TERRAIN_EFFECTS or not isinstance(table, dict):
                raise SettingsError(f"terrain_effects: unknown unit kind {unit_kind!r}")
            for terrain, flags in table.items():
                if (terrain not in TERRAINS or not isinstance(flags, list) or not _texts(flags)
                        or not set(flags) <= TERRAIN_FLAGS):
                    raise SettingsError(f"terrain_effects[{unit_kind}][{terrain}]: bad entry {flags!r}")
    if f.name == "zone_columns":
        if not all(isinstance(v, list) and _texts(v) for v in value.values()):
            raise SettingsError("zone_columns must split columns a-f among west, center and east")
        cols = [c for v in value.values() for c in v]
        if set(value) != {"west", "center", "east"} or sorted(cols) != list("abcdef"):
            raise SettingsError("zone_columns must split columns a-f among west, center and east")
    if f.name == "cavalry_stop_terrain" and not (_texts(value) and set(value) <= set(TERRAINS)):
        raise SettingsError(f"cavalry_stop_terrain: unknown terrain in {value!r}")
    if f.name == "pile_composition":
        check_pile(value)
    if f.name == "terrain_map" and not all(isinstance(t, str) and t in TERRAINS for t in value.values()):
        raise SettingsError("terrain_map must map sectors to terrain types")


def check_pile(value) -> None:
    """A side's pile: card type -> count, at most ``MAX_PILE_PER_TYPE`` of each. Raises SettingsError."""
    if not isinstance(value, dict) or not set(value) <= set(CARD_TYPES) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value.values()):
        raise SettingsError("pile_composition must map card types to counts")
    if any(n > MAX_PILE_PER_TYPE for n in value.values()):
        raise SettingsError(f"a pile holds at most {MAX_PILE_PER_TYPE} cards of each type",
                            f"в стопке не больше {MAX_PILE_PER_TYPE} карт каждого типа")


def describe() -> list[dict]:
    """Every setting with default, reference and RU/EN note (for the UI)."""
    out = []
    for f in fields(Settings):
        default = f.default if f.default is not MISSING else f.default_factory()
        out.append({"key": f.name, "default": default, "ref": f.metadata["ref"],
                    "choices": f.metadata["choices"], "ru": f.metadata["ru"], "en": f.metadata["en"]})
    return out

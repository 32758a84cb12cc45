"""Group settings: every [DEFAULT] of spec §5 with its key, default and a bilingual explanation."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

from .serial import to_dict

PLACEHOLDER_WHEEL = [  # the tracker's former placeholder (B-3): 1-5 launchable, no marks; a named wheel now
    {"no_intel": True, "launchable": False, "modifier": "none"},
    *({"no_intel": False, "launchable": True, "modifier": "none"} for _ in range(5)),
]
# only what the rules state: NEW OP (position 0) carries the no-intel mark; every other mark is unknown
# (``None``) and asked at launch until the group enters its wheel (``data/wheel.yaml``, B-3)
RULES_WHEEL = [
    {"no_intel": True, "launchable": None, "modifier": None},
    *({"no_intel": False, "launchable": None, "modifier": None} for _ in range(5)),
]
RULES_EDITION = 2  # 1: the readings before the seed corrections of 2026-11-23 (games stored before them)
# the settings added with the corrections (a game stored before them carries none of them)
NEW_SETTINGS = ("rules_edition", "quagmire_neutral_losses", "quagmire_supply", "fort_at_sea", "ussr_provinces")
# Settings a game stored before the corrections did not carry: they load with the behaviour it was played with
LEGACY_SETTINGS = {"rules_edition": 1, "quagmire_neutral_losses": "removed", "quagmire_supply": "blocks_fully",
                   "fort_at_sea": "card_values", "ussr_provinces": ["baltics", "kiev", "odessa", "ural"],
                   "launch_supply_rule": "origin", "unsupplied_effects": "origin_only",
                   "exhausted_turn_mode": "reduced", "wheel_positions": PLACEHOLDER_WHEEL}


class SettingsError(ValueError):
    """A settings dict with an unknown key or a bad value."""


def _opt(default, ref, ru, en, choices=None):
    meta = {"ref": ref, "ru": ru, "en": en, "choices": choices}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda d=default: copy.deepcopy(d), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class FowSettings:
    """Tracker defaults for the gaps of the source (spec §5). Change per group or per game."""

    board_fixture: str | None = _opt(
        None, "B-1", "Файл карты поля; без него — режим учёта (ledger).",
        "Board map file; without it the app runs in ledger mode.")
    card_fixture: str | None = _opt(
        None, "B-2", "Файл карт; без него значения вводятся при вскрытии.",
        "Card list file; without it values are typed in at reveal.")
    wheel_positions: list = _opt(
        RULES_WHEEL, "B-3",
        "Отметки колеса по позициям 0–5; в правилах есть только No Intel на NEW OP, остальное спрашивается при "
        "запуске, пока группа не введёт своё колесо.",
        "Wheel marks for positions 0-5; the rules only state no-intel at NEW OP, the rest is asked at launch "
        "until the group enters its wheel.")
    exhausted_turn_mode: str = _opt(
        "within_turns", "B-4",
        "Правила 2.11 и 2.10.1: ход переходит только к стороне с картами в колоде; сторона без колоды "
        "поворачивает колесо, разведывает и ведёт операции в ходах противника и обязана сыграть карту с руки. "
        "own_turns — она по-прежнему ходит по очереди; reduced — прежнее чтение трекера (по очереди, без карт с руки).",
        "Rules 2.11 and 2.10.1: the turn passes only to a side with cards in its deck; the side without a deck "
        "rotates, spies and runs operations inside the other side's turns and must play a hand card. "
        "own_turns: it keeps alternating; reduced: the tracker's former reading (alternating, no hand cards).",
        ("within_turns", "own_turns", "reduced", "full"))
    new_year_draw: str = _opt(
        "up_to_3", "B-6", "3.10 говорит «взять 3», но в руке могут остаться карты: добор до 3.",
        "3.10 says 'draw 3' while hands may hold cards: draw up to 3.",
        ("up_to_3", "draw_3", "discard_hand_first"))
    allied_objective_peek: str = _opt(
        "intel", "B-8", "Шаг 1.5 пропущен: Союзники смотрят 3 цели у Марокко через разведку.",
        "Step 1.5 is missing: the Allies view the 3 objectives by Morocco through intel.",
        ("intel", "free"))
    vp_scope: str = _opt(
        "all_in_front", "B-9", "ПО дают все карты провинций Оси перед игроком.",
        "VP come from all Axis province cards in front.", ("all_in_front", "conquered_only"))
    vp_check_after_purchase: bool = _opt(
        True, "B-10", "Купленные в 3.5 ПО тоже могут дать победу (70).",
        "VP bought at 3.5 can also reach the 70-VP win.")
    reinforcement_timing: str = _opt(
        "after_year_advance", "B-11", "Подкрепления кладутся в потери после смены года (буквально по 3.12).",
        "Reinforcements enter losses after the year advances (literal 3.12).",
        ("after_year_advance", "before_production"))
    special_set_entry: str = _opt(
        "discard_before_shuffle", "B-12",
        "Карты США/СССР в конце года — в сброс до 3.10; Урал посреди года — в текущую колоду.",
        "USA/USSR cards at year end join discard before 3.10; Ural cards mid-year go into the current deck.",
        ("discard_before_shuffle",))
    balkans_attack_means: str = _opt(
        "launched", "B-13", "Атакой Балкан считается запущенная операция.",
        "An attack on the Balkans means a launched operation.", ("launched", "created"))
    ussr_trigger: str = _opt(
        "launch", "B-14", "СССР вступает при запуске операции Оси против его провинции.",
        "The USSR enters when an Axis op against a USSR province is launched.", ("launch",))
    late_supply_points: str = _opt(
        "on_entry", "B-15", "Урал снабжает со вступления СССР, Северная Америка — с прихода карт США.",
        "Ural supplies once the USSR enters, North America once the USA cards arrive.", ("on_entry",))
    unsupplied_effects: str = _opt(
        "none", "B-16", "Без снабжения провинция лишь не передаёт снабжение дальше; no_income — без ресурсов и ПО.",
        "An unsupplied province only passes no supply on; no_income: no resources or VP from it either.",
        ("none", "no_income", "origin_only", "origin_and_income"))
    launch_supply_rule: str = _opt(
        "target", "B-17", "При запуске линия снабжения проверяется до атакуемой провинции (её сосед — своя точка "
        "снабжения или снабжаемая провинция не в упорных боях); снабжение исходной не проверяется.",
        "At launch the supply line is checked up to the attacked province (it borders an own supply point or an "
        "own supplied province not in quagmire); the origin's own supply is not checked.",
        ("target", "target_and_origin", "origin"))
    supply_rules: dict = _opt(
        {"seas_pass": True, "captured_points_supply_captor": False}, "B-18",
        "Моря передают снабжение; захваченная точка снабжения врага захватчика не снабжает.",
        "Seas pass supply; a captured enemy supply point does not supply the captor.")
    quagmire_trigger: str = _opt(
        "originator_reinforces", "B-19", "Переразрешение обязательно, только если инициатор усилил бои, в тот же ход.",
        "Re-resolution is forced only when the originator reinforces, within that turn.",
        ("originator_reinforces", "every_originator_turn"))
    quagmire_neutral_losses: str = _opt(
        "defender_losses", "B-22", "Нейтральные карты, потерянные в упорных боях, уходят в потери обороняющегося.",
        "Neutral cards lost in a quagmire go into the defender's losses pile.", ("defender_losses", "removed"))
    quagmire_supply: str = _opt(
        "no_through", "B-44", "Снабжение не проходит через провинцию с упорными боями; сама она может снабжаться, "
        "точка снабжения в ней снабжает соседей. blocks_fully — домашнее правило: она без снабжения и не снабжает.",
        "Supply does not pass through a quagmire province; it can itself be supplied, and a supply point in it "
        "supplies its neighbours. blocks_fully (house rule): it is unsupplied and supplies nothing.",
        ("no_through", "blocks_fully"))
    fort_at_sea: str = _opt(
        "counts", "B-24", "Форт обороняющегося считается и в морском бою (правила называют негодными только корабли "
        "на суше и танки на море); card_values — по напечатанному морскому значению.",
        "A defender's fort counts in a sea battle too (the rules name only ships on land and tanks at sea as "
        "unsuitable); card_values: by the printed sea value.", ("counts", "card_values"))
    ussr_provinces: list = _opt(
        ["ural", "kiev", "odessa"], "B-43", "Провинции СССР (если карта поля их не отмечает). Прибалтика в правилах "
        "не названа советской.", "USSR provinces (where the board map does not mark them). The rules never call "
        "the Baltics Soviet.")
    rules_edition: int = _opt(
        RULES_EDITION, "B-4/B-17/B-22/B-23/B-24/B-43/B-44", "Издание чтений: 2 — после исправлений спецификации; 1 — игра, начатая до них.",
        "Edition of the readings: 2 after the spec corrections; 1 a game begun before them.", (1, 2))
    quagmire_face_up: bool = _opt(
        True, "B-19", "Выжившие в упорных боях лежат лицом вверх, подкрепления — лицом вниз.",
        "Quagmire survivors lie face up, reinforcements face down.")
    no_card_rule: str = _opt(
        "instant", "B-20", "Нет подходящих карт — исход сразу, без бонусов.",
        "No suitable card decides at once, bonuses ignored.", ("instant", "compute"))
    wins_selection: str = _opt(
        "any_sufficient", "B-21", "Победитель выбирает любой набор с суммой ≥ силы противника; приложение предлагает наименьший.",
        "The winner picks any set totalling at least the loser's strength; the app proposes the smallest.",
        ("any_sufficient", "minimal_only"))
    intel_multi_end_of_turn: bool = _opt(
        True, "B-25", "Можно несколько разведок в конце хода, по 1 жетону.",
        "Several end-of-turn intels are allowed, 1 token each.")
    intel_op_includes_target: bool = _opt(
        True, "B-25", "Стопка операции включает карту провинции-цели.",
        "An operation's stack includes its target province card.")
    intel_token_cap: int | None = _opt(
        None, "B-26", "Предел жетонов разведки (пусто — без предела).", "Intel token cap (empty = unlimited).")
    production_cap: int | None = _opt(
        None, "B-27", "Максимум трека производства (пусто — без предела).", "Production track maximum (empty = none).")
    piles_public: bool = _opt(
        False, "B-36", "Противник видит только число карт в сбросе, победах и потерях.",
        "The opponent only sees counts of discard, wins and losses.")
    neutral_deal: str = _opt(
        "random", "B-37", "14 нейтральных карт раздаются случайно, по одной на область.",
        "The 14 neutral cards are dealt at random, one per area.", ("random", "fixture"))

    @classmethod
    def from_dict(cls, data: dict | None) -> "FowSettings":
        """Defaults overridden by ``data``; unknown keys or bad choices raise ``SettingsError``."""
        data = dict(data or {})
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise SettingsError(f"unknown Fog of War setting(s): {', '.join(unknown)}; known: {', '.join(known)}")
        for key, value in data.items():
            choices = known[key].metadata["choices"]
            if choices and value not in choices:
                raise SettingsError(f"setting {key}={value!r} is not one of {list(choices)}")
        _check_wheel(data.get("wheel_positions", RULES_WHEEL))
        _check_ussr(data.get("ussr_provinces", []))
        return cls(**data)

    @classmethod
    def from_stored(cls, data: dict | None) -> "FowSettings":
        """The settings of a stored game: one stored before the corrections keeps its former readings."""
        data = dict(data or {})
        if "rules_edition" not in data:
            for key, value in LEGACY_SETTINGS.items():
                data.setdefault(key, copy.deepcopy(value))
        return cls(**data)

    def to_dict(self) -> dict:
        return to_dict(self)

    @classmethod
    def explain(cls) -> list[dict[str, Any]]:
        """One row per setting: key, default, spec reference, RU and EN explanation, allowed values."""
        default = cls()
        return [{"key": f.name, "default": getattr(default, f.name), **f.metadata} for f in fields(cls)]


def _check_wheel(wheel) -> None:
    """Six positions; ``launchable`` and ``modifier`` may be ``None`` (unknown: asked at launch)."""
    if not isinstance(wheel, list) or len(wheel) != 6:
        raise SettingsError("setting wheel_positions must list exactly 6 positions")
    for i, pos in enumerate(wheel):
        if not isinstance(pos, dict) or set(pos) != {"no_intel", "launchable", "modifier"}:
            raise SettingsError(f"wheel position {i} needs exactly no_intel, launchable, modifier")
        if pos["modifier"] not in ("none", "A+1", "D+1", None):
            raise SettingsError(f"wheel position {i}: modifier must be none, A+1, D+1 or unknown (null)")
        if pos["launchable"] not in (True, False, None) or not isinstance(pos["no_intel"], bool):
            raise SettingsError(f"wheel position {i}: launchable is true, false or unknown (null)")
    if not wheel[0]["no_intel"]:
        raise SettingsError("wheel position 0 (NEW OP) always carries the no-intel mark")


def _check_ussr(keys) -> None:
    if not isinstance(keys, list) or len(keys) > 64 or not all(isinstance(k, str) and 0 < len(k) <= 40 for k in keys):
        raise SettingsError("setting ussr_provinces is a list of at most 64 province keys")

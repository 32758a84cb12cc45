"""Group settings: every [DEFAULT] of spec §5 with its key, default and a bilingual explanation."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

from .serial import to_dict

PLACEHOLDER_WHEEL = [
    {"no_intel": True, "launchable": False, "modifier": "none"},
    *({"no_intel": False, "launchable": True, "modifier": "none"} for _ in range(5)),
]


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
        PLACEHOLDER_WHEEL, "B-3",
        "Отметки колеса по позициям 0–5; в источнике есть только No Intel на NEW OP — введите настоящие.",
        "Wheel marks for positions 0-5; the source only states no-intel at NEW OP — enter the real ones.")
    exhausted_turn_mode: str = _opt(
        "reduced", "B-4",
        "Правила 2.10.1 и 2.11 противоречат друг другу; по умолчанию сторона без колоды ходит сокращённо.",
        "Rules 2.10.1 and 2.11 conflict; by default a side without deck plays reduced turns.",
        ("reduced", "full"))
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
        "origin_only", "B-16", "Без снабжения провинция лишь не может быть исходной для атаки.",
        "An unsupplied province only cannot be an attack origin.", ("origin_only", "origin_and_income"))
    launch_supply_rule: str = _opt(
        "origin", "B-17", "При запуске снабжена должна быть исходная провинция (или это своя точка снабжения).",
        "At launch the origin must be supplied (or be an own active supply point).", ("origin",))
    supply_rules: dict = _opt(
        {"seas_pass": True, "captured_points_supply_captor": False}, "B-18",
        "Моря передают снабжение; захваченная точка снабжения врага захватчика не снабжает.",
        "Seas pass supply; a captured enemy supply point does not supply the captor.")
    quagmire_trigger: str = _opt(
        "originator_reinforces", "B-19", "Переразрешение обязательно, только если инициатор усилил бои, в тот же ход.",
        "Re-resolution is forced only when the originator reinforces, within that turn.",
        ("originator_reinforces", "every_originator_turn"))
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
        _check_wheel(data.get("wheel_positions", PLACEHOLDER_WHEEL))
        return cls(**data)

    def to_dict(self) -> dict:
        return to_dict(self)

    @classmethod
    def explain(cls) -> list[dict[str, Any]]:
        """One row per setting: key, default, spec reference, RU and EN explanation, allowed values."""
        default = cls()
        return [{"key": f.name, "default": getattr(default, f.name), **f.metadata} for f in fields(cls)]


def _check_wheel(wheel) -> None:
    if not isinstance(wheel, list) or len(wheel) != 6:
        raise SettingsError("setting wheel_positions must list exactly 6 positions")
    for i, pos in enumerate(wheel):
        if not isinstance(pos, dict) or set(pos) != {"no_intel", "launchable", "modifier"}:
            raise SettingsError(f"wheel position {i} needs exactly no_intel, launchable, modifier")
        if pos["modifier"] not in ("none", "A+1", "D+1"):
            raise SettingsError(f"wheel position {i}: modifier must be none, A+1 or D+1")
    if not wheel[0]["no_intel"]:
        raise SettingsError("wheel position 0 (NEW OP) always carries the no-intel mark")

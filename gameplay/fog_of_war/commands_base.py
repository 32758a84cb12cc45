"""What every command handler of the stepper shares: the stored table value, malformed input, names.

The stored state (the *table*) is one JSON value::

    {"engine": <GameState.to_dict()>, "ledger": bool,
     "battles": [public battle records, newest last], "intel": [public intel records],
     "intel_seen": {"axis": [...], "allies": [...]},   # private to the spy
     "supply_answers": {province: bool}}               # the players' answers while there is no map

A handler is ``handler(st, table, command) -> Outcome``: ``st`` is the engine state before the
command, ``table`` a copy of the stored value it may add records to. It answers refused (with a
reason naming the rule), or accepted with the new *engine* state; the stepper then stores it into
the table. Handlers never draw randomness: every random pick is in the command (``seed``,
``quagmire_choice``), written there by ``prepare``.
"""
from __future__ import annotations

import re

from gameplay.common import Outcome, Reason, accepted, refused

from .cards import Card
from .state import GameState
from .texts import side_name

MAX_BATTLES = 12  # battle records kept in the table
MAX_INTEL = 30  # intel records kept in the table (and per spy)


class BadCommand(ValueError):
    """Malformed command (not a rules refusal)."""


class RevealMissing(BadCommand):
    """Ledger mode: the typed card values do not match the stack (how many are needed)."""

    def __init__(self, stack: str, need: int, got: int):
        super().__init__(stack)
        self.stack, self.need, self.got = stack, need, got

    def reason(self) -> Reason:
        what = {"reveal_attack": ("атаки", "attack"), "reveal_defence": ("обороны", "defence"),
                "reveal_neutral": ("нейтральных карт", "neutral cards")}[self.stack]
        return R("reveal", f"Введите значения всех карт {what[0]} при вскрытии: нужно {self.need}, введено {self.got} (§2.5, режим учёта).",
                 f"Type the values of every {what[1]} card at reveal: {self.need} needed, {self.got} given (§2.5, ledger mode).",
                 "§2.5")


def R(code: str, ru: str, en: str, rule: str = "") -> Reason:  # noqa: N802 - short constructor
    """A reason of the stepper itself (code ``fow.<code>``)."""
    return Reason(f"fow.{code}", ru, en, rule)


def no(code: str, ru: str, en: str, rule: str = "") -> Outcome:
    """A refusal of the stepper itself."""
    return refused(R(code, ru, en, rule))


def done(st: GameState, summary: Reason) -> Outcome:
    """A handler's acceptance: the new engine state and what the command did."""
    return accepted(st, summary)


def side_ru(side: str | None) -> str:
    return side_name(side, "ru")


def side_en(side: str | None) -> str:
    return side_name(side, "en")


def province_name(st: GameState, key: str, lang: str) -> str:
    p = st.pdef(key) if key in st.provinces else None
    if p is None:
        return key
    return (p.name_en if lang == "en" else p.name_ru) or p.name_en or p.name_ru or key


def card_code(c: Card) -> str:
    """Short text of a card's values (shown only where the card is known to the viewer)."""
    if c.category == "unknown":
        return "?"
    if c.category == "zero":
        return "Z"
    letter = {"land": "L", "naval": "N", "fort": "F", "air": "A"}[c.category]
    v = c.land if c.category in ("land", "fort") else c.sea if c.category == "naval" else (c.land or c.sea or 0)
    return f"{letter}{v}"


def card_record(c: Card) -> dict:
    return {"id": c.id, "code": card_code(c), "name": c.name}


def engine_of(table: dict) -> GameState:
    """The engine state inside a stored table value."""
    return GameState.from_dict(table["engine"])


def copy_table(table: dict) -> dict:
    """A copy of the table a handler may add to (the engine part is replaced after the command)."""
    return {**table, "battles": list(table.get("battles", [])), "intel": list(table.get("intel", [])),
            "intel_seen": {s: list(v) for s, v in table.get("intel_seen", {"axis": [], "allies": []}).items()},
            "supply_answers": dict(table.get("supply_answers", {}))}


def need_rotation(st: GameState, c: dict) -> Outcome | None:
    """§2.2: the active side rotates its wheel before anything else in its turn."""
    if c["side"] == st.active_side and st.phase == "turn" and not st.turn_started and not st.winner:
        return no("rotate_first", "Сначала поверните колесо операций (начало хода).",
                  "Rotate the operations wheel first (start of the turn).", "§2.2")
    return None


def card_ids(c: dict) -> list[str]:
    """The hand cards a command plays (a list of card ids)."""
    ids = c.get("cards")
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        raise BadCommand("cards")
    return ids


def in_players_words(r: Reason, st: GameState) -> Reason:
    """The reason with every province key and side key the engine put in it written as the players name them
    («Северное море», not ``north_sea``)."""
    keys = sorted(st.provinces, key=len, reverse=True)
    if not keys:
        return r
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, keys + ["axis", "allies"])) + r")(?![\w-])")

    def name(lang):
        def sub(m):
            key = m.group(1)
            return side_name(key, lang) if key in ("axis", "allies") else province_name(st, key, lang)
        return sub

    return Reason(r.code, pattern.sub(name("ru"), r.ru), pattern.sub(name("en"), r.en), r.rule)

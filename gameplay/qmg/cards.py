"""The QMG 1st-edition card catalogue (data/cards_1e.yaml) as plain Python objects.

Pure Python (no Django): ``load_catalogue()`` reads the YAML into frozen ``Card``/``Effect``
objects; ``Catalogue`` offers lookups, a name search and expanded decks; ``validate()`` lists
everything wrong with a catalogue against a set of board space ids.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping

import yaml

DEFAULT_PATH = Path(__file__).resolve().parent / "data" / "cards_1e.yaml"

COUNTRIES = ("germany", "japan", "italy", "united_kingdom", "soviet_union", "united_states")
CARD_TYPES = (
    "build_army", "build_navy", "land_battle", "sea_battle",
    "status", "response", "event", "economic_warfare",
)
# The closed effect vocabulary (documented in the header of data/cards_1e.yaml).
EFFECT_KINDS = frozenset({
    "vp_per_army_in", "vp_if_army_in", "vp_if_navy_in", "vp_per_navy_on_board", "vp_immediate",
    "supply_source_for", "not_supply_source_for", "always_supplied", "build_as_home",
    "discard_from_deck", "modify_ew_discard", "cancel_card", "discard_table_card", "play_card_from",
    "build", "recruit", "battle", "eliminate", "protect", "manual",
})
REQUIRED_FIELDS = ("id", "country", "type", "copies", "name_ru", "name_en", "summary_ru", "summary_en")
# the effects that are a card's actions on the board, carried out one after another (``any_order`` orders them)
ORDERED_KINDS = frozenset({"build", "recruit", "battle", "eliminate", "protect"})
# Keys whose values are board space ids (a string or a list of strings), at any nesting depth.
SPACE_KEYS = ("space", "spaces")


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Effect:
    kind: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def space_refs(self) -> tuple[str, ...]:
        """Every value under a `space`/`spaces` key, nested conditions included."""
        found: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, Mapping):
                for key, value in node.items():
                    if key in SPACE_KEYS:
                        found.extend([value] if isinstance(value, str) else list(value))
                    else:
                        walk(value)
            elif isinstance(node, tuple):
                for item in node:
                    walk(item)

        walk(self.params)
        return tuple(found)


@dataclass(frozen=True)
class Card:
    id: str
    country: str
    type: str
    copies: int
    name_ru: str
    name_en: str
    summary_ru: str
    summary_en: str
    effects: tuple[Effect, ...] = ()
    timing: str | None = None
    once_per_turn: bool = False
    variant: str | None = None
    name_ru_official: bool = False
    trigger_spaces: tuple[str, ...] = ()
    trigger_where: str | None = None
    unknown_spaces: tuple[str, ...] = ()
    confidence: str = ""
    notes: str = ""
    # the card's printed play condition ("playable only if …"): unmet, the card may not be played (only
    # discarded unused); a `requires` on one effect only limits that effect
    play_requires: Mapping[str, Any] | None = None
    # the card's text lets the player carry out its actions in any order (seed 000 «Как сыграть карту»: the
    # printed order, unless the card says otherwise): its board steps are offered together
    any_order: bool = False

    @property
    def effect_kinds(self) -> tuple[str, ...]:
        return tuple(e.kind for e in self.effects)

    def effects_of(self, kind: str) -> tuple[Effect, ...]:
        return tuple(e for e in self.effects if e.kind == kind)


def fold(text: str) -> str:
    """Case-insensitive search key: lower case, «ё» → «е», quotes dropped, spaces collapsed."""
    text = text.casefold().replace("ё", "е")
    text = re.sub(r"[«»\"'“”„()]", " ", text)
    return " ".join(text.split())


@dataclass(frozen=True)
class Catalogue:
    cards: tuple[Card, ...]
    composition: Mapping[str, Mapping[str, int]] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    vocabulary: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    corrections: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        index: dict[str, Card] = {}
        for card in self.cards:
            if card.id in index:
                raise ValueError(f"duplicate card id {card.id!r}")
            index[card.id] = card
        object.__setattr__(self, "_index", MappingProxyType(index))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._index

    def __getitem__(self, card_id: str) -> Card:
        return self._index[card_id]

    def get(self, card_id: str) -> Card | None:
        """The card with this id, or None (also for anything that is not text: a malformed command)."""
        return self._index.get(card_id) if isinstance(card_id, str) else None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._index)

    def by_country(self, country: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.country == country)

    def by_type(self, card_type: str, country: str | None = None) -> tuple[Card, ...]:
        return tuple(c for c in self.cards
                     if c.type == card_type and (country is None or c.country == country))

    def count(self, country: str | None = None, card_type: str | None = None) -> int:
        """Number of physical cards (copies counted)."""
        return sum(c.copies for c in self.cards
                   if (country is None or c.country == country)
                   and (card_type is None or c.type == card_type))

    def expanded_deck(self, country: str) -> list[str]:
        """Card ids of one country's deck, each repeated `copies` times (catalogue order)."""
        return [c.id for c in self.by_country(country) for _ in range(c.copies)]

    def search(self, query: str, country: str | None = None) -> list[Card]:
        """Cards whose Russian or English name contains every word of `query` (case and ё/е folded)."""
        words = fold(query).split()
        if not words:
            return []
        found = []
        for card in self.cards:
            if country is not None and card.country != country:
                continue
            for name in (card.name_ru, card.name_en):
                key = fold(name)
                if all(w in key for w in words):
                    found.append(card)
                    break
        return found


def _card_from(raw: Mapping[str, Any]) -> Card:
    effects = []
    for e in raw.get("effects") or ():
        params = {k: v for k, v in e.items() if k != "kind"}
        effects.append(Effect(kind=str(e.get("kind", "")), params=_freeze(params)))
    copies = raw.get("copies")
    return Card(
        id=str(raw.get("id", "")),
        country=str(raw.get("country", "")),
        type=str(raw.get("type", "")),
        copies=copies if isinstance(copies, int) and not isinstance(copies, bool) else 0,
        name_ru=str(raw.get("name_ru") or ""),
        name_en=str(raw.get("name_en") or ""),
        summary_ru=str(raw.get("summary_ru") or ""),
        summary_en=str(raw.get("summary_en") or ""),
        effects=tuple(effects),
        timing=raw.get("timing"),
        once_per_turn=bool(raw.get("once_per_turn", False)),
        variant=raw.get("variant"),
        name_ru_official=bool(raw.get("name_ru_official", False)),
        trigger_spaces=tuple(raw.get("trigger_spaces") or ()),
        trigger_where=raw.get("trigger_where"),
        unknown_spaces=tuple(raw.get("unknown_spaces") or ()),
        confidence=str(raw.get("confidence") or ""),
        notes=str(raw.get("notes") or ""),
        play_requires=_freeze(raw["play_requires"]) if isinstance(raw.get("play_requires"), Mapping) else None,
        any_order=raw.get("any_order") is True,
    )


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Read the catalogue YAML (default: data/cards_1e.yaml next to this module)."""
    with open(path or DEFAULT_PATH, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    vocabulary = {key: data.get(key) or () for key in
                  ("effect_kinds", "timings", "where_tokens", "condition_kinds", "context_spaces")}
    return Catalogue(
        cards=tuple(_card_from(raw) for raw in data.get("cards") or ()),
        composition=_freeze(data.get("composition") or {}),
        vocabulary=_freeze(vocabulary),
        corrections=tuple(data.get("corrections") or ()),
    )


@lru_cache(maxsize=1)
def default_catalogue() -> Catalogue:
    """The standard catalogue (data/cards_1e.yaml), read once."""
    return load_catalogue()


def board_space_ids(board_path: str | Path) -> set[str]:
    """Land and sea space ids of a board YAML file (e.g. data/board_1e.yaml)."""
    with open(board_path, encoding="utf-8") as fh:
        board = yaml.safe_load(fh)
    return set(board.get("land") or {}) | set(board.get("sea") or {})


def _conditions(node: Any) -> Iterable[Mapping[str, Any]]:
    """Every condition mapping (under `requires`) inside an effect's parameters."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "requires" and isinstance(value, Mapping):
                yield value
            yield from _conditions(value)
    elif isinstance(node, tuple):
        for item in node:
            yield from _conditions(item)


def validate(catalogue: Catalogue, space_ids: Iterable[str]) -> list[str]:
    """Problems found in `catalogue` (empty list = valid). `space_ids` = the board's space ids."""
    spaces = set(space_ids)
    vocab = catalogue.vocabulary
    timings = set(vocab.get("timings", ()))
    where_tokens = set(vocab.get("where_tokens", ()))
    condition_kinds = set(vocab.get("condition_kinds", ()))
    placeholders = set(vocab.get("context_spaces", ()))
    problems: list[str] = []

    documented = set(vocab.get("effect_kinds", ()))
    if documented != EFFECT_KINDS:
        problems.append(f"catalogue: effect_kinds documented in the file differ from EFFECT_KINDS: "
                        f"{sorted(documented ^ EFFECT_KINDS)}")

    for card in catalogue:
        where = card.id or "<card without id>"
        for name in REQUIRED_FIELDS:
            if name == "copies":
                if card.copies < 1:
                    problems.append(f"{where}: missing field copies (or not a positive integer)")
            elif not getattr(card, name):
                problems.append(f"{where}: missing field {name}")
        if card.country and card.country not in COUNTRIES:
            problems.append(f"{where}: unknown country {card.country!r}")
        if card.type and card.type not in CARD_TYPES:
            problems.append(f"{where}: unknown card type {card.type!r}")
        if card.type in ("status", "response") and not card.timing:
            problems.append(f"{where}: missing field timing (required for {card.type})")
        if card.timing and card.timing not in timings:
            problems.append(f"{where}: unknown timing {card.timing!r}")
        if not card.effects:
            problems.append(f"{where}: missing field effects")
        for space in card.trigger_spaces:
            if space not in spaces:
                problems.append(f"{where}: unknown space id {space!r} in trigger_spaces")
        if card.trigger_where and card.trigger_where not in where_tokens:
            problems.append(f"{where}: unknown where token {card.trigger_where!r}")
        for effect in card.effects:
            if effect.kind not in EFFECT_KINDS:
                problems.append(f"{where}: unknown effect kind {effect.kind!r}")
            for space in effect.space_refs():
                if space not in spaces and space not in placeholders:
                    problems.append(f"{where}: unknown space id {space!r} in effect {effect.kind}")
            for key in ("where", "exclude"):
                token = effect.get(key)
                if token is not None and token not in where_tokens:
                    problems.append(f"{where}: unknown where token {token!r} in effect {effect.kind}")
            for cond in _conditions(effect.params):
                if cond.get("kind") not in condition_kinds:
                    problems.append(f"{where}: unknown condition kind {cond.get('kind')!r}")
            if effect.kind == "manual" and not effect.get("note"):
                problems.append(f"{where}: manual effect without a note")
        if card.any_order and sum(e.kind in ORDERED_KINDS for e in card.effects) < 2:
            problems.append(f"{where}: any_order needs at least two board actions to order")
        if card.play_requires is not None:
            cond = card.play_requires
            if cond.get("kind") not in condition_kinds:
                problems.append(f"{where}: unknown condition kind {cond.get('kind')!r} in play_requires")
            for space in cond.get("spaces") or ():
                if space not in spaces:  # judged from the table alone: no placeholder
                    problems.append(f"{where}: play_requires names {space!r}, not a board space")

    counts = Counter((c.country, c.type) for c in catalogue for _ in range(max(c.copies, 0)))
    for country, row in catalogue.composition.items():
        for card_type, expected in row.items():
            if card_type in CARD_TYPES and counts[(country, card_type)] != expected:
                problems.append(f"{country}: {counts[(country, card_type)]} {card_type} cards, "
                                f"composition says {expected}")
        if "deck" in row and catalogue.count(country) != row["deck"]:
            problems.append(f"{country}: deck has {catalogue.count(country)} cards, "
                            f"composition says {row['deck']}")
    for country in {c.country for c in catalogue} - set(catalogue.composition):
        problems.append(f"{country}: no composition row")
    return problems

"""Battle cards (also used for neutral cards) and their land/sea values."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

from .limits import MAX_CARD_TEXT, MAX_CARD_VALUE, MAX_CARDS, LimitError, cards_over_limit

CATEGORIES = ("land", "naval", "air", "fort", "zero", "unknown")
_SHORT = re.compile(r"^([LNFAZ])(\d*)$")
_CARD_LIST = re.compile(r"^(\d+|([LNFA]\d+|Z)([\s,]+([LNFA]\d+|Z))*)$", re.I)


@dataclass(frozen=True)
class Card:
    """One physical card. A ``None`` value means it does not count in that kind of battle.

    ``category == "unknown"`` is a ledger-mode placeholder whose values are typed in at reveal.
    """

    id: str
    owner: str = "neutral"
    category: str = "unknown"
    land: int | None = None
    sea: int | None = None
    name: str = ""
    set: str = "base"
    face_up: bool = False
    known_to_opponent: bool = False

    def value(self, kind: str) -> int | None:
        return self.land if kind == "land" else self.sea

    def is_zero(self, kind: str) -> bool:
        """Zero (dummy) cards: category ``zero`` or a printed 0 for this battle kind."""
        return self.category == "zero" or self.value(kind) == 0

    def usable(self, kind: str, attacking: bool) -> bool:
        """Counts in this battle: not zero, suitable for the kind, not an attacking fort (§2.5 step 7)."""
        if attacking and self.category == "fort":
            return False
        return self.value(kind) is not None and not self.is_zero(kind)

    def shown(self, face_up: bool, known: bool | None = None) -> "Card":
        return replace(self, face_up=face_up, known_to_opponent=self.known_to_opponent if known is None else known)


def parse_card(spec, owner: str, card_id: str | None = None) -> Card:
    """A card from shorthand (``"L3"``, ``"N2"``, ``"F1"``, ``"A2"`` air on both, ``"Z"``) or a dict.

    Raises ``ValueError`` for malformed input.
    """
    if isinstance(spec, Card):
        return spec
    if isinstance(spec, str):
        m = _SHORT.match(spec.strip().upper())
        if not m or (m.group(1) != "Z" and not m.group(2)):
            raise ValueError(f"bad card shorthand {spec!r} (use L3, N2, F1, A2 or Z)")
        if len(m.group(2)) > len(str(MAX_CARD_VALUE)) or int(m.group(2) or 0) > MAX_CARD_VALUE:
            raise _value_over_limit()
        letter, v = m.group(1), int(m.group(2) or 0)
        cid = card_id or spec
        return {
            "L": Card(cid, owner, "land", land=v),
            "N": Card(cid, owner, "naval", sea=v),
            "F": Card(cid, owner, "fort", land=v),
            "A": Card(cid, owner, "air", land=v, sea=v),
            "Z": Card(cid, owner, "zero", land=0, sea=0),
        }[letter]
    if isinstance(spec, dict):
        allowed = {"id", "category", "land", "sea", "name", "set"}
        extra = set(spec) - allowed
        if extra:
            raise ValueError(f"unknown card field(s) {sorted(extra)}")
        category = spec.get("category", "land")
        if category not in CATEGORIES:
            raise ValueError(f"card category must be one of {CATEGORIES}")
        for k in ("land", "sea"):
            v = spec.get(k)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                raise ValueError(f"card {k} value must be a non-negative integer or null")
            if v is not None and v > MAX_CARD_VALUE:
                raise _value_over_limit()
        return Card(str(spec.get("id") or card_id or category), owner, category, spec.get("land"), spec.get("sea"),
                    str(spec.get("name", "")), str(spec.get("set", "base")))
    raise ValueError(f"a card must be a shorthand string or an object, got {type(spec).__name__}")


def _value_over_limit() -> LimitError:
    return LimitError(f"Значение карты — не больше {MAX_CARD_VALUE}.", f"A card value is at most {MAX_CARD_VALUE}.")


def parse_cards(specs, owner: str, prefix: str) -> list[Card]:
    """Parse a list of cards, giving each a unique id ``<prefix><n>`` unless it has one."""
    if not isinstance(specs, list):
        raise ValueError(f"{prefix}: expected a list of cards")
    if len(specs) > MAX_CARDS:
        raise cards_over_limit("Список карт", "A card list")
    cards = []
    for i, s in enumerate(specs, 1):
        card = parse_card(s, owner, f"{prefix}{i}")
        if isinstance(s, str):
            card = replace(card, id=f"{prefix}{i}:{s.upper()}")
        cards.append(card)
    return cards


def load_cards(data: dict) -> dict[str, Card]:
    """Card values entered by the group: ``{"cards": [{"id", "owner", "category", "land", "sea", ...}]}``."""
    out = {}
    for row in data.get("cards", []):
        row = dict(row)
        owner = row.pop("owner", "neutral")
        card = parse_card(row, owner)
        if card.id in out:
            raise ValueError(f"duplicate card id {card.id!r}")
        out[card.id] = card
    return out


def placeholders(owner: str, n: int, prefix: str | None = None) -> list[Card]:
    """Ledger-mode cards of unknown value."""
    return [Card(f"{prefix or owner}-{i}", owner) for i in range(1, n + 1)]


def total(cards, kind: str) -> int:
    return sum(c.value(kind) or 0 for c in cards)


def card_list_ok(text: str) -> bool:
    """A side's cards as typed: empty, a plain count (ledger mode) or shorthand codes (``L3 N2 F1 A2 Z``).

    Only the form; the size is :func:`card_list_size_ok`'s (check it first: it costs nothing)."""
    return not (text or "").strip() or bool(_CARD_LIST.match(text.strip()))


def card_list_size_ok(text) -> bool:
    """Within the bounds (``limits``): at most ``MAX_CARD_TEXT`` characters, a count of at most
    ``MAX_CARDS``, at most ``MAX_CARDS`` codes. Looks at no more than ``MAX_CARD_TEXT`` characters."""
    if not isinstance(text, str) or len(text) > MAX_CARD_TEXT:
        return False
    text = text.replace(",", " ").strip()
    if text.isascii() and text.isdigit():
        return len(text) <= len(str(MAX_CARDS)) and int(text) <= MAX_CARDS
    return len(text.split()) <= MAX_CARDS


def check_card_list(text, what_ru: str = "Список карт", what_en: str = "A card list") -> None:
    """Raise :class:`LimitError` (RU/EN) when a typed card list is beyond the bounds."""
    if not isinstance(text, str):
        raise ValueError("a card list is typed as text")
    if not card_list_size_ok(text):
        raise cards_over_limit(what_ru, what_en)


def parse_card_list(text: str, owner: str, prefix: str, rng: random.Random) -> list[Card] | None:
    """A side's cards typed as shorthand (``L3 L3 N2 F1 Z``) or a plain count (ledger mode).

    Ids are opaque and assigned in a random order, so an id never tells a card's value.
    Returns ``None`` for an empty text. Raises ``ValueError`` on bad input, :class:`LimitError` (before
    any work) on a list beyond the bounds of ``limits``.
    """
    check_card_list(text or "")
    text = (text or "").replace(",", " ").strip()
    if not text:
        return None
    if text.isascii() and text.isdigit():
        return placeholders(owner, int(text), prefix)
    specs = text.split()
    cards = [parse_card(s, owner, "x") for s in specs]
    order = list(range(len(cards)))
    rng.shuffle(order)
    return [replace(cards[i], id=f"{prefix}-{n}") for n, i in enumerate(order, 1)]

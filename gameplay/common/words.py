"""Counted nouns in Russian and English: «1 карта», «2 карты», «5 карт»; "1 card", "2 cards"."""
from __future__ import annotations


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    """The Russian form for ``n``: ``one`` (1, 21, 101…), ``few`` (2–4, 22–24…), ``many`` (0, 5–20, 11–14…)."""
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def count_ru(n: int, one: str, few: str, many: str) -> str:
    """``n`` and its noun: ``count_ru(2, "карта", "карты", "карт")`` → «2 карты»."""
    return f"{n} {plural_ru(n, one, few, many)}"


def count_en(n: int, one: str, many: str) -> str:
    """``n`` and its noun: ``count_en(1, "card", "cards")`` → "1 card"."""
    return f"{n} {one if abs(int(n)) == 1 else many}"


def cards_ru(n: int) -> str:
    return count_ru(n, "карта", "карты", "карт")


def cards_en(n: int) -> str:
    return count_en(n, "card", "cards")


def cards(n: int, lang: str) -> str:
    """«n карт…» or "n card(s)" in the page's language."""
    return cards_en(n) if lang == "en" else cards_ru(n)

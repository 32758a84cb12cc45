"""The words of bad input: a message for people who write scenario and rulings files by hand.

An unknown id is answered with the nearest known ids, a value outside a closed list with the accepted values
as the file must spell them (``unknown card id 'ger_blitzkreig' — nearest: ger_blitzkrieg``; ``unknown phase
'victory_step' — accepted: play, supply, victory, discard, draw``). Also the small grammar helpers the reasons
share (an English article, a Russian number agreement). Pure Python, no Django.
"""
from __future__ import annotations

import difflib
from typing import Iterable

MAX_LISTED = 12  # accepted values listed in one message (the rest counted)


def nearest(value, known: Iterable[str], n: int = 3) -> list[str]:
    """The known ids nearest to ``value`` (similar spelling, or containing it), best first."""
    known = sorted(set(known))
    if not isinstance(value, str) or not value:
        return []
    found = difflib.get_close_matches(value, known, n=n, cutoff=0.6)
    lowered = value.lower()
    for k in known:
        if len(found) >= n:
            break
        if k not in found and (lowered in k.lower() or k.lower() in lowered):
            found.append(k)
    return found


def listed(values: Iterable[str]) -> str:
    """Values as a file spells them, comma-separated (at most MAX_LISTED, the rest counted)."""
    values = list(values)
    shown = ", ".join(values[:MAX_LISTED])
    return shown + (f" and {len(values) - MAX_LISTED} more" if len(values) > MAX_LISTED else "")


def unknown(what: str, value, known: Iterable[str]) -> str:
    """'unknown <what> <value> — nearest: …' (or '— accepted: …' when nothing is near and the list is short)."""
    known = list(known)
    near = nearest(value, known)
    if near:
        return f"unknown {what} {value!r} — nearest: {', '.join(near)}"
    if len(known) <= MAX_LISTED:
        return f"unknown {what} {value!r} — accepted: {listed(known)}"
    return f"unknown {what} {value!r}"


def one_of(what: str, value, accepted: Iterable[str]) -> str:
    """'<what> <value> is not accepted — accepted: a, b, c' (the values as the file must spell them)."""
    return f"{what} {value!r} is not accepted — accepted: {listed(accepted)}"


def a_an(word: str) -> str:
    """The English indefinite article for ``word`` ("an army", "a navy", "an Economic Warfare card")."""
    you = word[:2] in ("US", "UK") or word[:3].lower() in ("uni", "use", "usu")  # a "you" sound
    return ("an " if word[:1].lower() in "aeiou" and not you else "a ") + word


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian noun form agreeing with ``n`` («1 карта», «2 карты», «5 карт», «21 карта»)."""
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def cards_ru(n: int) -> str:
    """«1 карта», «3 карты», «5 карт»."""
    return f"{n} {ru_plural(n, 'карта', 'карты', 'карт')}"


def cards_en(n: int) -> str:
    """"1 card", "3 cards"."""
    return f"{n} card" if abs(n) == 1 else f"{n} cards"


def cards_ru_acc(n: int) -> str:
    """The accusative: «сбросьте 1 карту», «2 карты», «5 карт»."""
    return f"{n} {ru_plural(n, 'карту', 'карты', 'карт')}"

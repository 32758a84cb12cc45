"""One reason type and one outcome type for every engine, and the one way to translate them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Reason:
    """Why: a stable code, the same sentence in Russian and English, and the rule it follows."""

    code: str
    ru: str
    en: str
    rule: str = ""  # e.g. "§2.14" or "B-41"; empty when the sentence names its rule itself

    def text(self, lang: str = "ru") -> str:
        return self.en if lang == "en" else self.ru

    def to_dict(self) -> dict:
        return {"code": self.code, "ru": self.ru, "en": self.en, **({"rule": self.rule} if self.rule else {})}


def text(reason: Reason | None, lang: str = "ru") -> str:
    """The reason in the viewer's language ('' for none): the only translation of engine answers."""
    return reason.text(lang) if reason is not None else ""


@dataclass(frozen=True)
class Outcome:
    """An engine's answer to one command.

    ``ok``      accepted (True) or refused (False); a refusal changes nothing.
    ``reason``  why, naming the rule: the refusal, or what the accepted command did.
    ``state``   the new state when accepted (the engine's own state value).
    ``changes`` what changed, as the engine's own records (QMG: table ops; others: events).
    ``notes``   reminders the command caused (a strait changed, a unit deserted, …).
    ``data``    anything else the engine computed and a page may show (dice totals, a battle's figures).
    """

    ok: bool
    reason: Reason
    state: Any = None
    changes: tuple = ()
    notes: tuple[Reason, ...] = ()
    data: dict = field(default_factory=dict, compare=False)

    @property
    def legal(self) -> bool:  # the engines' older name for ``ok``
        return self.ok


def accepted(state: Any, reason: Reason, changes=(), notes=(), **data) -> Outcome:
    return Outcome(True, reason, state, tuple(changes), tuple(notes), data)


def refused(reason: Reason, **data) -> Outcome:
    return Outcome(False, reason, data=data)

"""The one way a posted form becomes a command: the game's adapter parses, the core submits."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Parsed:
    """A form read into a command for the engine.

    ``secret``: what the seat entered that must stay out of the public log (QMG: the identity of
    a face-down response); ``keep``: the form to show again if the engine refuses the move;
    ``preview``: only compute and show (the Fog of War battle calculator), store nothing;
    ``then``: further commands of the same tap (QMG's «Закончить ход»), each submitted after the one
    before it applied, against the version that one produced — every one its own event;
    ``stop``: why ``then`` ends before the player's turn does (a Reason shown with the answer).
    """

    command: dict
    version: int
    secret: Any = None
    keep: dict = field(default_factory=dict)
    preview: bool = False
    then: tuple = ()
    stop: Any = None


class BadInput(Exception):
    """A form that is not a command at all (400): ``message`` says why, ``keep`` re-shows the form."""

    def __init__(self, message: str, keep: dict | None = None, status: int = 400):
        super().__init__(message)
        self.message = message
        self.keep = keep or {}
        self.status = status


def version_of(post) -> int:
    """The game version a form was rendered with; BadInput when it is missing or not a number."""
    raw = post.get("version", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9:  # "²" is a digit to isdigit(), not to int()
        raise BadInput("version")
    return int(raw)

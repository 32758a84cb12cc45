"""A rulings corpus checked against a game's engine: each file's verdict and what ``<game>_play --check`` prints.

Every game keeps its rulings as scenario files (a set-up, the commands, the answers the rules give); its own
``check_dir`` plays each file and gives one ``Verdict`` per file. ``report`` is the same for every game: one
line per file, a summary line, and the exit status (0 all agree, 1 a disagreement, 2 bad input or no file).
"""
from __future__ import annotations

from dataclasses import dataclass

AGREE, DISAGREE, BAD = "agree", "disagree", "bad input"


@dataclass(frozen=True)
class Verdict:
    """One file's result: ``disagreements`` empty means agree; ``error`` set means bad input."""

    path: str
    title: str = ""
    disagreements: tuple[str, ...] = ()
    error: str = ""

    @property
    def agrees(self) -> bool:
        return not self.error and not self.disagreements

    @property
    def word(self) -> str:
        return BAD if self.error else DISAGREE if self.disagreements else AGREE


def report(verdicts) -> tuple[list[str], int]:
    """The lines ``--check`` prints and its exit status, for verdicts of any game (``path``, ``title``,
    ``disagreements``, ``error``)."""
    lines, counts = [], {AGREE: 0, DISAGREE: 0, BAD: 0}
    for v in verdicts:
        word = BAD if v.error else DISAGREE if v.disagreements else AGREE
        if word == BAD:
            detail = v.error
        elif word == DISAGREE:
            more = len(v.disagreements) - 1
            detail = v.disagreements[0] + (f" (+{more} more)" if more else "")
        else:
            detail = v.title
        counts[word] += 1
        lines.append(f"{word.upper():9} {v.path}" + (f": {detail}" if detail else ""))
    lines.append(f"{len(lines)} scenario(s): {counts[AGREE]} agree, {counts[DISAGREE]} disagree, {counts[BAD]} bad input")
    status = 2 if counts[BAD] or not verdicts else 1 if counts[DISAGREE] else 0
    return lines, status

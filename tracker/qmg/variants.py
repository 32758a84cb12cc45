"""The one check of a board variant's patch text, for the boards page and for an imported game.

In this order, each step before anything costlier: the text's length, no YAML anchors or aliases
(a short text could otherwise expand into a huge structure: ×9 per level), a mapping that extends
the standard board, then the board is built (``gameplay.qmg.board`` bounds what a patch may add).
"""
from __future__ import annotations

from dataclasses import dataclass

import yaml
from django.utils.translation import gettext as _

from gameplay.qmg.board import Board, BoardError, BoardLimitError, build_board, resolve_patch

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when built with it: about 10× faster
MAX_PATCH = 20_000  # characters: a patch at every bound of gameplay.qmg.board.LIMITS takes 4,400 to 13,000


class PatchError(ValueError):
    """A patch that cannot be used; ``code`` says which check refused it ("size" for the bounds)."""

    def __init__(self, message: str, code: str = "invalid"):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class CheckedPatch:
    data: dict
    board: Board


def limit_message(exc: BoardLimitError) -> str:
    n = {"n": exc.limit}
    return {
        "straits": _("A board may have at most %(n)s straits."),
        "adjacencies": _("A board may have at most %(n)s adjacencies."),
        "added_adjacencies": _("A patch may add at most %(n)s adjacencies."),
        "removed_adjacencies": _("A patch may remove at most %(n)s adjacencies."),
        "added_stars": _("A patch may add at most %(n)s stars."),
        "removed_stars": _("A patch may remove at most %(n)s stars."),
        "added_straits": _("A patch may add at most %(n)s straits."),
        "removed_straits": _("A patch may remove at most %(n)s straits."),
        "characters_in_a_name": _("A name in a patch may have at most %(n)s characters."),
    }.get(exc.what, str(exc)) % n


def check_patch(text) -> CheckedPatch:
    """The patch's data and the board it builds, or PatchError saying what is wrong with it."""
    if not isinstance(text, str):
        raise PatchError(_("A board patch is a text."))
    if len(text) > MAX_PATCH:
        raise PatchError(_("A board patch may have at most %(n)s characters.") % {"n": MAX_PATCH}, "size")
    try:
        # the events only: anchors and aliases are refused before anything is composed from them
        if any(isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None)
               for ev in yaml.parse(text, Loader=LOADER)):
            raise PatchError(_("YAML anchors and aliases are not allowed in a board patch."), "size")
        data = yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        raise PatchError(_("Not valid YAML: %(error)s") % {"error": str(exc).splitlines()[0][:200]}) from None
    if not isinstance(data, dict):
        raise PatchError(_("The patch must be a mapping (key: value lines)."))
    if data.setdefault("extends", "standard") != "standard":
        raise PatchError(_("A patch entered here can only extend the standard board."))
    try:
        board = build_board(resolve_patch(data))
    except BoardLimitError as exc:
        raise PatchError(limit_message(exc), "size") from None
    except BoardError as exc:
        raise PatchError(str(exc).splitlines()[0][:300]) from None
    except Exception as exc:  # noqa: BLE001 — a malformed patch the board builder did not foresee
        raise PatchError(_("the patch cannot be applied (%(error)s)") % {"error": exc.__class__.__name__}) from None
    return CheckedPatch(data, board)

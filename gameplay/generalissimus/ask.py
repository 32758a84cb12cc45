"""«Can I …?»: may a unit carry out a given card towards a given sector now, and if not, why (the rule).

Pure engine: the answer uses only what every player sees on the table (units, terrain, house rules),
never face-down cards or hidden choices."""
from __future__ import annotations

from gameplay.common import Outcome, Reason

from . import actions as act
from .core import InputError
from .geometry import adjacent, is_sector, zone_of
from .reasons import CARD_NAMES, no, reason_of
from .state import FORMATIONS, GameState
from .words import plain_reason

QUESTIONS = ("move", "musket_volley", "artillery_volley", "bayonets", "manoeuvre", "retreat", "form_up", "rally")
NEEDS_SECTOR = {"move", "musket_volley", "artillery_volley", "bayonets"}


def _yes(code: str, ru: str, en: str) -> Reason:
    return Reason(code, ru, en)


def can(st: GameState, uid: str, card: str, sector: str | None = None, formation: str | None = None) -> Reason | None:
    """None when the question cannot be asked (no such unit, card or sector); else the answer: a Reason whose
    code is ``yes`` or the rule's refusal code, with units named as players name them."""
    u = st.unit(uid) if isinstance(uid, str) else None
    if u is None or card not in QUESTIONS:
        return None
    if card in NEEDS_SECTOR and not is_sector(sector):
        return None
    zone = zone_of(u.sector, st.settings.zone_columns) if u.on_board else None
    bad: Outcome | None
    try:
        if card == "move":
            bad = _move(st, u, sector)
        elif card in act.FIRE_TYPES:
            target = st.unit_at(sector)
            bad = act.check_fire(st, card, uid, target.id if target else sector, side=u.owner, zone=zone)
        elif card == "bayonets":
            target = st.unit_at(sector)
            if target is not None and target.owner != u.owner:
                bad = act.check_charge(st, uid, target.id, side=u.owner, zone=zone)
            else:
                bad = act.check_bayonet_advance(st, uid, path=[sector], side=u.owner, zone=zone)
        elif card == "retreat":
            bad = act.check_retreat(st, uid, side=u.owner, zone=zone)
        elif card == "form_up":
            if u.on_board and u.routed:
                bad = no("rally_needs_two")
            else:
                bad = act.unit_problem(st, uid, u.owner, zone) or (
                    act.formation_problem(u, formation) if formation in FORMATIONS else None)
        elif card == "rally":
            bad = act.rally(st, uid, side=u.owner, zone=zone)
            bad = None if bad.ok else bad
        else:  # manoeuvre
            bad = act.unit_problem(st, uid, u.owner, zone)
    except InputError:
        return None
    if bad is not None:
        return plain_reason(bad.reason, st)
    return plain_reason(_yes("yes", "Сейчас это можно: {u} — {card}.".format(u=uid, card=_card(card, 0)),
                             "As things stand this is allowed: {u} — {card}.".format(u=uid, card=_card(card, 1))), st)


def _card(card: str, i: int) -> str:
    return CARD_NAMES[card][i]


def _move(st: GameState, u, sector: str) -> Outcome | None:
    if u.kind != "cavalry" or u.location == "reserve":
        return act.check_move(st, u.id, side=u.owner, to=sector)
    paths = act.cavalry_paths(st, u.id)
    if sector in paths:
        return act.check_move(st, u.id, side=u.owner, path=paths[sector])
    if adjacent(u.sector, sector):
        return act.check_move(st, u.id, side=u.owner, path=[sector])
    for mid in sorted(paths):  # a two-step path: the rule that stops it at the second step
        if len(paths[mid]) == 1 and adjacent(mid, sector):
            bad = act.check_move(st, u.id, side=u.owner, path=[mid, sector])
            if bad is not None:
                return bad
    return Outcome(False, reason_of("cav_path_len"))

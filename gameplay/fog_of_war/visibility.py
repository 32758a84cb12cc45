"""Hidden information (spec §4): what one viewer may see of the table, and what it may choose now.

``view_for(table, viewer)`` is the table with every secret the viewer may not know replaced by a
hidden card (id ``HIDDEN``; counts stay, so every pile still shows how many cards it holds) or a
hidden name. A seat sees its own hand, piles, operations (targets and cards), defence and face-down
quagmire cards, its own intel results and the objectives it holds; the other side and spectators see
counts only. Nobody sees a deck's order, face-down neutral cards (except the Allies' free look at the
Baltics, Kiev and Odessa, §1.4 step 12) or the removed cards. Face-up cards and the public records
(battles, intel attempts, supply answers) stay.
"""
from __future__ import annotations

from typing import Iterable

from .board import SIDES, other
from .cards import Card
from .commands_base import engine_of
from .state import GameState

HIDDEN = "?"  # the id of a card, or the name of a province, the viewer may not know
PILES = ("discard", "wins", "losses")


def is_hidden(card: Card) -> bool:
    return card.id == HIDDEN


def _hide(cards: Iterable[Card], keep_face_up: bool = False) -> list[Card]:
    return [c if keep_face_up and c.face_up else Card(HIDDEN, c.owner) for c in cards]


def viewers(viewer: str | Iterable[str] | None) -> frozenset[str]:
    """The sides a viewer plays (a side, several sides, or None for the public)."""
    if viewer is None:
        return frozenset()
    if isinstance(viewer, str):
        return frozenset({viewer}) & set(SIDES)
    return frozenset(viewer) & set(SIDES)


def _mask_side(st: GameState, side: str) -> list[str]:
    """Hide what the other side and spectators may not see of ``side``; the names of the hidden zones."""
    s = st.sides[side]
    s.hand = _hide(s.hand)
    s.province_deck = [HIDDEN] * len(s.province_deck)  # its gaps would tell an operation's target
    s.special_sets = {k: _hide(v) for k, v in s.special_sets.items()}
    for o in s.operations:
        o.target, o.cards = HIDDEN, _hide(o.cards)
    zones = ["hand", "province_deck", "special_sets", "operations", "defence", "quagmire"]
    if not st.settings.piles_public:  # B-36
        for pile in PILES:
            setattr(s, pile, _hide(getattr(s, pile)))
        zones.append("piles")
    for p in st.provinces.values():
        p.defence[side] = _hide(p.defence[side])
        p.quagmire_cards[side] = _hide(p.quagmire_cards[side], keep_face_up=True)
    return zones


def _objective_visible(st: GameState, location: str, sides: frozenset[str]) -> bool:
    if "axis" in sides and location in ("axis_kept", "box"):
        return True
    return "allies" in sides and location == "near_morocco" and st.settings.allied_objective_peek == "free"


def view_for(table: dict, viewer: str | Iterable[str] | None) -> dict:
    """A copy of the table without what ``viewer`` may not see, and ``masked``: per side, the hidden zones."""
    sides = viewers(viewer)
    st = engine_of(table)
    masked = {side: ["deck"] for side in SIDES}
    for side in SIDES:
        st.sides[side].deck = _hide(st.sides[side].deck)  # the order of a deck is nobody's to know
        if side not in sides:
            masked[side] += _mask_side(st, side)
    for key, p in st.provinces.items():
        free_look = "allies" in sides and st.pdef(key).allies_may_view_neutral
        if not free_look:
            p.neutral_cards = _hide(p.neutral_cards, keep_face_up=True)
    st.removed, st.unplaced_neutral = _hide(st.removed), _hide(st.unplaced_neutral)
    for o in st.objectives:
        if not _objective_visible(st, o.location, sides):
            o.province = HIDDEN
    seen = table.get("intel_seen", {})
    return {**table, "engine": st.to_dict(), "masked": masked,
            "intel_seen": {side: list(seen.get(side, [])) if side in sides else [] for side in SIDES}}


def choices(st: GameState, viewer: str | None) -> dict:
    """What ``viewer`` may pick in its forms now (province keys, own operations), from its own data only.

    ``ops``: (slot, target, wheel position) of its operations; ``enemy_ops``: the other side's slots.
    """
    if viewer not in SIDES:
        return {}
    s, opp = st.sides[viewer], other(viewer)
    provs = st.provinces
    return {
        "defend": [k for k, p in provs.items() if p.control in (viewer, "neutral") and not p.quagmire],
        "targets": [k for k in s.province_deck if k in provs and provs[k].control != viewer and not provs[k].quagmire],
        "origins": [k for k, p in provs.items() if p.control == viewer and not p.quagmire],
        "quagmires": [k for k, p in provs.items() if p.quagmire],
        "my_quagmires": [k for k, p in provs.items() if p.quagmire and p.quagmire.attacker == viewer],
        "ops": [(o.slot, o.target, s.position(o)) for o in s.operations],
        "enemy_ops": [o.slot for o in st.sides[opp].operations],
        "spy_provinces": [k for k, p in provs.items() if p.defence[opp] or p.neutral_cards or p.quagmire_cards[opp]],
        "recall": [k for k, p in provs.items() if p.defence[viewer] and not p.quagmire],
        "all": list(provs),
    }

"""Builders shared by the Fog of War tests."""
from __future__ import annotations

import copy

from gameplay.fog_of_war.actions import start_turn
from gameplay.fog_of_war.board import BoardMap
from gameplay.fog_of_war.cards import parse_cards, placeholders
from gameplay.fog_of_war.config import PLACEHOLDER_WHEEL, FowSettings
from gameplay.fog_of_war.state import SLOTS, GameState, Operation, new_game


def cards(owner, *specs, prefix=None):
    return parse_cards(list(specs), owner, prefix or owner[:2])


def placeholder_wheel_settings(**extra) -> FowSettings:
    """Settings with the tracker's former placeholder wheel (1-5 launchable, no marks): the wheel's marks are
    not what most tests are about (the rules-only wheel asks them at launch, see test_seed_fixes)."""
    return FowSettings.from_dict({"wheel_positions": copy.deepcopy(PLACEHOLDER_WHEEL), **extra})


def ledger_game(deck=20, **kw) -> GameState:
    """A new ledger-mode game (no map), orders kept, before the Axis's first rotation."""
    kw.setdefault("settings", placeholder_wheel_settings())
    return new_game(placeholders("axis", deck), placeholders("allies", deck), placeholders("neutral", 15),
                    shuffle=False, **kw)


def started(st: GameState) -> GameState:
    return start_turn(st).state


def wheel_with(position: int, modifier: str) -> FowSettings:
    wheel = copy.deepcopy(PLACEHOLDER_WHEEL)
    wheel[position]["modifier"] = modifier
    return FowSettings.from_dict({"wheel_positions": wheel})


def place_op(st: GameState, side: str, target: str, attack, position: int = 1) -> str:
    """Put an op of ``side`` against ``target`` at ``position`` (mutates ``st``); returns its slot."""
    s = st.sides[side]
    slot = SLOTS[(SLOTS.index(s.wheel_pointer) - position) % 6]
    if target in s.province_deck:
        s.province_deck.remove(target)
    s.operations.append(Operation(slot, target, list(attack)))
    return slot


def battle_ready(side="axis", **kw) -> GameState:
    """A started ledger game where ``side`` is active."""
    st = ledger_game(**kw)
    st.active_side = side
    return started(st)


TEST_MAP = {
    "provinces": [
        {"key": "berlin", "neighbours": ["ruhr", "p", "poland"], "vp": 5, "resources": 4, "climate": "snow"},
        {"key": "ruhr", "neighbours": ["north_sea"], "vp": 3, "resources": 4},
        {"key": "poland", "vp": 2, "resources": 2, "climate": "snow"},
        {"key": "italy", "neighbours": ["western_mediterranean"], "resources": 3, "climate": "sun"},
        {"key": "western_mediterranean", "kind": "sea"},
        {"key": "north_sea", "kind": "sea", "neighbours": ["britain"]},
        {"key": "britain", "resources": 4},
        {"key": "paris", "neighbours": ["ruhr", "vichy"]},
        {"key": "vichy", "neighbours": ["morocco"]},
        {"key": "morocco", "neighbours": ["lebanon"]},
        {"key": "lebanon", "neighbours": ["egypt"]},
        {"key": "egypt"},
        {"key": "kiev", "neighbours": ["poland", "ural"]},
        {"key": "ural"},
        {"key": "balkans", "neighbours": ["italy"], "neutral_area": True, "orange": True},
        {"key": "p", "neighbours": ["q"]},
        {"key": "q", "neighbours": ["r"]},
        {"key": "r"},
    ]
}


def map_game(**kw) -> GameState:
    return ledger_game(board=BoardMap.from_dict(TEST_MAP), **kw)

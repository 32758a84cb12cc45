"""The engine's bounds on a setup: settings too deep or too large, piles, unit lists. Refused with a
``SettingsError`` / ``StateError`` (Russian text in ``ru``), never a ``RecursionError`` or a long build."""
import pytest

from gameplay.generalissimus import GameState, Settings, SettingsError, StateError
from gameplay.generalissimus.settings import MAX_DEPTH, MAX_PILE_PER_TYPE
from gameplay.generalissimus.state import MAX_UNITS
from gameplay.generalissimus.stepper import STEPPER
from tests.budget import refused_early


def nested(depth: int, leaf="a"):
    """A list nested ``depth`` deep, built without recursion."""
    v = leaf
    for _ in range(depth):
        v = [v]
    return v


def refused(fn, *args, error=SettingsError):
    """``fn(*args)``'s ``error`` and its seconds, refused before the input was read (tests/budget.py)."""
    return refused_early(fn, *args, error=error)


@pytest.mark.parametrize("values", [
    {"zone_columns": {"west": nested(100_000), "center": ["c", "d"], "east": ["e", "f"]}},
    {"zone_columns": {"west": ["a", "b"], "center": ["c", "d"], "east": ["e", "f"], "x": {"y": {"z": {"w": {}}}}}},
    {"terrain_effects": {"infantry": {"forest": nested(50_000)}}},
    {"terrain_effects": {"infantry": {"forest": ["disorder"] * 100_000}}},
    {"terrain_effects": {"infantry": {"forest": [["disorder"]]}}},  # unhashable: no TypeError
    {"terrain_effects": {"infantry": {"forest": ["x" * 100_000]}}},
    {"zone_columns": {"west": "ab", "center": ["c", "d"], "east": ["e", "f"]}},
    {"zone_columns": {"west": [["a"]], "center": ["c", "d"], "east": ["e", "f"]}},
    {"cavalry_stop_terrain": [["river"]]},
    {"terrain_map": {"a1": nested(10)}},
    {"terrain_map": {"a1": "lava"}},
    {"pile_composition": {"move": 10 ** 9}},
    {"pile_composition": {"move": MAX_PILE_PER_TYPE + 1}},
    {"deploy_rows": 4},
    {"max_units_per_side": 10 ** 100},
    {"orders_per_turn_cap": 10 ** 9},
])
def test_settings_too_deep_or_too_large_are_refused(values):
    exc, took = refused(Settings.from_dict, values)
    print(f"\n{sorted(values)[0]} refused in {took * 1000:.2f} ms: {str(exc)[:100]}")


def test_the_bounds_messages_are_bilingual():
    exc, _ = refused(Settings.from_dict, {"terrain_effects": {"infantry": {"forest": nested(MAX_DEPTH + 1)}}})
    assert "nested" in str(exc) and "вложена" in exc.ru
    exc, _ = refused(Settings.from_dict, {"pile_composition": {"move": 21}})
    assert "20" in str(exc) and "20" in exc.ru


def test_the_defaults_and_the_bounds_themselves_fit():
    cfg = Settings.from_dict(Settings().to_dict())
    assert cfg == Settings()
    Settings.from_dict({"pile_composition": {c: MAX_PILE_PER_TYPE for c in Settings().pile_composition},
                        "deploy_rows": 3, "orders_per_turn_cap": 100})


def test_a_state_with_deep_settings_is_a_state_error_not_a_recursion():
    exc, _ = refused(GameState.from_dict, {"settings": {"terrain_effects": nested(100_000)}}, error=StateError)
    assert exc.ru


def _unit(i):
    return {"id": f"u{i}", "owner": "south", "kind": "infantry", "location": "reserve", "sector": None}


def test_new_state_refuses_too_many_units_and_oversized_piles_before_building():
    units = [_unit(i) for i in range(100_000)]
    exc, took = refused(STEPPER.new_state, {"units": units}, error=StateError)
    print(f"\n100,000 units refused in {took * 1000:.2f} ms")
    assert str(MAX_UNITS) in str(exc) and str(MAX_UNITS) in exc.ru
    exc, took = refused(STEPPER.new_state, {"units": [], "piles": {"south": {"move": 10 ** 9}}})
    print(f"a pile of 10^9 cards refused in {took * 1000:.2f} ms")
    refused(STEPPER.new_state, {"units": [], "piles": {"east": {}}})
    refused(STEPPER.new_state, {"units": [{**_unit(0), "id": "x" * 41}]}, error=StateError)
    refused(STEPPER.new_state, {"units": [{**_unit(0), "label": "x" * 61}]}, error=StateError)
    state = STEPPER.new_state({"units": [_unit(i) for i in range(MAX_UNITS)]})
    assert len(state["engine"]["units"]) == MAX_UNITS

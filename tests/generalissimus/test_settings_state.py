"""Settings defaults/validation and state serialisation."""
import json
from dataclasses import fields

import pytest

from gameplay.generalissimus import GameState, Settings, SettingsError, StateError, describe_settings

from .helpers import U, board

SPEC_DEFAULTS = {  # spec §5 table
    "max_units_per_side": 6, "max_blocks_per_side": 30, "zone_columns": {"west": ["a", "b"], "center": ["c", "d"], "east": ["e", "f"]},
    "deploy_rows": 1, "reserve_entry": "move_card", "facings": 4, "cavalry_step_dirs": "forward3",
    "cavalry_free_turn": "any", "cavalry_stop_terrain": ["river", "hill", "village"], "card_scope": "one_unit",
    "orders_per_turn_cap": None, "cards_reusable": True,
    "initiative_tie": "reroll", "fire_bonus_mode": "per_die", "melee_bonus_mode": "total",
    "column_bonus_defender": True, "artillery_hill_diag_range": 1, "artillery_blockers": "own",
    "counter_charge_timing": "same_step", "give_way_flag": "up", "give_way_advance": True,
    "give_way_disorder_attacker": False, "winner_advance": "mandatory", "chain_push_routs": True,
    "flight_timing": "end_of_turn", "rear_reference": "home_edge", "rally_formation": "disordered",
    "counter_charge_counts_as_attack": False, "retreat_distance": 1, "square_break_to": "disordered",
    "reserves_count": True, "cav_vs_routed_advance": True, "terrain_cover": "none",
    "allow_digital_dice": True, "musket_arc": "front_diagonals", "bayonets_advance": "one_sector",
    "blocked_retreat": "stay", "deploy_terrain_disorder": False,
}


def test_defaults_match_spec():
    s = Settings()
    for key, value in SPEC_DEFAULTS.items():
        assert getattr(s, key) == value, key
    assert sum(s.pile_composition.values()) == 20


def test_every_setting_explains_itself_in_two_languages():
    info = describe_settings()
    assert {i["key"] for i in info} == {f.name for f in fields(Settings)}
    for i in info:
        assert i["ru"] and i["en"] and i["ref"] and "\n" not in i["ru"] + i["en"]


def test_unknown_key_is_rejected_clearly():
    with pytest.raises(SettingsError, match="unknown setting key.*no_such_rule"):
        Settings.from_dict({"no_such_rule": 1})


@pytest.mark.parametrize("bad", [{"fire_bonus_mode": "double"}, {"deploy_rows": "1"}, {"give_way_advance": 1},
                                 {"zone_columns": {"west": ["a"], "center": ["c", "d"], "east": ["e", "f"]}},
                                 {"terrain_effects": {"cavalry": {"swamp": ["no_entry"]}}}])
def test_bad_values_are_rejected(bad):
    with pytest.raises(SettingsError):
        Settings.from_dict(bad)


def test_settings_load_and_do_not_share_defaults():
    s = Settings.from_dict({"fire_bonus_mode": "extra_die", "orders_per_turn_cap": 5})
    assert s.fire_bonus_mode == "extra_die" and s.orders_per_turn_cap == 5
    assert Settings.from_dict(s.to_dict()) == s
    s.zone_columns["west"].append("x")
    assert Settings().zone_columns["west"] == ["a", "b"]


def test_state_round_trip_through_json():
    s = board(U("S1", "s", "infantry", "c3", formation="line", attacks_used=["musket"]),
              U("A1", "n", "artillery", "c6", crew=1), U("R", "n", "cavalry", None, location="reserve"),
              terrain={"c4": "forest", "d4": "field"}, settings={"give_way_flag": "down"}, turn=3)
    again = GameState.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again == s and again.to_dict() == s.to_dict()
    assert "d4" not in again.terrain  # field is the implicit default
    assert s.copy() == s and s.copy() is not s


@pytest.mark.parametrize("units,msg", [
    ([U("S1", "s", "infantry", "c3"), U("S2", "s", "infantry", "c3")], "holds two units"),
    ([U("S1", "s", "infantry", "z9")], "sector"),
    ([U("S1", "s", "infantry", "c3", blocks=1, formation="column")], "single block"),
    ([U("S1", "s", "infantry", "c3", blocks=2, formation="square")], "square"),
    ([U("S1", "s", "cavalry", "c3", formation="line")], "line"),
    ([U("S1", "s", "infantry", "c3", blocks=4)], "blocks"),
    ([U("S1", "s", "infantry", "c3", colour="red")], "unknown key"),
])
def test_invalid_states_are_rejected(units, msg):
    with pytest.raises(StateError, match=msg):
        board(*units)

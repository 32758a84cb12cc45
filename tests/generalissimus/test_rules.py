"""Unit tests per rule: a legal and an illegal case, the reason naming the rule."""
import random

import pytest

from gameplay.generalissimus import (InputError, charge, check_victory, forced_flight, form_up, manoeuvre, move,
                                     rally, retreat, volley)
from gameplay.generalissimus.dice import roll, roll_initiative

from .helpers import U, board, mentions, where


# --- orders in general -----------------------------------------------------------
def test_routed_unit_takes_no_orders():
    s = board(U("S1", "s", "infantry", "c3", flag="routed", formation="disordered"))
    r = manoeuvre(s, "S1", "left")
    assert not r.ok and r.reason.code == "routed_no_orders" and mentions(r, "правило бегства", "rout rule")


def test_card_must_order_own_unit_in_its_zone():
    s = board(U("S1", "s", "infantry", "c3"))
    assert mentions(manoeuvre(s, "S1", "left", side="north"), "один приказ", "one card, one unit")
    r = manoeuvre(s, "S1", "left", zone="west")
    assert not r.ok and r.reason.code == "wrong_zone"
    assert manoeuvre(s, "S1", "left", side="south", zone="center").ok


def test_manoeuvre_turns_ninety_degrees():
    s = board(U("S1", "s", "infantry", "c3"))
    assert manoeuvre(s, "S1", "left").state.unit("S1").facing == "W"
    assert manoeuvre(s, "S1", "right").state.unit("S1").facing == "E"
    twice = manoeuvre(manoeuvre(s, "S1", "right").state, "S1", "right")
    assert twice.state.unit("S1").facing == "S"
    with pytest.raises(InputError):
        manoeuvre(s, "S1", "around")


def test_input_state_is_never_mutated():
    s = board(U("S1", "s", "infantry", "c3"))
    before = s.copy()
    move(s, "S1")
    assert s == before


# --- movement -------------------------------------------------------------------------
def test_occupancy_and_board_edge():
    s = board(U("S1", "s", "infantry", "c3"), U("S2", "s", "infantry", "c4"))
    r = move(s, "S1")
    assert r.reason.code == "occupied" and mentions(r, "правило занятости", "occupancy rule")
    edge = move(board(U("N1", "n", "infantry", "c1")), "N1")
    assert edge.reason.code == "off_board" and mentions(edge, "правила перемещения", "movement rules")


def test_infantry_moves_only_straight_ahead():
    s = board(U("S1", "s", "infantry", "c3"))
    assert move(s, "S1", to="c4").ok
    r = move(s, "S1", to="d4")
    assert r.reason.code == "not_forward" and mentions(r, "вперёд", "straight ahead")


def test_infantry_river_disorders():
    r = move(board(U("S1", "s", "infantry", "c3", formation="line"), terrain={"c4": "river"}), "S1")
    assert r.ok and r.state.unit("S1").formation == "disordered"
    r = move(board(U("S1", "s", "infantry", "c3", formation="line"), terrain={"c4": "hill"}), "S1")
    assert r.state.unit("S1").formation == "line"


def test_artillery_without_crew_cannot_move():
    r = move(board(U("A1", "s", "artillery", "c2", crew=0)), "A1")
    assert r.reason.code == "no_crew_move" and mentions(r, "артиллерия", "artillery rules")
    moved = move(board(U("A1", "s", "artillery", "c2", crew=1)), "A1").state.unit("A1")
    assert moved.sector == moved.gun_sector == "c3"


def test_cavalry_path_rules():
    s = board(U("C1", "s", "cavalry", "c2"))
    assert move(s, "C1", path=["c3", "c4", "c5"]).reason.code == "cav_path_len"
    r = move(s, "C1", path=["b2"])
    assert r.reason.code == "cav_step_dir" and mentions(r, "правила конницы", "cavalry rules")
    loose = board(U("C1", "s", "cavalry", "c2"), settings={"cavalry_step_dirs": "any8"})
    assert move(loose, "C1", path=["b2"]).ok
    assert move(s, "C1", path=["c3"], facing="S").state.unit("C1").facing == "S"


def test_cavalry_quarter_turn_setting():
    s = board(U("C1", "s", "cavalry", "c2"), settings={"cavalry_free_turn": "quarter"})
    assert move(s, "C1", path=["c3"], facing="E").ok
    r = move(s, "C1", path=["c3"], facing="S")
    assert r.reason.code == "cav_facing" and mentions(r, "90°", "90°")


def test_cavalry_stop_terrain_setting():
    s = board(U("C1", "s", "cavalry", "c2"), terrain={"c3": "hill"}, settings={"cavalry_stop_terrain": ["river", "hill"]})
    assert move(s, "C1", path=["c3", "c4"]).reason.code == "cav_stop_terrain"


def test_reserve_entry():
    s = board(U("S1", "s", "infantry", None, location="reserve"), U("S2", "s", "infantry", "d1"))
    r = move(s, "S1", to="c1", formation="line", zone="center")
    u = r.state.unit("S1")
    assert r.ok and (u.sector, u.facing, u.formation, u.location) == ("c1", "N", "line", "board")
    assert move(s, "S1", to="c2").reason.code == "reserve_sector"
    assert move(s, "S1", to="a1", zone="center").reason.code == "reserve_sector"
    assert move(s, "S1", to="d1").reason.code == "occupied"
    r = move(s, "S1", to="c1", formation="square", zone="center")
    assert r.ok
    assert mentions(move(s, "S2", to="d2", zone="east"), "вне зоны", "outside zone")


def test_retreat_distance_setting():
    s = board(U("S1", "s", "infantry", "c4"), settings={"retreat_distance": 2})
    assert where(retreat(s, "S1").state, "S1") == "c2"


# --- formations ------------------------------------------------------------------------
def test_cavalry_and_artillery_form_column_only():
    r = form_up(board(U("C1", "s", "cavalry", "c3")), "C1", "line")
    assert r.reason.en == "Cavalry can only form column (formation rules)"
    art = board(U("A1", "s", "artillery", "c1", formation="disordered"))
    assert form_up(art, "A1", "column").state.unit("A1").formation == "column"
    assert form_up(art, "A1", "square").reason.code == "kind_formation"


def test_square_break_to_setting():
    s = board(U("S1", "s", "infantry", "c3", formation="square"), U("N1", "n", "infantry", "c4"),
              settings={"square_break_to": "line"})
    assert volley(s, "musket_volley", "N1", "S1", [6, 1, 1]).state.unit("S1").formation == "line"


def test_rally_only_for_routed_units():
    r = rally(board(U("S1", "s", "infantry", "c3")), "S1")
    assert r.reason.code == "not_routed" and mentions(r, "правило бегства", "rout rule")


# --- fire ---------------------------------------------------------------------------------
def test_only_infantry_fires_muskets_at_enemies():
    s = board(U("C1", "s", "cavalry", "c3"), U("S1", "s", "infantry", "b3"), U("N1", "n", "infantry", "c4"))
    assert mentions(volley(s, "musket_volley", "C1", "N1", [1, 1]), "ружейный залп", "musket volley")
    r = volley(s, "musket_volley", "S1", "C1", [1, 1, 1])
    assert r.reason.code == "not_enemy" and mentions(r, "правила атаки", "attack rules")


def test_dice_are_validated():
    s = board(U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4"))
    with pytest.raises(InputError, match="1..6"):
        volley(s, "musket_volley", "S1", "N1", [1, 7, 2])
    with pytest.raises(InputError, match="expected 3 dice"):
        volley(s, "musket_volley", "S1", "N1", [1, 2])


def test_artillery_arc_and_kind():
    s = board(U("A1", "s", "artillery", "c3"), U("S1", "s", "infantry", "d3"), U("N1", "n", "infantry", "c2"))
    r = volley(s, "artillery_volley", "A1", "N1", [6, 6])
    assert r.reason.code == "art_arc" and mentions(r, "дальность артиллерии", "artillery range")
    assert volley(s, "artillery_volley", "S1", "N1", [6, 6, 6]).reason.code == "art_kind"


def test_artillery_blockers_any_setting():
    units = [U("A1", "s", "artillery", "c1"), U("N1", "n", "infantry", "c3"), U("N2", "n", "infantry", "c2")]
    assert volley(board(*units), "artillery_volley", "A1", "N1", [6, 6]).ok
    r = volley(board(*units, settings={"artillery_blockers": "any"}), "artillery_volley", "A1", "N1", [6, 6])
    assert r.reason.code == "art_blocked_unit"


def test_hill_diagonal_range_setting():
    units = [U("A1", "s", "artillery", "c1"), U("N1", "n", "infantry", "e3")]
    assert volley(board(*units, terrain={"c1": "hill"}), "artillery_volley", "A1", "N1", [6, 6]).reason.code == "art_range"
    s = board(*units, terrain={"c1": "hill"}, settings={"artillery_hill_diag_range": 2})
    assert volley(s, "artillery_volley", "A1", "N1", [6, 6]).ok


def test_artillery_gun_first_setting():
    s = board(U("A1", "s", "artillery", "c3"), U("N1", "n", "infantry", "c4"), settings={"artillery_hit_order": "gun_first"})
    a = volley(s, "musket_volley", "N1", "A1", [6, 1, 1]).state.unit("A1")
    assert (a.gun, a.crew, a.on_board) == (False, 2, True)


def test_crew_rejoins_its_gun():
    s = board(U("A1", "s", "artillery", "c2", facing="N", gun_sector="c3"))
    a = move(s, "A1").state.unit("A1")
    assert a.sector == a.gun_sector == "c3" and a.gun_with_crew


# --- melee --------------------------------------------------------------------------------
def test_charge_legality():
    s = board(U("A1", "s", "artillery", "c3"), U("S1", "s", "infantry", "b3"), U("N1", "n", "infantry", "c4"))
    assert mentions(charge(s, "A1", "N1"), "штыковая атака", "bayonet charge")
    r = charge(s, "S1", "N1")
    assert r.reason.code == "charge_target" and "straight ahead" in r.reason.en
    moved = charge(board(U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4")), "S1", "N1").state
    assert (where(moved, "S1"), where(moved, "N1")) == ("c4", "c5")
    again = charge(moved, "S1", "N1")
    assert again.reason.code == "attack_used" and mentions(again, "лимит атак", "attack limit")


def test_counter_charge_counts_as_attack_setting():
    units = [U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4")]
    kw = dict(attacker_dice=[3, 3, 3], defender_dice=[3, 3, 3], counter=True)
    assert charge(board(*units), "S1", "N1", **kw).state.unit("N1").attacks_used == []
    s = board(*units, settings={"counter_charge_counts_as_attack": True})
    assert charge(s, "S1", "N1", **kw).state.unit("N1").attacks_used == ["bayonet"]


def test_column_bonus_defender_setting():
    units = [U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "infantry", "c4", formation="column")]
    kw = dict(attacker_dice=[3, 3, 3], defender_dice=[3, 3, 3], counter=True)
    assert charge(board(*units), "S1", "N1", **kw).data["defender"]["total"] == 10
    s = board(*units, settings={"column_bonus_defender": False})
    assert charge(s, "S1", "N1", **kw).data["defender"]["total"] == 9


def test_give_way_settings():
    units = [U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "infantry", "c4")]
    s = board(*units, settings={"give_way_flag": "down", "give_way_advance": False, "give_way_disorder_attacker": True})
    r = charge(s, "S1", "N1")
    assert r.state.unit("N1").routed and where(r.state, "S1") == "c3"
    assert r.state.unit("S1").formation == "disordered"


def test_winner_cannot_advance_into_forbidden_terrain():
    s = board(U("C1", "s", "cavalry", "c3"), U("N1", "n", "infantry", "c4"), terrain={"c4": "forest"})
    r = charge(s, "C1", "N1", attacker_dice=[6, 6], defender_dice=[1, 1, 1], counter=True)
    assert r.state.unit("N1").routed and where(r.state, "C1") == "c3"


def test_winner_advance_none_setting():
    s = board(U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4"), settings={"winner_advance": "none"})
    r = charge(s, "S1", "N1", attacker_dice=[6, 6, 6], defender_dice=[1, 1, 1], counter=True)
    assert where(r.state, "S1") == "c3"


def test_routed_target_charged_by_infantry_gives_way_again():
    s = board(U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4", flag="routed", formation="disordered"))
    r = charge(s, "S1", "N1", counter=True)
    assert r.reason.code == "gives_way" and r.state.unit("N1").routed and where(r.state, "S1") == "c4"


# --- retreat procedure, flight -----------------------------------------------------------------
def test_bad_retreat_choice_is_reported():
    s = board(U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4"))
    r = charge(s, "S1", "N1", retreat_choices={"N1": "c6"})
    assert not r.ok and r.reason.code == "bad_choice" and mentions(r, "порядок отступления", "retreat procedure")


def test_no_way_back_a_unit_giving_way_stays_or_is_destroyed_by_setting():
    units = [U("S1", "s", "cavalry", "c3"), U("N1", "n", "cavalry", "c4")]
    terrain = {"b5": "forest", "c5": "forest", "d5": "forest"}
    r = charge(board(*units, terrain=terrain), "S1", "N1")  # flag up: not fleeing, so it stays
    n1 = r.state.unit("N1")
    assert (n1.location, n1.sector, n1.formation) == ("board", "c4", "disordered") and where(r.state, "S1") == "c3"
    assert r.data["target_stayed"] is True
    r = charge(board(*units, terrain=terrain, settings={"blocked_retreat": "destroyed"}), "S1", "N1")
    assert r.state.unit("N1").location == "destroyed" and where(r.state, "S1") == "c4"


def _crowded(**kw):
    units = [U("X", "s", "infantry", "c3", flag="routed", formation="disordered", routed_since=0),
             U("Y", "s", "infantry", "c2", formation="line"), U("B", "s", "infantry", "b2"),
             U("D", "s", "infantry", "d2")]
    return board(*units, turn=2, **kw)


def test_chain_panic_pushed_unit_routs_and_keeps_going():
    r = forced_flight(_crowded(), {"X": "c2", "Y": "b1"})
    y = r.state.unit("Y")
    assert (y.sector, y.routed, y.formation, y.routed_since) == ("b1", True, "disordered", 2)
    assert where(r.state, "X") == "c2"
    assert any(e["type"] == "chain_panic" for e in r.changes)


def test_free_sector_must_be_taken_first():
    s = board(U("X", "s", "infantry", "c3", flag="routed", formation="disordered", routed_since=0),
              U("Y", "s", "infantry", "c2"))
    r = forced_flight(s, {"X": "c2"})
    assert r.reason.code == "bad_choice" and "b2" in r.reason.en


def test_chain_push_routs_setting():
    r = forced_flight(_crowded(settings={"chain_push_routs": False}), {"X": "c2"})
    y = r.state.unit("Y")
    assert not y.routed and y.formation == "disordered" and y.sector in ("b1", "c1", "d1")


def test_chain_panic_off_the_board_deserts():
    units = [U("X", "s", "infantry", "c2", flag="routed", formation="disordered", routed_since=0),
             U("Y", "s", "infantry", "c1"), U("B", "s", "infantry", "b1"), U("D", "s", "infantry", "d1")]
    r = forced_flight(board(*units), {"X": "b1"})
    assert r.state.unit("B").location == "deserted" and where(r.state, "X") == "b1"


def test_forced_flight_skips_units_routed_this_turn():
    units = [U("X", "s", "infantry", "c3", flag="routed", formation="disordered", routed_since=3)]
    assert where(forced_flight(board(*units, turn=3)).state, "X") == "c3"
    assert where(forced_flight(board(*units, turn=4)).state, "X") == "c2"


def test_rear_reference_facing_setting():
    s = board(U("S1", "s", "infantry", "c3", facing="E"), U("N1", "n", "infantry", "d3", facing="W"),
              settings={"rear_reference": "facing"})
    r = charge(s, "S1", "N1")
    assert where(r.state, "N1") in ("e3", "e4", "e2")


# --- victory ------------------------------------------------------------------------------------
def test_immediate_victory_and_draw():
    s = board(U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", None, location="destroyed"))
    assert check_victory(s, end_of_turn=False).data["winner"] == "south"
    both = board(U("S1", "s", "infantry", "c3", flag="routed", formation="disordered"),
                 U("N1", "n", "infantry", "c5", flag="routed", formation="disordered"))
    assert check_victory(both).reason.code == "draw" and check_victory(both, end_of_turn=False).data["winner"] is None


def test_crewless_battery_counts_as_beaten_and_reserve_setting():
    units = [U("S1", "s", "infantry", "c3"), U("A1", "n", "artillery", "c6", crew=0)]
    assert check_victory(board(*units)).data["winner"] == "south"
    res = [U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", None, location="reserve")]
    assert check_victory(board(*res)).data["winner"] is None
    assert check_victory(board(*res, settings={"reserves_count": False})).data["winner"] == "south"


def test_digital_roll_helpers_are_reproducible():
    a, b = roll(3, random.Random(7)), roll(3, random.Random(7))
    assert a == b and len(a) == 3 and all(1 <= d <= 6 for d in a)
    s, n, history = roll_initiative(random.Random(1))
    assert s != n and history[-1] == (s, n) and all(x == y for x, y in history[:-1])

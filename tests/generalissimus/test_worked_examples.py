"""Every worked example of spec §2.13 (G-01 ... G-34)."""
import pytest

from gameplay.generalissimus import (InputError, charge, check_victory, choose_zone_sequence, confirm_orders,
                                     fire, forced_flight, form_up, move, new_game, place_order, rally, retreat,
                                     reveal_step, roll_initiative, volley)
from gameplay.generalissimus.state import Unit

from .helpers import U, board, mentions, where


def test_g01_square_needs_three_blocks():
    s = board(U("S1", "s", "infantry", "c3", blocks=2, formation="column"))
    r = form_up(s, "S1", "square")
    assert not r.ok and r.reason.code == "square_blocks"
    assert mentions(r, "Каре", "square")
    r = form_up(s, "S1", "line")
    assert r.ok and r.state.unit("S1").formation == "line"


def test_g02_two_hits_leave_one_disordered_block():
    s = board(U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "infantry", "c4"))
    r = volley(s, "musket_volley", "N1", "S1", [6, 5, 1])
    u = r.state.unit("S1")
    assert (u.blocks, u.formation) == (1, "disordered")
    again = form_up(r.state, "S1", "column")
    assert not again.ok and again.reason.code == "single_block"


def test_g03_line_bonus_per_die():
    s = board(U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "infantry", "c4"))
    r = volley(s, "musket_volley", "S1", "N1", [4, 5, 2])
    assert r.data["shots"][0]["hits"] == 2 and r.state.unit("N1").blocks == 1
    col = board(U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4"))
    assert volley(col, "musket_volley", "S1", "N1", [4, 5, 2]).data["shots"][0]["hits"] == 1


def test_g03_extra_die_mode_rolls_four_dice():
    s = board(U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "infantry", "c4"),
              settings={"fire_bonus_mode": "extra_die"})
    with pytest.raises(InputError, match="expected 4 dice"):
        volley(s, "musket_volley", "S1", "N1", [4, 5, 2])
    r = volley(s, "musket_volley", "S1", "N1", [4, 5, 2, 6])
    assert r.data["shots"][0]["hits"] == 2


def test_g04_musket_targets_front_row_only():
    units = [U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "d4"),
             U("N2", "n", "infantry", "d3"), U("N3", "n", "infantry", "c2")]
    s = board(*units)
    assert volley(s, "musket_volley", "S1", "N1", [1, 1, 1]).ok
    for target in ("N2", "N3"):
        r = volley(s, "musket_volley", "S1", target, [1, 1, 1])
        assert not r.ok and r.reason.code == "musket_arc"
        assert mentions(r, "ружейный залп", "musket volley")


def test_g05_flank_volley():
    s = board(U("S1", "s", "infantry", "b4", facing="E", formation="column"), U("N1", "n", "infantry", "c4"))
    r = volley(s, "musket_volley", "S1", "N1", [4, 4, 1])
    shot = r.data["shots"][0]
    assert shot["flank"] and shot["bonus"] == 1 and shot["hits"] == 2


def test_g06_excess_hits_are_lost():
    s = board(U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "cavalry", "c4"))
    r = volley(s, "musket_volley", "S1", "N1", [6, 6, 6])
    assert r.data["shots"][0] == {**r.data["shots"][0], "hits": 3, "removed": 2}
    assert r.state.unit("N1").location == "destroyed"


def _g07(n_dice, **kw):
    s = board(U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4", formation="line"))
    return charge(s, "S1", "N1", attacker_dice=[3, 4, 2], defender_dice=n_dice, counter=True, **kw)


def test_g07_column_attacker_wins_melee():
    r = _g07([5, 3, 1], retreat_choices={"N1": "d5"})
    assert r.data["attacker"]["total"] == 10 and r.data["defender"]["total"] == 9
    n, s1 = r.state.unit("N1"), r.state.unit("S1")
    assert n.routed and n.formation == "disordered" and n.sector == "d5"
    assert s1.sector == "c4" and s1.formation == "disordered"


def test_g08_tie_both_stay_disordered():
    r = _g07([6, 3, 1])
    assert r.reason.code == "melee_tie" and r.data["winner"] is None
    n, s1 = r.state.unit("N1"), r.state.unit("S1")
    assert (s1.sector, n.sector) == ("c3", "c4")
    assert s1.formation == n.formation == "disordered" and not s1.routed and not n.routed


def test_g09_attacker_loses_and_routs():
    s = board(U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4", formation="column"))
    r = charge(s, "S1", "N1", attacker_dice=[1, 2, 1], defender_dice=[4, 4, 3], counter=True)
    assert (r.data["attacker"]["total"], r.data["defender"]["total"]) == (5, 12)
    s1, n = r.state.unit("S1"), r.state.unit("N1")
    assert s1.routed and s1.formation == "disordered" and s1.sector in ("c2", "b2", "d2")
    assert n.sector == "c3" and n.formation == "disordered"
    assert "bayonet" in s1.attacks_used


def test_g10_cavalry_beats_square():
    s = board(U("S1", "s", "cavalry", "c3"), U("N1", "n", "infantry", "c4", formation="square"))
    r = charge(s, "S1", "N1", attacker_dice=[6, 6], defender_dice=[3, 2, 4], counter=True)
    assert r.data["defender"]["mods"] == {"square_vs_cavalry": 2}
    assert (r.data["attacker"]["total"], r.data["defender"]["total"]) == (12, 11)
    assert r.state.unit("N1").routed and where(r.state, "S1") == "c4"
    assert r.state.unit("S1").formation == r.state.unit("N1").formation == "disordered"


def test_g11_tie_breaks_the_square():
    s = board(U("S1", "s", "cavalry", "c3"), U("N1", "n", "infantry", "c4", formation="square"))
    r = charge(s, "S1", "N1", attacker_dice=[5, 4], defender_dice=[2, 3, 2], counter=True)
    assert r.reason.code == "melee_tie"
    assert r.state.unit("N1").formation == "disordered" and where(r.state, "N1") == "c4"


def test_g12_target_without_bayonets_gives_way():
    s = board(U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4", formation="line"))
    r = charge(s, "S1", "N1")
    assert r.reason.code == "gives_way" and mentions(r, "штыковая атака", "bayonet charge")
    n, s1 = r.state.unit("N1"), r.state.unit("S1")
    assert n.sector in ("c5", "b5", "d5") and n.formation == "disordered" and not n.routed
    assert s1.sector == "c4" and s1.formation == "column"


def _to_actions(units, placements, s_roll, n_roll, sequence=("center", "west", "east"), terrain=None):
    g = new_game([Unit.from_dict(u) for u in units], terrain=terrain)
    for side, ctype, zone in placements:
        g = place_order(g, side, ctype, zone).state
    g = confirm_orders(confirm_orders(g, "south").state, "north").state
    g = roll_initiative(g, s_roll, n_roll).state
    return choose_zone_sequence(g, g.initiative_winner, list(sequence)).state


def test_g13_fire_resolves_before_the_charge():
    units = [U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4", formation="line"),
             U("S9", "s", "cavalry", "a1"), U("N9", "n", "cavalry", "f6")]
    g = _to_actions(units, [("south", "bayonets", "center"), ("north", "musket_volley", "center")], 5, 2)
    assert g.initiative_winner == "south"
    r = reveal_step(g, {"south": {"card": "S-bayonets-1", "unit": "S1", "target": "N1"},
                        "north": {"card": "N-musket_volley-1", "unit": "N1", "target": "S1", "dice": [5, 1, 4]}})
    st = r.state
    assert r.data["cards"]["N-musket_volley-1"]["details"]["hits"] == 2
    assert st.unit("S1").blocks == 1 and where(st, "S1") == "c4"
    assert st.unit("N1").formation == "disordered" and not st.unit("N1").routed
    assert r.data["cards"]["S-bayonets-1"]["state"] == "executed"


def test_g13_variant_charge_void_when_attacker_destroyed():
    units = [U("S1", "s", "infantry", "c3", formation="column", blocks=2), U("N1", "n", "infantry", "c4", formation="line"),
             U("S9", "s", "cavalry", "a1"), U("N9", "n", "cavalry", "f6")]
    g = _to_actions(units, [("south", "bayonets", "center"), ("north", "musket_volley", "center")], 5, 2)
    r = reveal_step(g, {"south": {"card": "S-bayonets-1", "unit": "S1", "target": "N1"},
                        "north": {"card": "N-musket_volley-1", "unit": "N1", "target": "S1", "dice": [5, 6, 1]}})
    assert r.state.unit("S1").location == "destroyed"
    assert r.data["cards"]["S-bayonets-1"]["state"] == "void"
    assert where(r.state, "N1") == "c4"


def test_g14_simultaneous_fire():
    s = board(U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "infantry", "c4", blocks=2))
    r = fire(s, [{"type": "musket_volley", "unit": "S1", "target": "N1", "dice": [5, 2, 3]},
                 {"type": "musket_volley", "unit": "N1", "target": "S1", "dice": [6, 5]}])
    assert [sh["hits"] for sh in r.data["shots"]] == [1, 2]
    for uid in ("S1", "N1"):
        assert r.state.unit(uid).blocks == 1 and r.state.unit(uid).formation == "disordered"


def test_g15_same_attack_twice_is_illegal():
    s = board(U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4"))
    first = volley(s, "musket_volley", "S1", "N1", [1, 1, 1])
    second = volley(first.state, "musket_volley", "S1", "N1", [1, 1, 1])
    assert not second.ok and second.reason.code == "attack_used" and mentions(second, "лимит атак", "attack limit")
    assert charge(first.state, "S1", "N1").ok


@pytest.mark.parametrize("variant", ["empty", "occupied", "forest", "facing_east"])
def test_g16_infantry_move(variant):
    units = [U("S1", "s", "infantry", "c3", facing="E" if variant == "facing_east" else "N", formation="line")]
    if variant == "occupied":
        units.append(U("N1", "n", "infantry", "c4"))
    s = board(*units, terrain={"c4": "forest"} if variant == "forest" else None)
    r = move(s, "S1")
    if variant == "occupied":
        assert not r.ok and r.reason.code == "occupied"
        return
    expected = "d3" if variant == "facing_east" else "c4"
    assert r.ok and where(r.state, "S1") == expected
    assert r.state.unit("S1").formation == ("disordered" if variant == "forest" else "line")


def test_g17_artillery_cannot_enter_forest():
    s = board(U("A1", "s", "artillery", "c2"), terrain={"c3": "forest"})
    r = move(s, "A1")
    assert not r.ok and r.reason.en == "Artillery cannot enter a forest (terrain table)"


def test_g18_cavalry_passes_through_own_unit():
    s = board(U("C1", "s", "cavalry", "c2"), U("S1", "s", "infantry", "c3", formation="line"))
    r = move(s, "C1", path=["c3", "c4"], facing="E")
    assert r.ok and where(r.state, "C1") == "c4" and r.state.unit("C1").facing == "E"
    assert r.state.unit("C1").formation == r.state.unit("S1").formation == "disordered"
    assert move(s, "C1", path=["c3"]).reason.code == "occupied"
    enemy = board(U("C1", "s", "cavalry", "c2"), U("N1", "n", "infantry", "c3"))
    assert move(enemy, "C1", path=["c3", "c4"]).reason.code == "cav_enemy"
    r = move(s, "C1", path=["d3", "d4"])
    assert r.ok and r.state.unit("C1").formation == "column"


def test_g19_cavalry_terrain():
    river = board(U("C1", "s", "cavalry", "c2"), terrain={"c3": "river"})
    r = move(river, "C1", path=["c3"])
    assert r.ok and r.state.unit("C1").formation == "disordered"
    r = move(river, "C1", path=["c3", "c4"])
    assert not r.ok and r.reason.code == "cav_stop_terrain" and mentions(r, "таблица местности", "terrain table")
    forest = board(U("C1", "s", "cavalry", "c2"), terrain={"c3": "forest"})
    assert move(forest, "C1", path=["c3"]).reason.en == "Cavalry cannot enter a forest (terrain table)"
    hill = board(U("C1", "s", "cavalry", "c2"), terrain={"d3": "hill"})
    r = move(hill, "C1", path=["d3", "d4"])  # the default: a hill ends the move
    assert not r.ok and r.reason.code == "cav_stop_terrain"
    r = move(hill, "C1", path=["d3"])
    assert r.ok and where(r.state, "C1") == "d3" and r.state.unit("C1").formation == "disordered"
    village = board(U("C1", "s", "cavalry", "c2"), terrain={"c3": "village"})
    assert move(village, "C1", path=["c3", "c4"]).reason.code == "cav_stop_terrain"
    hill = board(U("C1", "s", "cavalry", "c2"), terrain={"d3": "hill"}, settings={"cavalry_stop_terrain": ["river"]})
    r = move(hill, "C1", path=["d3", "d4"])
    assert r.ok and where(r.state, "C1") == "d4" and r.state.unit("C1").formation == "disordered"


def _battery(c2=None, terrain=None, **kw):
    units = [U("A1", "s", "artillery", "c1", **kw), U("N1", "n", "infantry", "c3")]
    if c2:
        units.append(U("X", c2, "infantry", "c2"))
    return board(*units, terrain=terrain)


def test_g20_artillery_line_of_fire():
    r = volley(_battery(), "artillery_volley", "A1", "N1", [6, 3])
    assert r.ok and r.data["shots"][0]["hits"] == 1
    for t in ("forest", "village", "hill"):
        r = volley(_battery(terrain={"c2": t}), "artillery_volley", "A1", "N1", [6, 3])
        assert not r.ok and r.reason.code == "art_blocked_terrain" and mentions(r, "линия огня", "line of fire")
    assert volley(_battery(c2="s"), "artillery_volley", "A1", "N1", [6, 3]).reason.code == "art_blocked_unit"
    assert volley(_battery(c2="n"), "artillery_volley", "A1", "N1", [6, 3]).ok


def test_g21_artillery_range():
    units = [U("A1", "s", "artillery", "c1"), U("N1", "n", "infantry", "c4"), U("N2", "n", "infantry", "d2"),
             U("N3", "n", "infantry", "e3")]
    s = board(*units)
    assert volley(s, "artillery_volley", "A1", "N1", [1, 1]).reason.code == "art_range"
    assert volley(s, "artillery_volley", "A1", "N2", [1, 1]).ok
    r = volley(s, "artillery_volley", "A1", "N3", [1, 1])
    assert not r.ok and mentions(r, "дальность артиллерии", "artillery range")
    hill = board(*units, terrain={"c1": "hill", "c2": "forest"})
    assert volley(hill, "artillery_volley", "A1", "N1", [1, 1]).ok
    hill2 = board(*units, terrain={"c1": "hill", "c2": "hill"})
    assert volley(hill2, "artillery_volley", "A1", "N1", [1, 1]).reason.code == "art_blocked_terrain"


def test_g22_battery_cannot_fire_cases():
    assert volley(_battery(terrain={"c1": "river"}), "artillery_volley", "A1", "N1", [6, 6]).reason.code == "art_river"
    assert volley(_battery(formation="disordered"), "artillery_volley", "A1", "N1", [6, 6]).reason.code == "art_disordered"
    one = _battery(crew=1)
    with pytest.raises(InputError):
        volley(one, "artillery_volley", "A1", "N1", [6, 6])
    assert volley(one, "artillery_volley", "A1", "N1", [6]).data["shots"][0]["hits"] == 1
    assert volley(_battery(crew=0), "artillery_volley", "A1", "N1", [6]).reason.code == "art_no_crew"


def test_g23_battery_hits_crew_first_then_gun():
    s = board(U("A1", "s", "artillery", "c3"), U("N1", "n", "infantry", "c4", formation="line"))
    two = volley(s, "musket_volley", "N1", "A1", [6, 6, 1]).state
    a = two.unit("A1")
    assert (a.crew, a.gun, a.on_board) == (0, True, True)
    assert volley(two, "artillery_volley", "A1", "N1", [6]).reason.code == "art_no_crew"
    three = volley(s, "musket_volley", "N1", "A1", [6, 6, 6]).state
    assert three.unit("A1").location == "destroyed"


def test_g24_charge_on_battery_captures_gun():
    s = board(U("A1", "s", "artillery", "c2"), U("N1", "n", "infantry", "c3"))
    r = charge(s, "N1", "A1")
    a = r.state.unit("A1")
    assert r.reason.code == "art_gives_way" and a.sector in ("c1", "b1", "d1") and a.formation == "disordered"
    assert not a.gun and where(r.state, "N1") == "c2" and not a.routed
    assert any(e["type"] == "gun_captured" for e in r.changes)
    assert volley(r.state, "artillery_volley", "A1", "N1", [6, 6]).reason.code == "art_no_gun"


def test_g25_chain_panic():
    units = [U("X", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4", formation="column"),
             U("Y", "s", "infantry", "c2"), U("B", "s", "infantry", "b2"), U("D", "s", "infantry", "d2")]
    s = board(*units)
    r = charge(s, "N1", "X", attacker_dice=[6, 6, 6], defender_dice=[1, 1, 1], counter=True,
               retreat_choices={"X": "c2", "Y": "c1"})
    st = r.state
    assert where(st, "Y") == "c1" and st.unit("Y").routed and st.unit("Y").formation == "disordered"
    assert where(st, "X") == "c2" and st.unit("X").routed
    assert where(st, "N1") == "c3"


def test_g25_chain_panic_pushes_off_the_board():
    units = [U("X", "s", "infantry", "c2"), U("N1", "n", "infantry", "c3", formation="column"),
             U("Y", "s", "infantry", "c1"), U("B", "s", "infantry", "b1"), U("D", "s", "infantry", "d1")]
    r = charge(board(*units), "N1", "X", attacker_dice=[6, 6, 6], defender_dice=[1, 1, 1], counter=True,
               retreat_choices={"X": "c1"})
    assert r.state.unit("Y").location == "deserted" and where(r.state, "X") == "c1"
    assert where(r.state, "N1") == "c2"


def test_g26_forced_flight_desertion_and_destruction():
    units = [U("R1", "s", "infantry", "a1", flag="routed", formation="disordered", routed_since=0),
             U("R2", "s", "infantry", "c2", flag="routed", formation="disordered", routed_since=0),
             U("N1", "n", "infantry", "b1"), U("N2", "n", "infantry", "c1"), U("N3", "n", "infantry", "d1")]
    r = forced_flight(board(*units))
    assert r.state.unit("R1").location == "deserted"
    assert r.state.unit("R2").location == "destroyed"


def test_g27_cavalry_destroys_routed_unit():
    s = board(U("C1", "s", "cavalry", "c3"), U("N1", "n", "infantry", "c4", flag="routed", formation="disordered"))
    r = charge(s, "C1", "N1")
    assert r.reason.code == "cav_vs_routed" and r.state.unit("N1").location == "destroyed"
    assert where(r.state, "C1") == "c4" and r.state.unit("C1").formation == "column"
    assert mentions(r, "без кубиков", "without dice")


def test_g28_rally_needs_two_form_up_cards():
    s = board(U("N1", "n", "infantry", "c4", flag="routed", formation="disordered"))
    r = rally(s, "N1", zone="center")
    assert r.ok and not r.state.unit("N1").routed and r.state.unit("N1").formation == "disordered"
    one = form_up(s, "N1", "line")
    assert not one.ok and one.reason.code == "rally_needs_two"
    mv = move(s, "N1")
    assert not mv.ok and mentions(mv, "правило бегства", "rout rule")


def test_g29_initiative_reroll():
    g = new_game([])
    g = confirm_orders(confirm_orders(g, "south").state, "north").state
    tie = roll_initiative(g, 4, 4)
    assert tie.reason.code == "initiative_tie" and tie.state.initiative_winner is None
    won = roll_initiative(tie.state, 2, 5)
    assert won.state.initiative_winner == "north"
    assert won.state.initiative_rolls == {"south": [4, 2], "north": [4, 5]}
    assert not choose_zone_sequence(won.state, "south", ["east", "center", "west"]).ok
    assert choose_zone_sequence(won.state, "north", ["east", "center", "west"]).state.zone_sequence == ["east", "center", "west"]


def _g30(n_start, n_path):
    units = [U("NC", "n", "cavalry", n_start), U("S1", "s", "infantry", "c3")]
    g = _to_actions(units, [("south", "move", "center"), ("north", "move", "center")], 1, 6)
    return reveal_step(g, {"south": {"card": "S-move-1", "unit": "S1"},
                           "north": {"card": "N-move-1", "unit": "NC", "path": n_path}})


def test_g30_initiative_winner_moves_first():
    r = _g30("d6", ["d5", "c4"])
    assert where(r.state, "NC") == "c4" and where(r.state, "S1") == "c3"
    assert r.data["cards"]["S-move-1"]["state"] == "void"
    assert r.data["cards"]["S-move-1"]["code"] == "occupied"
    r = _g30("d6", ["d5", "d4"])
    assert where(r.state, "NC") == "d4" and where(r.state, "S1") == "c4"
    # e5 lies in the east zone, so the illegal path is checked on its own
    r = move(board(U("NC", "n", "cavalry", "e5")), "NC", path=["d4", "c4"])
    assert not r.ok and r.reason.code == "cav_step_dir" and mentions(r, "правила конницы", "cavalry rules")


def test_g31_square_breaks_below_three_blocks():
    s = board(U("S1", "s", "infantry", "c3", formation="square"), U("N1", "n", "infantry", "c4"))
    r = volley(s, "musket_volley", "N1", "S1", [6, 1, 1])
    assert r.state.unit("S1").blocks == 2 and r.state.unit("S1").formation == "disordered"


def test_g32_end_of_turn_victory():
    north = [U("N1", "n", "infantry", None, location="destroyed"), U("N2", "n", "cavalry", None, location="destroyed"),
             U("N3", "n", "infantry", None, location="deserted"),
             U("N4", "n", "infantry", "c5", flag="routed", formation="disordered"),
             U("N5", "n", "infantry", "d5", flag="routed", formation="disordered")]
    s = board(U("S1", "s", "infantry", "c3"), *north)
    r = check_victory(s)
    assert r.data["winner"] == "south" and mentions(r, "правило победы", "victory rule")
    north[3] = U("N4", "n", "infantry", None, location="reserve")
    assert check_victory(board(U("S1", "s", "infantry", "c3"), *north)).data["winner"] is None


@pytest.mark.parametrize("variant", ["empty", "occupied", "row1"])
def test_g33_retreat_card(variant):
    sector = "c1" if variant == "row1" else "c4"
    units = [U("S1", "s", "infantry", sector, formation="line")]
    if variant == "occupied":
        units.append(U("S2", "s", "infantry", "c3"))
    r = retreat(board(*units), "S1")
    if variant == "empty":
        u = r.state.unit("S1")
        assert (u.sector, u.formation, u.facing) == ("c3", "line", "N")
    else:
        assert not r.ok and r.reason.code == "retreat_blocked" and mentions(r, "«Отступить!»", "Retreat card")


def test_g34_flank_melee_tie():
    s = board(U("S1", "s", "infantry", "b4", facing="E", formation="column"), U("N1", "n", "infantry", "c4", formation="line"))
    r = charge(s, "S1", "N1", attacker_dice=[2, 2, 2], defender_dice=[3, 3, 2], counter=True)
    assert r.data["attacker"]["mods"] == {"column": 1, "flank": 1}
    assert r.data["attacker"]["total"] == r.data["defender"]["total"] == 8
    assert r.reason.code == "melee_tie" and where(r.state, "S1") == "b4" and where(r.state, "N1") == "c4"

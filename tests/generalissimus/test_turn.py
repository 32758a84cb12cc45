"""Turn state machine: orders, initiative, reveal steps, end of turn."""
import pytest

from gameplay.generalissimus import (InputError, Settings, choose_zone_sequence, confirm_orders, end_turn,
                                     face_down_counts, new_game, place_order, reveal_step, roll_initiative)
from gameplay.generalissimus.state import Unit

from .helpers import U, mentions, where


def _game(units, settings=None, piles=None):
    return new_game([Unit.from_dict(u) for u in units], settings=settings, piles=piles)


def _ready(g, placements, s_roll=5, n_roll=2, sequence=("center", "west", "east")):
    for side, ctype, zone in placements:
        g = place_order(g, side, ctype, zone).state
    g = confirm_orders(confirm_orders(g, "south").state, "north").state
    g = roll_initiative(g, s_roll, n_roll).state
    return choose_zone_sequence(g, g.initiative_winner, list(sequence)).state


BASE = [U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4", formation="line"),
        U("S2", "s", "cavalry", "a2"), U("N2", "n", "cavalry", "f5")]


def test_new_game_builds_piles():
    g = _game(BASE)
    assert g.phase == "orders" and len([c for c in g.cards if c.owner == "south"]) == 20


def test_orders_phase_hides_types():
    g = _game(BASE)
    g = place_order(g, "south", "move", "center").state
    g = place_order(g, "south", "bayonets", "center").state
    assert face_down_counts(g) == {"south": {"west": 0, "center": 2, "east": 0},
                                   "north": {"west": 0, "center": 0, "east": 0}}


def test_pile_and_cap_limits():
    g = _game(BASE, piles={"south": {"retreat": 1}, "north": {}})
    g = place_order(g, "south", "retreat", "west").state
    r = place_order(g, "south", "retreat", "west")
    assert not r.ok and mentions(r, "стопка приказов", "order pile")
    capped = _game(BASE, settings=Settings(orders_per_turn_cap=1))
    capped = place_order(capped, "south", "move", "west").state
    assert place_order(capped, "south", "move", "west").reason.code == "cap_reached"


def test_wrong_phase():
    g = _game(BASE)
    r = roll_initiative(g, 3, 4)
    assert not r.ok and mentions(r, "порядок хода", "turn sequence")
    assert reveal_step(g, {}).reason.code == "wrong_phase"


def test_reveal_obligations():
    g = _ready(_game(BASE), [("south", "move", "center")])
    assert g.current_zone == "center"
    assert reveal_step(g, {}).reason.code == "must_reveal"
    assert reveal_step(g, {"south": {"card": "S-move-1", "unit": "S1"}, "north": {"card": "x", "unit": "N1"}}).reason.code == "nothing_to_reveal"
    with pytest.raises(InputError):
        reveal_step(g, {"south": {"card": "S-move-2", "unit": "S1"}})


def test_full_turn_cycle_and_card_return():
    g = _ready(_game(BASE), [("south", "musket_volley", "center"), ("north", "manoeuvre", "east"),
                             ("south", "move", "center")], sequence=("east", "center", "west"))
    assert g.current_zone == "east"
    g = reveal_step(g, {"north": {"card": "N-manoeuvre-1", "unit": "N2", "direction": "left"}}).state
    assert g.current_zone == "center" and g.unit("N2").facing == "E"
    g = reveal_step(g, {"south": {"card": "S-musket_volley-1", "unit": "S1", "target": "N1", "dice": [6, 1, 1]}}).state
    assert g.unit("S1").attacks_used == ["musket"]
    r = reveal_step(g, {"south": {"card": "S-move-1", "unit": "S1"}})
    assert r.data["cards"]["S-move-1"]["code"] == "occupied"
    g = r.state
    assert g.phase == "end_of_turn"
    g = end_turn(g).state
    assert g.turn == 2 and g.phase == "orders" and all(u.attacks_used == [] for u in g.units)
    assert all(c.state == "in_pile" for c in g.cards)


def test_consumable_cards_are_spent():
    g = _ready(_game(BASE, settings=Settings(cards_reusable=False)), [("south", "manoeuvre", "center")])
    g = reveal_step(g, {"south": {"card": "S-manoeuvre-1", "unit": "S1", "direction": "left"}}).state
    g = end_turn(g).state
    assert next(c for c in g.cards if c.id == "S-manoeuvre-1").state == "spent"


def test_counter_charge_in_the_same_step():
    g = _ready(_game(BASE), [("south", "bayonets", "center"), ("north", "bayonets", "center")])
    r = reveal_step(g, {"south": {"card": "S-bayonets-1", "unit": "S1", "target": "N1", "dice": [3, 4, 2]},
                        "north": {"card": "N-bayonets-1", "unit": "N1", "dice": [5, 3, 1]}})
    cards = r.data["cards"]
    assert cards["S-bayonets-1"]["code"] == "melee_won" and cards["N-bayonets-1"]["state"] == "executed"
    assert r.state.unit("N1").routed and where(r.state, "S1") == "c4"


def test_counter_card_without_incoming_charge_is_void():
    g = _ready(_game(BASE), [("north", "bayonets", "center")])
    r = reveal_step(g, {"north": {"card": "N-bayonets-1", "unit": "N1"}})
    assert r.data["cards"]["N-bayonets-1"]["state"] == "void"


def test_reaction_mode_counter_charge():
    g = _ready(_game(BASE, settings=Settings(counter_charge_timing="reaction")),
               [("south", "bayonets", "center"), ("north", "move", "center"), ("north", "bayonets", "center")])
    r = reveal_step(g, {"south": {"card": "S-bayonets-1", "unit": "S1", "target": "N1", "dice": [1, 1, 1]},
                        "north": {"card": "N-move-1", "unit": "N2"}},
                    reactions={"N1": "N-bayonets-1"}, melee_dice={"north": [6, 6, 6]})
    assert r.data["cards"]["S-bayonets-1"]["code"] == "melee_won"
    assert r.state.unit("S1").routed and where(r.state, "N1") == "c3"
    assert r.data["cards"]["N-bayonets-1"]["state"] == "executed"


def test_rally_with_two_form_up_cards():
    units = BASE[:1] + [U("N1", "n", "infantry", "c5", flag="routed", formation="disordered", routed_since=0)] + BASE[2:]
    g = _ready(_game(units), [("north", "form_up", "center"), ("north", "form_up", "center")])
    r = reveal_step(g, {"north": {"cards": ["N-form_up-1", "N-form_up-2"], "unit": "N1"}})
    assert not r.state.unit("N1").routed
    assert {c["state"] for c in r.data["cards"].values()} == {"executed"}


def test_end_turn_forced_flight_and_victory():
    units = [U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c6", flag="routed", formation="disordered", routed_since=0)]
    g = _ready(_game(units), [])
    assert g.phase == "end_of_turn"
    r = end_turn(g)
    assert r.state.unit("N1").location == "deserted" and r.state.winner == "south" and r.state.phase == "finished"


def test_immediate_victory_finishes_the_game():
    units = [U("S1", "s", "infantry", "c3", formation="line"), U("N1", "n", "cavalry", "c4", blocks=1, formation="disordered")]
    g = _ready(_game(units), [("south", "musket_volley", "center")])
    r = reveal_step(g, {"south": {"card": "S-musket_volley-1", "unit": "S1", "target": "N1", "dice": [6, 6, 6]}})
    assert r.state.phase == "finished" and r.state.winner == "south"
    assert place_order(r.state, "south", "move", "west").reason.code == "game_over"

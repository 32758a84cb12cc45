"""The initiative wins conflicts while each owner names its card's unit and use; the owner
chooses retreats; desertion only in flight (the gun stays); Bayonets! advances; deployment is
checked; every setting works (reaction counter-charge, musket arc, cavalry hints); the manual
correction. One test (or more) per bullet of the issue, at the engine's level."""
import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from gameplay.generalissimus import (Settings, StateError, charge, choose_zone_sequence, confirm_orders, forced_flight, move,
                                     new_game, place_order, reveal_step, roll_initiative, volley)
from gameplay.generalissimus.core import AskChoices, ChoiceNeeded
from gameplay.generalissimus.queries import open_needs, rule_hints, step_needs_of, unit_options
from gameplay.generalissimus.settings import Settings as S
from gameplay.generalissimus.state import GameState, Unit, invariant_problems
from gameplay.generalissimus.stepper import STEPPER
from gameplay.generalissimus.turn import end_turn_needs, step_needs

from .helpers import U, board, where


def _actions(units, placements, first="south", settings=None, terrain=None):
    g = new_game([Unit.from_dict(u) for u in units], terrain=terrain, settings=Settings.from_dict(settings or {}))
    for side, ctype, zone in placements:
        g = place_order(g, side, ctype, zone).state
    g = confirm_orders(confirm_orders(g, "south").state, "north").state
    g = roll_initiative(g, 6 if first == "south" else 1, 1 if first == "south" else 6).state
    return choose_zone_sequence(g, first, ["center", "west", "east"]).state


# --- 1. initiative precedence: each card acts on the unit its owner named ---------------------------

CONFLICT = [U("SX", "s", "infantry", "c3", formation="column"), U("NZ", "n", "infantry", "c4", formation="line"),
            U("NY", "n", "infantry", "d3", facing="W", formation="column")]
CHARGES = {"south": {"card": "S-bayonets-1", "unit": "SX", "target": "NZ"},
           "north": {"card": "N-bayonets-1", "unit": "NY", "target": "SX"}}


def test_initiative_winner_charges_first_and_the_other_card_is_not_turned_into_a_counter():
    g = _actions(CONFLICT, [("south", "bayonets", "center"), ("north", "bayonets", "center")], first="south")
    needs, complete = step_needs(g, CHARGES)
    # no dice at all: NZ has no Bayonets! card of its own, so it gives way; only NZ's owner chooses its sector
    assert not complete and [(n["side"], n["roll"], n["unit"]) for n in needs] == [("north", "retreat", "NZ")]
    r = reveal_step(g, CHARGES, choices={"NZ": "d5"})
    cards = r.data["cards"]
    assert cards["S-bayonets-1"]["code"] == "gives_way" and cards["S-bayonets-1"]["state"] == "executed"
    assert cards["N-bayonets-1"]["state"] == "void" and cards["N-bayonets-1"]["code"] == "charge_target"
    st = r.state
    assert where(st, "SX") == "c4" and where(st, "NZ") == "d5" and not st.unit("SX").routed
    assert st.unit("NZ").formation == "disordered" and not st.unit("NZ").routed


def test_with_the_other_initiative_the_first_charge_meets_the_card_named_for_its_target():
    g = _actions(CONFLICT, [("south", "bayonets", "center"), ("north", "bayonets", "center")], first="north")
    needs, complete = step_needs(g, CHARGES)
    assert not complete
    assert [(n["side"], n["role"], n["unit"], n["n"]) for n in needs] == [
        ("north", "attacker", "NY", 3), ("south", "defender", "SX", 3)]
    assert needs[0]["mods"] == {"column": 1, "flank": 1}  # NY hits SX's flank from d3
    dice = {"north": dict(CHARGES["north"], dice=[2, 2, 2]), "south": dict(CHARGES["south"], dice=[3, 3, 3])}
    r = reveal_step(g, dice, choices={"NY": "e4"})
    details = r.data["cards"]["N-bayonets-1"]["details"]
    # NY 6 + column + flank = 8; SX meets it with its own card: 9 + column (A-17) = 10
    assert (details["attacker"]["total"], details["defender"]["total"], details["winner"]) == (8, 10, "SX")
    assert r.data["cards"]["S-bayonets-1"]["state"] == "executed"  # spent as the counter-charge
    assert where(r.state, "NY") == "e4" and r.state.unit("NY").routed and where(r.state, "SX") == "d3"
    assert where(r.state, "NZ") == "c4"  # South's card never charged NZ: the owner named SX, not a use against NZ


def test_a_card_named_to_meet_a_charge_that_never_comes_does_nothing():
    units = [U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c5")]
    g = _actions(units, [("north", "bayonets", "center")])
    r = reveal_step(g, {"north": {"card": "N-bayonets-1", "unit": "N1", "use": "meet"}})
    assert r.data["cards"]["N-bayonets-1"]["code"] == "no_charge_came" and where(r.state, "N1") == "c5"
    assert mentions_dict(r.data["cards"]["N-bayonets-1"]["reason"], "встречный бой", "meeting a charge")


def mentions_dict(reason, ru, en):
    return ru in reason["ru"] and en in reason["en"]


# --- 2. the owner chooses where its unit falls back ----------------------------------------------

def test_the_loser_may_fall_back_diagonally_and_a_bad_choice_is_refused():
    s = board(U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4", formation="line"))
    r = charge(s, "S1", "N1", attacker_dice=[3, 4, 2], defender_dice=[5, 3, 1], counter=True, retreat_choices={"N1": "b5"})
    assert where(r.state, "N1") == "b5" and r.state.unit("N1").routed
    r = charge(s, "S1", "N1", attacker_dice=[3, 4, 2], defender_dice=[5, 3, 1], counter=True, retreat_choices={"N1": "c6"})
    assert not r.ok and r.reason.code == "bad_choice" and "c5, b5, d5" in r.reason.en
    # without a choice the engine's proposal stands: straight back first
    r = charge(s, "S1", "N1", attacker_dice=[3, 4, 2], defender_dice=[5, 3, 1], counter=True)
    assert where(r.state, "N1") == "c5"


def test_forced_flight_asks_each_owner_in_turn():
    units = [U("R1", "s", "infantry", "c3", flag="routed", formation="disordered", routed_since=0),
             U("R2", "n", "infantry", "e4", flag="routed", formation="disordered", routed_since=0)]
    g = board(*units, turn=2)
    g.phase = "end_of_turn"
    needs, complete = end_turn_needs(g, {})
    assert not complete and [(n["side"], n["unit"], n["options"]) for n in needs] == [("south", "R1", ["c2", "b2", "d2"])]
    needs, complete = end_turn_needs(g, {"R1": "d2"})
    assert [(n["side"], n["unit"]) for n in needs] == [("north", "R2")]
    assert end_turn_needs(g, {"R1": "d2", "R2": "f5"}) == ([], True)
    r = forced_flight(g, {"R1": "d2", "R2": "f5"})
    assert where(r.state, "R1") == "d2" and where(r.state, "R2") == "f5"


# --- 3. desertion only in flight; the gun stays -----------------------------------------------------

def test_giving_way_on_the_home_row_is_no_desertion():
    s = board(U("S1", "s", "infantry", "c5", formation="column"), U("N1", "n", "infantry", "c6", formation="line"))
    r = charge(s, "S1", "N1")
    n1 = r.state.unit("N1")
    assert (n1.location, n1.sector, n1.formation, n1.flag) == ("board", "c6", "disordered", "up")
    assert where(r.state, "S1") == "c5"  # nothing enters a sector that was not vacated
    r = charge(board(U("S1", "s", "infantry", "c5"), U("N1", "n", "infantry", "c6"), settings={"blocked_retreat": "destroyed"}),
               "S1", "N1")
    assert r.state.unit("N1").location == "destroyed" and where(r.state, "S1") == "c6"


def test_a_crew_on_its_home_row_stays_with_its_gun():
    s = board(U("A1", "s", "artillery", "c1"), U("N1", "n", "infantry", "c2"))
    r = charge(s, "N1", "A1")
    a = r.state.unit("A1")
    assert (a.sector, a.gun, a.gun_sector, a.formation) == ("c1", True, "c1", "disordered") and where(r.state, "N1") == "c2"
    assert not any(e["type"] in ("deserted", "gun_captured") for e in r.changes)


def test_a_fleeing_crew_deserts_and_its_gun_stays_to_be_captured():
    s = board(U("A1", "s", "artillery", "c1"), U("N1", "n", "infantry", "c2"), settings={"give_way_flag": "down"})
    r = charge(s, "N1", "A1")
    a = r.state.unit("A1")
    assert a.location == "deserted"
    kinds = [e["type"] for e in r.changes]
    assert kinds.index("deserted") < kinds.index("gun_captured")  # the gun stood on c1 until N1 stepped in
    assert where(r.state, "N1") == "c1" and not a.gun


def test_a_deserting_crew_leaves_an_abandoned_gun_that_an_enemy_entering_captures():
    # a routed crew on its home row, its gun left behind on c2 (it gave way with its flag down)
    s = board(U("A1", "s", "artillery", "c1", flag="routed", formation="disordered", routed_since=0,
                gun_sector="c2"), U("N1", "n", "infantry", "c4"), turn=2)
    r = forced_flight(s, {"A1": "off"})
    a = r.state.unit("A1")
    assert a.location == "deserted" and a.gun and a.gun_sector == "c2"  # the gun stays where it stood
    again = GameState.from_dict(r.state.to_dict())  # and survives a save and a load
    assert again.abandoned_gun_at("c2").id == "A1"
    took = move(again, "N1", to="c3")
    took = move(took.state, "N1", to="c2")
    assert any(e["type"] == "gun_captured" for e in took.changes) and not took.state.unit("A1").gun


def test_a_routed_unit_charged_by_infantry_gives_way_and_may_desert():
    s = board(U("S1", "s", "infantry", "c5"), U("N1", "n", "infantry", "c6", flag="routed", formation="disordered"))
    r = charge(s, "S1", "N1")
    assert r.state.unit("N1").location == "deserted" and where(r.state, "S1") == "c6"


def test_a_pushed_unit_that_does_not_rout_and_cannot_move_is_no_chain_option():
    units = [U("X", "s", "infantry", "c2"), U("N1", "n", "infantry", "c3", formation="column"),
             U("Y", "s", "infantry", "c1"), U("B", "s", "infantry", "b1"), U("D", "s", "infantry", "d1")]
    s = board(*units, settings={"chain_push_routs": False})
    r = charge(s, "N1", "X", attacker_dice=[6, 6, 6], defender_dice=[1, 1, 1], counter=True)
    # X is fleeing, but c1/b1/d1 hold own units that would only step back and cannot: no candidate, X is destroyed
    assert r.state.unit("X").location == "destroyed" and where(r.state, "Y") == "c1"
    assert where(r.state, "N1") == "c2"
    default = charge(board(*units), "N1", "X", attacker_dice=[6, 6, 6], defender_dice=[1, 1, 1], counter=True)
    assert default.state.unit("Y").location == "deserted" and where(default.state, "X") == "c1"  # G-25: Y routs first


# --- 4. Bayonets! also means advance --------------------------------------------------------------

@pytest.mark.parametrize("c4, expect", [(None, ("c4", "line")), ("forest", ("c4", "disordered")), ("own", None)])
def test_g36_bayonets_advance(c4, expect):
    units = [U("S1", "s", "infantry", "c3", formation="line"), U("N9", "n", "cavalry", "f6")]
    if c4 == "own":
        units.append(U("S2", "s", "infantry", "c4"))
    g = _actions(units, [("south", "bayonets", "center")], terrain={"c4": "forest"} if c4 == "forest" else None)
    r = reveal_step(g, {"south": {"card": "S-bayonets-1", "unit": "S1", "use": "advance"}})
    card = r.data["cards"]["S-bayonets-1"]
    if expect is None:
        assert card["state"] == "void" and card["code"] == "occupied"
        return
    u = r.state.unit("S1")
    assert card["code"] == "advanced" and (u.sector, u.formation) == expect
    assert "bayonet" not in u.attacks_used  # an advance is no attack


def test_bayonets_advance_can_be_switched_off_or_move_cavalry_like_a_move_card():
    units = [U("S1", "s", "infantry", "c3"), U("C1", "s", "cavalry", "d2"), U("N9", "n", "cavalry", "f6")]
    off = _actions(units, [("south", "bayonets", "center")], settings={"bayonets_advance": "none"})
    r = reveal_step(off, {"south": {"card": "S-bayonets-1", "unit": "S1", "use": "advance"}})
    assert r.data["cards"]["S-bayonets-1"]["code"] == "advance_off"
    as_move = _actions(units, [("south", "bayonets", "center")], settings={"bayonets_advance": "as_move"})
    r = reveal_step(as_move, {"south": {"card": "S-bayonets-1", "unit": "C1", "use": "advance", "path": ["d3", "c4"],
                                        "facing": "E"}})
    c = r.state.unit("C1")
    assert (c.sector, c.facing) == ("c4", "E")


def test_an_advance_is_no_charge_with_an_enemy_in_front():
    units = [U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c4")]
    g = _actions(units, [("south", "bayonets", "center")])
    r = reveal_step(g, {"south": {"card": "S-bayonets-1", "unit": "S1", "use": "advance"}})
    assert r.data["cards"]["S-bayonets-1"]["code"] == "advance_enemy"


# --- 5. deployment at setup ----------------------------------------------------------------------------

def _setup(units, settings=None, terrain=None):
    return STEPPER.new_state({"units": units, "terrain": terrain or {}, "settings": settings or {}, "players": {}})


def test_g37_deployment_rows_and_terrain():
    base = [U("N1", "n", "infantry", "c6")]
    _setup(base + [U("S1", "s", "infantry", "c1")])
    with pytest.raises(StateError, match="nearest rows"):
        _setup(base + [U("S2", "s", "cavalry", "d2")])
    with pytest.raises(StateError, match="cannot stand on e1") as exc:
        _setup(base + [U("S3", "s", "artillery", "e1")], terrain={"e1": "forest"})
    assert "расстановка" in exc.value.ru
    st = _setup(base + [U("S4", "s", "cavalry", "b1")], terrain={"b1": "hill"})
    assert st["engine"]["units"][1]["formation"] == "column"
    _setup(base + [U("S2", "s", "cavalry", "d2")], settings={"deploy_rows": 2})
    with pytest.raises(StateError, match="column"):
        _setup(base + [U("S5", "s", "cavalry", "a1", formation="disordered")])


def test_deploy_terrain_disorder_setting():
    units = [U("S1", "s", "infantry", "c1", formation="line"), U("N1", "n", "infantry", "c6")]
    plain = _setup(units, terrain={"c1": "river"})
    assert plain["engine"]["units"][0]["formation"] == "line"
    rough = _setup(units, terrain={"c1": "river"}, settings={"deploy_terrain_disorder": True})
    assert rough["engine"]["units"][0]["formation"] == "disordered"


# --- 6. settings that work, hints from the engine ------------------------------------------------------

def test_g04_musket_arc_setting():
    units = [U("S1", "s", "infantry", "c3"), U("N2", "n", "infantry", "d2"), U("N3", "n", "infantry", "d3")]
    assert volley(board(*units), "musket_volley", "S1", "N2", [1, 1, 1]).reason.code == "musket_arc"
    wide = board(*units, settings={"musket_arc": "any_diagonal"})
    assert volley(wide, "musket_volley", "S1", "N2", [1, 1, 1]).ok
    assert volley(wide, "musket_volley", "S1", "N3", [1, 1, 1]).reason.code == "musket_arc"


def test_cavalry_hint_follows_the_step_directions_setting():
    forward = unit_options(board(U("C1", "s", "cavalry", "c3")), "C1").move
    assert forward == {"b4", "c4", "d4", "a5", "b5", "c5", "d5", "e5"}
    any8 = unit_options(board(U("C1", "s", "cavalry", "c3"), settings={"cavalry_step_dirs": "any8"}), "C1").move
    assert {"c2", "c1", "a3", "e3", "b2"} <= any8 and "c3" not in any8


def test_retreat_hint_follows_rear_reference():
    home = unit_options(board(U("S1", "s", "infantry", "c3")), "S1")
    line = next(o for o in home.options if o.card == "retreat")
    assert "towards the home edge" in line.reason.en
    facing = unit_options(board(U("S1", "s", "infantry", "c3", facing="E"), settings={"rear_reference": "facing"}), "S1")
    line = next(o for o in facing.options if o.card == "retreat")
    assert "away from its facing" in line.reason.en and "home edge" not in line.reason.en
    hints = rule_hints(board(settings={"rear_reference": "facing", "cavalry_stop_terrain": ["river"]}))
    assert "away from its facing" in hints["end_of_turn"][0].en
    assert "river" in hints["actions"][1].en and "hill" not in hints["actions"][1].en


def test_removed_settings_still_load_and_round_trip():
    stored = Settings().to_dict() | {"pile_composition_public": False, "commit_unit_at_placement": True}
    cfg = S.from_dict(stored)
    assert cfg.to_dict() == stored
    st = GameState.from_dict({"units": [], "settings": stored})
    assert st.to_dict()["settings"]["commit_unit_at_placement"] is True
    with pytest.raises(Exception):
        S.from_dict({"no_such_setting": 1})


# --- reaction counter-charge through the stepper (the defender's phone sends it) -------------------

REACT_UNITS = [U("S1", "s", "infantry", "c3", formation="column"), U("N1", "n", "infantry", "c4", formation="column"),
               U("N2", "n", "infantry", "d6")]


def _stepper_to_step(settings):
    state = STEPPER.new_state({"units": REACT_UNITS, "terrain": {}, "players": {},
                               "settings": {"deploy_rows": 3, **settings}})
    cmds = [dict(type="place", side="south", card_type="bayonets", zone="center"),
            dict(type="place", side="north", card_type="move", zone="center"),
            dict(type="place", side="north", card_type="bayonets", zone="center"),
            dict(type="confirm", side="south"), dict(type="confirm", side="north"),
            dict(type="initiative", south=6, north=1, source="physical"),
            dict(type="zones", side="south", sequence=["center", "west", "east"]),
            dict(type="choose", side="south", card="S-bayonets-1", unit="S1", target="N1"),
            dict(type="choose", side="north", card="N-move-1", unit="N2")]
    for c in cmds:
        out = STEPPER.apply(state, c)
        assert out.ok, (c, out.reason.en)
        state = out.state
    return state


def test_reaction_counter_charge_is_asked_and_sent_by_the_defender():
    state = _stepper_to_step({"counter_charge_timing": "reaction"})
    assert [(n["side"], n["roll"], n["unit"]) for n in open_needs(state)] == [("north", "react", "N1")]
    assert not STEPPER.apply(state, {"type": "react", "side": "south", "unit": "N1", "card": "none"}).ok
    out = STEPPER.apply(state, {"type": "react", "side": "north", "unit": "N1", "card": "N-bayonets-1"})
    assert out.ok
    state = out.state
    assert [(n["side"], n["roll"]) for n in open_needs(state)] == [("south", "melee"), ("north", "melee")]
    for side, faces in (("south", [1, 1, 1]), ("north", [6, 6, 6])):
        state = STEPPER.apply(state, {"type": "dice", "side": side, "roll": "melee", "faces": faces}).state
    assert [(n["side"], n["roll"], n["unit"]) for n in open_needs(state)] == [("south", "retreat", "S1")]
    state = STEPPER.apply(state, {"type": "retreat_choice", "side": "south", "unit": "S1", "sector": "b2"}).state
    st = state["engine"]
    s1 = next(u for u in st["units"] if u["id"] == "S1")
    assert (s1["sector"], s1["flag"]) == ("b2", "routed")
    assert state["steps"][-1]["cards"]["south"]["details"]["defender"]["total"] == 19


def test_same_step_timing_asks_no_reaction():
    state = _stepper_to_step({})
    needs, complete = step_needs_of(state)
    assert [n["roll"] for n in needs] == ["retreat"] and not complete  # N1 gives way; North picks its sector


# --- 5. the manual correction ------------------------------------------------------------------------

def test_correction_proposed_by_one_side_applies_when_the_other_agrees_and_replays():
    state = STEPPER.new_state({"units": REACT_UNITS, "terrain": {}, "players": {}, "settings": {"deploy_rows": 3}})
    log = [{"type": "correct", "side": "south", "unit": "N1", "set": {"sector": "e4", "blocks": 2, "formation": "line",
                                                                     "facing": "W", "flag": "routed"}}]
    out = STEPPER.apply(state, log[0])
    assert out.ok and "must agree" in out.reason.en and out.state["correction"]["by"] == "south"
    assert not STEPPER.apply(out.state, {"type": "agree_correction", "side": "south"}).ok  # not one's own
    log.append({"type": "agree_correction", "side": "north"})
    done = STEPPER.apply(out.state, log[1])
    assert done.ok and "both agree" in done.reason.en and "исправление" in done.reason.ru.lower()
    n1 = next(u for u in done.state["engine"]["units"] if u["id"] == "N1")
    assert (n1["sector"], n1["blocks"], n1["formation"], n1["facing"], n1["flag"]) == ("e4", 2, "line", "W", "routed")
    assert STEPPER.replay(state, log) == done.state
    assert STEPPER.replay(state, log[:1])["engine"] == state["engine"]  # the common undo replays one move less


def test_an_impossible_correction_is_refused():
    state = STEPPER.new_state({"units": REACT_UNITS, "terrain": {}, "players": {}, "settings": {"deploy_rows": 3}})
    out = STEPPER.apply(state, {"type": "correct", "side": "north", "unit": "N1", "set": {"sector": "c3"}})
    assert not out.ok and "correction" in out.reason.en and "исправление" in out.reason.ru
    out = STEPPER.apply(state, {"type": "correct", "side": "north", "unit": "N1", "set": {"formation": "square", "blocks": 2}})
    assert not out.ok
    assert not STEPPER.apply(state, {"type": "correct", "side": "north", "unit": "N1", "set": {"owner": "south"}}).ok


def test_no_correction_while_a_steps_cards_are_face_up():
    """A correction in the middle of a step could leave the step waiting for dice nobody needs."""
    state = _stepper_to_step({"counter_charge_timing": "reaction"})
    assert state.get("reveal")
    out = STEPPER.apply(state, {"type": "correct", "side": "south", "unit": "N1", "set": {"location": "destroyed"}})
    assert not out.ok and out.reason.code == "correction_step_open" and "шаг" in out.reason.ru


def test_end_of_turn_waits_for_the_owner_of_each_fleeing_unit():
    state = STEPPER.new_state({"units": REACT_UNITS, "terrain": {}, "players": {}, "settings": {"deploy_rows": 3}})
    eng = state["engine"]
    eng["phase"], eng["turn"] = "end_of_turn", 2
    n1 = next(u for u in eng["units"] if u["id"] == "N1")
    n1.update(flag="routed", formation="disordered", routed_since=1)
    waiting = STEPPER.apply(state, {"type": "end_turn"})
    assert not waiting.ok and "North" in waiting.reason.en and "Север" in waiting.reason.ru
    assert [(n["side"], n["unit"], n["options"]) for n in open_needs(state)] == [("north", "N1", ["c5", "b5", "d5"])]
    assert not STEPPER.apply(state, {"type": "retreat_choice", "side": "south", "unit": "N1", "sector": "b5"}).ok
    chosen = STEPPER.apply(state, {"type": "retreat_choice", "side": "north", "unit": "N1", "sector": "b5"})
    assert chosen.ok and chosen.state["flight_choices"] == {"N1": "b5"}
    ended = STEPPER.apply(chosen.state, {"type": "end_turn"})
    assert ended.ok and next(u for u in ended.state["engine"]["units"] if u["id"] == "N1")["sector"] == "b5"
    assert ended.state["flight_choices"] == {}


def test_a_card_that_cannot_be_carried_out_at_the_start_of_the_step_is_void_even_if_it_could_later():
    # S (initiative) moves S2 into c4; N's charge from c5 named S2, which at the start stood elsewhere
    units = [U("S2", "s", "infantry", "c3"), U("N1", "n", "infantry", "c5")]
    g = _actions(units, [("south", "move", "center"), ("north", "bayonets", "center")])
    r = reveal_step(g, {"south": {"card": "S-move-1", "unit": "S2"},
                        "north": {"card": "N-bayonets-1", "unit": "N1", "target": "S2"}})
    assert where(r.state, "S2") == "c4" and r.data["cards"]["N-bayonets-1"]["state"] == "void"
    assert r.data["cards"]["N-bayonets-1"]["code"] == "charge_target"


# --- property: every option the engine offers is accepted and leaves a possible table --------------

@hyp_settings(max_examples=150, deadline=None)
@given(behind=st.lists(st.sampled_from(["empty", "own", "enemy", "forest"]), min_size=3, max_size=3),
       row=st.integers(min_value=2, max_value=6), lost_melee=st.booleans(),
       blocked=st.sampled_from(["stay", "destroyed"]), chain_routs=st.booleans())
def test_every_offered_retreat_is_accepted_and_only_fleeing_units_leave_the_board(behind, row, lost_melee, blocked,
                                                                                 chain_routs):
    units = [U("S1", "s", "infantry", f"c{row - 1}"), U("N1", "n", "infantry", f"c{row}")]
    terrain = {}
    if row < 6:
        for col, what in zip("cbd", behind):
            sector = f"{col}{row + 1}"
            if what == "own":
                units.append(U(f"N-{col}", "n", "infantry", sector))
            elif what == "enemy":
                units.append(U(f"S-{col}", "s", "infantry", sector))
            elif what == "forest":
                terrain[sector] = "forest"
    s = board(*units, terrain=terrain, settings={"blocked_retreat": blocked, "chain_push_routs": chain_routs})
    kw = dict(attacker_dice=[6, 6, 6], defender_dice=[1, 1, 1], counter=True) if lost_melee else {}
    options = None
    try:
        charge(s, "S1", "N1", retreat_choices=AskChoices(), **kw)
    except ChoiceNeeded as need:
        options = need.options
    if options is None:  # one option or none: the engine had nothing to ask
        options = [None]
    for pick in options:
        r = charge(s, "S1", "N1", retreat_choices={"N1": pick} if pick else {}, **kw)
        assert r.ok, r.reason.en
        assert invariant_problems(r.state) == []
        n1 = r.state.unit("N1")
        if n1.location == "deserted":
            assert lost_melee  # only a fleeing unit leaves the board
        if pick and pick != "off" and n1.on_board:
            assert n1.sector == pick
        if not lost_melee and n1.on_board and n1.sector == f"c{row}":
            assert where(r.state, "S1") == f"c{row - 1}"  # nothing enters a sector that was not left

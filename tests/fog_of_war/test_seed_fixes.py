"""The corrected spec against the seed: B-4 turn passing, B-17 launch supply, B-22/B-23 neutral
cards, B-24 forts at sea, B-43 the Baltics, B-44 quagmire supply; the wheel's and the map's blank facts
asked where they matter; a game stored before the corrections still loads and replays."""
import json
import random
from pathlib import Path

import pytest

from gameplay.fog_of_war import actions as act
from gameplay.fog_of_war import mapdata
from gameplay.fog_of_war import year_end as ye
from gameplay.fog_of_war.battle import QUAGMIRE, VICTORY
from gameplay.fog_of_war.board import BoardMap
from gameplay.fog_of_war.config import FowSettings
from gameplay.fog_of_war.state import GameState, Quagmire
from gameplay.fog_of_war.stepper import STEPPER, engine_of

from .helpers import (TEST_MAP, battle_ready, cards, ledger_game, map_game, place_op, placeholder_wheel_settings,
                      started)

FIXTURE = Path(__file__).parent / "fixtures" / "legacy_game_before_seed_fixes.json"


def ids(cs):
    return [c.id for c in cs]


# --- B-23: a Victory removes every neutral card of the province --------------------------------------

def test_victory_removes_the_unsuitable_neutral_cards_too():
    st = battle_ready()
    slot = place_op(st, "axis", "balkans", cards("axis", "L4"))
    st.provinces["balkans"].neutral_cards = cards("neutral", "L1", "N3", "Z")
    r = act.launch_operation(st, "axis", slot, "italy")
    assert r.data["outcome"] == VICTORY
    assert r.state.provinces["balkans"].neutral_cards == []
    assert sorted(ids(r.state.removed)[-3:]) == ["ne1:L1", "ne2:N3", "ne3:Z"]


# --- B-22: neutral cards lost in a quagmire go into the defender's losses ------------------------------

def _quagmire(settings=None):
    st = battle_ready(settings=settings or placeholder_wheel_settings())
    slot = place_op(st, "axis", "balkans", cards("axis", "L2", "L1"))
    st.provinces["balkans"].neutral_cards = cards("neutral", "L1", "L1", "L1")
    choice = {"attacker": ["ax2:L1"], "defender": ["ne1:L1"]}
    r = act.launch_operation(st, "axis", slot, "italy", quagmire_choice=choice)
    assert r.data["outcome"] == QUAGMIRE, (r.data["a"], r.data["d"])
    return r.state


def test_quagmire_neutral_losses_go_to_the_defender_losses_pile():
    st = _quagmire()
    assert ids(st.sides["allies"].losses) == ["ne1:L1"] and "ne1:L1" not in ids(st.removed)
    assert ids(st.provinces["balkans"].neutral_cards) == ["ne2:L1", "ne3:L1"]


def test_quagmire_neutral_losses_removed_is_a_named_setting():
    st = _quagmire(placeholder_wheel_settings(quagmire_neutral_losses="removed"))
    assert st.sides["allies"].losses == [] and "ne1:L1" in ids(st.removed)


# --- B-4: the turn passes only to a side with cards in its deck -------------------------------------------

def _axis_deck_out():
    """The Axis has just drawn its last card: winter, the Allies (deck 9) play."""
    st = battle_ready()
    ax = st.sides["axis"]
    ax.hand, ax.deck, ax.hand_at_turn_start = ax.hand[:1], ax.deck[:1], 0
    st.sides["allies"].deck = st.sides["allies"].deck[:9]
    r = act.end_turn(st, "axis")
    assert r.state.winter and r.state.active_side == "allies"
    return r.state


def test_side_with_deck_keeps_the_turn_and_the_other_acts_inside_it():
    st = _axis_deck_out()
    axis_pointer = st.sides["axis"].wheel_pointer
    st = started(st)
    assert act.partner(st) == "axis"
    assert st.sides["axis"].wheel_pointer != axis_pointer  # rotated right after the Allies
    hand = st.sides["axis"].hand[0].id
    assert act.defend(st, "axis", "poland", [hand]).reason.code == "partner_action"  # not named by 2.10.1
    st2 = act.new_operation(st, "axis", "vichy", [hand]).state  # hand cards into an operation: allowed
    assert act.partner_done(st, "axis").reason.code == "must_play"  # a card was held: one must be played
    st.sides["allies"].hand_at_turn_start = 0
    assert act.end_turn(st, "allies").reason.code == "partner_pending"
    st2 = act.partner_done(st2, "axis").state
    st2.sides["allies"].hand_at_turn_start = 0
    r = act.end_turn(st2, "allies")
    assert r.ok and r.state.active_side == "allies" and r.data["again"]  # 2.11: the Axis deck is empty
    assert len(r.state.sides["axis"].hand) == 1  # the exhausted side draws nothing


def test_exhausted_side_may_launch_inside_the_other_turn():
    st = started(_axis_deck_out())
    slot = place_op(st, "axis", "vichy", cards("axis", "L5"))
    r = act.launch_operation(st, "axis", slot, "italy", climate="none")  # winter: Vichy's icon is not on the map
    assert r.ok and r.state.provinces["vichy"].control == "axis"


def test_own_turns_and_reduced_are_named_settings():
    for mode in ("own_turns", "reduced"):
        st = battle_ready(settings=placeholder_wheel_settings(exhausted_turn_mode=mode))
        ax = st.sides["axis"]
        ax.hand, ax.deck, ax.hand_at_turn_start = ax.hand[:1], ax.deck[:1], 0
        r = act.end_turn(st, "axis")
        st = started(r.state)
        assert act.partner(st) is None
        st.sides["allies"].hand_at_turn_start = 0
        assert act.end_turn(st, "allies").state.active_side == "axis"  # alternating


# --- B-17: the launch supply line is checked up to the target -------------------------------------------

def test_unsupplied_origin_may_attack_a_target_next_to_a_supplied_province():
    st = map_game()
    board = st.board
    board.provinces["t"] = type(board.provinces["r"])("t", neighbours=["q", "r", "poland"])
    for k in ("q", "r", "poland"):
        board.provinces[k].neighbours.append("t")
    st.provinces["t"] = type(st.provinces["r"])("t")
    for k in "pqr":
        st.provinces[k].control = "axis"
    st.provinces["q"].quagmire = Quagmire("allies")
    st.refresh_supply()
    assert st.provinces["r"].no_supply is True
    assert act.check_origin(st, "axis", "r", "t").ok  # t borders Poland, supplied from Berlin
    st.settings.launch_supply_rule = "target_and_origin"
    assert act.check_origin(st, "axis", "r", "t").reason.code == "origin_unsupplied"
    st.settings.launch_supply_rule = "target"
    board.provinces["t"].neighbours.remove("poland")
    board.provinces["poland"].neighbours.remove("t")
    assert act.check_origin(st, "axis", "r", "t").reason.code == "target_unreached"  # F-31: only q and r


def test_f29_ruhr_supplies_the_line_to_the_north_sea():
    st = map_game()
    assert act.check_origin(st, "axis", "ruhr", "north_sea").ok


# --- B-44: supply does not pass through a quagmire; the province itself and a supply point in it do ------

def test_quagmire_supply_no_through_and_blocks_fully():
    st = map_game()
    for k in "pqr":
        st.provinces[k].control = "axis"
    st.provinces["q"].quagmire = Quagmire("allies")
    st.provinces["berlin"].quagmire = Quagmire("allies")
    st.refresh_supply()
    sup = st.supplied("axis")
    assert "berlin" in sup and "p" in sup and "q" in sup and "r" not in sup
    st.settings.quagmire_supply = "blocks_fully"
    sup = st.supplied("axis")
    assert "berlin" not in sup and "p" not in sup and "q" not in sup


# --- B-43: the Baltics are not a USSR province by default -----------------------------------------------

def test_attacking_the_baltics_does_not_bring_the_ussr_in():
    st = battle_ready()
    slot = place_op(st, "axis", "baltics", cards("axis", "L1"))
    st.provinces["baltics"].neutral_cards = cards("neutral", "L3")
    r = act.launch_operation(st, "axis", slot, "poland", rng=random.Random(0))
    assert not r.state.flags["ussr_at_war"] and r.state.provinces["baltics"].control == "neutral"


def test_a_group_may_count_the_baltics_as_ussr():
    st = battle_ready(settings=placeholder_wheel_settings(ussr_provinces=["baltics", "kiev", "odessa", "ural"]))
    slot = place_op(st, "axis", "baltics", cards("axis", "L9"))
    r = act.launch_operation(st, "axis", slot, "poland", rng=random.Random(0))
    assert r.state.flags["ussr_at_war"]


# --- B-24: a defending fort counts at sea -----------------------------------------------------------------

def test_defending_fort_counts_in_a_sea_battle_and_keeps_its_printed_values():
    st = battle_ready()
    slot = place_op(st, "axis", "north_sea", cards("axis", "N3"))
    st.provinces["north_sea"].defence["allies"] = cards("allies", "F2")
    r = act.launch_operation(st, "axis", slot, "ruhr", rng=random.Random(0))
    assert (r.data["a"], r.data["d"]) == (3, 2)
    lost = r.state.provinces["north_sea"].quagmire_cards["allies"] + r.state.sides["allies"].losses
    assert [c.sea for c in lost] == [None]  # the stored card is the printed one


# --- the wheel and the map: blank facts asked where they matter --------------------------------------------

def test_rules_wheel_asks_the_mark_and_a_groups_wheel_applies_it():
    st = battle_ready(settings=FowSettings())
    slot = place_op(st, "axis", "vichy", cards("axis", "L4"), position=2)
    st.provinces["vichy"].defence["allies"] = cards("allies", "L1")
    assert act.launch_operation(st, "axis", slot, "italy").reason.code == "wheel_mark_unknown"
    assert act.launch_operation(st, "axis", slot, "italy", mark="not_ready").reason.code == "not_launchable"
    assert act.launch_operation(st, "axis", slot, "italy", mark="A+1").data["a"] == 5
    wheel = mapdata.rules_wheel()
    wheel["positions"][2].update(launchable=True, modifier="D+1")
    settings = FowSettings.from_dict({"wheel_positions": mapdata.wheel_positions(mapdata.check_wheel(wheel))})
    st = battle_ready(settings=settings)
    slot = place_op(st, "axis", "vichy", cards("axis", "L4"), position=2)
    st.provinces["vichy"].defence["allies"] = cards("allies", "L1")
    assert act.launch_operation(st, "axis", slot, "italy").data["d"] == 2  # D+1, nothing asked


def _partial_map_game():
    board = mapdata.to_board(mapdata.partial_map())
    return ledger_game(board=board)


def test_winter_battle_asks_a_blank_climate_and_uses_a_known_one():
    st = started(_partial_map_game())
    st.winter = True
    slot = place_op(st, "axis", "vichy", cards("axis", "L5"))
    st.provinces["vichy"].defence["allies"] = cards("allies", "L1")
    r = act.launch_operation(st, "axis", slot, "italy")
    assert r.reason.code == "climate_unknown" and "Vichy" in r.reason.en and "Виши" in r.reason.ru
    assert act.launch_operation(st, "axis", slot, "italy", climate="snow").data["d"] == 3
    st.board.provinces["vichy"].climate = "sun"
    st.board.provinces["vichy"].unknown.remove("climate")
    assert act.launch_operation(st, "axis", slot, "italy").data["d"] == 1


def test_year_end_takes_vp_and_resources_from_the_map_and_asks_only_the_blanks():
    st = _partial_map_game()
    st.phase = "year_end"
    for key, vp, res in (("berlin", 5, 4), ("ruhr", 3, 4)):
        d = st.board.provinces[key]
        d.vp, d.resources = vp, res
        d.unknown = [f for f in d.unknown if f not in ("vp", "resources")]
    r = ye.score_vp(st)
    assert r.reason.code == "needs_missing" and "Poland" in r.reason.en and "Berlin" not in r.reason.en
    assert ye.score_vp(st, vp_missing=4).data["vp_gain"] == 5 + 3 + 4
    for key in ("poland", "italy", "libya", "western_mediterranean"):
        d = st.board.provinces[key]
        d.vp = d.resources = 1
        d.unknown = []
    assert ye.score_vp(st).data["vp_gain"] == 12  # nothing blank: nothing asked
    assert ye.production_points(st, "axis") == 8  # min(4 + 4 + 4, level 8)


def test_incomplete_map_leaves_adjacency_and_supply_to_the_players():
    st = _partial_map_game()
    assert not st.computes_supply() and st.supplied("axis") is None
    assert act.check_origin(st, "axis", "italy", "vichy").data["supply"] == "unknown"
    assert "norway" not in st.provinces  # the club adds it in the editor


# --- games stored before the corrections ----------------------------------------------------------------------

def test_game_stored_before_the_corrections_loads_and_replays_unchanged():
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    state = STEPPER.from_json(data["state"])
    # the core's import check: the replay equals the file's state read by this version (tracker.core.transfer)
    assert STEPPER.replay(data["initial"], data["commands"]) == STEPPER.to_json(state)
    assert STEPPER.to_json(state) == data["state"]  # read and written back: byte for byte the stored JSON
    st = engine_of(state)
    assert st.settings.rules_edition == 1 and st.settings.exhausted_turn_mode == "reduced"
    # it keeps the readings it was played with: the zero neutral card stayed after the Victory
    assert st.provinces["balkans"].control == "axis" and ids(st.provinces["balkans"].neutral_cards) == ["ne-4"]
    STEPPER.view_for(state, "axis")
    # and it plays on: the Axis (deck run out, reduced turns) may not play a hand card
    out = STEPPER.apply(state, {"type": "end_turn", "side": "allies"})
    assert out.ok or out.reason.code


def test_new_games_carry_the_rules_edition():
    state = STEPPER.new_state({"axis_cards": "5", "allies_cards": "5", "neutral_cards": "15"})
    assert state["engine"]["settings"]["rules_edition"] == 2
    assert GameState.from_dict(json.loads(json.dumps(state["engine"]))).settings.quagmire_supply == "no_through"


def test_new_game_on_a_map_file_and_a_wheel_file():
    state = STEPPER.new_state({"axis_cards": "5", "allies_cards": "5", "neutral_cards": "15",
                               "map_file": {**mapdata.partial_map(), "cards": {"axis": ["L3", "N2"]}},
                               "wheel_file": mapdata.rules_wheel()})
    st = engine_of(state)
    assert st.board is not None and len(st.provinces) == 21 and not st.board.adjacency_known
    assert st.settings.wheel_positions[1]["launchable"] is None
    assert state["card_values"] == {"axis": ["L3", "N2"]}
    with pytest.raises(ValueError):
        STEPPER.new_state({"axis_cards": "5", "allies_cards": "5", "map_file": {"provinces": "x"}})


def test_board_maps_of_old_games_keep_computing_supply():
    assert BoardMap.from_dict(TEST_MAP).adjacency_known

"""Every worked example of spec §2.15, one test each (F-00 ... F-34)."""
import random

import pytest

from gameplay.fog_of_war import actions as act
from gameplay.fog_of_war import year_end as ye
from gameplay.fog_of_war.battle import (DEFEAT, QUAGMIRE, ROUT, VICTORY, BattleInput, card_flow, check_wins,
                                        compute, outcome_for, quagmire_losses)
from gameplay.fog_of_war.board import active_supply_points
from gameplay.fog_of_war.cards import placeholders
from gameplay.fog_of_war.intel import free_look, intel, view_count
from gameplay.fog_of_war.state import Objective, Quagmire

from .helpers import battle_ready, cards, ledger_game, map_game, place_op, started, wheel_with


def ids(cs):
    return [c.id for c in cs]


def test_f00_new_game_after_setup():
    st = ledger_game()
    assert (st.year, st.winter, st.sides["axis"].vp) == (1940, False, 0)
    assert (st.sides["axis"].production_level, st.sides["allies"].production_level) == (8, 6)
    assert (st.sides["axis"].intel_available, st.sides["allies"].intel_available) == (5, 7)
    assert st.superiority == "axis"
    assert st.sides["axis"].wheel_pointer == st.sides["allies"].wheel_pointer == "F"
    assert len(st.sides["axis"].hand) == len(st.sides["allies"].hand) == 3
    on_board = len(st.unplaced_neutral) + sum(len(p.neutral_cards) for p in st.provinces.values())
    assert on_board == 14 and len(st.removed) == 1
    assert st.neutrality_tokens_unplaced == 6
    assert len(st.controlled_by("axis")) == 6 and len(st.controlled_by("allies")) == 9
    assert st.active_side == "axis"
    assert sorted(o.location for o in st.objectives).count("axis_kept") == 2
    assert started(st).sides["axis"].wheel_pointer == "A"


def test_f01_quagmire_with_neutral_card():
    st = battle_ready()
    slot = place_op(st, "axis", "vichy", cards("axis", "L3", "L2", "Z", "N2"))
    st.provinces["vichy"].defence["allies"] = cards("allies", "L2", "F1")
    st.provinces["vichy"].neutral_cards = cards("neutral", "L1")
    r = act.launch_operation(st, "axis", slot, "italy", rng=random.Random(3))
    assert r.ok and (r.data["a"], r.data["d"], r.data["outcome"]) == (5, 4, QUAGMIRE)
    new = r.state
    ax, al = new.sides["axis"], new.sides["allies"]
    assert sorted(c.id[4:] for c in ax.discard) == ["N2", "Z"]
    assert len(ax.losses) == 1 and len(new.provinces["vichy"].quagmire_cards["axis"]) == 1
    assert len(al.losses) == 1 and al.losses[0].id in ids(st.provinces["vichy"].defence["allies"])
    assert len(new.provinces["vichy"].neutral_cards) == 1
    assert all(c.face_up for c in new.provinces["vichy"].quagmire_cards["axis"])
    assert new.provinces["vichy"].quagmire.attacker == "axis"
    assert new.provinces["vichy"].control == "allies"
    assert "vichy" not in ax.province_deck and "vichy" not in ax.in_front


def test_f02_attacker_fort_discarded_victory():
    st = battle_ready()
    slot = place_op(st, "axis", "vichy", cards("axis", "F2", "L3"))
    st.provinces["vichy"].defence["allies"] = cards("allies", "L1")
    r = act.launch_operation(st, "axis", slot, "italy")
    assert (r.data["a"], r.data["d"], r.data["outcome"]) == (3, 1, VICTORY)
    new = r.state
    assert [c.id for c in new.sides["axis"].wins] == ["ax2:L3"]
    assert [c.id for c in new.sides["axis"].discard] == ["ax1:F2"]
    assert new.provinces["vichy"].defence["axis"] == []
    assert [c.id for c in new.sides["allies"].losses] == ["al1:L1"]
    assert new.provinces["vichy"].control == "axis"
    assert "vichy" in new.sides["axis"].in_front and "vichy" in new.sides["allies"].province_deck


def test_f03_sea_battle_wins_choice():
    att = cards("axis", "N3", "N1", "L2")
    br = compute(BattleInput(att, cards("allies", "N2"), kind="sea"))
    assert (br.a, br.d, br.outcome) == (4, 2, VICTORY)
    assert ids(br.attack_discarded) == ["ax3:L2"]
    assert check_wins(br.attack, ["ax1:N3"], "sea", br.d).ok
    assert not check_wins(br.attack, ["ax2:N1"], "sea", br.d).ok
    assert ids(card_flow(br, "sea").data["flow"]["attacker"]["wins"]) == ["ax1:N3"]


def test_f04_amphibious_bonus():
    st = battle_ready("allies")
    slot = place_op(st, "allies", "poland", cards("allies", "L9"))
    st.provinces["poland"].defence["axis"] = cards("axis", "L2")
    r = act.launch_operation(st, "allies", slot, "north_sea")
    assert (r.data["a"], r.data["d"], r.data["outcome"]) == (9, 6, QUAGMIRE)
    r = act.launch_operation(st, "allies", slot, "britain")
    assert (r.data["a"], r.data["d"], r.data["outcome"]) == (9, 2, VICTORY)


@pytest.mark.parametrize("climate,winter,a,d,outcome", [
    ("snow", True, 10, 5, VICTORY), ("none", True, 10, 4, VICTORY), ("sun", True, 10, 3, VICTORY),
    ("snow", False, 10, 3, VICTORY), ("snow", True, 9, 5, QUAGMIRE),
])
def test_f05_winter_bonus(climate, winter, a, d, outcome):
    br = compute(BattleInput(cards("axis", f"L{a}"), cards("allies", "L3"), winter=winter, climate=climate))
    assert (br.a, br.d, br.outcome) == (a, d, outcome)


@pytest.mark.parametrize("a,d,outcome", [
    (8, 4, VICTORY), (7, 4, QUAGMIRE), (4, 4, QUAGMIRE), (4, 5, DEFEAT), (4, 7, DEFEAT), (4, 8, ROUT),
    (3, 6, ROUT), (5, 10, ROUT), (5, 9, DEFEAT), (10, 5, VICTORY), (9, 5, QUAGMIRE),
])
def test_f06_threshold_table(a, d, outcome):
    assert outcome_for(a, d) == outcome


def test_f07_wheel_modifier_and_superiority():
    st = battle_ready(settings=wheel_with(1, "A+1"))
    slot = place_op(st, "axis", "vichy", cards("axis", "L8"))
    st.provinces["vichy"].defence["allies"] = cards("allies", "L5")
    r = act.launch_operation(st, "axis", slot, "italy", rng=random.Random(1))
    assert (r.data["a"], r.data["outcome"], r.state.superiority) == (9, QUAGMIRE, "axis")
    r = act.launch_operation(st, "axis", slot, "italy", use_superiority=True)
    assert (r.data["a"], r.data["outcome"], r.state.superiority) == (10, VICTORY, "allies")
    br = compute(BattleInput(cards("axis", "L8"), cards("allies", "L5"), wheel_modifier="D+1"))
    assert (br.a, br.d, br.outcome) == (8, 6, QUAGMIRE)


def test_f08_rout_defender_wins_own_cards_only():
    st = battle_ready()
    slot = place_op(st, "axis", "vichy", cards("axis", "L2", "L1"))
    st.provinces["vichy"].defence["allies"] = cards("allies", "L3", "L2")
    st.provinces["vichy"].neutral_cards = cards("neutral", "L1")
    r = act.launch_operation(st, "axis", slot, "italy")
    assert (r.data["a"], r.data["d"], r.data["outcome"]) == (3, 6, ROUT)
    assert ids(r.state.sides["axis"].losses) == ["ax1:L2", "ax2:L1"]
    assert ids(r.state.sides["allies"].wins) == ["al1:L3"]
    assert "vichy" in r.state.sides["axis"].province_deck
    br = r.data["battle"]
    assert check_wins(br.defence, ["al1:L3"], "land", 3).ok
    assert check_wins(br.defence, ["al1:L3", "al2:L2"], "land", 3).ok
    assert not check_wins(br.defence, ["al2:L2"], "land", 3).ok
    assert not check_wins(br.defence, ["ne1:L1", "al2:L2"], "land", 3, neutral=br.neutral).ok


def test_f09_winter_snow_a_plus_one():
    att = cards("axis", "L3", "L3", "L2", "L1")
    br = compute(BattleInput(att, cards("allies", "L3"), winter=True, climate="snow", wheel_modifier="A+1"))
    assert (br.a, br.d, br.outcome) == (10, 5, VICTORY)
    assert check_wins(att, ["ax1:L3", "ax3:L2"], "land", 5).ok
    assert check_wins(att, ["ax1:L3", "ax2:L3"], "land", 5).ok
    assert not check_wins(att, ["ax1:L3", "ax4:L1"], "land", 5).ok
    flow = card_flow(br, "land", wins_choice=["ax1:L3", "ax3:L2"]).data["flow"]
    assert ids(flow["attacker"]["stays"]) == ["ax2:L3", "ax4:L1"]
    assert ids(flow["defender"]["losses"]) == ["al1:L3"]


@pytest.mark.parametrize("own,neutral,lost_own,lost_neutral", [
    (5, 0, 2, 0), (1, 0, 1, 0), (1, 2, 1, 0), (1, 4, 1, 1), (0, 3, 0, 1), (4, 0, 2, 0),
])
def test_f10_quagmire_halving_counts(own, neutral, lost_own, lost_neutral):
    r = quagmire_losses(placeholders("axis", own), placeholders("neutral", neutral), rng=random.Random(0))
    assert (len(r.data["lost_own"]), len(r.data["lost_neutral"])) == (lost_own, lost_neutral)
    assert len(r.data["kept_own"]) == own - lost_own


def test_f11_attacker_without_suitable_card_is_routed():
    st = battle_ready()
    slot = place_op(st, "axis", "vichy", cards("axis", "N2", "Z"))
    st.provinces["vichy"].defence["allies"] = cards("allies", "L3")
    r = act.launch_operation(st, "axis", slot, "italy", use_superiority=True)
    assert r.data["outcome"] == ROUT and r.data["battle"].instant and r.data["a"] == 0
    new = r.state
    assert new.sides["axis"].losses == [] and len(new.sides["axis"].discard) == 2
    assert new.sides["allies"].wins == []
    assert "vichy" in new.sides["axis"].province_deck
    assert new.superiority == "axis"


def test_f12_defender_without_suitable_card_loses_at_once():
    st = battle_ready()
    st.winter = True
    slot = place_op(st, "axis", "egypt", cards("axis", "L1"))
    st.provinces["egypt"].defence["allies"] = cards("allies", "Z")
    # winter and a map without Egypt's icon: asked even here, where it cannot matter, so that the
    # question tells the attacker nothing about the defender's cards
    assert act.launch_operation(st, "axis", slot, "western_mediterranean").reason.code == "climate_unknown"
    r = act.launch_operation(st, "axis", slot, "western_mediterranean", climate="sun")
    assert r.data["outcome"] == VICTORY and r.data["d"] == 0
    new = r.state
    assert ids(new.sides["allies"].discard) == ["al1:Z"]
    assert new.sides["axis"].wins == []
    assert ids(new.provinces["egypt"].defence["axis"]) == ["ax1:L1"]
    assert "egypt" in new.sides["allies"].province_deck and new.provinces["egypt"].control == "axis"


def test_f13_intel_costs():
    st = battle_ready()
    st.provinces["vichy"].defence["allies"] = placeholders("allies", 5, "v")
    r = intel(st, "axis", {"kind": "defence", "province": "vichy"}, rng=random.Random(0))
    assert r.data["result"] == "success" and r.state.sides["axis"].intel_available == 3 and len(r.data["seen"]) == 2
    # b) Allied end-of-turn intel, cancelled after three counter payments
    st2 = battle_ready("allies")
    st2.provinces["poland"].defence["axis"] = placeholders("axis", 2, "p")
    r = intel(st2, "allies", {"kind": "defence", "province": "poland"}, end_of_turn=True, counter_rounds=3)
    assert r.data["result"] == "cancelled"
    assert r.state.sides["allies"].intel_used == 2 and r.state.sides["axis"].intel_used == 3
    after = r.state
    assert act.defend(after, "allies", "britain", [after.sides["allies"].hand[0].id]).reason.code == "intel_only_now"
    assert intel(after, "allies", {"kind": "defence", "province": "poland"}, end_of_turn=True).ok
    assert act.end_turn(after, "allies").reason.code != "intel_only_now"
    # c) one token cannot pay a mid-turn intel
    st.sides["axis"].intel_available = 1
    r = intel(st, "axis", {"kind": "defence", "province": "vichy"})
    assert not r.ok and r.reason.code == "intel_no_tokens" and r.reason.ru and r.reason.en


def test_f14_intel_view_counts_and_targets():
    assert [view_count(n) for n in (1, 2, 3, 4, 7)] == [1, 1, 1, 2, 3]
    st = battle_ready("allies")
    at0 = place_op(st, "axis", "paris", cards("axis", "L1"), position=0)
    at2 = place_op(st, "axis", "britain", cards("axis", "L1"), position=2)
    assert intel(st, "allies", {"kind": "op", "slot": at0}).reason.code == "intel_new_op"
    r = intel(st, "allies", {"kind": "op", "slot": at2}, rng=random.Random(0))
    assert r.ok and r.data["n"] == 2
    st.objectives = [Objective(p, "near_morocco") for p in ("x", "y", "z")]
    assert intel(st, "allies", {"kind": "objectives"}).data["k"] == 1
    axis_turn = battle_ready("axis")
    axis_turn.provinces["kiev"].neutral_cards = cards("neutral", "L2")
    look = free_look(axis_turn, "allies", "kiev")
    assert look.ok and ids(look.data["seen"]) == ["ne1:L2"] and look.state.sides["allies"].intel_used == 0


def test_f15_wheel_ageing_and_expiry():
    st = started(ledger_game())
    st = act.new_operation(st, "axis", "vichy", [st.sides["axis"].hand[0].id]).state
    op_card = st.sides["axis"].operations[0].cards[0]
    ax = st.sides["axis"]
    for turn, (pointer, pos) in enumerate([("B", 1), ("C", 2), ("D", 3), ("E", 4), ("F", 5)], start=2):
        st.active_side = "axis"
        st = act.start_turn(st).state
        assert (st.sides["axis"].wheel_pointer, st.sides["axis"].position(st.sides["axis"].op("A"))) == (pointer, pos)
    st = act.start_turn(st)
    assert st.data["expired"] == ["A"]
    ax = st.state.sides["axis"]
    assert ax.operations == [] and "vichy" in ax.province_deck and op_card.id in ids(ax.discard)


def test_f16_second_new_op_needs_confirmation():
    st = started(ledger_game())
    hand = [c.id for c in st.sides["axis"].hand]
    st = act.new_operation(st, "axis", "vichy", [hand[0]]).state
    r = act.new_operation(st, "axis", "paris", [hand[1]])
    assert not r.ok and r.reason.code == "confirm_replace"
    r = act.new_operation(st, "axis", "paris", [hand[1]], replace=True)
    ax = r.state.sides["axis"]
    assert [o.target for o in ax.operations] == ["paris"] and "vichy" in ax.province_deck
    assert hand[0] in ids(ax.discard)


def test_f17_must_play():
    st = battle_ready()
    st.sides["axis"].hand = st.sides["axis"].hand[:2]
    st.sides["axis"].hand_at_turn_start = 2
    slot = place_op(st, "axis", "vichy", cards("axis", "L5"))
    st = act.launch_operation(st, "axis", slot, "italy").state
    r = act.end_turn(st, "axis")
    assert not r.ok and r.reason.code == "must_play"
    st.sides["axis"].hand_at_turn_start = 0
    assert act.end_turn(st, "axis").ok


def test_f18_draw_winter_end_of_year():
    st = battle_ready()
    ax = st.sides["axis"]
    ax.hand, ax.deck = ax.hand[:1], ax.deck[:1]
    ax.hand_at_turn_start = 0
    st.sides["allies"].deck = st.sides["allies"].deck[:9]
    r = act.end_turn(st, "axis")
    assert r.data["drawn"] == 1 and len(r.state.sides["axis"].hand) == 2 and r.state.sides["axis"].deck == []
    assert r.state.winter and r.data["winter_now"] and r.state.active_side == "allies"
    st = started(r.state)
    assert act.partner(st) == "axis"  # B-4 within_turns: the Axis acts inside the Allied turns
    st.sides["allies"].deck = st.sides["allies"].deck[:1]
    st.sides["allies"].hand = st.sides["allies"].hand[:2]
    st.sides["allies"].hand_at_turn_start = 0
    assert act.end_turn(st, "allies").reason.code == "partner_pending"  # the Axis still owes a hand card
    st.sides["axis"].hand_at_turn_start = 0
    r = act.end_turn(st, "allies")
    assert r.data["year_end"] and r.state.phase == "year_end"


def _year_end(st):
    st.phase = "year_end"
    return st


def test_f19_wins_split():
    st = _year_end(ledger_game())
    st.sides["axis"].wins = placeholders("axis", 5, "w")
    r = ye.split_wins(st, shuffle=False)
    assert ids(r.state.sides["axis"].discard) == ["w-1", "w-3", "w-5"]
    assert ids(r.state.sides["axis"].losses) == ["w-2", "w-4"]
    assert ye.deal_split(placeholders("axis", 1)) == (placeholders("axis", 1), [])
    assert ye.deal_split([]) == ([], [])


def test_f20_production():
    st = _year_end(ledger_game())
    st.sides["axis"].production_level = 9
    st.sides["allies"].production_level = 8
    assert ye.production_points(st, "axis", resources=11) == 9
    assert ye.production_points(st, "allies", resources=6) == 6
    st.sides["axis"].losses = placeholders("axis", 2, "l")
    r = ye.spend_production(st, "allies", resources=6)
    r = ye.spend_production(r.state, "axis", resources=11, vp=2, level=2, intel_pairs=1,
                            losses_to_discard=["l-1", "l-2"])
    ax = r.state.sides["axis"]
    assert r.ok and (ax.vp, ax.production_level, ax.intel_available, len(ax.discard)) == (2, 11, 7, 2)
    st.year = 1944
    assert ye.production_points(st, "allies", resources=6) == 0
    st.year = 1941
    three = ye.spend_production(_year_end(ledger_game()), "allies", resources=0).state
    assert ye.spend_production(three, "axis", resources=3, vp=1, level=1).ok
    assert ye.spend_production(three, "axis", resources=3, vp=1, level=2).reason.code == "pp_exceeded"


def test_f21_first_side_of_new_year():
    st = ledger_game()
    st.sides["axis"].deck, st.sides["allies"].deck = placeholders("axis", 17), placeholders("allies", 19)
    assert ye.first_side(st) == "allies"
    st.sides["allies"].deck = placeholders("allies", 17)
    st.sides["axis"].deck = placeholders("axis", 17)
    assert ye.first_side(st) == "axis"


def test_f22_vp_at_year_end():
    st = _year_end(ledger_game())
    st.sides["axis"].vp = 58
    r = ye.score_vp(st, vp_gain=13)
    assert r.data["axis_wins"] and r.state.winner == "axis"
    st.sides["axis"].vp = 64
    r = ye.score_vp(st, vp_gain=5)
    assert not r.data["axis_wins"] and r.state.sides["axis"].vp == 69
    r = ye.spend_production(ye.spend_production(r.state, "allies", resources=0).state, "axis", resources=2, vp=1)
    assert r.data["axis_wins"] and r.state.winner == "axis" and r.state.win_reason == "vp_70"


def test_f23_allies_win_with_berlin_and_ruhr():
    st = battle_ready("allies")
    st.provinces["berlin"].control = "allies"
    slot = place_op(st, "allies", "ruhr", cards("allies", "L9"))
    st.provinces["ruhr"].defence["axis"] = cards("axis", "L1")
    r = act.launch_operation(st, "allies", slot, "berlin")
    assert r.state.winner == "allies" and r.state.win_reason == "berlin_and_ruhr"
    st.provinces["ruhr"].defence["axis"] = cards("axis", "L4", "L2")
    r = act.launch_operation(st, "allies", slot, "berlin", rng=random.Random(0))
    assert r.data["outcome"] == QUAGMIRE and r.state.winner is None


def test_f24_end_of_1944_objectives():
    st = _year_end(ledger_game())
    st.year = 1944
    st.objectives = [Objective("vichy", "axis_kept"), Objective("paris", "axis_kept")]
    st.provinces["vichy"].control = "axis"
    assert ye.advance_year(st).state.winner == "allies"
    st.provinces["paris"].control = "axis"
    assert ye.advance_year(st).state.winner == "axis"
    st.provinces["paris"].quagmire = Quagmire("allies")
    assert ye.advance_year(st).state.winner == "axis"


def test_f25_fall_of_paris_cascade():
    st = battle_ready()
    st.provinces["vichy"].defence["allies"] = cards("allies", "L1", "L2", prefix="v")
    st.provinces["morocco"].defence["allies"] = cards("allies", "L1", prefix="m")
    slot = place_op(st, "axis", "paris", cards("axis", "L9"))
    r = act.launch_operation(st, "axis", slot, "ruhr")
    new = r.state
    assert r.data["events"] == [{"cascade": "paris", "provinces": ["vichy", "morocco", "lebanon"]}]
    assert sorted(ids(new.sides["allies"].discard)) == ["m1:L1", "v1:L1", "v2:L2"]
    for k in ("paris", "vichy", "morocco", "lebanon"):
        assert new.provinces[k].control == "axis" and k in new.sides["axis"].in_front
        assert k in new.sides["allies"].province_deck
    assert new.flags["paris_cascade_done"]
    # retaken and lost again: no second cascade
    new.provinces["paris"].control = "allies"
    new.provinces["vichy"].control = "allies"
    new.active_side = "axis"
    new.sides["axis"].province_deck.append("paris")
    slot = place_op(new, "axis", "paris", cards("axis", "L9", prefix="b"))
    again = act.launch_operation(new, "axis", slot, "ruhr")
    assert again.data["events"] == [] and again.state.provinces["vichy"].control == "allies"


def test_f25_paris_supply_point_lost_with_map():
    st = map_game()
    assert "paris" in st.supplied("allies")
    st.provinces["paris"].control = "axis"
    assert "paris" not in st.supplied("allies")
    assert "paris" not in active_supply_points(st.board, "axis", {"paris": "axis"}, st.flags)


def test_f26_fall_of_britain():
    st = battle_ready()
    st.provinces["egypt"].defence["allies"] = cards("allies", "L3", prefix="e")
    st.provinces["north_sea"].control = "axis"
    slot = place_op(st, "axis", "britain", cards("axis", "L9"))
    r = act.launch_operation(st, "axis", slot, "north_sea")
    assert r.data["d"] == 0 and r.data["outcome"] == VICTORY  # no defender card: instant, +4 ignored (B-20)
    assert r.state.provinces["egypt"].control == "axis" and ids(r.state.sides["allies"].discard) == ["e1:L3"]
    assert r.state.flags["britain_cascade_done"]


@pytest.mark.parametrize("attacked,control,expected", [
    (False, "neutral", "axis"), (True, "neutral", "allies"), (True, "axis", "axis"),
])
def test_f27_balkans_at_end_of_1940(attacked, control, expected):
    st = _year_end(ledger_game())
    st.flags["axis_attacked_balkans_1940"] = attacked
    st.provinces["balkans"].control = control
    st.provinces["balkans"].neutral_cards = cards("neutral", "L2")
    r = ye.balkans_step(st)
    assert r.state.provinces["balkans"].control == expected
    assert len(r.state.provinces["balkans"].neutral_cards) == 1


def test_f27_balkans_flag_set_on_launch_with_defeat():
    st = battle_ready()
    slot = place_op(st, "axis", "balkans", cards("axis", "L1"))
    st.provinces["balkans"].neutral_cards = cards("neutral", "L3")
    r = act.launch_operation(st, "axis", slot, "italy")
    assert r.data["outcome"] in (DEFEAT, ROUT) and r.state.flags["axis_attacked_balkans_1940"]
    end = _year_end(r.state)
    assert ye.balkans_step(end).state.provinces["balkans"].control == "allies"


def test_f28_ussr_enters_when_kiev_is_attacked():
    st = ledger_game(special_sets={"ussr": placeholders("allies", 4, "ural")})
    st.year = 1941
    st = started(st)
    slot = place_op(st, "axis", "kiev", cards("axis", "L9"))
    st.provinces["kiev"].neutral_cards = cards("neutral", "L3")
    deck_before = len(st.sides["allies"].deck)
    r = act.launch_operation(st, "axis", slot, "poland", rng=random.Random(0))
    new = r.state
    assert new.flags["ussr_at_war"] and r.data["events"][0]["ussr_enters"] == ["kiev", "odessa", "ural"]
    assert len(new.sides["allies"].deck) == deck_before + 4
    assert r.data["d"] == 3 and r.data["outcome"] == VICTORY
    assert "kiev" in new.sides["allies"].province_deck  # lost again after entering
    new.phase, new.year = "year_end", 1942
    assert ye.ussr_step(new).data["ussr_provinces"] == []


def test_f28_ural_supplies_allies_after_entry():
    st = map_game()
    st.provinces["ural"].control = "allies"
    assert "ural" not in st.supplied("allies")
    st.flags["ussr_at_war"] = True
    assert "ural" in st.supplied("allies")


def test_f29_attack_origins():
    st = map_game()
    st.provinces["ruhr"].control = "allies"
    assert act.check_origin(st, "allies", "north_sea", "ruhr").reason.code == "origin_forbidden"
    st = map_game()
    assert act.check_origin(st, "axis", "ruhr", "north_sea").ok
    st.provinces["p"].control = st.provinces["q"].control = "axis"
    st.provinces["p"].quagmire = Quagmire("allies")
    # q borders only the quagmire p: unsupplied; r borders only q: the supply line does not reach it (B-17)
    assert act.check_origin(st, "axis", "q", "r").reason.code == "target_unreached"
    st.settings.launch_supply_rule = "origin"
    assert act.check_origin(st, "axis", "q", "r").reason.code == "origin_unsupplied"
    assert act.check_origin(st, "axis", "p", "q").reason.code == "origin_quagmire"


def test_f30_own_defence_in_neutral_target_discarded():
    st = battle_ready()
    st.provinces["balkans"].defence["axis"] = cards("axis", "L2", "L1", prefix="b")
    st.provinces["balkans"].neutral_cards = cards("neutral", "L2")
    slot = place_op(st, "axis", "balkans", cards("axis", "L5"))
    r = act.launch_operation(st, "axis", slot, "italy")
    assert ids(r.state.sides["axis"].discard) == ["b1:L2", "b2:L1"]
    assert (r.data["a"], r.data["d"]) == (5, 2)


def test_f31_supply_chain_through_quagmire():
    st = map_game()
    for k in "pqr":
        st.provinces[k].control = "axis"
    st.provinces["q"].quagmire = Quagmire("allies")
    st.refresh_supply()
    assert st.provinces["p"].no_supply is False and st.provinces["r"].no_supply is True
    assert st.provinces["q"].no_supply is False  # B-44 no_through: supplied, but passes nothing on
    st.board.provinces["r"].neighbours.append("ruhr")
    st.board.provinces["ruhr"].neighbours.append("r")
    st.refresh_supply()
    assert st.provinces["r"].no_supply is False


def test_f32_quagmire_resolved_again():
    st = battle_ready("allies")
    p = st.provinces["poland"]
    p.quagmire = Quagmire("allies")
    p.quagmire_cards = {"allies": [c.shown(True) for c in cards("allies", "L2", "L2", "L1")],
                        "axis": [c.shown(True) for c in cards("axis", "L2", "L1")]}
    st.sides["allies"].province_deck.remove("poland")
    st.sides["allies"].hand = cards("allies", "L3", prefix="h")
    st.sides["allies"].hand_at_turn_start = 1
    st = act.reinforce_quagmire(st, "allies", "poland", ["h1:L3"]).state
    assert act.end_turn(st, "allies").reason.code == "quagmire_pending"
    r = act.resolve_quagmire(st, "allies", "poland")
    assert (r.data["a"], r.data["d"], r.data["outcome"]) == (8, 3, VICTORY)
    new = r.state
    assert ids(new.sides["allies"].wins) == ["h1:L3"]
    assert sorted(ids(new.sides["axis"].losses)) == ["ax1:L2", "ax2:L1"]
    assert new.provinces["poland"].quagmire is None and new.provinces["poland"].control == "allies"
    assert "poland" in new.sides["allies"].in_front and "poland" in new.sides["axis"].province_deck
    assert act.end_turn(new, "allies").ok


def test_f33_year_end_recall():
    st = _year_end(ledger_game())
    st.superiority = "allies"
    st.provinces["poland"].defence["axis"] = cards("axis", "L2", prefix="p")
    st.provinces["vichy"].quagmire = Quagmire("axis")
    st.provinces["vichy"].quagmire_cards["axis"] = cards("axis", "L1", prefix="q")
    r = ye.recall(st, "axis", provinces={"poland": ["p1:L2"]})
    assert r.ok and ids(r.state.sides["axis"].discard) == ["p1:L2"]
    r = ye.recall(st, "axis", provinces={"vichy": ["q1:L1"]})
    assert not r.ok and r.reason.code == "recall_quagmire"


def test_f34_new_year_draw_up_to_three():
    st = _year_end(ledger_game())
    allies = st.sides["allies"]
    allies.deck, allies.hand, allies.discard = [], allies.hand[:2], placeholders("allies", 10, "d")
    r = ye.new_decks(st, shuffle=False)
    assert r.data["drawn"]["allies"] == 1 and len(r.state.sides["allies"].hand) == 3

"""Unit tests for intel (§2.10), the year-end steps (§2.13) and events (§2.11)."""
import random

from gameplay.fog_of_war import year_end as ye
from gameplay.fog_of_war.cards import placeholders
from gameplay.fog_of_war.config import FowSettings
from gameplay.fog_of_war.intel import bid_payments, free_look, intel
from gameplay.fog_of_war.state import ProvinceState, Quagmire

from .helpers import battle_ready, cards, ledger_game, map_game, place_op


def test_bid_sequence():
    assert bid_payments(0) == []
    assert bid_payments(4) == [("opponent", 2), ("spy", 1), ("opponent", 1), ("spy", 1)]


def test_intel_success_after_renewal_spends_all_tokens():
    st = battle_ready()
    st.provinces["vichy"].defence["allies"] = placeholders("allies", 4, "v")
    r = intel(st, "axis", {"kind": "defence", "province": "vichy"}, counter_rounds=2, rng=random.Random(1))
    assert r.data["result"] == "success" and r.data["paid"] == {"axis": 3, "allies": 2} and len(r.data["seen"]) == 2


def test_intel_refusals():
    st = battle_ready()
    assert intel(st, "axis", {"kind": "defence", "province": "vichy"}).reason.code == "intel_empty"
    assert intel(st, "axis", {"kind": "objectives"}).reason.code == "intel_objectives_axis"
    assert intel(st, "axis", {"kind": "spaceship"}).reason.code == "intel_bad_target"
    assert intel(st, "allies", {"kind": "neutral", "province": "kiev"}).reason.code == "not_your_turn"
    st.provinces["vichy"].defence["allies"] = placeholders("allies", 2, "v")
    st.sides["allies"].intel_available = 1
    r = intel(st, "axis", {"kind": "defence", "province": "vichy"}, counter_rounds=1)
    assert r.reason.code == "intel_counter_no_tokens" and r.reason.ru and r.reason.en


def test_single_end_of_turn_intel_setting():
    st = battle_ready(settings=FowSettings.from_dict({"intel_multi_end_of_turn": False}))
    st.provinces["vichy"].defence["allies"] = placeholders("allies", 2, "v")
    r = intel(st, "axis", {"kind": "defence", "province": "vichy"}, end_of_turn=True)
    assert intel(r.state, "axis", {"kind": "defence", "province": "vichy"}, end_of_turn=True).reason.code == "intel_multi"
    assert intel(r.state, "axis", {"kind": "defence", "province": "vichy"}).reason.code == "intel_only_now"


def test_quagmire_intel_sees_only_face_down_reinforcements():
    st = battle_ready()
    q = st.provinces["paris"]
    q.quagmire = Quagmire("allies")
    q.quagmire_cards["allies"] = [c.shown(True) for c in cards("allies", "L1")] + cards("allies", "L2", prefix="r")
    r = intel(st, "axis", {"kind": "quagmire", "province": "paris"}, rng=random.Random(0))
    assert r.data["n"] == 1 and r.data["seen"][0].id == "r1:L2"


def test_op_intel_includes_province_card():
    st = battle_ready("allies")
    slot = place_op(st, "axis", "paris", cards("axis", "L1"), position=3)
    r = intel(st, "allies", {"kind": "op", "slot": slot}, rng=random.Random(0))
    assert r.data["n"] == 2


def test_free_look_only_allies_and_listed_provinces():
    st = battle_ready()
    assert free_look(st, "axis", "kiev").reason.code == "free_look_denied"
    assert free_look(st, "allies", "balkans").reason.code == "free_look_denied"
    assert free_look(st, "allies", objectives=True).reason.code == "free_look_denied"


def _ye(**kw):
    st = ledger_game(**kw)
    st.phase = "year_end"
    return st


def test_year_end_side_order_and_once():
    st = _ye()
    assert ye.spend_production(st, "axis", resources=3).reason.code == "ye_order"
    st = ye.spend_production(st, "allies", resources=3).state
    assert ye.spend_production(st, "allies", resources=3).reason.code == "ye_already"
    assert ye.spend_production(st, "axis", resources=3).ok
    assert ye.recall(st, "axis").reason.code == "ye_order"


def test_year_end_needs_phase_and_values_without_map():
    assert ye.split_wins(ledger_game()).reason.code == "wrong_phase"
    assert ye.score_vp(_ye()).reason.code == "needs_value"
    assert ye.spend_production(_ye(), "allies").reason.code == "needs_value"
    assert ye.spend_production(_ye(), "allies", resources=5, vp=1).reason.code == "vp_allies"


def test_vp_and_production_from_map():
    st = map_game()
    st.phase = "year_end"
    r = ye.score_vp(st)
    assert r.data["vp_gain"] == 5 + 3 + 2  # berlin, ruhr, poland in front
    assert ye.production_points(st, "axis") == min(4 + 4 + 2 + 3, 8)


def test_conquered_only_vp_scope():
    st = map_game(settings=FowSettings.from_dict({"vp_scope": "conquered_only"}))
    st.phase = "year_end"
    assert ye.score_vp(st).data["vp_gain"] == 0


def test_recall_from_op_cancels_emptied_op():
    st = _ye()
    st.superiority = "allies"
    slot = place_op(st, "axis", "paris", cards("axis", "L1", "L2"))
    r = ye.recall(st, "axis", ops={slot: ["ax1:L1", "ax2:L2"]})
    assert r.data["cancelled"] == [slot] and "paris" in r.state.sides["axis"].province_deck


def test_refresh_intel_and_caps():
    st = _ye(settings=FowSettings.from_dict({"intel_token_cap": 6, "production_cap": 8}))
    st.sides["axis"].intel_used, st.sides["axis"].intel_available = 2, 3
    st = ye.refresh_intel(st).state
    assert (st.sides["axis"].intel_available, st.sides["axis"].intel_used) == (5, 0)
    st = ye.spend_production(st, "allies", resources=0).state
    assert ye.spend_production(st, "axis", resources=5, intel_pairs=1).reason.code == "cap_reached"
    assert ye.spend_production(st, "axis", resources=5, level=1).reason.code == "cap_reached"


def test_usa_and_ussr_by_date():
    st = _ye(special_sets={"usa": placeholders("allies", 5, "usa"), "ussr": placeholders("allies", 3, "ural")})
    st.year = 1941
    r = ye.usa_step(st)
    assert r.data["usa_cards"] == 5 and r.state.flags["usa_at_war"] and len(r.state.sides["allies"].discard) == 5
    st.year = 1942
    r = ye.ussr_step(st)
    assert r.state.flags["ussr_at_war"] and r.state.provinces["kiev"].control == "allies"
    assert len(r.state.sides["allies"].discard) == 3
    st.year = 1943
    assert ye.ussr_step(st).data["ussr_provinces"] is None


def test_north_america_supplies_after_usa():
    st = map_game()
    st.board.provinces["north_america"] = type(st.board.provinces["ural"])("north_america", supply_point_of="allies",
                                                                            supply_activation="usa_at_war")
    st.provinces["north_america"] = ProvinceState("north_america", control="allies")
    assert "north_america" not in st.supplied("allies")
    st.flags["usa_at_war"] = True
    assert "north_america" in st.supplied("allies")


def test_new_deck_modes():
    for mode, hand_after in (("draw_3", 5), ("discard_hand_first", 3)):
        st = _ye(settings=FowSettings.from_dict({"new_year_draw": mode}))
        s = st.sides["axis"]
        s.deck, s.hand, s.discard = [], s.hand[:2], placeholders("axis", 6, "d")
        assert len(ye.new_decks(st, shuffle=False).state.sides["axis"].hand) == hand_after


def test_advance_reinforce_and_start_new_year():
    st = _ye()
    st.winter = True
    st = ye.advance_year(st).state
    assert (st.year, st.winter) == (1941, False)
    st = ye.add_reinforcements(st, {"axis": placeholders("axis", 2, "r41")}).state
    assert len(st.sides["axis"].losses) == 2
    st.sides["allies"].deck = placeholders("allies", 30)
    r = ye.start_new_year(st)
    assert r.state.phase == "turn" and r.state.active_side == "allies" == r.state.first_side_of_year


def test_objectives_must_be_entered_at_end_of_1944():
    st = _ye()
    st.year = 1944
    assert ye.advance_year(st).reason.code == "objectives_unknown"
    st.provinces["berlin"].control = "axis"
    r = ye.advance_year(st, objectives=["berlin", "ruhr"])
    assert r.state.winner == "axis" and r.state.win_reason == "objectives"


def test_year_end_steps_are_listed_in_order():
    assert [s for s, _ in ye.YEAR_END_STEPS][:3] == ["3.1", "3.2", "3.3"]
    assert all(hasattr(ye, fn) for _, fn in ye.YEAR_END_STEPS)

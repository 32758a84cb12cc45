"""State value semantics, JSON round-trip, settings, map loading and the turn engine's refusals."""
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import gameplay.fog_of_war as pkg
from gameplay.fog_of_war import actions as act
from gameplay.fog_of_war.board import BoardMap, MapError
from gameplay.fog_of_war.cards import Card, load_cards, parse_card, placeholders
from gameplay.fog_of_war.config import FowSettings, SettingsError
from gameplay.fog_of_war.state import GameState, Quagmire, new_game

from .helpers import TEST_MAP, battle_ready, cards, ledger_game, map_game, place_op, placeholder_wheel_settings, started


def test_gameplay_package_has_no_django_import():
    for path in Path(pkg.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import django" not in text and "from django" not in text, path


def _busy_state():
    st = battle_ready(board=BoardMap.from_dict(TEST_MAP))
    place_op(st, "axis", "vichy", cards("axis", "L3", "F1"))
    st.provinces["paris"].quagmire = Quagmire("axis", 3)
    st.provinces["paris"].quagmire_cards["axis"] = [c.shown(True, True) for c in cards("axis", "L2", prefix="q")]
    st.year_end = {"done": ["3.1"], "note": [1, 2]}
    return st


@pytest.mark.parametrize("make", [ledger_game, map_game, _busy_state])
def test_json_round_trip_identity(make):
    st = make()
    data = st.to_dict()
    text = json.dumps(data, ensure_ascii=False)
    back = GameState.from_dict(json.loads(text))
    assert back == st
    assert back.to_dict() == data


@settings(max_examples=25, deadline=None)
@given(hst.integers(0, 2 ** 32), hst.integers(0, 30))
def test_round_trip_after_random_setup(seed, deck):
    st = new_game(placeholders("axis", deck), placeholders("allies", deck), placeholders("neutral", 15),
                  rng=random.Random(seed), objectives=["a", "b", "c", "d", "e", "f"])
    assert GameState.from_dict(json.loads(json.dumps(st.to_dict()))) == st


def test_copy_is_independent():
    st = ledger_game()
    cp = st.copy()
    assert cp == st
    cp.sides["axis"].hand.pop()
    assert cp != st


def test_actions_do_not_mutate_input():
    st = started(ledger_game())
    before = st.to_dict()
    r = act.defend(st, "axis", "poland", [st.sides["axis"].hand[0].id])
    assert r.ok and st.to_dict() == before and r.state != st


def test_malformed_state_dict_raises():
    data = ledger_game().to_dict()
    data["bogus"] = 1
    with pytest.raises(ValueError):
        GameState.from_dict(data)


def test_settings_defaults_and_unknown_key():
    s = FowSettings.from_dict({})
    assert s.exhausted_turn_mode == "within_turns" and s.new_year_draw == "up_to_3" and s.intel_token_cap is None
    with pytest.raises(SettingsError, match="unknown Fog of War setting"):
        FowSettings.from_dict({"no_such_key": 1})
    with pytest.raises(SettingsError, match="exhausted_turn_mode"):
        FowSettings.from_dict({"exhausted_turn_mode": "weird"})
    with pytest.raises(SettingsError):
        FowSettings.from_dict({"wheel_positions": [{"no_intel": False, "launchable": True, "modifier": "none"}] * 6})


def test_settings_explanations_bilingual():
    rows = FowSettings.explain()
    assert {r["key"] for r in rows} >= {"wheel_positions", "exhausted_turn_mode", "no_card_rule", "vp_scope"}
    for r in rows:
        assert r["ru"] and r["en"] and r["ref"].startswith("B-")
    assert "2.10.1" in next(r for r in rows if r["key"] == "exhausted_turn_mode")["en"]


def test_map_loading_errors_and_symmetry():
    board = BoardMap.from_dict(TEST_MAP)
    assert board.adjacent("ruhr", "berlin") and board.adjacent("berlin", "ruhr")
    assert board.provinces["ruhr"].no_attack_from == ["north_sea"]
    with pytest.raises(MapError):
        BoardMap.from_dict({"provinces": [{"key": "a", "neighbours": ["nowhere"]}]})
    with pytest.raises(MapError):
        BoardMap.from_dict({"provinces": [{"key": "a", "kind": "air"}]})
    with pytest.raises(MapError):
        BoardMap.from_dict({})


def test_supply_unknown_without_map():
    st = ledger_game()
    assert st.supplied("axis") is None and st.provinces["berlin"].no_supply is None
    r = act.check_origin(st, "axis", "berlin", "paris")
    assert r.ok and r.data["supply"] == "unknown" and r.data["note_ru"] and r.data["note_en"]


def test_neutral_deal_and_tokens_with_map():
    st = map_game()
    assert len(st.provinces["balkans"].neutral_cards) == 1 and st.provinces["balkans"].neutrality_token
    assert st.neutrality_tokens_unplaced == 5 and len(st.unplaced_neutral) == 13


def test_card_data_loading():
    table = load_cards({"cards": [{"id": "pz1", "owner": "axis", "category": "land", "land": 3}]})
    assert table["pz1"].value("land") == 3 and table["pz1"].value("sea") is None
    with pytest.raises(ValueError):
        parse_card("Q7", "axis")


def test_ledger_reveal_required_and_accepted():
    st = battle_ready()
    slot = place_op(st, "axis", "vichy", [Card("x1", "axis")])
    r = act.launch_operation(st, "axis", slot, "italy")
    assert r.reason.code == "card_values_missing"
    r = act.launch_operation(st, "axis", slot, "italy", reveal={"x1": Card("x1", "axis", "land", land=4)})
    assert r.ok and r.data["outcome"] == "victory"


def test_turn_refusals():
    st = started(ledger_game())
    hand = st.sides["axis"].hand[0].id
    assert act.defend(st, "allies", "britain", ["x"]).reason.code == "not_your_turn"
    assert act.defend(st, "axis", "paris", [hand]).reason.code == "defend_not_own"
    assert act.defend(st, "axis", "poland", ["nope"]).reason.code == "card_not_in_hand"
    assert act.defend(st, "axis", "atlantis", [hand]).reason.code == "unknown_province"
    assert act.new_operation(st, "axis", "poland", [hand]).reason.code == "target_own"
    assert act.cancel_operation(st, "axis", "C").reason.code == "no_such_op"
    st2 = act.new_operation(st, "axis", "paris", [hand]).state
    assert act.launch_operation(st2, "axis", "A", "ruhr").reason.code == "not_launchable"
    assert act.new_operation(st2, "axis", "paris", [st2.sides["axis"].hand[0].id], replace=True).reason.code == \
        "province_card_missing"


def test_reduced_turn_blocks_card_play():
    st = started(ledger_game(settings=placeholder_wheel_settings(exhausted_turn_mode="reduced")))
    st.sides["axis"].deck = []
    assert act.defend(st, "axis", "poland", [st.sides["axis"].hand[0].id]).reason.code == "reduced_turn_no_play"
    assert act.end_turn(st, "axis").ok


def test_quagmire_not_a_defend_or_op_target():
    st = started(ledger_game())
    st.provinces["poland"].quagmire = Quagmire("allies")
    st.provinces["paris"].quagmire = Quagmire("axis")
    hand = st.sides["axis"].hand[0].id
    assert act.defend(st, "axis", "poland", [hand]).reason.code == "in_quagmire"
    assert act.new_operation(st, "axis", "paris", [hand]).reason.code == "in_quagmire"
    r = act.reinforce_quagmire(st, "axis", "poland", [hand])
    assert r.ok and not r.data["must_resolve"]


def test_superiority_passes_after_defender_uses_it():
    st = battle_ready("allies")
    slot = place_op(st, "allies", "poland", cards("allies", "L4"))
    st.provinces["poland"].defence["axis"] = cards("axis", "L2")
    r = act.launch_operation(st, "allies", slot, "britain", use_superiority=True, rng=random.Random(0))
    assert r.data["d"] == 3 and r.state.superiority == "allies"

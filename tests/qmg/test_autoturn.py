"""«Закончить ход» (gameplay.qmg.autoturn): which steps run on their own, and where the run stops."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.qmg.autoturn import MUST_PLAY, closing_command, decision, finish_turn
from gameplay.qmg.table import Options, apply_command, new_table, step_choices

from .helpers import BOARD, pos
from .test_stepper import AIR_TURN_END, AM, TURN_END, Game, play


def run(table, *commands):
    for cmd in commands:
        out = apply_command(BOARD, table, cmd)
        assert out.ok, (cmd, out.reason.en)
        table = out.state
    return table


def types(plan):
    return [c["type"] for c in plan.commands]


def build(space="eastern_europe"):
    return {"type": "play_card", "card_type": "build_army", "space": space}


def test_a_build_turn_ends_in_one_tap_with_every_step_its_own_command():
    t = run(new_table(BOARD), build())
    plan = finish_turn(BOARD, t)
    assert types(plan) == ["end_play", "supply", "score", "discard", "draw"]
    assert plan.stop is None
    assert all(c["country"] == "germany" for c in plan.commands)
    after = run(t, *plan.commands)
    assert (after.round, after.turn, after.phase) == (1, 1, "play")  # the UK's turn
    assert after.vp_axis == 2 and after.cards_of("germany").hand == 7


def test_before_a_card_is_played_the_turn_cannot_be_finished():
    t = new_table(BOARD)
    plan = finish_turn(BOARD, t)
    assert plan.commands == () and plan.stop == MUST_PLAY
    assert closing_command(BOARD, t) is None


def test_an_empty_hand_skips_the_play_step():
    t = new_table(BOARD)
    cards = tuple((c, replace(k, hand=0) if c == "germany" else k) for c, k in t.cards)
    t = replace(t, cards=cards)
    plan = finish_turn(BOARD, t)
    assert types(plan) == ["end_play", "supply", "score", "discard", "draw"]
    assert run(t, *plan.commands).cards_of("germany").hand == 7


def test_a_supply_step_that_removes_pieces_waits_for_the_player_then_continues():
    # a German army in North Africa with no chain back to a source
    t = new_table(BOARD)
    t = replace(t, position=pos("ger army germany", "ger army north_africa", "su army russia",
                                "uk army united_kingdom"))
    t = run(t, build("western_europe"))
    plan = finish_turn(BOARD, t)
    assert types(plan) == ["end_play"]
    assert plan.stop is not None and plan.stop.code == "auto.supply"
    t = run(t, *plan.commands)
    assert t.phase == "supply"
    second = finish_turn(BOARD, t)  # the player saw the list and taps again
    assert types(second) == ["supply", "score", "discard", "draw"] and second.stop is None
    after = run(t, *second.commands)
    assert not any(p.space == "north_africa" and p.country == "germany" for p in after.position.pieces)


def test_the_air_step_needs_the_player():
    t = new_table(BOARD, Options(air_marshal=True, dealt=12))
    t = run(t, build())
    plan = finish_turn(BOARD, t)
    assert types(plan) == ["end_play"] and plan.stop.code == "auto.air"
    t = run(t, *plan.commands)
    assert types(finish_turn(BOARD, t)) == ["end_air", "supply", "score", "discard", "draw"]


def test_a_status_used_in_the_discard_step_stops_there():
    t = new_table(BOARD)
    t = replace(t, turn=BOARD.turn_order.index("united_states"))
    t = run(t, {"type": "play_card", "card_type": "status", "card_id": "us_rosie_the_riveter"})
    plan = finish_turn(BOARD, t)
    assert types(plan) == ["end_play", "supply", "score"]
    assert plan.stop.code == "auto.discard_status"


def test_an_automated_victory_status_does_not_stop_the_run():
    t = run(new_table(BOARD), {"type": "play_card", "card_type": "status", "card_id": "ger_swedish_iron_ore"})
    assert types(finish_turn(BOARD, t)) == ["end_play", "supply", "score", "discard", "draw"]


def test_the_discard_the_player_asked_for_is_made_and_too_many_is_left_to_the_engine_to_refuse():
    t = run(new_table(BOARD), build())
    plan = finish_turn(BOARD, t, discard=2)
    assert plan.commands[3] == {"type": "discard", "country": "germany", "n": 2}
    assert run(t, *plan.commands).cards_of("germany").discard == 3 + 1 + 2
    too_many = finish_turn(BOARD, t, discard=9)
    assert types(too_many) == ["end_play", "supply", "score", "discard"]  # the last one is refused
    assert not apply_command(BOARD, run(t, *too_many.commands[:3]), too_many.commands[3]).ok
    with pytest.raises(ValueError):
        finish_turn(BOARD, t, discard=100)


def test_from_the_middle_of_a_turn_it_runs_to_the_end():
    t = run(new_table(BOARD), build(), {"type": "end_play"}, {"type": "supply"})
    assert types(finish_turn(BOARD, t)) == ["score", "discard", "draw"]


def test_the_last_turn_of_the_game_ends_it():
    t = replace(run(new_table(BOARD), build()), round=BOARD.rounds, turn=len(BOARD.turn_order) - 1)
    plan = finish_turn(BOARD, t)
    assert run(t, *plan.commands).finished
    assert decision(BOARD, run(t, *plan.commands)).code == "auto.over"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["eastern_europe", "western_europe", "balkans", "north_sea", "baltic_sea"]),
                min_size=1, max_size=6))
def test_finishing_turn_after_turn_keeps_the_table_legal_and_moves_one_country_on(spaces):
    t = new_table(BOARD)
    for space in spaces:
        country = t.active(BOARD)
        card = "build_navy" if BOARD.spaces[space].kind == "sea" else "build_army"
        out = apply_command(BOARD, t, {"type": "play_card", "card_type": card, "space": space})
        t = out.state if out.ok else run(t, {"type": "play_card", "card_type": "event"})
        turn = (t.round, t.turn)
        plan = finish_turn(BOARD, t)
        while plan.stop is not None:  # a decision: the player taps again
            t = run(t, *plan.commands)
            plan = finish_turn(BOARD, t)
        assert len(plan.commands) <= 6
        t = run(t, *plan.commands)
        assert (t.round, t.turn) != turn and t.active(BOARD) != country


@pytest.mark.parametrize("rules", [5, 6])
def test_an_open_air_decision_of_another_country_stops_the_run_after_each_step(rules):
    """Germany attacks Ukraine where a Soviet air force stands: the USSR may answer with air defence.
    «Закончить ход» must not run through the turn's end (which clears the attack) on its own. Card rules 6: the
    stranded air force's step (air defence, Moscow or «Убрать») comes first — nothing is sent until it is chosen."""
    g = Game(replace(AM, card_rules=rules))
    g.run(play("build_army", space="eastern_europe"), {"type": "end_play"},
          {"type": "deploy_air", "space": "eastern_europe"}, {"type": "end_air"}, *TURN_END[1:])
    g.run(play("discard_unused"), *AIR_TURN_END)  # the UK
    g.run(play("discard_unused"), *AIR_TURN_END)  # Japan
    g.run(play("build_army", space="ukraine"), {"type": "end_play"}, {"type": "deploy_air", "space": "ukraine"},
          {"type": "end_air"}, *TURN_END[1:])
    g.run(play("discard_unused"), *AIR_TURN_END)  # Italy
    g.run(play("discard_unused"), *AIR_TURN_END)  # the USA
    g.run(play("land_battle", space="ukraine"))
    t = g.table
    assert t.attack and decision(BOARD, t).code == "auto.air_waiting"
    plan = finish_turn(BOARD, t)
    if rules >= 6:
        assert types(plan) == [] and plan.stop.code == "auto.air_waiting"
        assert [c["command"] for c in step_choices(BOARD, t)] == [
            {"type": "step", "country": "soviet_union", "action": "air_defence"},
            {"type": "step", "country": "soviet_union", "action": "air_retreat", "space": "moscow"},
            {"type": "step", "country": "soviet_union", "action": "air_retreat"}]
        t = run(t, {"type": "step", "country": "soviet_union", "action": "air_retreat", "space": "moscow"})
        plan = finish_turn(BOARD, t)
        assert types(plan)[:1] == ["end_play"]
        return
    assert types(plan) == ["end_play"] and plan.stop.code == "auto.air_waiting"
    t = run(t, *plan.commands)
    plan = finish_turn(BOARD, t)
    assert types(plan) == ["end_air"] and plan.stop.code == "auto.air_waiting"  # one step per tap, never more
    assert run(t, *plan.commands).attack  # the USSR can still answer

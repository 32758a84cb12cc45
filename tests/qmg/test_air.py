"""Air Marshal: air forces in positions, deploy, move, retreat, air defence and air strike, the air step."""
import json
from dataclasses import replace

import pytest

from gameplay.qmg import air, check_position, compute_supply, validate_position
from gameplay.qmg.air import AirPrompts, StrandedAir, air_prompts
from gameplay.qmg.state import Piece, PositionError
from gameplay.qmg.table import Options, apply_command, apply_ops, new_table, reminders

from .helpers import BOARD, pos

AM = Options(dealt=12, air_marshal=True, air_limits=tuple(sorted(BOARD.air_forces_default.items())))


def run(table, *commands):
    for cmd in commands:
        out = apply_command(BOARD, table, cmd)
        assert out.ok, (cmd, out.reason.en)
        assert apply_ops(table, list(out.changes)) == out.state
        table = out.state
    return table


def refused(table, cmd):
    out = apply_command(BOARD, table, cmd)
    assert not out.ok, cmd
    return out.reason


# --- positions and supply ----------------------------------------------------------------

def test_air_force_is_supplied_with_its_countrys_supplied_army_or_navy():
    p = pos("ger army germany", "ger air germany", "ger army russia", "ger air russia", "ger air balkans")
    s = compute_supply(BOARD, p)
    codes = {q.space: s.pieces[q].code for q in p.pieces if q.kind == "air"}
    assert codes == {"germany": "air.supplied", "russia": "air.unsupplied", "balkans": "air.stranded"}
    # the supply step never removes air forces; a stranded one must retreat instead
    assert all(q.kind != "air" for q in s.unsupplied_of("germany"))
    assert [q.space for q in s.stranded_air()] == ["balkans"]


def test_air_forces_do_not_carry_supply_chains():
    p = pos("ger army germany", "ger air eastern_europe", "ger army russia")
    assert compute_supply(BOARD, p).supplied(Piece("germany", "army", "russia")) is False


def test_validation_one_air_force_per_country_per_space_and_the_limits():
    with pytest.raises(PositionError, match="two air"):
        validate_position(BOARD, pos("ger army germany", "ger air germany", "ger air germany"))
    with pytest.raises(PositionError, match="owns only 1"):
        validate_position(BOARD, pos("ita army italy", "ita air italy", "ita army balkans", "ita air balkans"))
    validate_position(BOARD, pos("ita army italy", "ita air italy", "ita army balkans", "ita air balkans"),
                      air_limits={"italy": 2})
    with pytest.raises(PositionError, match="opposing teams"):
        validate_position(BOARD, pos("su army balkans", "ger air balkans"))


def test_qmg_check_accepts_and_reports_air_pieces():
    out = check_position({"pieces": [{"country": "germany", "kind": "army", "space": "germany"},
                                     {"country": "germany", "kind": "air", "space": "germany"}]}, BOARD)
    assert out["pieces"][1] == {"country": "germany", "kind": "air", "space": "germany", "supplied": True,
                                "reason": out["pieces"][1]["reason"]}
    assert "Air Marshal" in out["pieces"][1]["reason"]


# --- engine rules --------------------------------------------------------------------------

def test_deploy_needs_an_own_supplied_army_or_navy_there():
    p = pos("ger army germany", "ger army russia", "ita army italy")
    assert air.deploy_air(BOARD, p, "germany", "germany", 2).legal
    assert air.deploy_air(BOARD, p, "germany", "russia", 2).reason.code == "air.deploy_base"  # unsupplied
    assert air.deploy_air(BOARD, p, "germany", "italy", 2).reason.code == "air.deploy_base"  # an ally's army
    p2 = pos("ger army germany", "ger air germany")
    assert air.deploy_air(BOARD, p2, "germany", "germany", 2).reason.code == "air.stacking"
    assert air.deploy_air(BOARD, p2, "germany", "germany", 1).reason.code in ("air.stacking", "air.limit")


def test_move_a_supplied_air_force_to_a_supplied_base():
    p = pos("ger army germany", "ger air germany", "ger army eastern_europe", "ger army kazakhstan",
            "ger air kazakhstan")
    v = air.move_air(BOARD, p, "germany", "germany", "eastern_europe")
    assert v.legal and [q.space for q in v.places] == ["eastern_europe"]
    assert air.move_air(BOARD, p, "germany", "kazakhstan", "eastern_europe").reason.code == "air.move_unsupplied"
    assert air.move_air(BOARD, p, "germany", "kazakhstan", "germany").reason.code == "air.move_unsupplied"
    assert air.move_air(BOARD, p, "germany", "germany", "balkans").reason.code == "air.move_base"
    assert air.move_air(BOARD, p, "germany", "germany", "germany").legal  # moving in place is allowed


def test_air_retreat_to_an_adjacent_base_or_removed():
    p = pos("ger army germany", "ger air balkans", "ger army eastern_europe")
    straits = compute_supply(BOARD, p).straits
    assert air.retreat_options(BOARD, p, "germany", "balkans", straits) == ["eastern_europe", "germany"]
    assert air.air_retreat(BOARD, p, "germany", "balkans", None).reason.code == "air.retreat_must_move"
    assert air.air_retreat(BOARD, p, "germany", "balkans", "russia").reason.code == "air.retreat_where"
    assert air.air_retreat(BOARD, p, "germany", "balkans", "germany").legal
    alone = pos("ger army germany", "ger air moscow")
    v = air.air_retreat(BOARD, alone, "germany", "moscow", None)
    assert v.legal and v.removes == (Piece("germany", "air", "moscow"),) and v.places == ()


# --- the air step and the defence/strike exchange in the stepper ---------------------------

TURN_REST = [{"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"}]


def turn(table, card, air_cmd=None):
    cmds = [card, {"type": "end_play"}]
    cmds += [air_cmd] if air_cmd else []
    cmds += [{"type": "end_air"}] + TURN_REST
    return run(table, *cmds)


def play(card_type, **kw):
    return {"type": "play_card", "card_type": card_type, **kw}


def test_setup_deals_12_keeps_7_and_the_air_step_follows_the_play_step():
    t = new_table(BOARD, AM)
    assert t.cards_of("germany").discard == 5 and t.cards_of("germany").hand == 7
    t = run(t, play("event"), {"type": "end_play"})
    assert t.phase == "air"
    assert refused(t, {"type": "supply"}).code == "turn.wrong_phase"
    t = run(t, {"type": "deploy_air", "space": "germany"})
    assert Piece("germany", "air", "germany") in t.position.pieces
    assert t.cards_of("germany").hand == 5  # the event and the Deploy Air Force card
    assert refused(t, {"type": "deploy_air", "space": "germany"}).code == "air.once"
    t = run(t, {"type": "end_air"})
    assert t.phase == "supply"


def test_without_the_expansion_there_is_no_air_step():
    t = run(new_table(BOARD), play("event"), {"type": "end_play"})
    assert t.phase == "supply"
    assert refused(t, {"type": "air_retreat", "country": "germany", "from_space": "germany"}).code == "air.off"


def test_moving_costs_a_card():
    t = new_table(BOARD, AM)
    t = turn(t, play("event"), {"type": "deploy_air", "space": "germany"})
    for _ in range(5):
        t = turn(t, play("discard_unused"))
    t = run(t, play("build_army", space="eastern_europe"), {"type": "end_play"})
    hand = t.cards_of("germany").hand
    t = run(t, {"type": "move_air", "from_space": "germany", "space": "eastern_europe"})
    assert t.cards_of("germany").hand == hand - 1
    assert Piece("germany", "air", "eastern_europe") in t.position.pieces


def test_air_defence_answered_by_an_air_strike():
    t = new_table(BOARD, AM)
    # round 1: Germany builds in Eastern Europe and deploys its air force there; the USSR builds in
    # Ukraine and deploys there; everyone else discards
    t = turn(t, play("build_army", space="eastern_europe"), {"type": "deploy_air", "space": "eastern_europe"})
    t = turn(t, play("discard_unused"))  # UK
    t = turn(t, play("discard_unused"))  # Japan
    t = turn(t, play("build_army", space="ukraine"), {"type": "deploy_air", "space": "ukraine"})
    t = turn(t, play("discard_unused"))  # Italy
    t = turn(t, play("discard_unused"))  # USA
    assert t.round == 2
    # round 2: Germany attacks Ukraine
    t = run(t, play("land_battle", space="ukraine"))
    assert Piece("soviet_union", "army", "ukraine") not in t.position.pieces
    assert t.attack == {"space": "ukraine", "country": "soviet_union", "kind": "army", "attacker": "germany",
                        "defended": False}
    # only the attacker may strike, and only after a defence
    assert refused(t, {"type": "air_strike", "country": "germany", "from_space": "eastern_europe"}).code == \
        "air.strike_when"
    t = run(t, {"type": "air_defence", "country": "soviet_union"})
    assert Piece("soviet_union", "army", "ukraine") in t.position.pieces
    assert Piece("soviet_union", "air", "ukraine") not in t.position.pieces
    assert refused(t, {"type": "air_defence", "country": "soviet_union"}).code == "air.defence_when"
    assert refused(t, {"type": "air_strike", "country": "germany", "from_space": "germany"}).code == "air.strike_none"
    t = run(t, {"type": "air_strike", "country": "germany", "from_space": "eastern_europe"})
    assert Piece("soviet_union", "army", "ukraine") not in t.position.pieces
    assert Piece("germany", "air", "eastern_europe") not in t.position.pieces
    assert t.attack is None
    assert json.loads(json.dumps(t.to_dict()))["options"]["air_marshal"] is True


def test_eliminating_the_base_leaves_a_stranded_air_force_that_must_retreat():
    t = new_table(BOARD, AM)
    t = turn(t, play("build_army", space="eastern_europe"), {"type": "deploy_air", "space": "eastern_europe"})
    t = run(t, play("event"), {"type": "step", "country": "united_kingdom", "action": "eliminate",
                               "space": "eastern_europe"})
    assert any(r.code == "reminder.air_retreat" for r in reminders(BOARD, t))
    t = run(t, {"type": "air_retreat", "country": "germany", "from_space": "eastern_europe", "space": "germany"})
    assert Piece("germany", "air", "germany") in t.position.pieces


def test_reallocate_may_fetch_a_deploy_card_with_the_expansion():
    t = new_table(BOARD, replace(AM, reallocate=True))
    assert run(t, {"type": "reallocate", "card_type": "deploy_air"}).cards_of("germany").hand == 4


def test_bolster_cards_any_number_then_steps():
    t = new_table(BOARD, AM)
    t = run(t, {"type": "bolster", "country": "soviet_union", "name": "Зимняя стойкость"})
    t = run(t, {"type": "bolster", "country": "soviet_union", "name": "Ещё одна"})
    assert t.cards_of("soviet_union").hand == 5
    t = run(t, {"type": "step", "country": "soviet_union", "action": "recruit_army", "space": "russia"})
    assert Piece("soviet_union", "army", "russia") in t.position.pieces


# --- what the page offers now ------------------------------------------------------------

def prompts(t, countries=None):
    return air_prompts(BOARD, t.position, t.attack, compute_supply(BOARD, t.position), countries)


def test_air_prompts_defence_first_then_strike():
    t = new_table(BOARD, AM)
    assert prompts(t) == AirPrompts()
    t = turn(t, play("build_army", space="eastern_europe"), {"type": "deploy_air", "space": "eastern_europe"})
    t = turn(t, play("discard_unused"))
    t = turn(t, play("discard_unused"))
    t = turn(t, play("build_army", space="ukraine"), {"type": "deploy_air", "space": "ukraine"})
    t = turn(t, play("discard_unused"))
    t = turn(t, play("discard_unused"))
    t = run(t, play("land_battle", space="ukraine"))
    # the Soviet air force in Ukraine has lost its army, but air defence comes before any retreat
    after_attack = prompts(t, ["soviet_union"])
    assert after_attack == AirPrompts(stranded=(), defence=True, strike_from=())
    assert prompts(t, ["germany"]) == AirPrompts()
    t = run(t, {"type": "air_defence", "country": "soviet_union"})
    assert prompts(t, ["germany", "italy"]) == AirPrompts(strike_from=("eastern_europe",))
    assert prompts(t, ["soviet_union"]) == AirPrompts()
    assert prompts(t).strike_from == ("eastern_europe",)  # everyone (the host)


def test_air_prompts_a_stranded_air_force_and_where_it_may_go():
    """Card rules 5: a stranded air force waits while the turn goes on (the prompts only say what it may do)."""
    t = new_table(BOARD, replace(AM, card_rules=5))
    t = turn(t, play("build_army", space="eastern_europe"), {"type": "deploy_air", "space": "eastern_europe"})
    t = run(t, play("event"), {"type": "step", "country": "united_kingdom", "action": "eliminate",
                               "space": "eastern_europe"})
    assert prompts(t, ["germany"]) == AirPrompts(stranded=(StrandedAir("germany", "eastern_europe", ("germany",)),))
    assert prompts(t, ["united_kingdom", "soviet_union"]) == AirPrompts()
    assert prompts(t, []) == AirPrompts()
    t = run(t, {"type": "step", "country": "united_kingdom", "action": "eliminate", "space": "germany"})
    assert prompts(t, ["germany"]).stranded == (StrandedAir("germany", "eastern_europe", ()),)  # it is removed

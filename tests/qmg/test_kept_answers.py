"""The engine keeps its last answers (``compute_supply`` by position, ``apply_command`` by the very board and
table objects): a kept answer is the answer computing it again gives, it is read-only, and nothing is kept
for a value that cannot be a key."""
import pytest
from hypothesis import given, settings, strategies as st

from gameplay.qmg import Piece, Position, compute_supply, load_board
from gameplay.qmg import rules, table as table_module
from gameplay.qmg.autoturn import finish_turn
from gameplay.qmg.sample import random_position
from gameplay.qmg.table import apply_command, new_table

BOARD = load_board()


@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 10_000), used=st.sampled_from([(), ("jpn_truk",)]))
def test_a_kept_supply_report_is_the_report_computed_anew(seed, used):
    import random
    position = random_position(BOARD, random.Random(seed))
    first = compute_supply(BOARD, position, used)
    assert compute_supply(BOARD, position, used) is first  # kept
    assert rules._compute_supply(BOARD, position, rules.as_context(used)) == first
    copy = Position.of(list(position.pieces), dict(position.extra_sources), dict(position.blocked_sources),
                       position.statuses)
    assert compute_supply(BOARD, copy, used) is first  # kept by value, not by object


def test_a_kept_supply_report_cannot_be_changed():
    report = compute_supply(BOARD, Position.of([("germany", "army", "germany")]))
    with pytest.raises(TypeError):
        report.pieces[Piece("germany", "army", "germany")] = None
    with pytest.raises(TypeError):
        report.straits["gibraltar"] = "axis"


def test_a_position_that_cannot_be_a_key_is_computed_not_kept():
    position = Position(pieces=[Piece("germany", "army", "germany")])  # a list: not hashable
    kept = len(rules._SUPPLY)
    assert compute_supply(BOARD, position).supplied(Piece("germany", "army", "germany"))
    assert len(rules._SUPPLY) == kept


def test_a_kept_answer_needs_the_same_table_object_and_command():
    table = new_table(BOARD)
    command = {"type": "play_card", "card_type": "build_army", "space": "eastern_europe", "country": "germany"}
    first = apply_command(BOARD, table, command)
    assert first.ok and apply_command(BOARD, table, dict(command)) is first
    twin = new_table(BOARD)  # equal, another object: computed again, the same answer
    again = apply_command(BOARD, twin, command)
    assert again is not first and again == first
    other = apply_command(BOARD, table, {**command, "space": "balkans"})
    assert other is not first
    nested = {**command, "extra": ["a list"]}  # a command that cannot be a key: answered, not kept
    kept = len(table_module._ANSWERS)
    apply_command(BOARD, table, nested)
    assert len(table_module._ANSWERS) == kept


def test_the_finish_turn_plan_and_the_write_share_their_answers():
    table = new_table(BOARD)
    built = apply_command(BOARD, table, {"type": "play_card", "card_type": "build_army", "space": "eastern_europe",
                                          "country": "germany"}).state
    plan = finish_turn(BOARD, built)
    state, answers = built, []
    for command in plan.commands:
        answers.append(apply_command(BOARD, state, command))
        state = answers[-1].state
    table_module._ANSWERS.clear()
    state = built
    for command, kept in zip(plan.commands, answers):
        fresh = apply_command(BOARD, state, command)
        assert fresh == kept
        state = fresh.state


def test_kept_drops_the_oldest_and_a_kept_again_key_becomes_the_newest():
    from gameplay.common.kept import Kept

    kept = Kept(2)
    kept.keep("a", 1)
    kept.keep("b", 2)
    kept.keep("a", 3)  # "a" again: the newest, "b" now the oldest
    kept.keep("c", 4)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == (3, None, 4, 2)
    with pytest.raises(TypeError):
        kept.get(["not", "hashable"])

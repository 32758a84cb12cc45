"""The engine's own bounds (``gameplay.fog_of_war.limits``): a card list, a year's reinforcements and a
map beyond them are refused before any work, in both languages, whether they come from a form or an
import."""
import random

import pytest

from gameplay.fog_of_war.board import BoardMap, MapError
from gameplay.fog_of_war.cards import card_list_size_ok, parse_card, parse_card_list, parse_cards
from gameplay.fog_of_war.limits import (MAX_CARD_TEXT, MAX_CARDS, MAX_NEIGHBOURS, MAX_PROVINCES, LimitError)
from gameplay.fog_of_war.stepper import STEPPER, engine_of, year_end_next
from tests.budget import PEAK, peak_of, refused_early

RNG = random.Random(1)


def quick(fn, *args):
    """``fn``'s ``ValueError`` and its seconds, refused before the input was read (tests/budget.py)."""
    return refused_early(fn, *args)


@pytest.mark.parametrize("text", ["1" + "0" * 26, "201", "L3 " * 100_000, "L3 " * (MAX_CARDS + 1),
                                  "1" * (MAX_CARD_TEXT + 1), "9" * 5000])
def test_a_card_list_beyond_the_bounds_is_refused_before_it_is_read(text):
    assert not card_list_size_ok(text)
    exc, took = quick(parse_card_list, text, "axis", "ax", RNG)
    assert isinstance(exc, LimitError) and "200" in exc.ru and "200" in exc.en
    print(f"\n{len(text)} characters refused in {took * 1000:.2f} ms")


def test_the_bounds_themselves_are_accepted():
    assert len(parse_card_list(str(MAX_CARDS), "axis", "ax", RNG)) == MAX_CARDS
    assert len(parse_card_list("L3 " * MAX_CARDS, "axis", "ax", RNG)) == MAX_CARDS
    assert parse_card_list("", "axis", "ax", RNG) is None


def test_card_values_and_lists_of_objects_are_bounded_too():
    assert parse_card("L99", "axis").land == 99
    for spec in ("L100", "N" + "9" * 4000, {"category": "land", "land": 100}):
        with pytest.raises(LimitError):
            parse_card(spec, "axis")
    with pytest.raises(LimitError):
        parse_cards(["L1"] * (MAX_CARDS + 1), "attacker", "a")
    with pytest.raises(ValueError):
        parse_card_list(["L3"], "axis", "ax", RNG)  # not a text


@pytest.mark.parametrize("side", ["axis", "allies", "neutral"])
def test_new_state_refuses_an_oversized_deck_naming_it(side):
    setup = {"axis_cards": "20", "allies_cards": "20", "neutral_cards": "15", f"{side}_cards": "L3 " * 100_000}
    exc, took = quick(STEPPER.new_state, setup)
    assert isinstance(exc, LimitError)
    assert {"axis": "Оси", "allies": "Союзников", "neutral": "Нейтральные"}[side] in exc.ru
    print(f"\nnew_state with 100,000 cards refused in {took * 1000:.2f} ms")


# --- the map ----------------------------------------------------------------------------------------

def _row(key, neighbours=(), **extra):
    return {"key": key, "kind": "land", "vp": 1, "resources": 1, "climate": "none", "neighbours": list(neighbours),
            **extra}


@pytest.mark.parametrize("rows", [
    [_row(f"p{i}") for i in range(MAX_PROVINCES + 1)],
    [_row("a", [f"p{i}" for i in range(MAX_NEIGHBOURS + 1)])] + [_row(f"p{i}") for i in range(MAX_NEIGHBOURS + 1)],
    [_row("hub")] + [_row(f"p{i}", ["hub"]) for i in range(MAX_NEIGHBOURS + 1)],  # too many once made symmetric
    [_row("k" * 41)],
    [_row("a", name_en="x" * 81)],
    [_row("a", vp=100)],
    [_row("a", resources=10 ** 30)],
    [{**_row("a"), "neighbours": "abc"}],
    [_row("a", neighbours=[["nested"]])],
])
def test_a_map_beyond_the_bounds_is_refused(rows):
    exc, _ = quick(BoardMap.from_dict, {"provinces": rows})
    assert isinstance(exc, MapError) and isinstance(exc, LimitError) and exc.ru and exc.en


def test_a_map_at_the_bounds_is_accepted():
    hub = _row("hub", [f"p{i}" for i in range(MAX_NEIGHBOURS)])
    board = BoardMap.from_dict({"provinces": [hub] + [_row(f"p{i}") for i in range(MAX_PROVINCES - 1)]})
    assert len(board.provinces) == MAX_PROVINCES and "hub" in board.provinces["p0"].neighbours


def test_set_map_beyond_the_bounds_is_refused_in_both_languages_and_changes_nothing():
    state = STEPPER.new_state({"axis_cards": "20", "allies_cards": "20", "neutral_cards": "15", "seed": 1})
    out = STEPPER.apply(state, {"type": "set_map", "map": {"provinces": [_row(f"p{i}") for i in range(10_000)]}})
    assert not out.ok and out.reason.code == "fow.bad_map"
    assert "не больше 100 провинций" in out.reason.ru and "at most 100 provinces" in out.reason.en


def test_new_state_refuses_an_oversized_map():
    with pytest.raises(MapError):
        STEPPER.new_state({"axis_cards": "20", "allies_cards": "20", "neutral_cards": "15",
                           "board": {"provinces": [_row(f"p{i}") for i in range(MAX_PROVINCES + 1)]}})


# --- 3.12 reinforcements ----------------------------------------------------------------------------

def at_reinforcements():
    """A table whose next year-end step is 3.12 (reinforcements before production, B-11)."""
    state = STEPPER.new_state({"settings": {"reinforcement_timing": "before_production", "exhausted_turn_mode": "own_turns"}, "axis_cards": "4",
                               "allies_cards": "4", "neutral_cards": "15", "seed": 1})
    rng = random.Random(2)

    def do(command):
        nonlocal state
        out = STEPPER.apply(state, STEPPER.prepare(state, command, rng))
        assert out.ok, out.reason.en
        state = out.state

    for side, province in (("axis", "berlin"), ("allies", "britain")):
        do({"type": "start_turn", "side": side})
        do({"type": "defend", "side": side, "province": province,
            "cards": [c.id for c in engine_of(state).sides[side].hand][:1]})
        do({"type": "end_turn", "side": side})
    for command in ({"type": "ye_score_vp", "vp_gain": 0}, {"type": "ye_split_wins"}, {"type": "ye_refresh_intel"}):
        do(command)
    assert year_end_next(engine_of(state)) == ("3.12", None)
    return state


@pytest.mark.parametrize("value", [10 ** 26, "1" + "0" * 26, str(10 ** 6), "201", "L3 " * 100_000, "L3 " * 201])
def test_reinforcements_beyond_the_bounds_are_refused_before_any_work(value):
    state = at_reinforcements()
    out, took, peak = peak_of(STEPPER.apply, state, {"type": "ye_reinforcements", "axis": value, "allies": "", "seed": 1})
    print(f"\nreinforcements of {str(value)[:12]}… refused in {took * 1000:.2f} ms")
    assert not out.ok and out.reason.code == "fow.reinforcements_limit"
    assert "200" in out.reason.ru and "Ось" in out.reason.ru and "Axis" in out.reason.en and out.reason.rule
    assert peak < PEAK, peak


def test_reinforcements_at_the_bound_and_bad_values_inside_them():
    state = at_reinforcements()
    out = STEPPER.apply(state, {"type": "ye_reinforcements", "axis": "200", "allies": "L3 " * 200, "seed": 1})
    assert out.ok
    assert [len(engine_of(out.state).sides[s].losses) >= 200 for s in ("axis", "allies")] == [True, True]
    out = STEPPER.apply(state, {"type": "ye_reinforcements", "axis": "L100", "allies": "", "seed": 1})
    assert not out.ok and out.reason.code == "fow.limit" and "99" in out.reason.ru
    out = STEPPER.apply(state, {"type": "ye_reinforcements", "axis": ["L3"], "allies": "", "seed": 1})
    assert not out.ok and out.reason.code == "fow.invalid"

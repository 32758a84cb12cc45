"""Property-based tests over random legal positions (hypothesis)."""
import json
import random
from io import StringIO

from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.qmg import (
    ACTION_TYPES, Action, Piece, Position, check_action, check_position, compute_supply, validate_position,
    victory_step,
)
from gameplay.qmg.rules import Adjacency, is_source_for
from gameplay.qmg.sample import random_position

from .helpers import BOARD

seeds = st.integers(min_value=0, max_value=2**32 - 1)
fills = st.floats(min_value=0.05, max_value=1.0)


@st.composite
def positions(draw):
    return random_position(BOARD, random.Random(draw(seeds)), draw(fills))


@given(positions())
def test_random_positions_are_legal(position):
    validate_position(BOARD, position)


@given(positions(), st.randoms(use_true_random=False))
def test_supply_does_not_depend_on_piece_order(position, rnd):
    shuffled = list(position.pieces)
    rnd.shuffle(shuffled)
    a = compute_supply(BOARD, position)
    b = compute_supply(BOARD, Position.of(shuffled))
    assert {p: s.supplied for p, s in a.pieces.items()} == {p: s.supplied for p, s in b.pieces.items()}
    assert a.straits == b.straits


@given(positions(), seeds)
def test_adding_a_piece_of_a_country_never_unsupplies_its_other_pieces(position, seed):
    rng = random.Random(seed)
    country = rng.choice(BOARD.turn_order)
    kind = rng.choice(["army", "navy"])
    team = BOARD.team_of(country)
    free = [s.id for s in BOARD.spaces.values()
            if s.is_land == (kind == "army")
            and not any(p.space == s.id and (BOARD.team_of(p.country) != team or (p.country, p.kind) == (country, kind))
                        for p in position.pieces)]
    c = BOARD.countries[country]
    if not free or position.count(country, kind) >= (c.armies if kind == "army" else c.navies):
        return
    bigger = position.with_piece(Piece(country, kind, rng.choice(free)))
    validate_position(BOARD, bigger)
    before = compute_supply(BOARD, position)
    after = compute_supply(BOARD, bigger)
    for p in position.of_country(country):
        if before.supplied(p):
            assert after.supplied(p), p


@given(positions())
def test_supplied_chains_run_through_own_adjacent_pieces_from_a_source(position):
    report = compute_supply(BOARD, position)
    for piece, s in report.pieces.items():
        if not s.supplied:
            continue
        own = {p.space for p in position.of_country(piece.country)}
        assert s.chain[-1] == piece.space
        assert is_source_for(BOARD, position, s.chain[0], piece.country)
        assert set(s.chain) <= own
        adj = Adjacency(BOARD, report.straits, BOARD.team_of(piece.country))
        assert all(adj.adjacent(a, b) for a, b in zip(s.chain, s.chain[1:]))


@given(positions())
def test_json_round_trip_is_the_identity(position):
    assert Position.from_dict(json.loads(json.dumps(position.to_dict()))) == position


@given(positions())
def test_victory_points_are_bounded_and_skip_means_zero(position):
    stars = len(BOARD.stars())
    for country in BOARD.turn_order:
        v = victory_step(BOARD, position, country)
        assert 0 <= v.points <= 2 * stars
        if v.skipped:
            assert v.points == 0


@given(positions(), seeds)
def test_legal_actions_keep_the_position_legal(position, seed):
    rng = random.Random(seed)
    supply = compute_supply(BOARD, position)
    for _ in range(10):
        action = Action(rng.choice(ACTION_TYPES), rng.choice(BOARD.turn_order), rng.choice(list(BOARD.spaces)))
        verdict = check_action(BOARD, position, action, supply)
        assert verdict.reason.ru and verdict.reason.en
        if verdict.legal:
            after = position.without_pieces(verdict.removes)
            for p in verdict.places:
                after = after.with_piece(p)
            validate_position(BOARD, after)


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(positions(), seeds)
def test_command_and_engine_agree(tmp_path_factory, position, seed):
    rng = random.Random(seed)
    data = position.to_dict()
    data["actions"] = [{"type": rng.choice(ACTION_TYPES), "country": rng.choice(BOARD.turn_order),
                        "space": rng.choice(list(BOARD.spaces))} for _ in range(3)]
    path = tmp_path_factory.mktemp("pos") / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = StringIO()
    call_command("qmg_check", str(path), stdout=out)
    assert json.loads(out.getvalue()) == check_position(data, BOARD)

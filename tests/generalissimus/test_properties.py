"""Hypothesis properties: invariants hold under any sequence of legal actions."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from gameplay.generalissimus import (GameState, InputError, charge, fire, forced_flight, form_up, invariant_problems,
                                     manoeuvre, move, rally, retreat)
from gameplay.generalissimus.geometry import all_sectors

SECTORS = all_sectors()
TERRAINS = ["field", "forest", "river", "hill", "village"]


@st.composite
def unit_dicts(draw, uid, sector):
    kind = draw(st.sampled_from(["infantry", "cavalry", "artillery"]))
    d = {"id": uid, "owner": draw(st.sampled_from(["south", "north"])), "kind": kind, "sector": sector,
         "facing": draw(st.sampled_from("NESW")), "flag": draw(st.sampled_from(["up", "up", "routed"])),
         "routed_since": draw(st.sampled_from([None, 0, 1]))}
    if kind == "artillery":
        d["crew"] = draw(st.integers(0, 2))
        d["formation"] = draw(st.sampled_from(["column", "disordered"]))
        return d
    top = 3 if kind == "infantry" else 2
    d["blocks"] = draw(st.integers(1, top))
    options = ["disordered"] if d["blocks"] == 1 else (
        ["column", "disordered"] + (["line"] if kind == "infantry" else []) + (["square"] if d["blocks"] == 3 else []))
    d["formation"] = draw(st.sampled_from(options))
    return d


@st.composite
def states(draw, **settings_kw):
    sectors = draw(st.lists(st.sampled_from(SECTORS), min_size=2, max_size=14, unique=True))
    units = [draw(unit_dicts(f"U{i}", s)) for i, s in enumerate(sectors)]
    terrain = draw(st.dictionaries(st.sampled_from(SECTORS), st.sampled_from(TERRAINS), max_size=10))
    rear = draw(st.sampled_from(["home_edge", "facing"]))
    return GameState.from_dict({"units": units, "terrain": terrain, "turn": 2,
                                "settings": {"rear_reference": rear, **settings_kw}})


def _dice(draw, n):
    return draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))


def random_action(data, s: GameState):
    ids = [u.id for u in s.units]
    uid = data.draw(st.sampled_from(ids))
    tid = data.draw(st.sampled_from(ids))
    kind = data.draw(st.sampled_from(["move", "cav", "turn", "form", "rally", "retreat", "fire", "charge", "flight"]))
    u = s.unit(uid)
    blocks = max(u.blocks, u.crew)
    t = s.unit(tid)
    if kind == "move":
        return move(s, uid)
    if kind == "cav":
        path = data.draw(st.lists(st.sampled_from(SECTORS), min_size=1, max_size=2))
        return move(s, uid, path=path, facing=data.draw(st.sampled_from("NESW")))
    if kind == "turn":
        return manoeuvre(s, uid, data.draw(st.sampled_from(["left", "right"])))
    if kind == "form":
        return form_up(s, uid, data.draw(st.sampled_from(["column", "line", "square", "disordered"])))
    if kind == "rally":
        return rally(s, uid)
    if kind == "retreat":
        return retreat(s, uid)
    if kind == "fire":
        ftype = data.draw(st.sampled_from(["musket_volley", "artillery_volley"]))
        return fire(s, [{"type": ftype, "unit": uid, "target": tid, "dice": _dice(data.draw, blocks + data.draw(st.integers(0, 2)))}])
    if kind == "charge":
        return charge(s, uid, tid, attacker_dice=_dice(data.draw, u.blocks), defender_dice=_dice(data.draw, t.blocks),
                      counter=data.draw(st.booleans()))
    return forced_flight(s, first=data.draw(st.sampled_from(["south", "north"])))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states(), st.data())
def test_random_legal_sequences_keep_invariants(s, data):
    assert invariant_problems(s) == []
    for _ in range(12):
        try:
            r = random_action(data, s)
        except InputError:
            continue  # wrong dice count: input error, the state is untouched
        if r.ok:
            s = r.state
        assert r.reason.ru and r.reason.en
        assert invariant_problems(s) == []
        assert all(u.blocks >= 0 and u.crew >= 0 for u in s.units)
        on_board = [u.sector for u in s.units if u.on_board]
        assert len(on_board) == len(set(on_board))  # never two units in a sector
        assert all(u.sector is None for u in s.units if not u.on_board)


@settings(max_examples=200, deadline=None)
@given(states())
def test_json_round_trip_identity(s):
    again = GameState.from_dict(json.loads(json.dumps(s.to_dict())))
    assert again == s
    assert again.to_dict() == s.to_dict()


@settings(max_examples=200, deadline=None)
@given(states(), st.data())
def test_chain_panic_terminates(s, data):
    """Everyone routed, any facings, both rear references: the flight ends with sane moves.

    A unit appears at most once in one chain; it may be pushed again by a later, separate flight.
    """
    for u in s.units:
        u.flag, u.routed_since = "routed", 0
        if u.kind != "artillery":
            u.formation = "disordered"
        if u.kind == "artillery" and u.formation == "square":
            u.formation = "disordered"
    r = forced_flight(s, first=data.draw(st.sampled_from(["south", "north"])))
    assert r.ok
    assert invariant_problems(r.state) == []
    moves = [e["unit"] for e in r.changes if e["type"] == "moved"]
    n = len(s.units)
    assert len(moves) <= n * n
    gone = [u for u in r.state.units if not u.on_board]
    assert all(u.location in ("destroyed", "deserted") for u in gone)

"""QMG behind the shared Stepper interface (gameplay/qmg/stepper.py), no Django.

The event log is switching from storing operations to storing commands: replaying the stored
commands from the setup must give the same table as folding the stored operations, and both
the table the game reached move by move.
"""
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.common import Outcome, Stepper
from gameplay.common.stepper import ReplayError
from gameplay.qmg import validate_position
from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.stepper import QmgStepper
from gameplay.qmg.table import COMMAND_TYPES, CommandError, Options, Table, apply_ops, new_table

from .helpers import BOARD

CATALOGUE = default_catalogue()

AM = Options(dealt=12, air_marshal=True, air_limits=tuple(sorted(BOARD.air_forces_default.items())))
TURN_END = [{"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
            {"type": "draw"}]
AIR_TURN_END = [{"type": "end_play"}, {"type": "end_air"}] + TURN_END[1:]


def stored(value):
    """As the database gives it back (JSON)."""
    return json.loads(json.dumps(value))


class Game:
    """A game driven through the stepper, keeping both logs: the commands and their operations."""

    def __init__(self, options=Options()):
        self.stepper = QmgStepper(BOARD, options)
        self.initial = self.stepper.new_state({})
        self.table = self.initial
        self.commands: list[dict] = []
        self.ops: list[list[dict]] = []

    def submit(self, command: dict) -> Outcome:
        command = self.stepper.prepare(self.table, command, random.Random(0))
        out = self.stepper.apply(self.table, command)
        if out.ok:
            assert out.state == apply_ops(self.table, list(out.changes))
            self.commands.append(stored(command))
            self.ops.append(stored(list(out.changes)))
            self.table = out.state
        return out

    def run(self, *commands: dict) -> "Game":
        for cmd in commands:
            out = self.submit(cmd)
            assert out.ok, (cmd, out.reason.en)
        return self

    def replayed_from_ops(self) -> Table:
        table = self.initial
        for ops in self.ops:
            table = apply_ops(table, ops)
        return table

    def check_replays(self) -> None:
        from_commands = self.stepper.replay(self.initial, self.commands)
        assert from_commands == self.replayed_from_ops() == self.table


def play(card_type, **kw):
    return {"type": "play_card", "card_type": card_type, **kw}


# --- the interface -------------------------------------------------------------------------

def test_it_is_a_stepper_with_the_countries_as_sides():
    s: Stepper = QmgStepper(BOARD, AM)
    members = [m for m in vars(Stepper) if not m.startswith("_")] + list(Stepper.__annotations__)
    assert all(hasattr(s, m) for m in members), members
    assert s.kind == "qmg" and s.sides == BOARD.turn_order
    assert s.new_state({}) == s.new_state(None) == new_table(BOARD, AM)
    assert s.side_name("germany", "ru") == "Германия" and s.side_name("germany", "en") == "Germany"


def test_acting_side_is_the_named_country_or_the_active_one():
    s = QmgStepper(BOARD)
    t = s.new_state({})
    assert s.acting_side(t, {"type": "score"}) == "germany"
    assert s.acting_side(t, {"type": "pass", "country": "united_kingdom"}) == "united_kingdom"
    assert s.prepare(t, {"type": "score"}, random.Random(1)) == {"type": "score", "country": "germany"}
    with pytest.raises(CommandError):
        s.acting_side(t, ["not", "a", "dict"])
    with pytest.raises(CommandError):
        s.acting_side(t, {"type": "score", "country": ["germany"]})


def test_apply_refuses_with_a_reason_and_raises_on_malformed_commands():
    s = QmgStepper(BOARD)
    t = s.new_state({})
    out = s.apply(t, {"type": "score"})
    assert not out.ok and out.state is None and out.changes == () and out.reason.code == "turn.wrong_phase"
    with pytest.raises(CommandError):
        s.apply(t, {"type": "no_such_command"})
    with pytest.raises(CommandError):
        s.apply(t, play("build_army"))  # no target space


def test_a_command_without_a_country_needs_none_even_where_the_engine_reads_it():
    g = Game(Options(card_rules=5)).run(play("land_battle", space="eastern_europe"))
    assert g.stepper.apply(g.table, {"type": "pass"}).reason.code == "window.not_yours"  # Germany's team waits


def test_view_for_every_viewer_is_the_whole_table_which_names_no_hidden_card():
    g = Game().run(play("event"), *TURN_END, play("discard_unused"), *TURN_END, play("discard_unused"), *TURN_END,
                   play("response"))  # the USSR plays a response face down
    for viewer in (None, "germany", "soviet_union", ("germany", "italy")):
        assert g.stepper.view_for(g.table, viewer) == g.table
    assert g.table.cards_of("soviet_union").responses == 1
    assert "su_" not in json.dumps(g.stepper.to_json(g.table))


def test_json_round_trip():
    g = Game(AM).run(play("build_army", space="eastern_europe"), {"type": "end_play"},
                     {"type": "deploy_air", "space": "eastern_europe"})
    for table in (g.initial, g.table):
        assert g.stepper.from_json(stored(g.stepper.to_json(table))) == table
    assert Table.from_dict(stored(g.table.to_dict())) == g.table


def test_replay_stops_loudly_at_a_command_that_no_longer_applies():
    g = Game().run(play("event"))
    with pytest.raises(ReplayError, match="play_card"):
        g.stepper.replay(g.initial, g.commands + g.commands)


# --- commands replay = operations replay = the live table ----------------------------------

def test_two_rounds_of_the_standard_game():
    """A game stored under card rules 5 (every country of a team could pass for it) replays exactly."""
    g = Game(Options(reallocate=True, card_rules=5))
    # Germany: a build, the response window both ways, the rest of the turn
    g.run(play("build_army", space="eastern_europe"), {"type": "pass", "country": "united_kingdom"},
          {"type": "pass", "country": "germany"}, {"type": "end_play"}, {"type": "supply"}, {"type": "score"},
          {"type": "discard", "n": 1}, {"type": "draw"})
    # the UK: a named status (it places nothing by itself)
    g.run(play("status", card_id="uk_mackenzie_king"), *TURN_END)
    # Japan: an event with steps
    g.run(play("event"), {"type": "step", "country": "japan", "action": "build_navy", "space": "sea_of_japan"},
          {"type": "step", "country": "japan", "action": "gain_vp", "n": 3}, *TURN_END)
    # the USSR: a response face down
    g.run(play("response"), *TURN_END)
    # Italy: reallocates, then economic warfare on the UK
    g.run({"type": "reallocate", "card_type": "land_battle"}, play("economic_warfare"),
          {"type": "step", "country": "italy", "action": "discard_from_deck", "target_country": "united_kingdom",
           "n": 2}, {"type": "pass", "country": "united_kingdom"}, {"type": "pass", "country": "italy"}, *TURN_END)
    # the USA discards a card unused; the round ends
    g.run(play("discard_unused"), *TURN_END)
    assert (g.table.round, g.table.active(BOARD)) == (2, "germany")
    # round 2: Germany attacks, the USSR reveals its response, a named status is played and used
    g.run(play("land_battle", space="ukraine"), {"type": "use_card", "country": "soviet_union",
                                                 "card_id": "su_stalingrad"},
          {"type": "pass", "country": "germany"}, {"type": "pass", "country": "united_kingdom"},
          {"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 2}, {"type": "draw"})
    g.run(play("discard_unused"), *TURN_END)  # the UK
    # Japan: a named status scoring in its victory step; Germany removes its own piece meanwhile
    g.run(play("status", card_id="jpn_co_prosperity_sphere"),
          {"type": "step", "country": "germany", "action": "remove", "space": "eastern_europe"}, *TURN_END)
    assert g.table.vp_axis > 0 and g.table.vp_allies != 0
    assert len(g.commands) > 50
    g.check_replays()


def test_an_air_marshal_round_with_air_defence_and_strike():
    g = Game(AM)
    g.run(play("build_army", space="eastern_europe"), {"type": "end_play"},
          {"type": "deploy_air", "space": "eastern_europe"}, {"type": "end_air"}, *TURN_END[1:])
    g.run({"type": "bolster", "country": "united_kingdom", "name": "Spitfires"}, play("discard_unused"),
          *AIR_TURN_END)
    g.run(play("discard_unused"), *AIR_TURN_END)  # Japan
    g.run(play("build_army", space="ukraine"), {"type": "end_play"}, {"type": "deploy_air", "space": "ukraine"},
          {"type": "end_air"}, *TURN_END[1:])
    g.run(play("discard_unused"), *AIR_TURN_END)  # Italy
    g.run(play("discard_unused"), *AIR_TURN_END)  # the USA
    g.run(play("land_battle", space="ukraine"), {"type": "air_defence", "country": "soviet_union"},
          {"type": "air_strike", "country": "germany", "from_space": "eastern_europe"},
          {"type": "end_play"}, {"type": "deploy_air", "space": "germany"}, {"type": "end_air"}, *TURN_END[1:])
    assert g.table.attack is None and g.table.round == 2
    g.check_replays()


def test_a_stranded_air_force_retreats_and_moving_costs_a_card():
    g = Game(AM)
    g.run(play("build_army", space="eastern_europe"), {"type": "end_play"},
          {"type": "deploy_air", "space": "germany"}, *AIR_TURN_END[1:])
    g.run(play("event"), {"type": "step", "country": "united_kingdom", "action": "recruit_army", "space": "balkans"},
          *AIR_TURN_END)
    for _ in range(4):
        g.run(play("discard_unused"), *AIR_TURN_END)
    g.run(play("event"), {"type": "end_play"}, {"type": "move_air", "from_space": "germany",
                                                "space": "eastern_europe"}, {"type": "end_air"}, *TURN_END[1:])
    g.run(play("event"), {"type": "step", "country": "united_kingdom", "action": "eliminate",
                          "space": "eastern_europe"},
          {"type": "air_retreat", "country": "germany", "from_space": "eastern_europe", "space": "germany"})
    g.check_replays()


# --- the same over random command sequences ------------------------------------------------

NEXT = {"play": "end_play", "air": "end_air", "supply": "supply", "victory": "score", "discard": "discard",
        "draw": "draw"}
CARD_IDS = ["ger_dive_bombers", "ger_conscription", "ger_plunder", "ger_blitzkrieg", "uk_mackenzie_king",
            "su_stalingrad"]
SPACES = ["germany", "eastern_europe", "western_europe", "balkans", "ukraine", "moscow", "russia", "italy",
          "north_africa", "united_kingdom", "north_sea", "baltic_sea", "mediterranean", "sea_of_japan", "japan",
          "china", "canada", "western_us", "eastern_us"]


def random_command(table, kind, rng) -> dict:
    """Mostly entries that fit the moment (the next step, a card in play, a piece on the board), some junk."""
    if kind == "next":
        if table.phase == "play" and not table.played:
            return play(rng.choice(["event", "status", "response", "economic_warfare", "discard_unused",
                                    "build_army", "land_battle"]), space=rng.choice(SPACES))
        return {"type": NEXT[table.phase], "n": rng.randint(0, 2)}
    cmd = {"type": kind, "space": rng.choice(SPACES), "from_space": rng.choice(SPACES),
           "card_type": rng.choice(["build_army", "build_navy", "land_battle", "sea_battle", "event", "status",
                                    "response", "economic_warfare", "discard_unused", "deploy_air"]),
           "action": rng.choice(["build_army", "recruit_army", "recruit_navy", "eliminate", "remove", "gain_vp",
                                 "discard_from_deck", "land_battle"]),
           "n": rng.randint(0, 3), "target_country": rng.choice(BOARD.turn_order), "name": "bolster"}
    if rng.random() < 0.5:
        cmd["country"] = rng.choice(BOARD.turn_order)
    if rng.random() < 0.4:
        cmd["card_id"] = rng.choice(CARD_IDS)
    if rng.random() < 0.7:
        cmd.update(_fitting(table, kind, rng))
    return cmd


def _fitting(table, kind, rng) -> dict:
    """Fields that make ``kind`` likely to apply now."""
    active = table.active(BOARD)
    own = [p.space for p in table.position.pieces if p.country == active and p.kind != "air"] or SPACES
    air = [p for p in table.position.pieces if p.kind == "air"]
    hit = table.attack or {}
    if kind == "use_card":
        in_play = [(c, x) for c, k in table.cards for x in k.statuses]
        in_play += [(c, r.id) for c, k in table.cards if k.responses for r in CATALOGUE.by_country(c)
                    if r.type == "response"]
        if in_play:
            country, card_id = rng.choice(in_play)
            return {"country": country, "card_id": card_id}
    if kind in ("deploy_air", "move_air"):
        mine = [p.space for p in air if p.country == active] or own
        return {"country": active, "space": rng.choice(own), "from_space": rng.choice(mine)}
    if kind == "air_defence" and hit:
        return {"country": hit["country"]}
    if kind == "air_strike" and hit:
        mine = [p.space for p in air if p.country == hit["attacker"]] or SPACES
        return {"country": hit["attacker"], "from_space": rng.choice(mine)}
    if kind == "air_retreat" and air:
        p = rng.choice(air)
        return {"country": p.country, "from_space": p.space,
                "space": rng.choice(sorted(BOARD.static_neighbours(p.space)) + [""])}
    if kind == "step":
        return {"country": active, "space": rng.choice(SPACES)}
    return {}


@settings(max_examples=50, deadline=None)
@given(air_marshal=st.booleans(), reallocate=st.booleans(), early=st.booleans(),
       steps=st.lists(st.tuples(st.sampled_from(COMMAND_TYPES + ("next",) * 6), st.integers(0, 10**6)),
                      min_size=20, max_size=120))
def test_random_games_replay_the_same_from_commands_and_from_operations(air_marshal, reallocate, early, steps):
    options = AM if air_marshal else Options()
    g = Game(Options(**{**options.__dict__, "reallocate": reallocate, "early_victory": early}))
    for kind, seed in steps:
        try:
            g.submit(random_command(g.table, kind, random.Random(seed)))
        except CommandError:
            continue
    g.check_replays()
    assert g.stepper.from_json(stored(g.stepper.to_json(g.table))) == g.table
    validate_position(BOARD, g.table.position, dict(g.table.options.air_limits) if air_marshal else None)

"""The turn stepper (``gameplay.fog_of_war.stepper.STEPPER``) without HTTP or Django: turns, battles,
refusals with their rule, replay, hidden information per viewer, and the random part of commands."""
import json
import random

import pytest

from gameplay.common import Outcome, Reason
from gameplay.common.stepper import ReplayError
from gameplay.fog_of_war.stepper import (HIDDEN, STEPPER, checklist, choices, engine_of, is_hidden, must_play,
                                         table_stacks, year_end_next)

MODELLED = {"axis_cards": "L3 L2 L1 N2 F1 A2 L4 L5", "allies_cards": "L1 L2 L3 N1 N2 F2 Z A1"}


def new_table(seed=1, **setup):
    return STEPPER.new_state({"settings": {}, "axis_cards": "20", "allies_cards": "20", "neutral_cards": "15",
                              "seed": seed, **setup})


class Table:
    """A game driven through the stepper the way the web layer drives it: prepare, apply, keep the log."""

    def __init__(self, state, seed=7):
        self.initial = self.state = state
        self.log: list[dict] = []
        self.rng = random.Random(seed)

    def hand(self, side):
        return [c.id for c in engine_of(self.state).sides[side].hand]

    def try_(self, command) -> Outcome:
        return STEPPER.apply(self.state, STEPPER.prepare(self.state, command, self.rng))

    def do(self, command) -> Outcome:
        command = STEPPER.prepare(self.state, command, self.rng)
        out = STEPPER.apply(self.state, command)
        assert out.ok, out.reason.en
        self.state = out.state
        self.log.append(command)
        return out

    def engine(self):
        return engine_of(self.state)


def op_ready(t: Table, target="vichy", n=2, defend=1) -> str:
    """Axis plans an op, the Allies defend the target, the Axis rotates: the op is at position 1."""
    t.do({"type": "start_turn", "side": "axis"})
    t.do({"type": "new_op", "side": "axis", "target": target, "cards": t.hand("axis")[:n]})
    t.do({"type": "end_turn", "side": "axis"})
    t.do({"type": "start_turn", "side": "allies"})
    t.do({"type": "defend", "side": "allies", "province": target, "cards": t.hand("allies")[:defend]})
    t.do({"type": "end_turn", "side": "allies"})
    t.do({"type": "start_turn", "side": "axis"})
    return t.engine().sides["axis"].operations[0].slot


def launch(slot, attack, defence, **extra):
    return {"type": "launch", "side": "axis", "slot": slot, "origin": "italy", "supply_reaches": True,
            "wheel_mark": "none", "reveal_attack": attack, "reveal_defence": defence, **extra}


# --- the interface --------------------------------------------------------------------------------

def test_interface_and_json_round_trip():
    state = new_table()
    assert (STEPPER.kind, STEPPER.sides) == ("fog_of_war", ("axis", "allies"))
    assert STEPPER.side_name("axis", "ru") == "Ось" and STEPPER.side_name("allies", "en") == "Allies"
    assert STEPPER.acting_side(state, {"type": "defend", "side": "allies"}) == "allies"
    assert STEPPER.acting_side(state, {"type": "ye_balkans"}) is None
    assert STEPPER.from_json(json.loads(json.dumps(STEPPER.to_json(state)))) == state
    with pytest.raises(ValueError):
        STEPPER.from_json({"engine": {"no_such_field": 1}})
    assert state["ledger"] is True and len(engine_of(state).sides["axis"].hand) == 3
    assert new_table(seed=3) == new_table(seed=3)  # the setup's shuffles come from its seed


def test_a_turn_and_a_battle_then_replay():
    t = Table(new_table())
    out = t.do({"type": "start_turn", "side": "axis"})
    assert isinstance(out.reason, Reason) and "на NEW OP — A" in out.reason.ru and "at NEW OP" in out.reason.en
    t.do({"type": "new_op", "side": "axis", "target": "vichy", "cards": t.hand("axis")[:2]})
    assert must_play(t.engine(), "axis") is False  # a card was played this turn
    out = t.do({"type": "end_turn", "side": "axis"})
    assert t.engine().active_side == "allies" and len(t.engine().sides["axis"].hand) == 3
    t.do({"type": "start_turn", "side": "allies"})
    assert must_play(t.engine(), "allies") is True
    t.do({"type": "defend", "side": "allies", "province": "vichy", "cards": t.hand("allies")[:1]})
    t.do({"type": "end_turn", "side": "allies"})
    t.do({"type": "start_turn", "side": "axis"})
    slot = t.engine().sides["axis"].operations[0].slot
    out = t.do(launch(slot, ["L3", "L2"], ["L1"]))
    assert "A 5 против D 1 — Победа" in out.reason.ru and "A 5 against D 1 — Victory" in out.reason.en
    st = t.engine()
    assert st.provinces["vichy"].control == "axis" and [c.land for c in st.sides["axis"].wins] == [2]
    assert t.state["battles"][-1]["outcome"] == "victory" and t.state["supply_answers"] == {}
    assert must_play(t.engine(), "axis") is True  # a launch plays no hand card
    t.do({"type": "defend", "side": "axis", "province": "vichy", "cards": t.hand("axis")[:1]})
    t.do({"type": "end_turn", "side": "axis"})
    assert STEPPER.replay(t.initial, t.log) == t.state
    assert json.loads(json.dumps(t.state)) == t.state  # the state is plain JSON


def test_a_replay_stops_at_a_command_that_no_longer_applies():
    t = Table(new_table())
    t.do({"type": "start_turn", "side": "axis"})
    with pytest.raises(ReplayError):
        STEPPER.replay(t.initial, t.log + t.log)  # the wheel cannot be rotated twice


# --- refusals -------------------------------------------------------------------------------------

def test_refusals_name_their_rule_in_both_languages_and_change_nothing():
    t = Table(new_table())
    out = t.try_({"type": "defend", "side": "axis", "province": "berlin", "cards": t.hand("axis")[:1]})
    assert not out.ok and out.state is None
    assert (out.reason.code, out.reason.rule) == ("fow.rotate_first", "§2.2")
    assert "поверните колесо" in out.reason.ru and "Rotate the operations wheel" in out.reason.en
    t.do({"type": "start_turn", "side": "axis"})
    before = t.state
    out = t.try_({"type": "new_op", "side": "axis", "target": "berlin", "cards": t.hand("axis")[:1]})
    assert not out.ok and (out.reason.code, out.reason.rule) == ("target_own", "§2.4 #2")
    assert "нейтральной или вражеской" in out.reason.ru and "§2.4 #2" in out.reason.ru
    assert "must be neutral or enemy-controlled" in out.reason.en and "§2.4 #2" in out.reason.en
    out = t.try_({"type": "end_turn", "side": "axis"})
    assert out.reason.code == "must_play" and "B-39" in out.reason.rule and "B-39" in out.reason.en
    out = t.try_({"type": "start_turn", "side": "allies"})
    assert out.reason.code == "fow.not_your_turn" and out.reason.rule == "§2.2"
    assert t.try_({"type": "teleport", "side": "axis"}).reason.code == "fow.unknown"
    assert t.try_({"type": "defend", "side": "axis", "province": "berlin", "cards": "ax-1"}).reason.code == "fow.invalid"
    assert t.try_({"type": "defend", "side": "russia"}).reason.code == "fow.invalid"
    assert t.state is before


def test_ledger_reveal_must_type_every_value():
    t = Table(new_table())
    slot = op_ready(t)
    out = t.try_(launch(slot, ["L3"], ["L1"]))
    assert out.reason.code == "fow.reveal" and "нужно 2, введено 1" in out.reason.ru and out.reason.rule == "§2.5"
    out = t.try_({**launch(slot, ["L3", "L2"], ["L1"]), "supply_reaches": None})
    assert out.reason.code == "fow.ask_supply_target" and "§2.5" in out.reason.en
    out = t.try_({**launch(slot, ["L3", "L2"], ["L1"]), "wheel_mark": None})
    assert out.reason.code == "wheel_mark_unknown" and "position 1" in out.reason.en  # B-3: asked until entered


# --- the year end ---------------------------------------------------------------------------------

def test_a_year_end_runs_in_the_engine_order():
    t = Table(new_table(axis_cards="4", allies_cards="4", settings={"exhausted_turn_mode": "own_turns"}))
    for side, province in (("axis", "berlin"), ("allies", "britain")):
        t.do({"type": "start_turn", "side": side})
        t.do({"type": "defend", "side": side, "province": province, "cards": t.hand(side)[:1]})
        t.do({"type": "end_turn", "side": side})
    st = t.engine()
    assert st.phase == "year_end" and year_end_next(st) == ("3.1", None)
    out = t.try_({"type": "ye_refresh_intel"})
    assert out.reason.code == "fow.ye_order" and "3.1" in out.reason.ru and out.reason.rule == "§2.13"
    t.do({"type": "ye_score_vp", "vp_gain": 7})
    assert t.engine().sides["axis"].vp == 7
    command = STEPPER.prepare(t.state, {"type": "ye_split_wins"}, random.Random(1))
    assert isinstance(command["seed"], int)
    t.do(command)
    t.do({"type": "ye_refresh_intel"})
    ye = checklist(t.engine())
    assert (ye["next"], ye["next_side"], ye["next_command"]) == ("3.5", "allies", "ye_spend")
    assert [(s["key"], s["side"]) for s in ye["steps"] if s["key"] == "3.5"] == [("3.5", "allies"), ("3.5", "axis")]
    assert ye["numbers"]["first"] in ("axis", "allies") and "vp_gain" not in ye["numbers"]  # no map
    out = t.try_({"type": "ye_spend", "side": "axis", "resources": 5})
    assert out.reason.code == "fow.ye_order" and "Allies" in out.reason.en  # the side without superiority first
    t.do({"type": "ye_spend", "side": "allies", "resources": 5, "level": 1})
    assert STEPPER.replay(t.initial, t.log) == t.state


# --- hidden information ---------------------------------------------------------------------------

def test_view_for_hides_the_opponents_hand_and_targets_and_keeps_the_viewers_own():
    t = Table(new_table(**MODELLED))
    t.do({"type": "start_turn", "side": "axis"})
    t.do({"type": "new_op", "side": "axis", "target": "vichy", "cards": t.hand("axis")[:1]})
    st = t.engine()
    secret_axis = [c.id for c in st.sides["axis"].hand + st.sides["axis"].operations[0].cards]
    secret_allies = [c.id for c in st.sides["allies"].hand]

    allies = STEPPER.view_for(t.state, "allies")
    seen = engine_of(allies)
    assert len(seen.sides["axis"].hand) == 2 and all(is_hidden(c) for c in seen.sides["axis"].hand)
    op = seen.sides["axis"].operations[0]
    assert op.target == HIDDEN and len(op.cards) == 1 and is_hidden(op.cards[0])
    assert "vichy" not in seen.sides["axis"].province_deck + [HIDDEN]
    assert [c.id for c in seen.sides["allies"].hand] == secret_allies
    text = json.dumps(allies)
    assert not any(f'"{cid}"' in text for cid in secret_axis)
    assert "piles" in allies["masked"]["axis"] and "hand" not in allies["masked"]["allies"]

    axis = engine_of(STEPPER.view_for(t.state, "axis"))
    assert axis.sides["axis"].operations[0].target == "vichy"
    assert [c.id for c in axis.sides["axis"].operations[0].cards] == [c.id for c in st.sides["axis"].operations[0].cards]
    assert all(is_hidden(c) for c in axis.sides["allies"].hand) and all(is_hidden(c) for c in axis.sides["axis"].deck)

    public = json.dumps(STEPPER.view_for(t.state, None))
    assert not any(f'"{cid}"' in public for cid in secret_axis + secret_allies)
    assert choices(engine_of(allies), "allies")["enemy_ops"] == [op.slot]
    assert choices(axis, "axis")["ops"] == [(op.slot, "vichy", 0)]
    assert t.state["engine"]["sides"]["axis"]["operations"][0]["target"] == "vichy"  # the table itself is untouched


def test_view_for_keeps_intel_results_and_objectives_for_their_owner():
    t = Table(new_table())
    t.do({"type": "start_turn", "side": "axis"})
    t.do({"type": "defend", "side": "axis", "province": "berlin", "cards": t.hand("axis")[:3]})
    t.do({"type": "end_turn", "side": "axis"})
    t.do({"type": "start_turn", "side": "allies"})
    out = t.do({"type": "intel", "side": "allies", "target": {"kind": "defence", "province": "berlin"}})
    assert "видно 1 из 3" in out.reason.ru and "seed" in t.log[-1]
    assert len(STEPPER.view_for(t.state, "allies")["intel_seen"]["allies"]) == 1
    for viewer in ("axis", None):
        view = STEPPER.view_for(t.state, viewer)
        assert view["intel_seen"] == {"axis": [], "allies": []} and len(view["intel"]) == 1  # the attempt is public
    axis = engine_of(STEPPER.view_for(t.state, "axis")).objectives
    allies = engine_of(STEPPER.view_for(t.state, "allies")).objectives
    assert [o.province for o in axis if o.location != "near_morocco"] == [None, None, None]  # held, not entered
    assert {o.province for o in allies} == {HIDDEN}


# --- the random part of commands --------------------------------------------------------------------

def test_prepare_is_reproducible_and_leaves_plain_commands_unchanged():
    state = new_table()
    for command in ({"type": "start_turn", "side": "axis"}, {"type": "defend", "side": "axis", "province": "berlin",
                                                               "cards": ["ax-1"]}, {"type": "ye_balkans"}):
        assert STEPPER.prepare(state, command, random.Random(1)) == command
    intel = {"type": "intel", "side": "axis", "target": {"kind": "neutral", "province": "balkans"}}
    first = STEPPER.prepare(state, intel, random.Random(42))
    assert first == STEPPER.prepare(state, intel, random.Random(42)) and "seed" not in intel
    assert STEPPER.prepare(state, first, random.Random(9)) == first  # already drawn: kept


def test_a_quagmire_drawn_once_gives_the_same_losses_on_replay():
    t = Table(new_table())
    slot = op_ready(t)
    command = launch(slot, ["L2", "L1"], ["L3"])
    assert table_stacks(t.engine(), "axis", command)[0] == [c.id for c in t.engine().sides["axis"].operations[0].cards]
    prepared = STEPPER.prepare(t.state, command, random.Random(5))
    assert prepared == STEPPER.prepare(t.state, command, random.Random(5))
    choice = prepared["quagmire_choice"]
    assert len(choice["attacker"]) == 1 and len(choice["defender"]) == 1
    out = t.do(prepared)
    assert "Упорные бои" in out.reason.ru
    st = t.engine()
    assert [c.id for c in st.sides["axis"].losses] == choice["attacker"]
    assert [c.id for c in st.sides["allies"].losses] == choice["defender"]
    assert st.provinces["vichy"].quagmire.attacker == "axis"
    assert STEPPER.replay(t.initial, t.log) == t.state
    assert STEPPER.apply(STEPPER.replay(t.initial, t.log[:-1]), prepared).state == t.state


def test_the_tables_own_quagmire_choice_is_kept():
    t = Table(new_table())
    slot = op_ready(t)
    attack = [c.id for c in t.engine().sides["axis"].operations[0].cards]
    defence = [c.id for c in t.engine().provinces["vichy"].defence["allies"]]
    own = {"attacker": attack[:1], "defender": defence}
    command = launch(slot, ["L2", "L1"], ["L3"], quagmire_choice=own)
    assert STEPPER.prepare(t.state, command, random.Random(5))["quagmire_choice"] == own


# --- the battle calculator ----------------------------------------------------------------------------

def test_preview_computes_without_storing_and_only_in_ledger_mode():
    t = Table(new_table())
    slot = op_ready(t)
    out = STEPPER.preview(t.state, launch(slot, ["L3", "L2"], ["L1"]))
    assert out.ok and out.state is t.state
    b = out.data["battle"]
    assert (b["a"], b["d"], b["outcome"]) == (5, 1, "victory") and out.data["random_quagmire"] is False
    out = STEPPER.preview(t.state, launch(slot, ["L2", "L1"], ["L3"]))
    assert out.data["battle"]["outcome"] == "quagmire" and out.data["random_quagmire"] is True
    assert STEPPER.preview(t.state, launch(slot, ["L3"], ["L1"])).reason.code == "fow.reveal"
    modelled = Table(new_table(**MODELLED))
    out = STEPPER.preview(modelled.state, launch("A", [], []))
    assert not out.ok and out.reason.code == "fow.no_preview" and out.reason.ru and out.reason.en

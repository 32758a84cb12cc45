"""The Generalissimus stepper without the web: a whole turn, refusals with their rule in both
languages, replay, what each viewer may see, digital dice, and the rule queries of the page."""
import json
import random

import pytest

from gameplay.common import Outcome, Reason
from gameplay.common.stepper import ReplayError
from gameplay.generalissimus import SettingsError, StateError
from gameplay.generalissimus.queries import (card_counts, choosers, dice_needs, engine_of, open_needs, setup_warnings,
                                             unit_options, zone_order_chooser)
from gameplay.generalissimus.stepper import HIDDEN, STEPPER, PrepareError, initial_state

from .helpers import U, board

# the "contact" drill of the setup page: two small lines face to face in the centre
UNITS = [
    U("S-inf-1", "s", "infantry", "c3", formation="line"), U("S-inf-2", "s", "infantry", "d3"),
    U("S-cav-1", "s", "cavalry", "b1"), U("S-art-1", "s", "artillery", "e1"),
    U("N-inf-1", "n", "infantry", "c4", formation="line"), U("N-inf-2", "n", "infantry", "d4", formation="line"),
    U("N-cav-1", "n", "cavalry", "e6"), U("N-art-1", "n", "artillery", "b6"),
]
PLAYERS = {"south": "Аня", "north": "Боря"}


def new(settings=None, units=UNITS):
    """The contact drill deploys on three rows per side (the preset sets ``deploy_rows`` = 3)."""
    return STEPPER.new_state({"units": units, "terrain": {}, "settings": {"deploy_rows": 3, **(settings or {})},
                              "piles": None, "players": PLAYERS})


class Table:
    """Applies commands through the stepper, keeping the accepted ones (the event log)."""

    def __init__(self, state):
        self.initial = state
        self.state = state
        self.log = []

    def do(self, **command) -> Outcome:
        out = STEPPER.apply(self.state, command)
        assert isinstance(out, Outcome)
        assert out.ok, out.reason.en
        self.state = out.state
        self.log.append(command)
        return out

    def refuse(self, **command) -> Outcome:
        before = json.dumps(self.state, sort_keys=True)
        out = STEPPER.apply(self.state, command)
        assert not out.ok and out.state is None
        assert json.dumps(self.state, sort_keys=True) == before  # a refusal changes nothing
        return out

    @property
    def engine(self):
        return engine_of(self.state)


def names_rule(reason: Reason, ru: str, en: str) -> bool:
    return isinstance(reason, Reason) and ru in reason.ru and en in reason.en and reason.ru != reason.en


def orders(t: Table):
    for side in ("south", "north"):
        t.do(type="place", side=side, card_type="musket_volley", zone="center")
        t.do(type="place", side=side, card_type="bayonets", zone="center")
    t.do(type="confirm", side="south")
    t.do(type="confirm", side="north")


def to_actions(t: Table):
    orders(t)
    t.do(type="initiative", south=5, north=2, source="physical")
    t.do(type="zones", side="south", sequence=["center", "west", "east"])


# --- a whole turn --------------------------------------------------------------------------------

def test_a_whole_turn_through_the_stepper_replays_to_the_same_state():
    t = Table(new())
    assert t.engine.phase == "orders" and t.state["players"] == PLAYERS
    orders(t)
    assert t.engine.phase == "initiative"
    tie = t.do(type="initiative", south=4, north=4, source="physical")
    assert names_rule(tie.reason, "перебросить", "roll again")
    t.do(type="initiative", south=5, north=2, source="physical")
    assert zone_order_chooser(t.engine) == "south"
    t.do(type="zones", side="south", sequence=["center", "west", "east"])
    assert t.engine.phase == "actions" and choosers(t.state) == ["south", "north"]

    # step 1: both volley; the cards are revealed together, then each side rolls its fire dice
    chosen = t.do(type="choose", side="south", card="S-musket_volley-1", unit="S-inf-1", target="N-inf-1")
    assert t.state["pending"]["south"]["card"] == "S-musket_volley-1" and not t.state["reveal"]
    assert "face down" in chosen.reason.en
    t.do(type="choose", side="north", card="N-musket_volley-1", unit="N-inf-1", target="S-inf-1")
    assert t.state["reveal"]["zone"] == "center" and choosers(t.state) == []
    needs = dice_needs(t.state)
    assert [(n["side"], n["roll"], n["n"], n["hit"]) for n in needs] == [("south", "fire", 3, 4), ("north", "fire", 3, 4)]
    t.do(type="dice", side="south", roll="fire", faces=[4, 1, 1], source="physical")
    done = t.do(type="dice", side="north", roll="fire", faces=[1, 2, 2], source="physical")
    assert done.reason.code == "step_done" and ("1 hit" in done.reason.en and "попаданий 1" in done.reason.ru)
    assert t.engine.unit("N-inf-1").blocks == 2 and t.engine.step == 1 and t.state["reveal"] is None

    # step 2: South charges, North meets it with Bayonets! (one melee, both roll)
    t.do(type="choose", side="south", card="S-bayonets-1", unit="S-inf-2", target="N-inf-2")
    t.do(type="choose", side="north", card="N-bayonets-1", unit="N-inf-2")
    assert [(n["side"], n["roll"], n["role"]) for n in dice_needs(t.state)] == [
        ("south", "melee", "attacker"), ("north", "melee", "defender")]
    t.do(type="dice", side="north", roll="melee", faces=[1, 1, 1], source="physical")
    t.do(type="dice", side="south", roll="melee", faces=[6, 6, 6], source="digital")
    # North lost: its owner chooses where the unit falls back, among the engine's options (proposal first)
    need = [n for n in open_needs(t.state)]
    assert [(n["side"], n["roll"], n["unit"], n["options"]) for n in need] == [("north", "retreat", "N-inf-2", ["d5", "c5", "e5"])]
    t.refuse(type="retreat_choice", side="south", unit="N-inf-2", sector="d5")  # not South's unit
    bad = t.refuse(type="retreat_choice", side="north", unit="N-inf-2", sector="d6")
    assert names_rule(bad.reason, "порядок отступления", "retreat procedure")
    won = t.do(type="retreat_choice", side="north", unit="N-inf-2", sector="d5")
    assert "wins 19 to 3" in won.reason.en and "побеждает 19:3" in won.reason.ru
    assert won.changes  # the engine's events of the step
    n2, s2 = t.engine.unit("N-inf-2"), t.engine.unit("S-inf-2")
    assert n2.routed and n2.sector == "d5" and s2.sector == "d4"
    assert t.engine.phase == "end_of_turn"
    assert [s["cards"]["south"]["state"] for s in t.state["steps"]] == ["executed", "executed"]

    ended = t.do(type="end_turn")
    assert t.engine.turn == 2 and t.engine.phase == "orders"
    assert names_rule(ended.reason, "конец хода", "end of turn")

    # the log of accepted commands rebuilds the state exactly
    assert STEPPER.replay(t.initial, t.log) == t.state
    assert STEPPER.from_json(json.loads(json.dumps(STEPPER.to_json(t.state)))) == t.state


def test_replay_stops_loudly_on_a_command_that_no_longer_applies():
    with pytest.raises(ReplayError):
        STEPPER.replay(new(), [{"type": "confirm", "side": "south"}, {"type": "confirm", "side": "south"}])


def test_a_warning_note_for_a_card_that_would_be_void():
    t = Table(new())
    to_actions(t)
    out = t.do(type="choose", side="south", card="S-bayonets-1", unit="S-inf-1", target="N-inf-2")
    assert [n.code for n in out.notes] == ["warn"]
    assert "Warning" in out.notes[0].en and "Внимание" in out.notes[0].ru
    t.do(type="choose", side="north", card="N-bayonets-1", unit="N-inf-2")  # nothing to roll: resolved
    last = t.state["steps"][-1]["cards"]["south"]
    assert last["state"] == "void" and "прямо перед собой" in last["reason"]["ru"]


# --- refusals -------------------------------------------------------------------------------------

def test_refusals_carry_a_reason_in_both_languages_naming_the_rule():
    t = Table(new())
    for _ in range(2):
        t.do(type="place", side="south", card_type="retreat", zone="west")
    assert names_rule(t.refuse(type="place", side="south", card_type="retreat", zone="west").reason,
                      "стопка приказов", "order pile")
    assert names_rule(t.refuse(type="unplace", side="south", card="S-move-1").reason, "фаза приказов", "orders phase")
    t.do(type="confirm", side="south")
    assert names_rule(t.refuse(type="confirm", side="south").reason, "фаза приказов", "orders phase")
    assert names_rule(t.refuse(type="dice", side="south", roll="fire", faces=[1, 2, 3]).reason,
                      "фаза действий", "actions phase")
    assert names_rule(t.refuse(type="end_turn").reason, "порядок хода", "turn sequence")
    assert names_rule(t.refuse(type="teleport", side="south").reason, "порядок хода", "turn sequence")
    bad = t.refuse(type="place", side="south", card_type="nuke", zone="west")
    assert bad.reason.code == "invalid" and names_rule(bad.reason, "формат команды", "command format")
    t.do(type="confirm", side="north")
    t.do(type="initiative", south=2, north=5, source="physical")
    assert names_rule(t.refuse(type="zones", side="south", sequence=["east", "center", "west"]).reason,
                      "победитель инициативы", "initiative winner")
    assert t.refuse(type="initiative", south=3, north=9).reason.code == "invalid"


def test_choose_refusals_name_the_rule():
    t = Table(new())
    orders(t)
    t.do(type="initiative", south=5, north=2, source="physical")
    assert names_rule(t.refuse(type="choose", side="south", card="S-bayonets-1", unit="S-inf-1").reason,
                      "порядок хода", "turn sequence")
    t.do(type="zones", side="south", sequence=["center", "west", "east"])
    assert names_rule(t.refuse(type="choose", side="south", card="N-bayonets-1", unit="S-inf-1").reason,
                      "фаза действий", "actions phase")
    assert names_rule(t.refuse(type="choose", side="south", card="S-bayonets-1", unit="N-inf-1").reason,
                      "один приказ", "one card, one unit")
    t.do(type="choose", side="south", card="S-musket_volley-1", unit="S-inf-1", target="N-inf-1")
    assert names_rule(t.refuse(type="choose", side="south", card="S-bayonets-1", unit="S-inf-2").reason,
                      "одна карта за шаг", "one card per step")
    t.do(type="choose", side="north", card="N-musket_volley-1", unit="N-inf-1", target="S-inf-1")
    wrong = t.refuse(type="dice", side="south", roll="fire", faces=[4, 1])
    assert wrong.reason.code == "bad_dice" and wrong.data == {"n": 3}
    assert names_rule(wrong.reason, "правила стрельбы", "fire and melee rules")
    assert names_rule(t.refuse(type="dice", side="south", roll="melee", faces=[1, 1, 1]).reason,
                      "фаза действий", "actions phase")


def test_a_finished_game_refuses_everything():
    units = [U("S1", "s", "infantry", "c3"), U("N1", "n", "infantry", "c6", location="destroyed")]
    state = new(units=units)
    state["engine"]["phase"], state["engine"]["winner"] = "finished", "south"
    out = STEPPER.apply(state, {"type": "place", "side": "south", "card_type": "move", "zone": "west"})
    assert not out.ok and names_rule(out.reason, "правило победы", "victory rule")


# --- hidden information ---------------------------------------------------------------------------

def test_view_for_hides_the_other_sides_cards_and_keeps_the_viewers_own():
    t = Table(new())
    t.do(type="place", side="north", card_type="bayonets", zone="center")
    t.do(type="place", side="north", card_type="artillery_volley", zone="east")
    t.do(type="place", side="south", card_type="move", zone="west")
    full = json.dumps(t.state)
    south = STEPPER.view_for(t.state, "south")
    text = json.dumps(south, ensure_ascii=False)
    assert "N-" not in text.replace("N-inf", "").replace("N-cav", "").replace("N-art", "")  # no North card at all
    assert {c["id"] for c in south["engine"]["cards"]} == {c["id"] for c in t.state["engine"]["cards"] if c["owner"] == "south"}
    assert south["hidden"] == {"north": {"placed": {"west": 0, "center": 1, "east": 1}, "in_pile": 18}}
    assert card_counts(south) == card_counts(t.state)
    assert engine_of(south).phase == "orders"  # still a valid engine state
    north = STEPPER.view_for(t.state, ("north",))
    assert {"N-bayonets-1", "N-artillery_volley-1"} <= {c["id"] for c in north["engine"]["cards"]}
    assert not any(c["owner"] == "south" for c in north["engine"]["cards"])
    public = STEPPER.view_for(t.state, None)
    assert public["engine"]["cards"] == [] and set(public["hidden"]) == {"south", "north"}
    both = STEPPER.view_for(t.state, ("south", "north"))
    assert both["engine"] == t.state["engine"] and both["hidden"] == {}
    assert json.dumps(t.state) == full  # the stored state is untouched


def test_view_for_hides_the_other_sides_pending_choice_until_the_reveal():
    t = Table(new())
    to_actions(t)
    t.do(type="choose", side="north", card="N-bayonets-1", unit="N-inf-2")
    south = STEPPER.view_for(t.state, "south")
    assert south["pending"] == {"south": None, "north": HIDDEN}
    assert "N-bayonets-1" not in json.dumps(south)
    assert choosers(south) == ["south", "north"]  # the page still knows who has chosen (not what)
    assert STEPPER.view_for(t.state, "north")["pending"]["north"] == {"card": "N-bayonets-1", "unit": "N-inf-2"}
    # once both have chosen the step's cards are public to everybody
    t.do(type="choose", side="south", card="S-musket_volley-1", unit="S-inf-1", target="N-inf-1")
    for viewer in ("south", "north", None):
        view = STEPPER.view_for(t.state, viewer)
        ids = {c["id"] for c in view["engine"]["cards"]}
        assert {"N-bayonets-1", "S-musket_volley-1"} <= ids
        assert "N-musket_volley-1" not in ids or viewer == "north"
        assert [n["key"] for n in dice_needs(view)] == [n["key"] for n in dice_needs(t.state)]


# --- digital dice ----------------------------------------------------------------------------------

def test_prepare_rolls_digital_dice_reproducibly_and_leaves_other_commands_alone():
    t = Table(new())
    orders(t)
    cmd = {"type": "initiative", "source": "digital"}
    a = STEPPER.prepare(t.state, cmd, random.Random(11))
    b = STEPPER.prepare(t.state, cmd, random.Random(11))
    assert a == b and cmd == {"type": "initiative", "source": "digital"}
    assert 1 <= a["south"] <= 6 and 1 <= a["north"] <= 6
    assert STEPPER.prepare(t.state, a, random.Random(5)) == a  # already rolled: unchanged
    physical = {"type": "initiative", "south": 5, "north": 2, "source": "physical"}
    assert STEPPER.prepare(t.state, physical, random.Random(1)) is physical
    t.do(**physical)
    t.do(type="zones", side="south", sequence=["center", "west", "east"])
    for command in ({"type": "choose", "side": "south", "card": "S-musket_volley-1", "unit": "S-inf-1", "target": "N-inf-1"},
                    {"type": "end_turn"}, {"type": "place", "side": "south", "card_type": "move", "zone": "west"}):
        assert STEPPER.prepare(t.state, command, random.Random(1)) is command
    t.do(type="choose", side="south", card="S-musket_volley-1", unit="S-inf-1", target="N-inf-1")
    t.do(type="choose", side="north", card="N-musket_volley-1", unit="N-inf-1", target="S-inf-1")
    roll = {"type": "dice", "side": "north", "roll": "fire", "source": "digital"}
    one, two = (STEPPER.prepare(t.state, roll, random.Random(3)) for _ in range(2))
    assert one == two and len(one["faces"]) == 3 and all(1 <= f <= 6 for f in one["faces"])
    t.do(**one)
    assert t.state["reveal"]["dice"]["fire-north"] == {"faces": one["faces"], "source": "digital"}
    # nothing for this side to roll: left as it is, and apply refuses it
    again = {"type": "dice", "side": "north", "roll": "fire", "source": "digital"}
    assert STEPPER.prepare(t.state, again, random.Random(3)) == again
    t.refuse(**again)


def test_prepare_refuses_digital_dice_when_they_are_switched_off():
    t = Table(new({"allow_digital_dice": False}))
    orders(t)
    with pytest.raises(PrepareError) as info:
        STEPPER.prepare(t.state, {"type": "initiative", "source": "digital"}, random.Random(1))
    assert names_rule(info.value.reason, "allow_digital_dice", "allow_digital_dice")
    physical = {"type": "initiative", "south": 1, "north": 2, "source": "physical"}
    assert STEPPER.prepare(t.state, physical, random.Random(1)) is physical


# --- the page's rule queries -----------------------------------------------------------------------

def test_unit_options_answer_card_by_card_with_reasons():
    st = engine_of(new())
    inf = unit_options(st, "S-inf-1")
    assert inf.zone == "center"
    by_card = {o.card: o for o in inf.options}
    assert set(by_card) == {"move", "musket_volley", "bayonets", "manoeuvre", "form_up", "retreat"}
    assert not by_card["move"].ok and by_card["move"].reason.code == "occupied"  # N-inf-1 stands in front
    assert by_card["musket_volley"].ok and by_card["musket_volley"].data["targets"] == ["N-inf-1", "N-inf-2"]
    assert by_card["bayonets"].ok and "N-inf-1" in by_card["bayonets"].reason.en
    assert by_card["form_up"].data["formations"] == ["column", "square", "disordered"]
    assert "каре" in by_card["form_up"].reason.ru and "square" in by_card["form_up"].reason.en
    assert inf.targets == {"c4", "d4"} and inf.move == frozenset()
    for o in inf.options:
        assert o.reason.ru and o.reason.en and o.reason.ru != o.reason.en
    cav = unit_options(st, "S-cav-1")
    assert {"b2", "a2", "c2", "b3", "a3", "c3"} - {"c3"} <= cav.move and "c3" not in cav.move  # c3: own unit
    assert {o.card for o in cav.options} == {"move", "bayonets", "manoeuvre", "form_up", "retreat"}
    art = {o.card: o for o in unit_options(st, "N-art-1").options}
    assert not art["artillery_volley"].ok and art["artillery_volley"].reason.code in ("art_range", "art_arc")
    assert unit_options(st, "nope") is None


def test_unit_options_for_routed_and_reserve_units():
    units = [U("S1", "s", "infantry", "c3", flag="routed", formation="disordered"),
             U("S2", "s", "infantry", None, location="reserve"), U("N1", "n", "infantry", "c6")]
    st = board(*units)
    routed = unit_options(st, "S1")
    assert routed.zone is None and [o.card for o in routed.options] == ["rally"]
    assert names_rule(routed.options[0].reason, "правило бегства", "rout rule")
    reserve = unit_options(st, "S2")
    assert [o.card for o in reserve.options] == ["move"] and "reserve entry" in reserve.options[0].reason.en


def test_setup_warnings_and_bad_setups():
    lopsided = [U("S1", "s", "infantry", "c1"), U("S2", "s", "infantry", "d1"), U("N1", "n", "infantry", "c6")]
    warnings = setup_warnings(lopsided, {})
    assert [w.code for w in warnings] == ["unequal_sides"]
    assert "South 6 blocks, North 3 blocks" in warnings[0].en and "у Юга 6" in warnings[0].ru
    assert setup_warnings(UNITS, {"pile_composition": {"move": 15}}) == []
    small = setup_warnings(UNITS, {"pile_composition": {"move": 5}})
    assert [w.code for w in small] == ["pile_size"] and names_rule(small[0], "15–20", "15–20")
    with pytest.raises(StateError):
        new(units=[U("S1", "s", "infantry", "c3"), U("S2", "s", "infantry", "c3")])
    with pytest.raises(SettingsError):
        initial_state(UNITS, {}, {"no_such_setting": 1}, None, PLAYERS)


def test_seats_and_names():
    assert STEPPER.kind == "generalissimus" and STEPPER.sides == ("south", "north")
    assert STEPPER.side_name("north", "ru") == "Север" and STEPPER.side_name("north", "en") == "North"
    state = new()
    assert STEPPER.acting_side(state, {"type": "place", "side": "north"}) == "north"
    assert STEPPER.acting_side(state, {"type": "initiative"}) is None
    assert STEPPER.acting_side(state, {"type": "end_turn"}) is None
    assert STEPPER.acting_side(state, {"type": "place", "side": "east"}) == "?"
    copy = STEPPER.to_json(state)
    assert copy == state and copy is not state

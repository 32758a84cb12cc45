"""The engine plays the cards — steps tied to the card, costs, copies, responses that
interrupt — through ``qmg_play``-shaped scenarios (``gameplay.qmg.scenario.run_scenario``)."""
import random
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gameplay.qmg import Piece, Position, check_position, sudden_victory, validate_position
from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.program import coverage
from gameplay.qmg.sample import random_position
from gameplay.qmg.scenario import run_scenario, setup_table
from gameplay.qmg.state import PositionError
from gameplay.qmg.stepper import QmgStepper
from gameplay.qmg.table import (
    GUIDED_ACTIONS, CommandError, apply_command, apply_ops, face_down_refusal, new_table, reminders, step_choices,
)

from .helpers import BOARD


def piece(country, kind, space):
    return {"country": country, "kind": kind, "space": space}


def run(commands, pieces=(), **kw):
    return run_scenario({"pieces": [piece(*p.split()) for p in pieces], "commands": commands, **kw})


def play(card_type, card_id=None, **kw):
    cmd = {"type": "play_card", "card_type": card_type, **kw}
    if card_id:
        cmd["card_id"] = card_id
    return cmd


def step(country, action, space=None, **kw):
    cmd = {"type": "step", "country": country, "action": action, **kw}
    if space:
        cmd["space"] = space
    return cmd


def use(country, card_id):
    return {"type": "use_card", "country": country, "card_id": card_id}


def pass_(country):
    return {"type": "pass", "country": country}


def has(state, country, kind, space):
    return piece(country, kind, space) in state["pieces"]


# --- the failing examples of the issue ----------------------------------------------------

def test_build_army_allows_one_army_only():
    out = run([play("build_army", "ger_build_army", space="eastern_europe"),
               step("germany", "build_army", "balkans")],
              ["germany army germany"])
    first, second = out["commands"]
    assert first["applied"] and not second["applied"]
    assert second["code"] == "step.no_card" and "Создайте армию" in second["reason"]["ru"]
    assert "Build Army" in second["reason"]["en"]
    assert not has(out["state"], "germany", "army", "balkans")


def test_mare_nostrum_gives_no_free_navy():
    out = run([play("status", "ita_mare_nostrum"), step("italy", "build_navy", "mediterranean")],
              ["italy army italy"], active="italy")
    assert out["commands"][0]["applied"] and not out["commands"][1]["applied"]
    assert "ita_mare_nostrum" in out["state"]["cards"]["italy"]["statuses"]


def test_mare_nostrum_scores_the_same_at_the_table_and_in_qmg_check():
    pieces = ["italy army italy", "italy navy mediterranean"]
    out = run([{"type": "score"}], pieces, active="italy", phase="victory",
              cards={"italy": {"statuses": ["ita_mare_nostrum"]}})
    check = check_position({"pieces": [piece(*p.split()) for p in pieces], "statuses": ["ita_mare_nostrum"]})
    assert out["state"]["vp"]["axis"] == check["victory_phase"]["italy"]["points"] == 3


def test_pearl_harbor_builds_only_where_the_card_says():
    pieces = ["united_states army western_us"]
    out = run([play("event", "us_fleet_deployed_to_pearl_harbor"), step("united_states", "build_army", "eastern_us"),
               step("united_states", "build_navy", "eastern_pacific")], pieces, active="united_states")
    played, wrong, right = out["commands"]
    assert played["applied"] and played["pending"][0]["card"] == "us_fleet_deployed_to_pearl_harbor"
    assert not wrong["applied"] and wrong["code"] == "step.not_on_card"
    assert "Пёрл-Харбор" in wrong["reason"]["ru"] or "Перл-Харбор" in wrong["reason"]["ru"]
    assert right["applied"] and has(out["state"], "united_states", "navy", "eastern_pacific")
    assert not has(out["state"], "united_states", "army", "eastern_us")


def test_a_card_discarded_unused_does_nothing():
    out = run([play("discard_unused"), step("germany", "build_army", "eastern_europe"),
               step("germany", "gain_vp", n=20), step("soviet_union", "recruit_army", "ukraine")],
              ["germany army germany"])
    assert out["commands"][0]["applied"]
    assert [c["applied"] for c in out["commands"][1:]] == [False, False, False]
    assert out["commands"][1]["code"] == "step.discarded"
    assert out["state"]["vp"] == {"axis": 0, "allies": 0}


def test_afrika_korps_lets_italy_place_the_german_pieces():
    out = run([play("event", "ita_afrika_korps")], ["italy army italy", "germany army germany"], active="italy")
    assert out["commands"][0]["applied"]
    assert has(out["state"], "germany", "army", "north_africa")
    assert has(out["state"], "germany", "navy", "mediterranean")
    assert out["state"]["pending"] == []


def test_an_ally_placement_only_where_the_card_says():
    """«Конвой в Мурманск»: a Soviet army in Russia (recruited), then a Soviet build anywhere legal — by the US."""
    out = run([play("event", "us_murmansk_convoy"),
               step("united_states", "build_army", "ukraine", target_country="united_kingdom"),
               step("united_states", "build_army", "ukraine", target_country="soviet_union")],
              ["united_states army eastern_us", "soviet_union army moscow"], active="united_states")
    assert has(out["state"], "soviet_union", "army", "russia")
    assert not out["commands"][1]["applied"]  # a British army: not on this card
    assert out["commands"][2]["applied"] and has(out["state"], "soviet_union", "army", "ukraine")


# --- steps: offered choices, "may" steps, mandatory steps ----------------------------------

def test_the_engine_offers_exactly_the_cards_targets_and_skip():
    out = run([play("event", "us_fleet_deployed_to_pearl_harbor")], ["united_states army western_us"],
              active="united_states")
    head = out["commands"][0]["pending"][0]
    assert head["optional"] and [c["space"] for c in head["choices"]] == ["eastern_pacific"]
    assert out["choices"] == [{"type": "step", "country": "united_states", "action": "build_navy",
                               "space": "eastern_pacific", "kind": "navy"}]
    skipped = run([play("event", "us_fleet_deployed_to_pearl_harbor"), {"type": "skip"}],
                  ["united_states army western_us"], active="united_states")
    assert skipped["commands"][1]["applied"]
    # the other two spaces have no legal build for this position: those steps close by themselves
    assert skipped["commands"][1]["pending"] == []
    void = [n["en"] for n in skipped["commands"][1]["notes"] if n["code"] == "card.step_void"]
    assert void == [  # each step named: which one had no target when its turn came
        "“Fleet Deployed to Pearl Harbor”: the step “build navy: North Pacific (may be skipped)” is skipped — it has "
        "no legal target now that its turn has come (rule “Playing a card”: a card's actions are carried out in "
        "turn; a step with no target is skipped).",
        "“Fleet Deployed to Pearl Harbor”: the step “build army: Hawaii (may be skipped)” is skipped — it has no legal "
        "target now that its turn has come (rule “Playing a card”: a card's actions are carried out in turn; a step "
        "with no target is skipped)."]


def test_a_mandatory_step_cannot_be_skipped_while_it_has_a_target():
    # «Генерал Мороз» may eliminate up to two; «Советско-германский пакт» must build in Eastern Europe
    out = run([play("event", "su_german_soviet_treaty"), {"type": "skip"}],
              ["soviet_union army moscow", "soviet_union army ukraine"], active="soviet_union")
    assert has(out["state"], "soviet_union", "army", "eastern_europe")  # one legal target: applied by the engine


def test_general_winter_eliminates_only_in_its_spaces():
    out = run([play("event", "su_general_winter"), step("soviet_union", "eliminate", "balkans",
                                                        target_country="germany"),
               step("soviet_union", "eliminate", "ukraine", target_country="germany")],
              ["soviet_union army moscow", "germany army ukraine", "germany army balkans", "germany army russia"],
              active="soviet_union")
    assert not out["commands"][1]["applied"]
    assert out["commands"][2]["applied"]
    assert not has(out["state"], "germany", "army", "ukraine") and has(out["state"], "germany", "army", "balkans")
    assert out["state"]["pending"][0]["left"] == 1  # may eliminate one more


# --- costs --------------------------------------------------------------------------------

def test_dive_bombers_cost_the_top_card_of_the_deck():
    out = run([play("land_battle", "ger_land_battle", space="ukraine"), use("germany", "ger_dive_bombers")],
              ["germany army germany", "germany army eastern_europe", "soviet_union army moscow"],
              cards={"germany": {"deck": 20, "statuses": ["ger_dive_bombers"]}})
    assert out["commands"][1]["applied"]  # the Allies can answer nothing: Germany is asked at once
    assert out["state"]["cards"]["germany"]["deck"] == 19
    assert out["state"]["pending"][0]["kind"] == "battle"


def test_free_france_costs_two_cards_from_hand():
    out = run([use("united_kingdom", "uk_free_france")], ["united_kingdom army united_kingdom",
                                                           "united_kingdom navy north_sea"],
              active="united_kingdom", cards={"united_kingdom": {"statuses": ["uk_free_france"]}})
    assert out["commands"][0]["applied"]
    assert out["state"]["cards"]["united_kingdom"]["hand"] == 5
    assert has(out["state"], "united_kingdom", "army", "western_europe")  # its one legal target: applied


def test_a_hand_cost_falls_back_to_the_deck_then_costs_vp():
    out = run([use("united_kingdom", "uk_free_france")], ["united_kingdom army united_kingdom"],
              active="united_kingdom", vp={"allies": 5},
              cards={"united_kingdom": {"hand": 0, "deck": 1, "statuses": ["uk_free_france"]}})
    k = out["state"]["cards"]["united_kingdom"]
    assert (k["hand"], k["deck"]) == (0, 0)
    assert out["state"]["vp"]["allies"] == 4  # one card neither in hand nor deck: 1 VP lost


# --- copies per deck ----------------------------------------------------------------------

def test_a_one_copy_status_cannot_be_in_play_twice():
    out = run([play("status", "ita_impero_italiano")], ["italy army italy"], active="italy",
              cards={"italy": {"statuses": ["ita_impero_italiano"]}})
    assert out["commands"][0]["code"] == "card.copies"


def test_kamikaze_eliminates_the_navy_just_built_and_cannot_be_revealed_twice():
    pieces = ["united_states army eastern_us", "japan army japan", "japan navy north_sea"]  # next to the new navy
    out = run([play("build_navy", "us_build_navy", space="north_atlantic"), use("japan", "jpn_kamikaze")],
              pieces, active="united_states", cards={"japan": {"responses": ["jpn_kamikaze", "jpn_truk"]}})
    assert out["commands"][1]["applied"], out["commands"][1]["reason"]["en"]
    assert not has(out["state"], "united_states", "navy", "north_atlantic")
    # the engine alone (two anonymous responses left face down): the one copy is already discarded
    stepper = QmgStepper(BOARD)
    table, _, _ = setup_table(BOARD, {"pieces": [piece(*p.split()) for p in pieces], "active": "united_states",
                                      "cards": {"japan": {"responses": ["jpn_truk", "jpn_banzai_charge"]}}})
    table = replace(table, gone=("jpn_kamikaze",), last={"placed": piece("united_states", "navy", "north_atlantic")
                                                       | {"how": "build"}, "by": "united_states"})
    again = stepper.apply(table, use("japan", "jpn_kamikaze"))
    assert not again.ok and again.reason.code == "card.copies"


# --- responses that interrupt: the rulebook's example 1 -----------------------------------

EXAMPLE_1 = ["germany army balkans", "germany army eastern_europe", "germany army germany",
             "soviet_union army ukraine", "soviet_union army russia", "soviet_union army moscow"]
EXAMPLE_1_CARDS = {"soviet_union": {"responses": ["su_stalingrad", "su_rasputitsa"]},
                   "germany": {"statuses": ["ger_dive_bombers", "ger_blitzkrieg"], "deck": 20}}


def test_stalingrad_protects_then_dive_bombers_and_blitzkrieg():
    out = run([
        play("land_battle", "ger_land_battle", space="ukraine"),   # 0: held: the USSR may answer
        use("soviet_union", "su_stalingrad"),                       # 1: the army survives
        use("germany", "ger_dive_bombers"),                         # 2: a second land battle opens
        step("germany", "land_battle", "ukraine"),                  # 3: protected this turn
        step("germany", "land_battle", "russia"),                   # 4: held again (Rasputitsa face down)
        pass_("soviet_union"), pass_("germany"),                    # 5, 6: both pass: removed
        use("germany", "ger_blitzkrieg"),                           # 7: build in the battled space
        step("germany", "build_army", "russia"),                    # 8
    ], EXAMPLE_1, cards=EXAMPLE_1_CARDS)
    c = out["commands"]
    assert c[0]["applied"] and has(out["state"], "soviet_union", "army", "ukraine")
    assert c[1]["applied"] and c[2]["applied"]
    assert not c[3]["applied"] and c[3]["code"] == "card.protected"
    assert c[4]["applied"] and c[5]["applied"] and c[6]["applied"]
    assert c[7]["applied"] and c[8]["applied"], c[8]
    assert not has(out["state"], "soviet_union", "army", "russia")
    assert has(out["state"], "germany", "army", "russia")
    assert out["state"]["cards"]["germany"]["deck"] == 18  # two status costs
    assert out["state"]["cards"]["soviet_union"]["responses_by_id"] == ["su_rasputitsa"]


def test_a_removal_waits_for_the_window_and_end_play_cannot_close_it():
    out = run([play("land_battle", "ger_land_battle", space="ukraine"), {"type": "end_play"},
               step("germany", "remove", "germany")], EXAMPLE_1, cards=EXAMPLE_1_CARDS)
    assert has(out["state"], "soviet_union", "army", "ukraine")
    assert out["state"]["held_removal"]["piece"] == piece("soviet_union", "army", "ukraine")
    assert out["commands"][1]["code"] == "window.open"


def test_rasputitsa_eliminates_the_axis_army_just_built_next_to_moscow():
    out = run([play("build_army", "ger_build_army", space="russia"), use("soviet_union", "su_rasputitsa")],
              ["germany army ukraine", "soviet_union army moscow"],
              cards={"soviet_union": {"responses": ["su_rasputitsa"]}})
    assert out["commands"][1]["applied"]
    assert not has(out["state"], "germany", "army", "russia")


def test_a_reveal_whose_trigger_has_not_happened_is_refused():
    out = run([play("build_army", "ger_build_army", space="eastern_europe"), use("soviet_union", "su_rasputitsa")],
              ["germany army germany", "soviet_union army moscow"],
              cards={"soviet_union": {"responses": ["su_rasputitsa"]}})
    assert out["commands"][1]["code"] == "use.no_trigger"
    assert out["state"]["cards"]["soviet_union"]["responses"] == 1


def test_a_used_card_is_discarded_before_its_text_takes_effect():
    # the cost of «Пикирующие бомбардировщики» comes out of an empty deck: from the hand, then VP
    out = run([play("land_battle", "ger_land_battle", space="ukraine"), use("germany", "ger_dive_bombers")],
              ["germany army germany", "germany army eastern_europe"],
              cards={"germany": {"deck": 0, "hand": 1, "statuses": ["ger_dive_bombers"]}}, vp={"axis": 3})
    k = out["state"]["cards"]["germany"]
    assert (k["hand"], k["deck"]) == (0, 0)
    assert out["state"]["vp"]["axis"] == 2  # the land battle card left the hand first: the cost costs 1 VP


def test_a_response_not_face_down_cannot_be_revealed():
    out = run([use("soviet_union", "su_moscow")], ["soviet_union army moscow"],
              cards={"soviet_union": {"responses": ["su_stalingrad"]}})
    assert out["commands"][0]["code"] == "use.not_face_down"


# --- old games still replay ---------------------------------------------------------------

def test_a_game_stored_in_the_old_vocabulary_replays():
    """Before the card engine a status opened free steps and end_play closed the window: such a game
    (its create event has no "rules") replays by the old rules throughout."""
    stepper = QmgStepper(BOARD, legacy=True)
    commands = [
        {"type": "play_card", "card_type": "build_army", "space": "eastern_europe", "country": "germany"},
        {"type": "end_play", "country": "germany"}, {"type": "supply", "country": "germany"},
        {"type": "score", "country": "germany"}, {"type": "discard", "n": 0, "country": "germany"},
        {"type": "draw", "country": "germany"},
        {"type": "play_card", "card_type": "status", "card_id": "uk_mackenzie_king", "country": "united_kingdom"},
        {"type": "step", "action": "recruit_army", "space": "canada", "country": "united_kingdom"},
        {"type": "end_play", "country": "united_kingdom"},
    ]
    table = stepper.replay(new_table(BOARD), commands)
    assert any(p.space == "canada" for p in table.position.pieces)
    assert table.phase == "supply"


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    {"pieces": [piece("germany", "army", "atlantis")]},
    {"cards": {"germany": {"statuses": ["su_stalingrad"]}}},
    {"commands": [{"type": "teleport"}]},
    {"commands": [{}] * 501},
    {"active": "france"},
    {"surprise": 1},
])
def test_bad_scenarios_are_refused(data):
    with pytest.raises(PositionError):
        run_scenario(data)


# --- reminders (item 8) and Air Marshal moves as response actions ---------------------------

def reminder_codes(table):
    return [r.code for r in reminders(BOARD, table)]


def test_reminders_the_table_missed():
    t = new_table(BOARD)
    t = replace(t, position=Position.of([Piece("soviet_union", "army", "germany"), Piece("germany", "army", "balkans"),
                                          Piece("soviet_union", "army", "moscow")]))
    codes = reminder_codes(t)
    assert {"reminder.home", "reminder.ew_home", "reminder.one_home", "reminder.straits"} <= set(codes)
    home = next(r for r in reminders(BOARD, t) if r.code == "reminder.home")
    assert "Plunder" in home.en and "Разграбление" in home.ru
    empty = replace(t, cards=tuple((c, replace(k, hand=0)) for c, k in t.cards))
    assert "reminder.hand_empty_discard" in reminder_codes(empty)
    played = replace(t, played="event")
    assert "reminder.discard_first" in reminder_codes(played)


def test_an_air_move_is_a_response_action_in_the_window():
    pieces = [{"country": "germany", "kind": "army", "space": "germany"},
              {"country": "germany", "kind": "air", "space": "germany"},
              {"country": "germany", "kind": "army", "space": "eastern_europe"},
              {"country": "united_kingdom", "kind": "army", "space": "united_kingdom"}]
    move = {"type": "move_air", "country": "germany", "from_space": "germany", "space": "eastern_europe"}
    out = run_scenario({"options": {"air_marshal": True}, "pieces": pieces, "active": "united_kingdom",
                        "commands": [{"type": "play_card", "card_type": "discard_unused"}, move]})
    assert out["commands"][1]["applied"], out["commands"][1]["reason"]["en"]
    assert out["state"]["cards"]["germany"]["hand"] == 6
    late = run_scenario({"options": {"air_marshal": True, "card_rules": 5}, "pieces": pieces,
                         "active": "united_kingdom",
                         "commands": [{"type": "play_card", "card_type": "discard_unused"},
                                      {"type": "pass", "country": "germany"}, {"type": "pass", "country": "united_kingdom"},
                                      move]})
    assert not late["commands"][3]["applied"]  # card rules 5: after the window closed, no response move
    # card rules 6: nobody of the Axis is asked (no face-down response, no status): the move is still a response
    # action while no window is open; never in the other team's turn to answer
    assert out["state"]["window"] is None or out["state"]["window"] == "allies"


# --- Air Marshal: «Бомбардировка»; 001's optional «Подготовка к войне» -----------------------

def test_bombing_is_playable_with_air_marshal_only():
    bomb = {"type": "play_card", "card_type": "bombing"}
    with_am = run_scenario({"options": {"air_marshal": True}, "commands": [bomb]})
    assert with_am["commands"][0]["applied"] and with_am["state"]["pending"] == []
    assert with_am["state"]["cards"]["germany"]["hand"] == 6
    assert run_scenario({"commands": [bomb]})["commands"][0]["code"] == "air.off"


def test_prepare_for_war_one_status_or_response_per_country_before_round_1():
    cmds = [{"type": "prepare", "country": "germany", "card_type": "status", "card_id": "ger_blitzkrieg"},
            {"type": "prepare", "country": "germany", "card_type": "status", "card_id": "ger_dive_bombers"},
            {"type": "prepare", "country": "soviet_union", "card_type": "response", "card_id": "su_stalingrad"},
            {"type": "play_card", "card_type": "discard_unused"},
            {"type": "prepare", "country": "japan", "card_type": "response"}]
    out = run_scenario({"options": {"prepare_for_war": True}, "commands": cmds,
                        "pieces": [piece(c, "army", BOARD.countries[c].home) for c in BOARD.turn_order]})
    assert [c["applied"] for c in out["commands"]] == [True, False, True, True, False]
    assert out["commands"][1]["code"] == "prepare.once" and out["commands"][4]["code"] == "prepare.when"
    assert out["state"]["cards"]["germany"]["statuses"] == ["ger_blitzkrieg"]
    assert out["state"]["cards"]["soviet_union"]["responses_by_id"] == ["su_stalingrad"]
    off = run_scenario({"commands": cmds[:1]})
    assert off["commands"][0]["code"] == "prepare.off"


# --- the table's victory step equals qmg_check for the same pieces and statuses -------------

SCORING = {c: [x.id for x in default_catalogue().by_type("status", c)
               if any(e.kind.startswith("vp_") for e in x.effects)] for c in BOARD.turn_order}


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(BOARD.turn_order), st.data())
def test_the_tables_victory_step_equals_qmg_check(seed, country, data):
    position = random_position(BOARD, random.Random(seed), 0.4)
    assume(sudden_victory(BOARD, position) is None)  # a won game scores nothing more
    statuses = data.draw(st.lists(st.sampled_from(SCORING[country] or ["none"]), unique=True, max_size=3))
    statuses = [s for s in statuses if s != "none"]
    pieces = [p.to_dict() for p in position.pieces]
    out = run_scenario({"pieces": pieces, "active": country, "phase": "supply",
                        "cards": {country: {"statuses": statuses}},
                        "commands": [{"type": "supply"}, {"type": "score"}]})
    team = BOARD.team_of(country)
    check = check_position({"pieces": pieces, "statuses": statuses})
    assert out["state"]["vp"][team] == check["victory_phase"][country]["points"]


# --- cards played from the deck, the discard pile or the hand (item 3) ----------------------

def test_conscription_plays_a_build_army_from_the_discard_pile():
    out = run([use("germany", "ger_conscription"),
               step("germany", "play_from", card_type="land_battle"),
               step("germany", "play_from", card_type="build_army"),
               step("germany", "build_army", "eastern_europe")],
              ["germany army germany"], cards={"germany": {"deck": 10, "discard": 4, "statuses": ["ger_conscription"]}})
    c = out["commands"]
    assert c[0]["applied"] and out["commands"][0]["pending"][0]["kind"] == "play_from"
    assert not c[1]["applied"] and c[1]["code"] == "play_from.type"
    assert c[2]["applied"] and c[3]["applied"]
    k = out["state"]["cards"]["germany"]
    assert (k["deck"], k["discard"], k["hand"]) == (8, 4 + 2 - 1 + 1, 7)  # cost 2 from the deck; the card back
    assert has(out["state"], "germany", "army", "eastern_europe")


def test_lend_lease_lets_the_uk_play_from_its_hand_and_draw():
    out = run([play("event", "us_lend_lease"), step("united_kingdom", "play_from", card_type="build_army"),
               step("united_kingdom", "build_army", "canada")],
              ["united_states army eastern_us", "united_kingdom army united_kingdom"], active="united_states",
              cards={"united_kingdom": {"deck": 5}})
    c = out["commands"]
    assert c[1]["applied"], c[1]["reason"]["en"]
    k = out["state"]["cards"]["united_kingdom"]
    assert (k["hand"], k["deck"]) == (7, 4)  # one played from the hand, one drawn
    assert out["state"]["pending"][0]["card"] in ("uk_build_army", "us_lend_lease")


def test_rosie_the_riveter_puts_cards_back_into_the_deck():
    out = run([use("united_states", "us_rosie_the_riveter"),
               step("united_states", "to_deck", n=3, name="hand"),
               step("united_states", "to_deck", n=2, name="hand")],
              ["united_states army eastern_us"], active="united_states", phase="discard",
              cards={"united_states": {"deck": 10, "statuses": ["us_rosie_the_riveter"]}})
    c = out["commands"]
    # a guided step: the engine keeps the counts and Rosie's own limit (0-2 cards from the hand)
    assert c[0]["applied"] and c[2]["applied"]
    assert c[1]["code"] == "guided.not_on_card" and "Rosie" in c[1]["reason"]["en"]
    k = out["state"]["cards"]["united_states"]
    assert (k["hand"], k["deck"]) == (5, 12)
    early = run([use("united_states", "us_rosie_the_riveter")], ["united_states army eastern_us"],
                active="united_states", cards={"united_states": {"statuses": ["us_rosie_the_riveter"]}})
    assert early["commands"][0]["code"] == "use.no_trigger"


def test_an_old_log_with_a_named_events_steps_entered_by_hand_replays():
    """Before the card engine, «Африканский корпус» was played by name and its pieces entered by hand;
    today the engine places them itself, so that log replays by the old rules throughout."""
    stepper = QmgStepper(BOARD, legacy=True)
    commands = [{"type": "play_card", "card_type": "discard_unused", "country": "germany"},
                {"type": "end_play", "country": "germany"}, {"type": "supply"}, {"type": "score"},
                {"type": "discard", "n": 0}, {"type": "draw"}]
    for _ in range(3):  # the UK, Japan and the USSR discard unused
        commands += [{"type": "play_card", "card_type": "discard_unused"}, {"type": "end_play"}, {"type": "supply"},
                     {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"}]
    commands += [{"type": "play_card", "card_type": "event", "card_id": "ita_afrika_korps", "country": "italy"},
                 {"type": "step", "action": "recruit_army", "space": "north_africa", "country": "germany"},
                 {"type": "step", "action": "recruit_navy", "space": "mediterranean", "country": "germany"},
                 {"type": "end_play", "country": "italy"}]
    table = stepper.replay(new_table(BOARD), commands)
    assert Piece("germany", "army", "north_africa") in table.position.pieces
    assert Piece("germany", "navy", "mediterranean") in table.position.pieces
    assert table.phase == "supply"


def test_wolf_packs_add_to_submarines_played_by_germany_or_japan():
    base = ["germany army germany", "japan army japan", "united_kingdom army united_kingdom"]
    cards = {"germany": {"statuses": ["ger_wolf_packs"]}, "united_kingdom": {"deck": 20}}
    jpn = run([play("economic_warfare", "jpn_submarines_uk")], base, active="japan", cards=cards)
    assert jpn["state"]["cards"]["united_kingdom"]["deck"] == 20 - 1 - 1  # 1, and 1 more by Wolf Packs
    no_wolves = run([play("economic_warfare", "jpn_submarines_uk")], base, active="japan",
                    cards={"united_kingdom": {"deck": 20}})
    assert no_wolves["state"]["cards"]["united_kingdom"]["deck"] == 19
    # the UK's own «Мальтийские субмарины» are not Germany's or Japan's: no bonus against Germany
    malta = run([play("economic_warfare", "uk_malta_submarines")], base, active="united_kingdom",
                cards={"germany": {"deck": 20, "statuses": ["ger_wolf_packs"]}, "italy": {"deck": 20}})
    assert malta["state"]["cards"]["germany"]["deck"] == 18


def test_flying_fortress_adds_one_to_the_uss_economic_warfare():
    pieces = ["united_states army western_europe", "germany army eastern_europe", "united_kingdom army united_kingdom"]
    out = run([play("economic_warfare", "us_firestorm_bombers"),
               step("united_states", "discard_from_deck", target_country="germany")], pieces,
              active="united_states", cards={"united_states": {"statuses": ["us_flying_fortress"]},
                                             "germany": {"deck": 20}})
    assert out["state"]["cards"]["germany"]["deck"] == 20 - 6 - 1


def test_skilled_pilots_cancel_a_bomber_card_against_italy_only():
    base = ["united_kingdom army united_kingdom", "italy army italy", "germany army germany"]
    cards = {"italy": {"deck": 15, "responses": ["ita_skilled_pilots"]}}
    out = run([play("economic_warfare", "uk_bomber_command"),
               step("united_kingdom", "discard_from_deck", target_country="italy"),
               use("italy", "ita_skilled_pilots")], base, active="united_kingdom", cards=cards)
    assert [c["applied"] for c in out["commands"]] == [True, True, True]
    k = out["state"]["cards"]["italy"]
    assert (k["deck"], k["responses"]) == (15, 0)  # the four cards are back; the response is discarded
    malta = run([play("economic_warfare", "uk_malta_submarines"), use("italy", "ita_skilled_pilots")],
                base, active="united_kingdom", cards=cards)
    assert malta["commands"][1]["code"] == "use.no_trigger"
    assert malta["state"]["cards"]["italy"]["deck"] == 13


# --- any card, any sequence of offered and random commands: refused or applied, never a crash ----

NAMED = [c for c in default_catalogue() if c.type not in ("build_army", "build_navy", "land_battle", "sea_battle")]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(NAMED))
def test_cards_and_their_steps_never_crash_the_engine(seed, card):
    rng = random.Random(seed)
    position = random_position(BOARD, rng, 0.3)
    assume(sudden_victory(BOARD, position) is None)
    cat = default_catalogue()
    faces = {c: [x.id for x in cat.by_type("response", c)][:2] for c in BOARD.turn_order}
    table, _, _ = setup_table(BOARD, {"pieces": [p.to_dict() for p in position.pieces], "active": card.country,
                                      "cards": {c: {"responses": faces[c]} for c in BOARD.turn_order}})
    queue = [{"type": "play_card", "card_type": card.type, "card_id": card.id, "country": card.country}]
    for _ in range(20):
        if queue:
            cmd = queue.pop(0)
        else:
            offered = [c["command"] for c in step_choices(BOARD, table)]
            who = table.pending[0]["by"] if table.pending else card.country
            other = rng.choice(BOARD.turn_order)
            cmd = rng.choice(offered + [
                {"type": "skip", "country": who}, {"type": "pass", "country": other},
                {"type": "end_play", "country": table.active(BOARD)},
                {"type": "use_card", "country": other, "card_id": rng.choice(faces[other] or ["ger_blitzkrieg"])},
                {"type": "step", "country": other, "action": rng.choice(["build_army", "land_battle", "eliminate"]),
                 "space": rng.choice(sorted(BOARD.spaces))}])
        try:
            out = apply_command(BOARD, table, cmd)
        except CommandError:
            continue
        assert out.reason.ru and out.reason.en
        if out.ok:
            assert apply_ops(table, list(out.changes)) == out.state  # the stored operations rebuild it
            table = out.state
            validate_position(BOARD, table.position)


# --- review fixes ------------------------------------------------------------------

SIX = ["germany army germany", "united_kingdom army united_kingdom", "japan army japan", "soviet_union army moscow",
       "italy army italy", "united_states army eastern_us"]


def test_a_response_played_through_lend_lease_stays_face_down_and_unnamed():
    out = run([play("event", "us_lend_lease"),
               step("united_kingdom", "play_from", card_type="response", card_id="uk_loyal_to_the_crown")],
              SIX, active="united_states", round=2)
    c = out["commands"]
    assert c[1]["applied"], c[1]["reason"]["en"]
    assert "Loyal" not in c[1]["reason"]["en"] and "Верн" not in c[1]["reason"]["ru"]
    uk = out["state"]["cards"]["united_kingdom"]
    assert uk["responses"] == 1 and uk["responses_by_id"] == ["uk_loyal_to_the_crown"]  # the owner's list only
    # the engine itself never takes a response's name into a command (that would be the public log)
    table, _, _ = setup_table(BOARD, {"pieces": [piece(*p.split()) for p in SIX], "active": "united_states",
                                      "round": 2})
    t = apply_command(BOARD, table, {**play("event", "us_lend_lease"), "country": "united_states"}).state
    with pytest.raises(CommandError):
        apply_command(BOARD, t, step("united_kingdom", "play_from", card_type="response",
                                     card_id="uk_loyal_to_the_crown"))
    assert apply_command(BOARD, t, step("united_kingdom", "play_from", card_type="response")).ok


def test_a_reveal_must_be_one_of_the_owners_face_down_responses():
    out = run([use("soviet_union", "su_stalingrad"), use("soviet_union", "su_rasputitsa")], SIX,
              active="soviet_union", cards={"soviet_union": {"responses": ["su_rasputitsa"]}})
    assert out["commands"][0]["code"] == "use.not_face_down"
    assert "Stalingrad" in out["commands"][0]["reason"]["en"]
    # the same engine check the web table runs on the owner's private notes
    table, _, _ = setup_table(BOARD, {"cards": {"soviet_union": {"responses": ["su_rasputitsa"]}}})
    assert face_down_refusal(table, "soviet_union", "su_stalingrad", ["su_rasputitsa"]).code == "use.not_face_down"
    assert face_down_refusal(table, "soviet_union", "su_rasputitsa", ["su_rasputitsa"]) is None
    assert face_down_refusal(table, "soviet_union", "su_stalingrad", []) is None  # an unnamed one may be it


@pytest.mark.parametrize("action", ["protect", "play_from", "to_deck", "discard_status", "discard_response"])
def test_the_card_engines_own_steps_are_refused_after_an_unnamed_event(action):
    out = run([play("event"), step("germany", action, "germany", target_country="germany", card_type="response")],
              SIX)
    assert out["commands"][0]["applied"]
    assert out["commands"][1]["code"] == "step.not_free" and "rule" in out["commands"][1]["reason"]["en"]


def test_a_guided_card_allows_only_what_its_text_says():
    cards = {"soviet_union": {"statuses": ["su_women_conscripts"], "hand_ids": ["su_build_army"]}}
    out = run([play("build_army", "su_build_army", space="ukraine"),
               use("soviet_union", "su_women_conscripts"),
               step("soviet_union", "build_army", "ukraine"),
               step("soviet_union", "gain_vp", n=5),
               step("soviet_union", "discard_from_deck", target_country="germany", n=4),
               step("soviet_union", "to_deck", n=2, name="discard"),
               step("soviet_union", "to_deck", n=1, name="discard")],
              SIX, active="soviet_union", cards=cards)
    c = out["commands"]
    assert c[0]["applied"] and c[1]["applied"], (c[0]["reason"]["en"], c[1]["reason"]["en"])
    for refused_step in c[2:6]:
        assert refused_step["code"] == "guided.not_on_card" and "Women Conscripts" in refused_step["reason"]["en"]
    assert c[6]["applied"]
    assert out["state"]["vp"] == {"axis": 0, "allies": 0}


def test_an_old_game_replays_by_its_own_rules_not_per_command():
    """A named Economic Warfare card whose discard was entered by hand (old rules) discards once."""
    prelude = [{"type": "play_card", "card_type": "discard_unused", "country": "germany"},
               {"type": "end_play", "country": "germany"}, {"type": "supply", "country": "germany"},
               {"type": "score", "country": "germany"}, {"type": "discard", "n": 0, "country": "germany"},
               {"type": "draw", "country": "germany"}]
    log = prelude + [
        {"type": "play_card", "card_type": "economic_warfare", "card_id": "uk_bomber_command",
         "country": "united_kingdom"},
        {"type": "step", "action": "discard_from_deck", "target_country": "germany", "n": 4,
         "country": "united_kingdom"},
        {"type": "end_play", "country": "united_kingdom"}]
    stored = new_table(BOARD)
    for c in log:
        out = apply_command(BOARD, stored, c, legacy=True)
        assert out.ok, out.reason.en
        stored = out.state
    assert QmgStepper(BOARD, legacy=True).replay(new_table(BOARD), log).to_dict() == stored.to_dict()
    assert stored.cards_of("germany").deck == 30 - 1 - 4  # its draw, then the four by hand: once, not twice


def test_flexible_resources_replays_a_one_copy_card_from_the_discard_pile():
    table, _, _ = setup_table(BOARD, {"pieces": [piece(*p.split()) for p in SIX], "active": "united_states",
                                      "round": 2})
    table = replace(table, gone=("us_fleet_deployed_to_pearl_harbor",))
    t = apply_command(BOARD, table, {**play("event", "us_flexible_resources"), "country": "united_states"}).state
    out = apply_command(BOARD, t, step("united_states", "play_from", card_type="event",
                                       card_id="us_fleet_deployed_to_pearl_harbor"))
    assert out.ok, out.reason.en
    assert out.state.gone.count("us_fleet_deployed_to_pearl_harbor") == 1  # back to the discard pile, once


def test_every_guided_card_says_what_its_manual_step_allows():
    assert set(GUIDED_ACTIONS) == set(coverage()["guided"])

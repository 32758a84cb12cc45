"""The response window asks only who can answer (card rules 6), from public facts only: a team nobody of which
holds a face-down response (of a deck that has a card answering now) or a usable status passes by itself; each
asked country declines for itself; the window says what is at stake and its closing says what happened. Games
stored under card rules 5 replay as they were played."""

import pytest

from gameplay.qmg.autoturn import finish_turn
from gameplay.qmg.stepper import QmgStepper
from gameplay.qmg.table import Options, window_view

from .helpers import BOARD, SIX, answer, apply, pass_, play, table_of, use


def test_a_team_that_cannot_answer_is_never_asked_and_the_turn_ends_at_once():
    t = apply(table_of(SIX, active="germany", cards={"soviet_union": {"responses": ["su_moscow"]}}),
              play("germany", "land_battle", "ger_land_battle", space="eastern_europe"))
    assert t.window is None and window_view(BOARD, t) is None  # Moscow cannot answer a battle of an empty space
    assert answer(t, pass_("soviet_union")).reason.code == "window.closed"
    assert answer(t, {"type": "end_play", "country": "germany"}).ok


UK_ARMY = SIX + ["united_kingdom army western_europe"]


def test_a_country_without_responses_cannot_close_the_window_for_a_teammate_that_holds_one():
    t = apply(table_of(UK_ARMY, active="germany", cards={"united_kingdom": {"responses": ["uk_defensive_posture"]}}),
              play("germany", "land_battle", "ger_land_battle", space="western_europe"))
    view = window_view(BOARD, t)
    assert (view.team, view.waiting, view.held["piece"]["space"]) == ("allies", ("united_kingdom",), "western_europe")
    out = answer(t, pass_("soviet_union"))
    assert not out.ok and out.reason.code == "window.not_asked" and "United Kingdom" in out.reason.en
    assert not answer(t, pass_("germany")).ok  # the other team's turn
    end = answer(t, {"type": "end_play", "country": "germany"})
    assert not end.ok and end.reason.code == "window.open" and "United Kingdom" in end.reason.en
    out = answer(t, pass_("united_kingdom"))  # the only one asked: the team passes, nobody of the Axis is asked
    assert out.ok and out.reason.code == "window.removed" and out.state.window is None
    assert "United Kingdom's army in Western Europe is removed" in out.reason.en
    assert "армия Великобритании в секторе «Западная Европа» убрана" in out.reason.ru
    assert out.data["window"]["removed"] == {"country": "united_kingdom", "kind": "army", "space": "western_europe"}


def test_each_asked_country_declines_for_itself():
    """A German army in Italy attacked: Italy holds a face-down response (Monte Cassino could save it) and Germany
    has an air force there (air defence): both are asked, and the team passes only when both have."""
    t = table_of(SIX + ["germany army italy", "germany air italy", "united_kingdom army western_europe"],
                 active="united_kingdom", options={"air_marshal": True},
                 cards={"italy": {"responses": ["ita_monte_cassino"]}})
    t = apply(t, play("united_kingdom", "land_battle", "uk_land_battle", space="italy", target_country="germany"))
    assert window_view(BOARD, t).waiting == ("germany", "italy") and t.hold
    t = apply(t, pass_("germany"))
    assert (t.window, window_view(BOARD, t).waiting, t.declined) == ("axis", ("italy",), ("germany",))
    assert answer(t, pass_("germany")).reason.code == "window.declined"
    out = answer(t, pass_("italy"))
    assert out.ok and out.reason.code == "window.removed"
    assert ("germany", "army", "italy") not in {(p.country, p.kind, p.space) for p in out.state.position.pieces}


def test_the_active_team_is_asked_only_for_what_it_can_use_and_ending_the_step_declines_it():
    t = table_of(SIX, active="germany", cards={"germany": {"statuses": ["ger_blitzkrieg"]}})
    t = apply(t, play("germany", "land_battle", "ger_land_battle", space="eastern_europe"))
    assert window_view(BOARD, t).waiting == ("germany",)  # Blitzkrieg: a build in the battled space
    done = apply(t, {"type": "end_play", "country": "germany"})
    assert done.window is None and done.phase == "supply"
    plan = finish_turn(BOARD, t)
    assert [c["type"] for c in plan.commands][:2] == ["end_play", "supply"]
    plain = apply(table_of(SIX, active="germany"), play("germany", "land_battle", "ger_land_battle",
                                                         space="eastern_europe"))
    assert plain.window is None  # nothing to use: not asked


def test_finish_turn_passes_first_when_a_removal_waits_on_the_active_teams_turn():
    t = apply(table_of(UK_ARMY, active="germany", cards={"united_kingdom": {"responses": ["uk_defensive_posture"]},
                                                         "germany": {"statuses": ["ger_blitzkrieg"]}}),
              play("germany", "land_battle", "ger_land_battle", space="western_europe"))
    plan = finish_turn(BOARD, t)
    assert plan.commands == () and plan.stop.code == "auto.window" and "United Kingdom" in plan.stop.en
    t = apply(t, pass_("united_kingdom"))  # the Axis' turn: Germany may still build there with Blitzkrieg
    assert t.hold and window_view(BOARD, t).waiting == ("germany",)
    plan = finish_turn(BOARD, t)
    assert [c["type"] for c in plan.commands] == ["pass"]  # the removal happens: Blitzkrieg is worth offering now
    assert plan.stop.code == "auto.usable" and "Blitzkrieg" in plan.stop.en
    t = apply(t, plan.commands[0])
    assert t.hold is None
    plan = finish_turn(BOARD, t)  # tapped again: the status is declined with the step
    assert [c["type"] for c in plan.commands][:2] == ["end_play", "supply"]
    for command in plan.commands:
        t = apply(t, command)
    assert t.active(BOARD) == "united_kingdom"


def test_the_window_says_what_is_at_stake():
    t = table_of(SIX + ["japan army china", "japan army southeast_asia", "united_kingdom navy south_china_sea",
                        "united_kingdom army australia"], active="japan",
                 cards={"united_kingdom": {"responses": ["uk_destroyers"]}})
    t = apply(t, play("japan", "sea_battle", "jpn_sea_battle", space="south_china_sea"))
    stake = window_view(BOARD, t).stake
    assert stake.ru == "Япония атакует — под ударом флот Великобритании в секторе «Южно-Китайское море»"
    assert stake.en == "Japan attacks United Kingdom's navy in South China Sea"
    out = answer(t, use("united_kingdom", "uk_destroyers"))
    assert out.ok and "saved by “Destroyers”" in out.reason.en and "его спасла карта «Эсминцы»" in out.reason.ru
    assert out.data["window"] == {"saved": {"country": "united_kingdom", "kind": "navy", "space": "south_china_sea"},
                                  "by_card": "uk_destroyers", "attacker": "japan", "closed": True}


def test_a_window_opened_by_a_move_without_an_attack_names_the_move():
    t = table_of(SIX + ["germany army eastern_europe"], active="germany",
                 cards={"soviet_union": {"responses": ["su_rasputitsa"]}})
    t = apply(t, play("germany", "build_army", "ger_build_army", space="ukraine"))
    view = window_view(BOARD, t)
    assert view.waiting == ("soviet_union",) and view.held is None
    assert view.stake.en.startswith("Answering: Germany: Build Army card played") and "Ukraine" in view.stake.en


@pytest.mark.parametrize("held", ["su_stalingrad", "su_moscow", "su_rasputitsa"])
def test_which_response_is_held_never_changes_the_window(held):
    """A Soviet army in Ukraine attacked while the USSR holds one face-down response: whatever it is, the removal
    waits and the USSR is asked (its deck has Stalingrad) — the other phones see the same table."""
    t = apply(table_of(SIX + ["germany army eastern_europe", "soviet_union army ukraine"], active="germany",
                       cards={"soviet_union": {"responses": [held]}}),
              play("germany", "land_battle", "ger_land_battle", space="ukraine"))
    base = apply(table_of(SIX + ["germany army eastern_europe", "soviet_union army ukraine"], active="germany",
                          cards={"soviet_union": {"responses": ["su_stalingrad"]}}),
                 play("germany", "land_battle", "ger_land_battle", space="ukraine"))
    assert t == base and window_view(BOARD, t) == window_view(BOARD, base)


def test_a_removal_that_happened_opens_the_window_for_what_answers_it():
    """Rulebook example 1: Germany declines while the removal waits, the army goes, and Blitzkrieg (a build in the
    space now empty) may be used — Germany is asked again for it."""
    t = table_of(SIX + ["germany army eastern_europe", "soviet_union army russia"], active="germany",
                 cards={"soviet_union": {"responses": ["su_leningrad"]}, "germany": {"statuses": ["ger_blitzkrieg"]}})
    t = apply(t, play("germany", "land_battle", "ger_land_battle", space="russia"))
    t = apply(t, pass_("soviet_union"))
    t = apply(t, pass_("germany"))
    assert t.hold is None and window_view(BOARD, t).waiting == ("germany",)
    assert apply(t, use("germany", "ger_blitzkrieg")).pending[0]["kind"] == "build"


# --- stored games ----------------------------------------------------------------------------------

OLD_LOG = [play("germany", "land_battle", space="eastern_europe"), pass_("united_kingdom"), pass_("germany"),
           {"type": "end_play", "country": "germany"}]


def test_a_log_stored_under_card_rules_5_replays_to_the_same_state():
    """Its passes by countries that held nothing meant something under the rules it was played by: the game keeps
    them (the create event's card rules), so its log replays to exactly the state it was stored with."""
    stepper = QmgStepper(BOARD, Options(card_rules=5))
    start = stepper.new_state({})
    table = start
    for command in OLD_LOG:
        out = stepper.apply(table, command)
        assert out.ok, out.reason.en
        table = out.state
    assert stepper.replay(start, OLD_LOG) == table and table.phase == "supply"
    today = QmgStepper(BOARD, Options())
    with pytest.raises(Exception, match="no longer applies"):  # by today's rules the same log does not replay
        today.replay(today.new_state({}), OLD_LOG)

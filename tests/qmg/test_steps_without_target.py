"""A card with no legal target warns before it is played: ``steps_without_target`` names each step that would do
nothing now — a step an earlier step of the card makes possible is not reported; the play itself stays legal."""
from gameplay.qmg.table import apply_command, steps_without_target

from .helpers import BOARD, SIX, apply, play, table_of


def warned(t, card_id, country=None):
    return [(w.effect, w.kind) for w in steps_without_target(BOARD, t, card_id, country)]


def test_pearl_harbor_with_nothing_of_the_us_in_the_pacific_warns_of_every_step_by_name():
    t = table_of(SIX, active="united_states")
    found = steps_without_target(BOARD, t, "us_fleet_deployed_to_pearl_harbor")
    assert [(w.effect, w.kind) for w in found] == [(0, "build"), (1, "build"), (2, "build")]
    assert [w.text.en.split("”")[1] for w in found] == [": the step “build navy: Eastern Pacific",
                                                         ": the step “build navy: North Pacific",
                                                         ": the step “build army: Hawaii"]
    assert all("карту всё равно можно сыграть" in w.text.ru for w in found)
    assert apply_command(BOARD, t, play("united_states", "event", "us_fleet_deployed_to_pearl_harbor")).ok


def test_a_step_an_earlier_step_makes_possible_is_not_reported():
    """With a US army in the Western US: the navy in the Eastern Pacific can be built, and it makes the army in
    Hawaii possible; the North Pacific navy still has no army of its team on a bordering land space."""
    t = table_of(SIX + ["united_states army western_us"], active="united_states")
    assert warned(t, "us_fleet_deployed_to_pearl_harbor") == [(1, "build")]


def test_guadalcanal_the_recruit_makes_the_navy_possible():
    t = table_of(SIX + ["united_states army western_us", "united_states navy eastern_pacific"], active="united_states")
    assert warned(t, "us_guadalcanal") == []


def test_an_any_order_card_counts_either_order():
    t = table_of(["united_kingdom army united_kingdom", "united_states army eastern_us", "germany army germany"],
                 active="united_states")
    assert warned(t, "us_arsenal_of_democracy") == []  # the navy first makes the army possible
    t = table_of(["united_states army eastern_us", "germany army germany", "germany army western_europe",
                  "united_kingdom army united_kingdom"], active="united_states")
    assert warned(t, "us_free_french_allies") == [(0, "build"), (1, "build"), (2, "build")]


def test_a_status_about_to_be_used_and_a_condition_that_does_not_hold():
    t = table_of(SIX + ["united_states army western_us"], active="united_states",
                 cards={"united_states": {"statuses": ["us_amphibious_landings"]}})
    t = apply(t, play("united_states", "land_battle", "us_land_battle", space="canada"))
    found = steps_without_target(BOARD, t, "us_amphibious_landings")
    assert [(w.effect, w.kind) for w in found] == [(0, "build")]
    assert "condition does not hold" in found[0].text.en and "navy" in found[0].text.en


def test_cards_whose_effects_are_not_steps_warn_of_nothing():
    t = table_of(SIX, active="germany")
    for card_id in ("ger_build_army", "ger_land_battle", "ger_plunder", "ger_swedish_iron_ore", "uk_bomber_command",
                    "no_such_card"):
        assert steps_without_target(BOARD, t, card_id) == []


def test_a_card_with_many_choices_is_judged_within_the_bound():
    """«Широкий фронт»: three battles of Soviet armies next to German armies — each battle may remove one."""
    t = table_of(SIX + ["germany army eastern_europe", "soviet_union army russia", "soviet_union army ukraine"],
                 active="germany")
    assert warned(t, "ger_broad_front") == []
    lone = table_of(SIX, active="germany")
    assert warned(lone, "ger_broad_front") == [(0, "battle")]

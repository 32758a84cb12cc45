"""A Build card played without building (seed 000 «Использовать карту «Создайте» без создания», seed 001
«“Строительство” и “появление”»): on the country's own supplied piece of that kind, only so that a status or
response "when you build …" may be used — nothing is placed, the piece counts as built this turn, the card is
spent; without such a card the play is refused with the stacking rule and the reason why."""
from dataclasses import replace

import pytest

from gameplay.qmg.phases import declared_build_users
from gameplay.qmg.table import step_choices

from .helpers import BOARD, answer, apply, play, table_of, use

GERMANY = ["germany army germany", "germany army eastern_europe", "soviet_union army moscow"]


def pieces(t):
    return sorted((p.country, p.kind, p.space) for p in t.position.pieces)


def test_a_build_card_on_ones_own_supplied_army_triggers_bias_for_action():
    t = table_of(GERMANY, active="germany", cards={"germany": {"statuses": ["ger_bias_for_action"]}})
    out = answer(t, play("germany", "build_army", "ger_build_army", space="eastern_europe"))
    assert out.ok and out.reason.code == "play.build_declared"
    assert "объявлена заново созданной" in out.reason.ru and "declared newly built" in out.reason.en
    assert pieces(out.state) == pieces(t)  # nothing placed
    k0, k1 = t.cards_of("germany"), out.state.cards_of("germany")
    assert (k1.hand, k1.discard) == (k0.hand - 1, k0.discard + 1)  # the card is spent
    assert out.state.last["placed"] == {"country": "germany", "kind": "army", "space": "eastern_europe",
                                        "how": "build", "declared": True}
    assert "Bias for Action" in next(n.en for n in out.notes if n.code == "play.build_declared_for")
    t = apply(out.state, use("germany", "ger_bias_for_action"))
    spaces = {c["space"] for c in step_choices(BOARD, t)}
    assert spaces and spaces <= set(BOARD.static_neighbours("eastern_europe"))  # next to the "built" army


def test_superior_shipyards_by_a_build_navy_card_on_ones_own_navy():
    t = table_of(["united_states army eastern_us", "united_states navy north_atlantic", "germany army germany",
                  "united_kingdom army united_kingdom"],
                 active="united_states", cards={"united_states": {"statuses": ["us_superior_shipyards"]}})
    t = apply(t, play("united_states", "build_navy", "us_build_navy", space="north_atlantic"))
    out = answer(t, use("united_states", "us_superior_shipyards"))
    assert out.ok and out.state.pending and out.state.pending[0]["piece"] == "navy"


def test_a_face_down_response_of_a_deck_that_has_such_a_card_allows_it():
    """Japan holds a face-down response and its deck has «Специальные морские десантные силы» (when you build a
    navy): whether it is that card the engine cannot know, so the declaration is allowed."""
    t = table_of(["japan army japan", "japan navy sea_of_japan", "germany army germany"], active="japan",
                 cards={"japan": {"responses": ["jpn_truk"]}})
    assert declared_build_users(BOARD, t, "japan", "navy") == ([], True)
    assert answer(t, play("japan", "build_navy", "jpn_build_navy", space="sea_of_japan")).ok
    assert declared_build_users(BOARD, t, "japan", "army") == ([], False)  # no Japanese response for armies


def test_without_a_card_that_could_use_it_the_stacking_refusal_says_why():
    t = table_of(GERMANY, active="germany")
    out = answer(t, play("germany", "build_army", "ger_build_army", space="eastern_europe"))
    assert not out.ok and out.reason.code == "stacking.own"
    assert "Eastern Europe already holds Germany's army" in out.reason.en
    assert "only to use a status or response of yours “when you build an army”" in out.reason.en
    assert "Использовать карту «Создайте» без создания" in out.reason.ru


def test_an_unsupplied_piece_cannot_be_declared_built():
    t = table_of(["germany army germany", "germany army siberia", "soviet_union army moscow"], active="germany",
                 cards={"germany": {"statuses": ["ger_bias_for_action"]}})
    out = answer(t, play("germany", "build_army", "ger_build_army", space="siberia"))
    assert not out.ok and out.reason.code == "stacking.own" and "out of supply" in out.reason.en


def test_a_once_per_turn_status_already_used_cannot_use_it():
    t = table_of(["united_states army eastern_us", "united_states army western_us", "germany army germany"],
                 active="united_states", cards={"united_states": {"statuses": ["us_wartime_production"]}})
    assert answer(t, play("united_states", "build_army", "us_build_army", space="western_us")).ok
    used = replace(t, used=("us_wartime_production",))
    out = answer(used, play("united_states", "build_army", "us_build_army", space="western_us"))
    assert not out.ok and out.reason.code == "stacking.own"


def test_an_enemy_piece_there_is_still_the_enemy_stacking_refusal():
    t = table_of(["germany army germany", "soviet_union army eastern_europe", "soviet_union army moscow"],
                 active="germany", cards={"germany": {"statuses": ["ger_bias_for_action"]}})
    out = answer(t, play("germany", "build_army", "ger_build_army", space="eastern_europe"))
    assert not out.ok and out.reason.code == "stacking.enemy"


@pytest.mark.parametrize("rules", [4, 5])
def test_card_rules_before_6_refuse_it_as_stored_games_did(rules):
    t = table_of(GERMANY, active="germany", options={"card_rules": rules},
                 cards={"germany": {"statuses": ["ger_bias_for_action"]}})
    out = answer(t, play("germany", "build_army", "ger_build_army", space="eastern_europe"))
    assert not out.ok and out.reason.code == "stacking.own" and "status" not in out.reason.en

"""A card's actions in order, lazily (seed 000 «Как сыграть карту»): a step's targets are judged when its turn
comes, an earlier step may make a later one possible, a card whose text allows any order offers its steps
together, and a step with no target when its turn comes is skipped with a reason that names it."""
import json
import re
from pathlib import Path

import pytest
import yaml

from gameplay.qmg.cards import ORDERED_KINDS, default_catalogue
from gameplay.qmg.program import compile_card, targets
from gameplay.qmg.table import Table, pending_view, step_choices

from .helpers import BOARD, answer, apply, play, step, table_of

CAT = default_catalogue()
REFERENCE = Path("/work/shared/reference/qmg_cards_1e.yaml")

# the cards whose text lets the player carry out their actions in any order (read from every card text of the
# card data and of the reference draft); the data must mark exactly these
ANY_ORDER = {"us_arsenal_of_democracy", "us_free_french_allies"}
ORDER_WORDS = re.compile(r"in any order|in either order|in whichever order|в любом порядке", re.IGNORECASE)


def _texts():
    yield from ((c.id, c.summary_en + " " + c.summary_ru, sum(e.kind in ORDERED_KINDS for e in c.effects))
                for c in CAT)
    if REFERENCE.exists():  # the draft the data was built from, where it is beside the checkout
        for raw in yaml.safe_load(REFERENCE.read_text(encoding="utf-8"))["cards"]:
            kinds = [e.get("kind") for e in raw.get("effects") or ()]
            yield (raw["id"], f"{raw.get('summary_en', '')} {raw.get('summary_ru', '')}",
                   sum(k in ORDERED_KINDS for k in kinds))


def test_every_card_whose_text_allows_any_order_is_marked_so_in_the_data():
    said = {cid for cid, text, actions in _texts() if actions >= 2 and ORDER_WORDS.search(text)}
    assert said == ANY_ORDER  # «Превосходное планирование» reorders cards, not actions: one effect, not counted
    assert {c.id for c in CAT if c.any_order} == ANY_ORDER


def test_an_any_order_card_marks_its_steps_and_a_printed_order_card_does_not():
    t = table_of(active="united_states")
    arsenal = compile_card(BOARD, t.position, CAT["us_arsenal_of_democracy"], "united_states", lazy=True)
    assert [s.get("any_order") for s in arsenal] == [True, True] and [s["effect"] for s in arsenal] == [0, 1]
    pearl = compile_card(BOARD, t.position, CAT["us_fleet_deployed_to_pearl_harbor"], "united_states", lazy=True)
    assert not any(s.get("any_order") for s in pearl)
    old = compile_card(BOARD, t.position, CAT["us_arsenal_of_democracy"], "united_states")  # card rules ≤5
    assert not any("any_order" in s or "effect" in s for s in old)


ARSENAL = ["united_kingdom army united_kingdom", "united_states army eastern_us", "germany army germany"]


def test_arsenal_of_democracy_builds_the_navy_first_and_then_the_army_it_made_possible():
    t = apply(table_of(ARSENAL, active="united_states"), play("united_states", "event", "us_arsenal_of_democracy"))
    assert [s["kind"] for s in t.pending] == ["build", "build"]  # the army step waits: the navy may come first
    offered = step_choices(BOARD, t)
    assert offered and {c["action"] for c in offered} == {"build_navy"}  # no army space yet
    view = pending_view(BOARD, t, "en")
    assert view[0]["text"].startswith("Arsenal of Democracy: in any order — build army of United Kingdom; build navy")
    t = apply(t, step("united_states", "build_navy", space="north_sea", target_country="united_kingdom"))
    army = step_choices(BOARD, t)
    assert {c["space"] for c in army} >= {"western_europe", "north_africa"}  # next to the new supplied navy
    assert {c["action"] for c in army} == {"build_army"}
    t = apply(t, step("united_states", "build_army", space="western_europe", target_country="united_kingdom"))
    assert t.pending == ()
    assert {(p.country, p.kind, p.space) for p in t.position.pieces} >= {
        ("united_kingdom", "navy", "north_sea"), ("united_kingdom", "army", "western_europe")}


def test_arsenal_of_democracy_card_rules_5_closes_the_army_step_at_once():
    t = table_of(ARSENAL, active="united_states", options={"card_rules": 5})
    out = answer(t, play("united_states", "event", "us_arsenal_of_democracy"))
    assert out.ok and [n.code for n in out.notes] == ["card.step_void"]
    assert [s["piece"] for s in out.state.pending] == ["navy"]


def test_an_any_order_card_takes_either_step_first_and_skip_ends_the_rest():
    pieces = ARSENAL + ["united_kingdom navy north_sea"]
    t = apply(table_of(pieces, active="united_states"), play("united_states", "event", "us_arsenal_of_democracy"))
    assert {c["action"] for c in step_choices(BOARD, t)} == {"build_army", "build_navy"}
    navy_first = apply(t, step("united_states", "build_navy", space="north_atlantic", target_country="united_kingdom"))
    assert [s["piece"] for s in navy_first.pending] == ["army"]  # the army step is still there
    army_first = apply(t, step("united_states", "build_army", space="western_europe", target_country="united_kingdom"))
    assert [s["piece"] for s in army_first.pending] == ["navy"]
    out = answer(t, {"type": "skip", "country": "united_states"})
    assert out.ok and out.state.pending == () and out.reason.code == "skip.ok"


def test_free_french_allies_build_in_any_order_one_army_making_the_next_possible():
    """A UK navy in the Indian Ocean: only Africa can take a UK army at first; an army there makes North Africa
    possible. In the printed order the North Africa step would already have closed."""
    pieces = ["united_kingdom army australia", "united_kingdom navy indian_ocean", "united_states army eastern_us",
              "germany army germany"]
    t = apply(table_of(pieces, active="united_states"), play("united_states", "event", "us_free_french_allies"))
    assert {c["space"] for c in step_choices(BOARD, t)} == {"africa"}
    t = apply(t, step("united_states", "build_army", space="africa", target_country="united_kingdom"))
    assert {c["space"] for c in step_choices(BOARD, t)} == {"north_africa"}
    out = answer(t, step("united_states", "build_army", space="north_africa", target_country="united_kingdom"))
    assert out.ok and out.state.pending == ()
    # Western Europe never had a target: it closes once no step of the card can go on, named in the note
    assert [n.code for n in out.notes if n.code == "card.step_void"] == ["card.step_void"]
    assert "Western Europe" in next(n.en for n in out.notes if n.code == "card.step_void")
    old = answer(table_of(pieces, active="united_states", options={"card_rules": 5}),
                 play("united_states", "event", "us_free_french_allies"))
    assert [s["spaces"] for s in old.state.pending] == [["africa"]]  # printed order: two steps closed at once


def test_an_any_order_card_with_no_target_at_all_closes_every_step_naming_each():
    out = answer(table_of(["united_states army eastern_us", "germany army germany", "japan army japan",
                           "united_kingdom army united_kingdom", "germany army western_europe"],
                          active="united_states"),
                 play("united_states", "event", "us_free_french_allies"))
    voids = [n for n in out.notes if n.code == "card.step_void"]
    assert out.ok and out.state.pending == () and len(voids) == 3
    for note, where in zip(voids, ("Western Europe", "North Africa", "Africa")):
        assert f"build army of United Kingdom: {where}" in note.en


def test_a_printed_order_card_keeps_its_order_an_earlier_step_making_the_later_possible():
    """Guadalcanal: the recruit in New Zealand comes first and makes the navy next to it possible (at play time
    the navy had no space)."""
    pieces = ["united_states army western_us", "united_states navy eastern_pacific", "germany army germany"]
    t = table_of(pieces, active="united_states")
    navy = compile_card(BOARD, t.position, CAT["us_guadalcanal"], "united_states", lazy=True)[1]
    # before the recruit: a navy in the South Pacific would have no army of its team on a bordering land space
    assert targets(BOARD, t.position, navy) == []
    out = answer(t, play("united_states", "event", "us_guadalcanal"))
    assert out.ok and out.state.pending == () and not any(n.code == "card.step_void" for n in out.notes)
    assert {("united_states", "army", "new_zealand"), ("united_states", "navy", "south_pacific")} <= {
        (p.country, p.kind, p.space) for p in out.state.position.pieces}  # the recruit made the navy possible
    # choosing the later step first is not on the card while the earlier one is mandatory
    t2 = apply(table_of(["soviet_union army moscow", "germany army germany", "japan army china"],
                        active="soviet_union"), play("soviet_union", "event", "su_vasilevsky"))
    assert [s["kind"] for s in t2.pending] == []  # the recruit and the elimination: one choice each, applied
    assert any(p.space == "vladivostok" for p in t2.position.pieces)
    assert not any(p.country == "japan" and p.space == "china" for p in t2.position.pieces)


def test_a_steps_condition_is_judged_when_its_turn_comes_and_named_when_it_fails():
    """«Морские десанты»: a US army in the battled space, only while a supplied US navy is next to it; with none,
    the step is skipped and the note says which condition failed."""
    pieces = ["united_states army eastern_us", "germany army germany", "japan army japan"]
    t = table_of(pieces, active="united_states", cards={"united_states": {"statuses": ["us_amphibious_landings"]}})
    t = apply(t, play("united_states", "land_battle", "us_land_battle", space="canada"))
    step_ = compile_card(BOARD, t.position, CAT["us_amphibious_landings"], "united_states", t.last, lazy=True)[0]
    assert step_["requires"]["spaces"] == ["canada"]  # kept on the step, the battled space filled in
    out = answer(t, {"type": "use_card", "country": "united_states", "card_id": "us_amphibious_landings"})
    assert out.ok and out.state.pending == ()
    void = next(n for n in out.notes if n.code == "card.step_void")
    assert "condition does not hold" in void.en and "navy" in void.en and "Canada" in void.en


def test_a_void_step_is_named_in_both_languages():
    out = answer(table_of(["united_states army western_us", "germany army germany"], active="united_states"),
                 play("united_states", "event", "us_fleet_deployed_to_pearl_harbor"))
    t = apply(out.state, {"type": "skip", "country": "united_states"})
    skip = answer(out.state, {"type": "skip", "country": "united_states"})
    ru = [n.ru for n in skip.notes if n.code == "card.step_void"]
    assert ru and all("«Флот переведён в Пёрл-Харбор»: шаг «" in x for x in ru)
    assert t.pending == ()


@pytest.mark.parametrize("rules", [5, 6])
def test_the_stored_operations_and_the_json_rebuild_the_table_at_each_rules_level(rules):
    """``apply`` checks that the operations rebuild each table; the open steps also survive the stored JSON."""
    t = table_of(ARSENAL, active="united_states", options={"card_rules": rules})
    t = apply(t, play("united_states", "event", "us_arsenal_of_democracy"))
    t = apply(t, step("united_states", "build_navy", space="north_sea", target_country="united_kingdom"))
    assert len(t.pending) == (1 if rules >= 6 else 0)
    assert Table.from_dict(json.loads(json.dumps(t.to_dict()))) == t

"""Every condition in cards_1e.yaml (``requires``, ``count_if.requires``, ``play_requires``, and a status's or
response's ``trigger_spaces`` / ``trigger_where``) is read by
the engine and can be met: a placeholder resolves to what the card is used on (the protected piece's space, the
battled space), and a condition met on the table changes what the engine does. «Эсминцы» had a condition that
named the protected navy's space and was never met: this file would have failed on it."""
from dataclasses import replace

import pytest

from gameplay.qmg.cards import _conditions, default_catalogue
from gameplay.qmg.effects import SCORING_KINDS, condition_holds
from gameplay.qmg.program import PLACEHOLDERS, compile_card, targets
from gameplay.qmg.rules import compute_supply
from gameplay.qmg.state import Piece, Position
from gameplay.qmg.table import play_condition_refusal
from gameplay.qmg.triggers import TRIGGER_SPACE_OF, TRIGGER_WHERE, _trigger_happened

from .helpers import BOARD
from .test_card_engine_taps import table_of

CAT = default_catalogue()
# the effect kinds whose ``requires`` the engine reads (program.compile_card, effects: scoring and immediate VP,
# program.ew_bonus)
READ = {"build", "recruit", "battle", "eliminate", "protect", "discard_from_deck", "vp_immediate",
        "modify_ew_discard"} | set(SCORING_KINDS)
BATTLE_TIMINGS = {"when_you_battle_land", "when_you_play_land_battle", "when_you_battle_sea"}
CONDITIONS = [(card.id, i, e.kind, cond) for card in CAT for i, e in enumerate(card.effects)
              for cond in _conditions(e.params)]
PLAYABLE_IF = [card for card in CAT if card.play_requires is not None]


def test_the_conditions_are_found():
    assert len(CONDITIONS) >= 15 and {c.id for c in PLAYABLE_IF} == {
        "ger_submarines_uk", "ger_submarines_usa", "ger_v_weapons", "ita_regia_marina", "us_bombers",
        "us_heavy_bombers", "us_firestorm_bombers"}


@pytest.mark.parametrize("card_id,index,kind,cond", CONDITIONS, ids=[f"{c[0]}-{c[1]}" for c in CONDITIONS])
def test_every_condition_is_read_and_its_placeholders_resolve(card_id, index, kind, cond):
    card = CAT[card_id]
    assert kind in READ, f"{card_id}: a requires on {kind} is never evaluated"
    for space in cond.get("spaces") or ():
        if space.startswith("@"):
            assert space in PLACEHOLDERS, f"{card_id}: unknown placeholder {space}"
            if space == "@protected_space":
                assert kind == "protect", f"{card_id}: @protected_space outside a protect effect"
            if space == "@battled_space":
                assert card.timing in BATTLE_TIMINGS, f"{card_id}: @battled_space on a card that answers no battle"
        else:
            assert space in BOARD.spaces


def _one_piece_meeting(cond, owner, resolve=lambda s: s):
    """Positions (the owner's home army plus one piece) where ``cond`` holds, placeholders resolved by ``resolve``."""
    home = Piece(owner, "army", BOARD.countries[owner].home)
    who = cond["country"] if isinstance(cond.get("country"), str) and cond["country"] != "self" else owner
    for kind in ("army", "navy"):
        for space in sorted(BOARD.spaces):
            if BOARD.spaces[space].is_land != (kind == "army") or space == home.space:
                continue
            pieces = (home, Piece(who, kind, space))
            resolved = {**dict(cond), "spaces": [resolve(s) for s in cond.get("spaces") or ()]}
            supply = compute_supply(BOARD, Position.of(pieces)) if cond.get("supplied") else None
            if condition_holds(BOARD, pieces, resolved, owner, supply):
                yield Position.of(pieces)


@pytest.mark.parametrize("card_id,index,kind,cond", CONDITIONS, ids=[f"{c[0]}-{c[1]}" for c in CONDITIONS])
def test_every_condition_can_be_met(card_id, index, kind, cond):
    card = CAT[card_id]
    anchors = sorted(BOARD.spaces) if any(s.startswith("@") for s in cond.get("spaces") or ()) else [None]
    assert any(next(_one_piece_meeting(cond, card.country, lambda s, a=a: a if s.startswith("@") else s), None)
               for a in anchors), f"{card_id}: no position meets {dict(cond)}"


def test_destroyers_condition_names_the_protected_navy_and_is_judged_per_navy():
    """The UK navy in the South China Sea next to a supplied UK army in the Philippines may be chosen; a UK navy
    in the North Atlantic with no UK army next to it may not."""
    card = CAT["uk_destroyers"]
    pos = Position.of((Piece("united_kingdom", "army", "united_kingdom"), Piece("united_kingdom", "army", "india"),
                       Piece("united_kingdom", "navy", "bay_of_bengal"), Piece("united_kingdom", "navy", "south_atlantic")))
    steps = compile_card(BOARD, pos, card, "united_kingdom", {})
    assert [s["kind"] for s in steps] == ["protect"]
    chosen = {t["space"] for t in targets(BOARD, pos, steps[0])}
    assert chosen == {"bay_of_bengal"}
    assert compile_card(BOARD, pos, card, "united_kingdom", {}, per_piece=False) == []  # card rules ≤3


@pytest.mark.parametrize("card", PLAYABLE_IF, ids=[c.id for c in PLAYABLE_IF])
def test_a_printed_play_condition_refuses_the_play_when_unmet_and_not_when_met(card):
    met = next(_one_piece_meeting(card.play_requires, card.country))
    empty = Position.of((Piece(card.country, "army", BOARD.countries[card.country].home),))
    t = table_of(active=card.country, round=2)
    assert play_condition_refusal(BOARD, replace(t, position=met), card, card.country) is None
    refusal = play_condition_refusal(BOARD, replace(t, position=empty), card, card.country)
    assert refusal is not None and refusal.reason.code == "play.condition"
    old = replace(t, position=empty, options=replace(t.options, card_rules=3))
    assert play_condition_refusal(BOARD, old, card, card.country) is None  # card rules ≤3: no such check


# the event each timing answers, happened in ``space`` (what the table remembers of it: ``Table.last``)
_EVENTS = {
    "when_you_battle_land": lambda owner, space: {"battled": space, "domain": "land", "by": owner,
                                                  "battles": [{"space": space, "domain": "land", "by": owner}]},
    "when_axis_army_battled": lambda owner, space: {"battled": space, "domain": "land", "by": "united_kingdom",
                                                    "hit": {"country": "germany", "kind": "army", "space": space}},
    "when_axis_builds_or_recruits_army": lambda owner, space: {
        "placed": {"country": "germany", "kind": "army", "space": space, "how": "build"}, "by": "germany"},
    "when_allies_build_or_recruit_navy": lambda owner, space: {
        "placed": {"country": "united_states", "kind": "navy", "space": space, "how": "build"}, "by": "united_states"},
}
TRIGGERED_WHERE = [card for card in CAT if card.trigger_spaces or card.trigger_where]


def test_the_trigger_places_are_found():
    assert {c.id for c in TRIGGERED_WHERE} == {"ger_atlantic_wall", "uk_loyal_to_the_crown", "jpn_china_offensive",
                                              "jpn_fall_of_singapore", "jpn_kamikaze", "su_rasputitsa"}


@pytest.mark.parametrize("card", TRIGGERED_WHERE, ids=[c.id for c in TRIGGERED_WHERE])
def test_every_trigger_place_is_evaluated(card):
    """A card whose data says where its trigger must happen is refused when it happened elsewhere (card rules 5) —
    a trigger key the engine never reads fails here; card rules 4 keep the old answer (the place not checked)."""
    assert card.timing in TRIGGER_SPACE_OF, f"{card.id}: the engine does not know where a {card.timing} happens"
    assert card.trigger_where in TRIGGER_WHERE, f"{card.id}: trigger_where {card.trigger_where} is never evaluated"
    assert card.timing in _EVENTS, f"{card.id}: add an event for {card.timing} to this test"
    t = table_of()
    land = card.timing != "when_allies_build_or_recruit_navy"
    answers = {}
    for space in sorted(BOARD.spaces):
        if BOARD.spaces[space].is_land != land:
            continue
        at = replace(t, last=_EVENTS[card.timing](card.country, space))
        answers[space] = _trigger_happened(BOARD, at, card, card.country)
        old = replace(at, options=replace(at.options, card_rules=4))
        assert _trigger_happened(BOARD, old, card, card.country), f"{card.id} in {space}: card rules 4 changed"
    assert any(answers.values()) and not all(answers.values()), f"{card.id}: the trigger place changes nothing"
    assert all(answers[space] for space in card.trigger_spaces), card.id  # the named spaces themselves answer

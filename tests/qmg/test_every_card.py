"""Every card id, one legal use and one illegal use, as ``qmg_play`` scenarios.

The legal use plays the card from its owner's hand in the owner's play step (a Build or Battle card
at the first space the engine finds legal) and, where the card opens steps, takes the first choice
the engine offers (or skips a "may" step). The illegal use is, by type: a basic card from another
country's deck; a second copy of a one-copy status; a step the event does not allow; a response
revealed that is not face down. The specific rulings are in ``test_card_engine.py``."""
import pytest

from gameplay.qmg import Action, check_action
from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.effects import condition_holds
from gameplay.qmg.state import Piece
from gameplay.qmg.program import coverage
from gameplay.qmg.scenario import run_scenario, setup_table

from .helpers import BOARD

CAT = default_catalogue()
BASIC = ("build_army", "build_navy", "land_battle", "sea_battle")
# a board where every country has pieces to act from: its home army, plus a few
PIECES = [{"country": c, "kind": "army", "space": BOARD.countries[c].home} for c in BOARD.turn_order] + [
    {"country": "soviet_union", "kind": "army", "space": "ukraine"},
    {"country": "united_kingdom", "kind": "navy", "space": "north_sea"},
    {"country": "japan", "kind": "navy", "space": "sea_of_japan"},
    {"country": "japan", "kind": "army", "space": "philippines"},
    {"country": "united_states", "kind": "army", "space": "western_us"},
]


def scenario(country, commands, pieces=None, **cards):
    return run_scenario({"pieces": pieces or PIECES, "active": country, "commands": commands,
                         "cards": {country: {"deck": 20, **cards}}})


def meeting(card):
    """PIECES plus one piece that meets the card's printed play condition, for its legal use."""
    cond = card.play_requires
    if cond is None:
        return PIECES
    taken = {p["space"] for p in PIECES}
    owner = cond["country"]
    for kind in ("army", "navy"):
        for space in sorted(BOARD.spaces):
            if space in taken or BOARD.spaces[space].is_land != (kind == "army"):
                continue
            extra = {"country": owner, "kind": kind, "space": space}
            pieces = [Piece(**p) for p in PIECES + [extra]]
            if condition_holds(BOARD, pieces, cond, card.country):
                return PIECES + [extra]
    raise AssertionError(f"no piece meets {card.id}'s play condition")


def first_legal_space(card):
    table, _, _ = setup_table(BOARD, {"pieces": PIECES, "active": card.country})
    for space in sorted(BOARD.spaces):
        if check_action(BOARD, table.position, Action(card.type, card.country, space)).legal:
            return space
    raise AssertionError(f"no legal space for {card.id}")


@pytest.mark.parametrize("card_id", CAT.ids)
def test_legal_use(card_id):
    card = CAT[card_id]
    cmd = {"type": "play_card", "card_type": card.type, "card_id": card_id}
    if card.type in BASIC:
        cmd["space"] = first_legal_space(card)
    pieces = meeting(card)
    out = scenario(card.country, [cmd], pieces)
    first = out["commands"][0]
    assert first["applied"], (card_id, first["reason"]["en"])
    state = out["state"]
    k = state["cards"][card.country]
    if card.type == "status":
        assert card_id in k["statuses"]
    elif card.type == "response":
        assert k["responses"] == 1 and k["responses_by_id"] == [card_id]
    else:
        assert k["hand"] == 6 and k["discard"] >= 4
    # the steps the card opened: take the first choice offered, or skip a "may" step
    if out["choices"]:
        more = scenario(card.country, [cmd, out["choices"][0]], pieces)
        assert more["commands"][1]["applied"], (card_id, more["commands"][1]["reason"]["en"])
    elif state["pending"]:
        more = scenario(card.country, [cmd, {"type": "skip"}], pieces)
        assert more["commands"][1]["applied"], (card_id, more["commands"][1]["reason"]["en"])


@pytest.mark.parametrize("card_id", CAT.ids)
def test_illegal_use(card_id):
    card = CAT[card_id]
    if card.type in BASIC:
        other = next(c for c in BOARD.turn_order if c != card.country)
        cmd = {"type": "play_card", "card_type": card.type, "card_id": card_id, "space": first_legal_space(card)}
        out = scenario(other, [cmd])
        assert out["commands"][0]["code"] == "card.other_deck"
    elif card.type == "status":
        out = scenario(card.country, [{"type": "play_card", "card_type": "status", "card_id": card_id}],
                       statuses=[card_id])
        assert out["commands"][0]["code"] == "card.copies"
    elif card.type == "response":
        out = scenario(card.country, [{"type": "use_card", "card_id": card_id}])
        assert out["commands"][0]["code"] == "use.not_face_down"
    elif card.play_requires is not None:
        # its printed play condition unmet: refused, nothing discarded, the card stays in hand
        out = scenario(card.country, [{"type": "play_card", "card_type": card.type, "card_id": card_id}])
        assert out["commands"][0]["code"] == "play.condition"
        k = out["state"]["cards"][card.country]
        assert (k["hand"], k["discard"]) == (7, 3) and out["state"]["played"] is None
    else:
        # a step the card does not allow: an army at sea is never on any card, and a free build is not either
        out = scenario(card.country, [{"type": "play_card", "card_type": card.type, "card_id": card_id},
                                      {"type": "step", "action": "build_army", "space": "north_atlantic"}])
        assert out["commands"][0]["applied"]
        assert not out["commands"][1]["applied"]
        assert not any(p["space"] == "north_atlantic" for p in out["state"]["pieces"])


def test_coverage_table_adds_up():
    cov = coverage()
    assert sum(len(v) for v in cov.values()) == len(CAT) == 136
    assert "ger_autobahn" in cov["guided"] and "su_rasputitsa" in cov["automatic"]

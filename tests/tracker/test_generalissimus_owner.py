"""On the page: the defender's phone sends a reaction counter-charge, Bayonets! is named for
an advance, a manual correction is proposed by one phone and agreed on the other (and undone), and
the hints follow the battle's settings."""
import pytest
from django.test import Client

from tracker.core import log
from tracker.models import Game

from .test_generalissimus_views import create, dice, engine, ok, page, post, seat_client

pytestmark = pytest.mark.django_db


def _battle(client, **over):
    game, _ = create(client, **over)
    return game, seat_client(Client, game, 1), seat_client(Client, game, 2)


def _to_actions(game, south, north, south_cards, north_cards):
    for side, c, cards in (("south", south, south_cards), ("north", north, north_cards)):
        for card in cards:
            ok(post(c, game, "place", side=side, card_type=card, zone="center"))
    ok(post(south, game, "confirm", side="south"))
    ok(post(north, game, "confirm", side="north"))
    ok(post(south, game, "initiative", south=5, north=2))
    ok(post(south, game, "zones", side="south", sequence="center,west,east"))


def test_the_defender_meets_a_charge_from_its_phone_in_reaction_mode(client):
    game, south, north = _battle(client, s_counter_charge_timing="reaction")
    _to_actions(game, south, north, ["bayonets"], ["move", "bayonets"])
    ok(post(south, game, "choose", side="south", cards="S-bayonets-1", unit="S-inf-2", target="N-inf-2"))
    ok(post(north, game, "choose", side="north", cards="N-move-1", unit="N-inf-1"))
    html = page(north, game)
    assert 'class="g-react"' in html and 'name="card" value="N-bayonets-1"' in html and 'value="none"' in html
    south_html = page(south, game)
    assert 'class="g-react"' not in south_html and "N-bayonets-1" not in south_html  # the face-down card stays hidden
    assert post(south, game, "react", side="north", unit="N-inf-2", card="none").status_code == 403
    ok(post(north, game, "react", side="north", unit="N-inf-2", card="N-bayonets-1"))
    assert 'data-roll="melee"' in page(north, game) and 'data-roll="melee"' in page(south, game)
    ok(dice(north, game, "north", "melee", [6, 6, 6]))
    ok(dice(south, game, "south", "melee", [1, 1, 1]))
    ok(post(south, game, "retreat_choice", side="south", unit="S-inf-2", sector="c2"))
    st = engine(game)
    s2 = next(u for u in st["units"] if u["id"] == "S-inf-2")
    assert (s2["sector"], s2["flag"]) == ("c2", "routed")
    assert log.replay(game) == log.current_state(game)


def test_bayonets_named_for_an_advance_from_the_page(client):
    game, south, north = _battle(client, preset="standard")
    before = {u["id"]: u for u in engine(game)["units"]}
    assert before["S-inf-2"]["sector"] == "c1" and before["N-inf-2"]["sector"] == "c6"
    _to_actions(game, south, north, ["bayonets"], ["bayonets"])
    html = page(south, game, "?unit=S-inf-2")
    assert "advance to c2" in html or "наступление на c2" in html  # the engine's option for the unit
    ok(post(south, game, "choose", side="south", cards="S-bayonets-1", unit="S-inf-2", use="advance"))
    ok(post(north, game, "choose", side="north", cards="N-bayonets-1", unit="N-inf-2", use="advance"))
    units = {u["id"]: u for u in engine(game)["units"]}
    assert (units["S-inf-2"]["sector"], units["S-inf-2"]["formation"]) == ("c2", before["S-inf-2"]["formation"])
    assert units["N-inf-2"]["sector"] == "c5" and units["S-inf-2"]["attacks_used"] == []
    assert log.current_state(game)["steps"][-1]["cards"]["south"]["use"] == "advance"


def test_a_correction_is_proposed_agreed_and_undone(client):
    game, south, north = _battle(client)
    assert 'class="g-correct"' in page(south, game)
    ok(post(south, game, "correct", side="south", unit="N-inf-1", blocks=2, flag="routed"))
    assert engine(game)["units"][4]["blocks"] == 3  # nothing changes before the other player agrees
    html = page(north, game)
    assert 'class="btn btn-primary g-agree"' in html
    assert 'g-agree' not in page(south, game)  # one does not agree with oneself
    assert post(south, game, "agree_correction", side="north").status_code == 403
    ok(post(north, game, "agree_correction", side="north"))
    n1 = next(u for u in engine(game)["units"] if u["id"] == "N-inf-1")
    assert (n1["blocks"], n1["flag"]) == (2, "routed")
    game.refresh_from_db()
    assert game.events.order_by("-seq").first().command["type"] == "agree_correction"
    ok(post(north, game, "undo"))
    n1 = next(u for u in engine(game)["units"] if u["id"] == "N-inf-1")
    assert (n1["blocks"], n1["flag"]) == (3, "up")
    bad = post(south, game, "correct", side="south", unit="N-inf-1")
    assert bad.status_code in (400, 422)
    assert Game.objects.filter(pk=game.pk).exists()


def test_hints_follow_the_settings(client):
    game, south, north = _battle(client, s_musket_arc="any_diagonal")
    _to_actions(game, south, north, ["move"], ["move"])
    html = page(south, game)
    assert "any diagonal" in html or "любой диагонали" in html


def test_the_host_can_propose_and_agree_alone(client):
    game, south, north = _battle(client)
    html = page(client, game)  # the host's table screen
    assert 'class="g-correct"' in html
    ok(post(client, game, "correct", side="south", unit="S-cav-1", sector="a1", facing="E"))
    assert 'g-agree' in page(client, game)  # the host may act for the other side too
    ok(post(client, game, "agree_correction", side="north"))
    cav = next(u for u in engine(game)["units"] if u["id"] == "S-cav-1")
    assert (cav["sector"], cav["facing"]) == ("a1", "E")
    assert log.replay(game) == log.current_state(game)


def test_forced_flight_waits_for_the_owner_on_its_phone(client):
    game, south, north = _battle(client)
    # the table shows N-inf-2 routed (a correction), then a turn passes without cards
    ok(post(south, game, "correct", side="south", unit="N-inf-2", flag="routed", formation="disordered"))
    ok(post(north, game, "agree_correction", side="north"))
    for _ in range(2):
        ok(post(south, game, "confirm", side="south"))
        ok(post(north, game, "confirm", side="north"))
        ok(post(south, game, "initiative", south=2, north=5))
        ok(post(north, game, "zones", side="north", sequence="center,west,east"))
        if engine(game)["turn"] == 1:
            ok(post(south, game, "end_turn"))  # routed this turn: it does not flee yet
    assert engine(game)["phase"] == "end_of_turn"
    html = page(north, game)
    assert 'class="g-retreat"' in html and 'name="sector" value="d5" checked' in html
    assert "g-end" in html and 'value="end_turn"' not in html  # no end of turn before the owner chose
    assert post(south, game, "end_turn").status_code in (400, 409, 422)
    ok(post(north, game, "retreat_choice", side="north", unit="N-inf-2", sector="e5"))
    assert 'value="end_turn"' in page(south, game)
    ok(post(south, game, "end_turn"))
    n2 = next(u for u in engine(game)["units"] if u["id"] == "N-inf-2")
    assert n2["sector"] == "e5" and engine(game)["turn"] == 3

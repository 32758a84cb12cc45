"""«Генералиссимус»: a refusal reveals nothing hidden (``tests/refusals.py``).

Twin battles differ only in what South keeps face down: in one it laid a Musket volley and a Bayonets!
card beside the centre, in the other a Move and a Form up card (the same count, the same public table).
Every command of the page is posted by the other seat (North), a spectator and the host, naming each of
those cards and each side, and bare; in the actions phase South's hidden choice for the step differs
too. The answers to the twins must be the same in status, text and markup."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.refusals import CURRENT, assert_refusals_alike, viewers_without_the_seat
from tracker.generalissimus.page import OTHER_COMMANDS, SIDE_COMMANDS

from .test_generalissimus_views import create, ok, post, seat_client

pytestmark = pytest.mark.django_db

HIDDEN = {"a": ("musket_volley", "bayonets"), "b": ("move", "form_up")}
CARD_IDS = [f"S-{t}-1" for pair in HIDDEN.values() for t in pair] + ["N-move-1", "N-form_up-1"]


def twin(which: str, phase: str):
    game, _ = create(Client(), name=f"Близнецы {which} {phase}")
    south, north = seat_client(Client, game, 1), seat_client(Client, game, 2)
    for card in HIDDEN[which]:
        ok(post(south, game, "place", side="south", card_type=card, zone="center"))
    if phase == "actions":
        ok(post(north, game, "place", side="north", card_type="form_up", zone="center"))
        ok(post(south, game, "confirm", side="south"))
        ok(post(north, game, "confirm", side="north"))
        ok(post(south, game, "initiative", south=5, north=2))
        ok(post(south, game, "zones", side="south", sequence="center,west,east"))
        first = f"S-{HIDDEN[which][0]}-1"  # South's hidden choice for the step
        extra = {"target": "N-inf-1"} if which == "a" else {}
        ok(post(south, game, "choose", side="south", cards=first, unit="S-inf-1", **extra))
    game.refresh_from_db()
    return game


VIEWERS = viewers_without_the_seat("North", 2)


def posts(version, named=True):
    for command in sorted(SIDE_COMMANDS):
        for side in ("south", "north"):
            yield "command", {"command": command, "side": side, "version": version}
    if not named:
        return
    for card in CARD_IDS:
        for command in ("unplace", "choose", "react"):
            yield "command", {"command": command, "side": "south", "version": version, "card": card, "cards": card,
                              "unit": "S-inf-1", "target": "N-inf-1", "formation": "line", "direction": "left"}
    for pair in HIDDEN.values():
        for card_type in pair:
            yield "command", {"command": "place", "side": "south", "card_type": card_type, "zone": "center",
                              "version": version}
    for command in sorted(OTHER_COMMANDS):
        yield "command", {"command": command, "version": version}


@pytest.mark.parametrize("phase", ["orders", "actions"])
def test_every_command_refuses_the_twins_alike(phase):
    twins = [twin("a", phase), twin("b", phase)]
    assert assert_refusals_alike(twins, VIEWERS, posts(CURRENT)) > 100
    assert assert_refusals_alike(twins, VIEWERS, posts(1, named=False)) > 50  # a stale version

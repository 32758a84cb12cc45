"""The Fog of War: a refusal reveals nothing hidden (``tests/refusals.py``).

Twin games differ only in what the Allies keep face down: the values of the cards in their hand and deck (the
same card ids, other kinds and strengths), the card defending Vichy and the target of their operation at NEW OP
(Libya in one, Italy in the other). Every command the page knows is posted by the other seat (the Axis), a
spectator and the host, bare and with choices that name each hidden fact (the Allies' hand cards by id and by
count, either target, the operation's slot, Vichy's stack, the Allied side), at the current version and a stale
one: the twins' answers must be the same in status, text and markup."""
from __future__ import annotations

import random
from unittest import mock

import pytest
from django.test import Client

from gameplay.fog_of_war.stepper import GLOBAL_COMMANDS, OWN_COMMANDS, TURN_COMMANDS, YE_SIDE_COMMANDS
from tests.refusals import CURRENT, assert_refusals_alike, viewers_without_the_seat
from tracker.core import log

from .test_fog_of_war_views import create, post, seat

pytestmark = pytest.mark.django_db

AXIS = "L3 L3 L2 L2 L1 N2 N1 F1 Z Z"
ALLIES = {"libya": "L3 L3 L3 L2 L2 L2 L1 L1 L1 Z", "italy": "N3 N2 N1 F2 F1 Z Z N1 N2 N3"}


def twin(target: str):
    """The Axis plans nothing and defends Poland; the Allies defend Vichy and plan an operation on ``target``."""
    with mock.patch.object(random, "SystemRandom", lambda: random.Random(5)):  # the twins' shuffles are the same
        game = create(Client(), name="Близнецы", axis_cards=AXIS, allies_cards=ALLIES[target], neutral_cards="15")
    axis, allies = seat(Client(), game, 1), seat(Client(), game, 2)
    for phone, command, fields in ((axis, "start_turn", {}), (axis, "defend", {"province": "poland", "n_cards": "1"}),
                                   (axis, "end_turn", {}), (allies, "start_turn", {}),
                                   (allies, "defend", {"province": "vichy", "n_cards": "1"}),
                                   (allies, "new_op", {"target": target, "n_cards": "1"})):
        hand = [c["id"] for c in log.current_state(game)["engine"]["sides"]["allies" if phone is allies else "axis"]["hand"]]
        if "n_cards" in fields:
            fields = {k: v for k, v in fields.items() if k != "n_cards"} | {"cards": hand[:1]}
        assert post(phone, game, command, **fields).status_code == 200, (command, target)
    game.refresh_from_db()
    return game


VIEWERS = viewers_without_the_seat("Axis", 1)


def hidden_choices(game, version):
    hand = [c["id"] for c in log.current_state(game)["engine"]["sides"]["allies"]["hand"]]
    for command in TURN_COMMANDS + OWN_COMMANDS:
        for side in ("allies", ""):
            base = {"command": command, "version": version, "side": side}
            yield "command", base
            for target in ALLIES:
                yield "command", {**base, "target": target, "province": target, "origin": "britain", "slot": "A",
                                  "cards": hand[:1], "reveal_attack": "L3", "reveal_defence": "L1"}
            yield "command", {**base, "n_cards": "2", "province": "vichy", "target_kind": "defence", "codes": "L3 L2"}
            yield "command", {**base, "slot": "A", "target_kind": "op", "origin": "egypt", "wins": "1"}


def other_commands(version):
    for command in sorted(set(YE_SIDE_COMMANDS) | set(GLOBAL_COMMANDS) - {"set_map", "set_control"}):
        yield "command", {"command": command, "version": version, "side": "allies"}
    yield "undo", {"version": version}


def test_no_fog_of_war_refusal_reveals_the_allies_cards_or_target():
    twins = [twin("libya"), twin("italy")]
    assert twins[0].version == twins[1].version
    posts = [*hidden_choices(twins[0], CURRENT), *other_commands("1"), *other_commands(CURRENT)]
    compared = assert_refusals_alike(twins, VIEWERS, posts)
    assert compared == len(VIEWERS) * len(posts)
    hands = [log.current_state(game)["engine"]["sides"]["allies"]["hand"] for game in twins]
    assert [c["id"] for c in hands[0]] == [c["id"] for c in hands[1]]  # still twins: the same ids …
    assert [c["category"] for c in hands[0]] != [c["category"] for c in hands[1]]  # … other cards

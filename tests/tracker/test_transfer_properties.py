"""Export → import is the identity for random games of every kind (statuses, face-down responses,
card counts, hands, operations, face-down orders, undo and redo included), and a forged state of any
kind is refused at import and never gives a game whose page fails."""
from __future__ import annotations

import copy
import itertools

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import event as hypothesis_event
from hypothesis import strategies as st

from tests.tracker import test_fog_of_war_views as fow
from tests.tracker import test_generalissimus_views as gen
from tests.tracker.test_transfer import HOST, json_snapshot, new_game, row_counts, snapshot
from tracker.core import log, transfer
from tracker.core.models import Game
from tracker.core.registry import adapter_of

pytestmark = pytest.mark.django_db

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
PLAN = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=30)


def _roundtrip(game) -> Game:
    return transfer.import_game(transfer.loads(transfer.dumps(transfer.export_game(game)).encode("utf-8")))


# --- QMG ------------------------------------------------------------------------------------------

QMG_SPACES = ("eastern_europe", "western_europe", "north_sea", "mediterranean", "ukraine", "japan", "sea_of_japan",
              "united_kingdom", "baltic_sea", "russia")
QMG_NAMED = ("ger_blitzkrieg", "ita_mare_nostrum", "su_stalingrad", "uk_loyal_to_the_crown", "jpn_kamikaze")
QMG_KINDS = ("build_army", "build_navy", "land_battle", "sea_battle", "status", "response", "event",
             "discard_unused")


def _qmg_command(a: int, b: int) -> dict | str:
    choice = a % 12
    if choice == 0:
        return {"type": "play_card", "card_type": QMG_KINDS[b % len(QMG_KINDS)], "space": QMG_SPACES[b % 10]}
    if choice == 1:
        card = QMG_NAMED[b % len(QMG_NAMED)]
        return {"type": "play_card", "card_type": "status" if b % 2 else "response", "card_id": card}
    if choice == 2:
        return {"type": "use_card", "card_id": QMG_NAMED[b % len(QMG_NAMED)]}
    if choice == 3:
        return {"type": "pass", "country": ("germany", "united_kingdom", "japan", "soviet_union")[b % 4]}
    if choice == 4:
        return {"type": "discard", "n": b % 2}
    if choice in (5, 6):
        return "undo" if choice == 5 else "redo"
    return {"type": ("end_play", "supply", "score", "draw", "end_play")[choice - 7]}


@SETTINGS
@given(plan=PLAN)
def test_a_random_qmg_game_survives_export_and_import(plan):
    game = new_game(4, early_victory=True)
    for a, b in plan:
        game.refresh_from_db()
        command = _qmg_command(a, b)
        if command == "undo":
            log.undo(game.pk, game.version, HOST)
        elif command == "redo":
            log.redo(game.pk, game.version, HOST)
        else:
            log.submit(game.pk, game.version, HOST, command)
    hypothesis_event(f"moves in effect: {min(len(game.done_moves) // 5 * 5, 20)}+")
    copy_ = _roundtrip(game)
    mine, theirs = snapshot(game), snapshot(copy_)
    assert theirs == mine
    assert theirs["table"] == theirs["replay"]


# --- The Fog of War -------------------------------------------------------------------------------

FOW_PROVINCES = ("berlin", "vichy", "britain", "paris", "italy", "moscow")


def _fow_step(game, players, a, b):
    axis, allies, _ = players
    side = fow.st(game)["active_side"]
    me = axis if side == "axis" else allies
    choice = a % 9
    cards = fow.hand(game, side)[: 1 + b % 3]
    province = FOW_PROVINCES[b % len(FOW_PROVINCES)]
    if choice == 0:
        fow.post(me, game, "start_turn")
    elif choice == 1:
        fow.post(me, game, "defend", province=province, cards=cards)
    elif choice == 2:
        fow.post(me, game, "new_op", target=province, cards=cards)
    elif choice == 3:
        fow.post(me, game, "intel", target_kind="defence", province=province)
    elif choice in (4, 5):
        fow.post(me, game, "end_turn")
    elif choice == 6:
        game.refresh_from_db()
        me.post(reverse("undo", args=[game.pk]), {"version": game.version})
    elif choice == 7:
        game.refresh_from_db()
        me.post(reverse("redo", args=[game.pk]), {"version": game.version})
    else:
        fow.post(me, game, "cancel_op", slot=b % 6)


@SETTINGS
@given(plan=PLAN)
def test_a_random_fog_of_war_game_survives_export_and_import(plan):
    game = fow.create(Client())
    players = fow.clients(None, game)
    for a, b in plan:
        _fow_step(game, players, a, b)
    assert json_snapshot(_roundtrip(game)) == json_snapshot(game)


# --- Generalissimus -------------------------------------------------------------------------------

_NUMBERS = itertools.count(1)
GEN_CARDS = ("musket_volley", "bayonets", "cavalry_charge", "march", "cannon_fire")
GEN_ZONES = ("center", "west", "east")


def _gen_step(game, south, north, a, b):
    side, me = (("south", south), ("north", north))[b % 2]
    choice = a % 9
    if choice in (0, 1):
        gen.post(me, game, "place", side=side, card_type=GEN_CARDS[b % len(GEN_CARDS)], zone=GEN_ZONES[b % 3])
    elif choice == 2:
        gen.post(me, game, "confirm", side=side)
    elif choice == 3:
        gen.post(me, game, "initiative", digital="on")
    elif choice == 4:
        gen.post(me, game, "zones", side=side, sequence=",".join(GEN_ZONES[b % 3:] + GEN_ZONES[:b % 3]))
    elif choice == 5:
        letter = side[0].upper()
        gen.post(me, game, "choose", side=side, cards=f"{letter}-{GEN_CARDS[b % 2]}-1", unit=f"{letter}-inf-1",
                 target=f"{'N' if letter == 'S' else 'S'}-inf-1")
    elif choice == 6:
        gen.post(me, game, "undo")
    elif choice == 7:
        gen.post(me, game, "redo")
    else:
        gen.post(me, game, "end_turn")


@SETTINGS
@given(plan=PLAN)
def test_a_random_generalissimus_game_survives_export_and_import(plan):
    client = Client()
    game, _ = gen.create(client, name=f"Бой {next(_NUMBERS)}")
    south, north = gen.seat_client(Client, game, 1), gen.seat_client(Client, game, 2)
    for a, b in plan:
        _gen_step(game, south, north, a, b)
    assert json_snapshot(_roundtrip(game)) == json_snapshot(game)


# --- Forged states of every kind --------------------------------------------------------------------

def _forged_states(state):
    """States that a hand-edited file might hold, none of them the replayed one."""
    if isinstance(state, dict):
        yield {k: v for k, v in state.items() if k != next(iter(state))}  # a key missing (e.g. "engine")
        yield {**state, "extra": 1}
        first = next(iter(state))
        yield {**state, first: None}
    yield None
    yield []
    yield "state"


@pytest.mark.parametrize("kind", ["qmg", "generalissimus", "fog_of_war"])
def test_a_forged_state_of_any_kind_is_refused_and_nothing_is_created(kind):
    client = Client()
    if kind == "qmg":
        game = new_game(2)
    elif kind == "generalissimus":
        game = gen.create(client)[0]
    else:
        game = fow.create(client)
    doc = transfer.export_game(game)
    host = Client()
    for forged_state in _forged_states(doc["state"]):
        forged = copy.deepcopy(doc)
        forged["state"] = forged_state
        counts = row_counts()
        try:
            imported = transfer.import_game(forged)
        except transfer.ImportError_:
            assert row_counts() == counts
            continue
        # accepted only when the engine reads it as the very state the log gives (an unknown key
        # ignored): the stored state is the replayed one, and its page opens
        stepper = adapter_of(imported).stepper(imported)
        assert stepper.to_json(log.current_state(imported)) == stepper.to_json(log.replay(imported))
        host.get(reverse("host_link", args=[imported.host_token]))
        assert host.get(reverse("game", args=[imported.pk])).status_code == 200
    counts = row_counts()
    for forged_state in (None, [], "state"):
        forged = copy.deepcopy(doc)
        forged["state"] = forged_state
        with pytest.raises(transfer.ImportError_):
            transfer.import_game(forged)
    assert row_counts() == counts
    # the view answers 400 with a message, and the original game's page still renders
    forged = copy.deepcopy(doc)
    forged["state"] = None
    r = client.post(reverse("import_game"), {"file": _upload(forged)})
    assert r.status_code == 400
    client.get(reverse("host_link", args=[game.host_token]))
    assert client.get(reverse("game", args=[game.pk])).status_code == 200


def _upload(doc):
    return SimpleUploadedFile("game.json", transfer.dumps(doc).encode("utf-8"), "application/json")

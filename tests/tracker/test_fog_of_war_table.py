"""The Fog of War game page after the seed fixes: the side without a deck acts inside the other side's turn
(B-4), a blank fact is asked where it matters (winter climate, year-end VP), and a game stored before the
corrections opens and plays on."""
import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.tracker.helpers import initial_data
from tracker.core import log, transfer
from tracker.fog_of_war.forms import NewFogGameForm
from tracker.models import Event, Game, GameState

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
LEGACY = Path(__file__).resolve().parents[1] / "fog_of_war" / "fixtures" / "legacy_game_before_seed_fixes.json"


def create(client, **overrides):
    data = initial_data(NewFogGameForm(), **{"name": "Туман", "axis_player": "А", "allies_player": "Б", **overrides})
    r = client.post(reverse("fog_of_war:new"), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    return Game.objects.latest("pk")


def seats(game):
    out = []
    for n in (1, 2):
        c = Client()
        c.get(reverse("join", args=[game.seats.get(number=n).token]))
        out.append(c)
    return out


def post(client, game, command, **fields):
    game.refresh_from_db()
    return client.post(reverse("command", args=[game.pk]), {"command": command, "version": game.version, **fields},
                       **HTMX)


def engine(game):
    return log.current_state(game)["engine"]


def hand(game, side):
    return [c["id"] for c in engine(game)["sides"][side]["hand"]]


def test_the_side_without_a_deck_acts_inside_the_other_turn(client):
    game = create(client, axis_cards="4", allies_cards="8")
    axis, allies = seats(game)
    post(axis, game, "start_turn")
    post(axis, game, "defend", province="berlin", cards=hand(game, "axis")[:1])
    assert post(axis, game, "end_turn").status_code == 200  # draws its last card: winter
    assert engine(game)["winter"] and engine(game)["active_side"] == "allies"
    post(allies, game, "start_turn")
    html = axis.get(game.get_absolute_url()).content.decode()
    assert "partner-turn" in html and "act-partner-done" in html and "act-defend" not in html
    r = post(axis, game, "defend", province="berlin", cards=hand(game, "axis")[:1])
    assert r.status_code == 422 and "2.10.1" in r.content.decode()
    post(allies, game, "defend", province="britain", cards=hand(game, "allies")[:1])
    r = post(allies, game, "end_turn")
    assert r.status_code == 422 and "без колоды" in r.content.decode()  # the Axis still owes a hand card
    assert post(axis, game, "new_op", target="vichy", cards=hand(game, "axis")[:1]).status_code == 200
    assert post(axis, game, "partner_done").status_code == 200
    assert post(allies, game, "end_turn").status_code == 200
    e = engine(game)
    assert e["active_side"] == "allies" and len(e["sides"]["axis"]["hand"]) == 2  # 2.11: the Allies again
    assert log.replay(game) == log.current_state(game)


def test_year_end_asks_only_the_blank_vp(client):
    game = create(client, axis_cards="4", allies_cards="4", set_exhausted_turn_mode="own_turns")
    axis, allies = seats(game)
    for c, side, prov in ((axis, "axis", "berlin"), (allies, "allies", "britain")):
        post(c, game, "start_turn")
        post(c, game, "defend", province=prov, cards=hand(game, side)[:1])
        post(c, game, "end_turn")
    assert engine(game)["phase"] == "year_end"
    html = axis.get(game.get_absolute_url()).content.decode()
    assert 'name="vp_missing"' in html and "Poland" in html  # the blanks are named (English names in the list)
    r = post(axis, game, "ye_score_vp")
    assert r.status_code == 422 and "Берлин" in r.content.decode()
    assert post(axis, game, "ye_score_vp", vp_missing="6").status_code == 200
    assert engine(game)["sides"]["axis"]["vp"] == 6


def test_a_game_stored_before_the_corrections_opens_plays_on_and_reimports(client):
    """The database rows a game had before the seed fixes (its create event, its moves, its stored state)."""
    data = json.loads(LEGACY.read_text(encoding="utf-8"))
    game = log.create_game(Game.FOG_OF_WAR, "Старая", [("А", ["axis"]), ("Б", ["allies"])], data["initial"])
    for seq, command in enumerate(data["commands"], 2):
        Event.objects.create(game=game, seq=seq, kind=Event.MOVE, round=1, by_host=True, command=command)
    Game.objects.filter(pk=game.pk).update(version=len(data["commands"]) + 1,
                                           done_moves=list(range(2, len(data["commands"]) + 2)))
    GameState.objects.filter(game=game).update(state=data["state"])  # as the former code stored it
    game.refresh_from_db()
    assert log.replay(game) == log.current_state(game)
    _, allies = seats(game)
    assert allies.get(game.get_absolute_url()).status_code == 200
    assert post(allies, game, "end_turn").status_code == 200  # plays on, with the readings it began with
    assert "rules_edition" not in engine(game)["settings"]  # stored as before: it keeps its former readings
    doc = transfer.export_game(game)
    again = transfer.import_game(json.loads(json.dumps(doc)))  # the core's import replays and compares
    assert log.current_state(again) == log.current_state(game)

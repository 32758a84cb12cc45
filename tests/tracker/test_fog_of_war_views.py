"""The Fog of War companion: new game, every form (legal / illegal with its reason), stale versions,
access, hidden information per viewer, undo/redo and replay of the log."""
import pytest
from django.test import Client
from django.urls import reverse

from gameplay.fog_of_war.config import FowSettings
from tests.tracker.helpers import initial_data
from tracker.core import log
from tracker.fog_of_war.forms import NewFogGameForm
from tracker.models import Event, Game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def form_data(**overrides):
    return initial_data(NewFogGameForm(), **{"name": "Туман", "axis_player": "Аня", "allies_player": "Боря",
                                             **overrides})


def create(client, **overrides):
    r = client.post(reverse("fog_of_war:new"), form_data(**overrides))
    assert r.status_code == 302, r.content.decode()[:3000]
    return Game.objects.latest("pk")


@pytest.fixture
def game(client):
    return create(client)


def seat(client, game, number):
    client.get(reverse("join", args=[game.seats.get(number=number).token]))
    return client


def st(game):
    return log.current_state(game)["engine"]


def post(client, game, command, htmx=True, **fields):
    game.refresh_from_db()
    data = {"command": command, "version": game.version, **fields}
    return client.post(reverse("command", args=[game.pk]), data, **(HTMX if htmx else {}))


def hand(game, side):
    return [c["id"] for c in st(game)["sides"][side]["hand"]]


def snapshot(game):
    game.refresh_from_db()
    return game.version, Event.objects.filter(game=game).count(), log.current_state(game)


def clients(client_factory, game):
    axis, allies, watcher = Client(), Client(), Client()
    seat(axis, game, 1)
    seat(allies, game, 2)
    watcher.get(reverse("watch", args=[game.spectator_token]))
    return axis, allies, watcher


@pytest.fixture
def players(game):
    return clients(None, game)


def op_ready(game, axis, allies, target="vichy", n=2, defend=1):
    """Axis plans an op, the Allies defend the target, the Axis rotates: the op is at position 1."""
    assert post(axis, game, "start_turn").status_code == 200
    r = post(axis, game, "new_op", target=target, cards=hand(game, "axis")[:n])
    assert r.status_code == 200, r.content.decode()[:500]
    assert post(axis, game, "end_turn").status_code == 200
    assert post(allies, game, "start_turn").status_code == 200
    if defend:
        assert post(allies, game, "defend", province=target, cards=hand(game, "allies")[:defend]).status_code == 200
    else:
        assert post(allies, game, "defend", province="britain", cards=hand(game, "allies")[:1]).status_code == 200
    assert post(allies, game, "end_turn").status_code == 200
    assert post(axis, game, "start_turn").status_code == 200
    return st(game)["sides"]["axis"]["operations"][0]["slot"]


# --- new game ------------------------------------------------------------------------------

def test_new_game_page_lists_every_default_with_its_explanation(client):
    html = client.get(reverse("fog_of_war:new")).content.decode()
    for row in FowSettings.explain():  # every setting in plain words, no spec row ids
        assert row["ref"] not in html
    for key in ("exhausted_turn_mode", "new_year_draw", "vp_scope", "wins_selection", "no_card_rule"):
        assert f'name="set_{key}"' in html
    assert "A side whose deck has run out" in html or "Сторона, у которой кончилась колода" in html
    assert 'name="map_choice"' in html and 'name="wheel_choice"' in html and 'name="board_map"' in html
    assert 'style="' not in html and "<script>" not in html and "onclick" not in html


def test_create_makes_the_creator_host_and_redirects_to_the_seats(client):
    r = client.post(reverse("fog_of_war:new"), form_data(set_exhausted_turn_mode="full", wheel_choice="placeholder"))
    game = Game.objects.get(kind=Game.FOG_OF_WAR)
    assert r["Location"] == reverse("seats", args=[game.pk])
    assert client.get(reverse("seats", args=[game.pk])).status_code == 200
    assert [s.countries for s in game.seats.all()] == [["axis"], ["allies"]]
    e = st(game)
    assert (e["year"], e["winter"], e["superiority"], e["active_side"]) == (1940, False, "axis", "axis")
    assert e["settings"]["exhausted_turn_mode"] == "full"
    assert e["settings"]["wheel_positions"][2] == {"no_intel": False, "launchable": True, "modifier": "none"}
    assert len(e["board"]["provinces"]) == 21 and e["board"]["adjacency_known"] is False  # the rules' partial map
    assert len(e["sides"]["axis"]["hand"]) == 3 and e["sides"]["allies"]["intel_available"] == 7
    assert client.get(game.get_absolute_url()).status_code == 200


def test_create_with_bad_cards_shows_the_error_and_creates_nothing(client):
    r = client.post(reverse("fog_of_war:new"), form_data(axis_cards="L3 X9"))
    assert r.status_code == 200 and not Game.objects.exists()
    assert "L3 N2 F1 A2 Z" in r.content.decode()


def test_create_with_a_map_and_preplaced_defence(client):
    board = "berlin; ; land; 5; 4; snow; ruhr poland\nruhr; ; land; 3; 4; none; paris\npoland; ; land; 2; 2; snow;\n" \
            "italy; ; land; 0; 3; sun;\nlibya; ; land; 0; 1; sun;\nwestern_mediterranean; ; sea; 0; 0; none; italy\n" \
            "britain; ; land; 0; 4; none;\nparis; ; land; 2; 3; none; vichy\nvichy; ; land; 0; 1; none;\n" \
            "morocco; ; land; 0; 1; sun;\negypt; ; land; 0; 1; sun;\nlebanon; ; land; 0; 1; sun;\n" \
            "north_sea; ; sea; 0; 0; none;\nnorth_atlantic; ; sea; 0; 0; none;\neastern_mediterranean; ; sea; 0; 0; none;"
    game = create(client, board_map=board, preplace=["britain", "paris"])
    e = st(game)
    assert e["board"] is not None
    assert len(e["provinces"]["britain"]["defence"]["allies"]) == 1
    assert e["provinces"]["paris"]["no_supply"] is False


# --- access ---------------------------------------------------------------------------------

def test_access_needs_a_link_spectators_and_other_seats_cannot_act(client, game, players):
    axis, allies, watcher = players
    assert Client().get(game.get_absolute_url()).status_code == 403
    assert watcher.get(game.get_absolute_url()).status_code == 200
    before = snapshot(game)
    assert post(watcher, game, "start_turn").status_code == 403
    assert post(allies, game, "start_turn", side="axis").status_code == 403
    r = post(allies, game, "start_turn")
    assert r.status_code == 422 and "Сейчас ход" in r.content.decode()
    assert snapshot(game) == before


# --- turn flow ------------------------------------------------------------------------------

def test_turn_flow_legal_and_illegal(game, players):
    axis, allies, _ = players
    r = post(axis, game, "defend", province="berlin", cards=hand(game, "axis")[:1])
    assert r.status_code == 422 and "поверните колесо" in r.content.decode()
    r = post(axis, game, "start_turn")
    assert r.status_code == 200 and "на NEW OP — A" in r.content.decode()
    assert st(game)["sides"]["axis"]["wheel_pointer"] == "A"
    r = post(axis, game, "end_turn")
    assert r.status_code == 422 and "хотя бы одну карту" in r.content.decode()
    r = post(axis, game, "new_op", target="berlin", cards=hand(game, "axis")[:1])
    assert r.status_code == 422 and "нейтральной или вражеской" in r.content.decode()
    r = post(axis, game, "defend", province="paris", cards=hand(game, "axis")[:1])
    assert r.status_code == 422 and "свою или нейтральную" in r.content.decode()
    r = post(axis, game, "defend", province="berlin", cards=[])
    assert r.status_code == 400
    r = post(axis, game, "defend", province="berlin", cards=hand(game, "axis")[:2])
    assert r.status_code == 200 and len(st(game)["provinces"]["berlin"]["defence"]["axis"]) == 2
    r = post(axis, game, "end_turn")
    assert r.status_code == 200
    e = st(game)
    assert e["active_side"] == "allies" and len(e["sides"]["axis"]["hand"]) == 3


def test_form_without_javascript_redirects_with_the_message(game, players):
    axis, _, _ = players
    r = post(axis, game, "start_turn", htmx=False)
    assert r.status_code == 302 and r["Location"] == game.get_absolute_url()
    html = axis.get(r["Location"]).content.decode()
    assert "колесо повёрнуто" in html


def test_stale_version_is_409_and_nothing_changes(game, players):
    axis, _, _ = players
    post(axis, game, "start_turn")
    before = snapshot(game)
    r = axis.post(reverse("command", args=[game.pk]),
                  {"command": "defend", "version": game.version - 1, "province": "berlin",
                   "cards": hand(game, "axis")[:1]}, **HTMX)
    assert r.status_code == 409 and "Игра изменилась" in r.content.decode()
    assert snapshot(game) == before


def test_malformed_input_is_a_clean_answer(game, players):
    axis, _, _ = players
    assert axis.post(reverse("command", args=[game.pk]), {"command": "start_turn"}, **HTMX).status_code == 400
    assert post(axis, game, "nonsense").status_code == 400
    post(axis, game, "start_turn")
    r = post(axis, game, "intel", target_kind="defence", province="nowhere", counter_rounds="x")
    assert r.status_code == 400
    r = post(axis, game, "defend", province="nowhere", cards=["ax-999"])
    assert r.status_code == 422


# --- battle ---------------------------------------------------------------------------------

def test_battle_calculator_then_resolution(game, players):
    axis, allies, _ = players
    slot = op_ready(game, axis, allies)
    before = snapshot(game)
    fields = dict(slot=slot, origin="italy", supply_reaches="yes", wheel_mark="none", reveal_attack="L3 L2", reveal_defence="L1",
                  reveal_neutral="")
    r = post(axis, game, "launch", do="preview", **fields)
    html = r.content.decode()
    assert r.status_code == 200 and "A 5" in html and "D 1" in html and "Победа" in html
    assert snapshot(game) == before  # the calculator stores nothing
    r = post(axis, game, "launch", do="resolve", **{**fields, "reveal_attack": "L3"})
    assert r.status_code == 422 and "нужно 2, введено 1" in r.content.decode()
    r = post(axis, game, "launch", do="resolve", **{**fields, "supply_reaches": ""})
    assert r.status_code == 422 and "доходит до атакуемой" in r.content.decode()  # B-17: up to the target
    r = post(axis, game, "launch", do="resolve", **{**fields, "wheel_mark": ""})
    assert r.status_code == 422 and "позиции 1" in r.content.decode()  # B-3: the rules' wheel asks its mark
    r = post(axis, game, "launch", do="resolve", **fields)
    assert r.status_code == 200, r.content.decode()[:500]
    e = st(game)
    assert e["provinces"]["vichy"]["control"] == "axis"
    # smallest sufficient wins set: the L2 covers D 1
    assert [c["land"] for c in e["sides"]["axis"]["wins"]] == [2]
    assert len(e["sides"]["allies"]["losses"]) == 1
    assert log.current_state(game)["supply_answers"] == {}
    html = allies.get(game.get_absolute_url()).content.decode()
    assert "A 5" in html and "Победа" in html


def test_quagmire_random_choice_is_written_into_the_command(game, players):
    axis, allies, _ = players
    slot = op_ready(game, axis, allies, defend=1)
    r = post(axis, game, "launch", do="resolve", slot=slot, origin="italy", supply_reaches="yes", wheel_mark="none",
             reveal_attack="L2 L1", reveal_defence="L3")
    assert r.status_code == 200 and "Упорные бои" in r.content.decode()
    ev = Event.objects.filter(game=game, kind=Event.MOVE).last()
    choice = ev.command["quagmire_choice"]
    assert len(choice["attacker"]) == 1 and len(choice["defender"]) == 1
    assert log.replay(game) == log.current_state(game)
    assert st(game)["provinces"]["vichy"]["quagmire"]["attacker"] == "axis"


def test_table_choice_for_the_wins_pile_is_checked(game, players):
    axis, allies, _ = players
    slot = op_ready(game, axis, allies)
    base = dict(slot=slot, origin="italy", supply_reaches="yes", wheel_mark="none", reveal_attack="L3 L1", reveal_defence="L2")
    r = post(axis, game, "launch", do="resolve", wins="2", **base)
    assert r.status_code == 422 and "меньше силы противника" in r.content.decode()
    r = post(axis, game, "launch", do="resolve", wins="1", **base)
    assert r.status_code == 200
    assert [c["land"] for c in st(game)["sides"]["axis"]["wins"]] == [3]


# --- hidden information ------------------------------------------------------------------------

def test_private_data_never_reaches_the_other_seat_or_a_spectator(client):
    game = create(client, axis_cards="L3 L2 L1 N2 F1 A2 L4 L5", allies_cards="L1 L2 L3 N1 N2 F2 Z A1")

    axis, allies, watcher = clients(None, game)
    post(axis, game, "start_turn")
    post(axis, game, "new_op", target="vichy", cards=hand(game, "axis")[:1])
    axis_hand = hand(game, "axis")
    op_card = st(game)["sides"]["axis"]["operations"][0]["cards"][0]["id"]
    mine = axis.get(game.get_absolute_url()).content.decode()
    assert "op-target" in mine and all(f'value="{cid}"' in mine for cid in axis_hand)
    for other in (allies, watcher):
        for url in (game.get_absolute_url(),):
            html = other.get(url).content.decode() + other.get(url, **HTMX).content.decode()
            assert "op-target" not in html
            for cid in axis_hand + [op_card]:
                assert cid not in html
            assert "my-hand" not in html or other is allies
    allies_hand = hand(game, "allies")
    assert not any(cid in mine for cid in allies_hand)
    watcher_html = watcher.get(game.get_absolute_url()).content.decode()
    assert not any(cid in watcher_html for cid in allies_hand)
    assert 'style="' not in mine and "<script>" not in mine


def test_intel_result_is_shown_to_the_spy_only(game, players):
    axis, allies, watcher = players
    post(axis, game, "start_turn")
    post(axis, game, "defend", province="berlin", cards=hand(game, "axis")[:3])
    post(axis, game, "end_turn")
    post(allies, game, "start_turn")
    r = post(allies, game, "intel", target_kind="defence", province="berlin")
    assert r.status_code == 200 and "видно 1 из 3" in r.content.decode()
    assert "intel-seen" in allies.get(game.get_absolute_url()).content.decode()
    for other in (axis, watcher):
        html = other.get(game.get_absolute_url()).content.decode()
        assert "intel-seen" not in html and "1 из 3" in html  # count public, cards private
    e = st(game)
    assert e["sides"]["allies"]["intel_available"] == 5
    r = post(allies, game, "intel", target_kind="defence", province="paris")
    assert r.status_code == 422 and "Стопка пуста" in r.content.decode()


# --- history ------------------------------------------------------------------------------------

def test_undo_redo_and_replay_rebuild_the_stored_state(game, players):
    axis, allies, _ = players
    slot = op_ready(game, axis, allies)  # its last move: the Axis start their turn
    assert st(game)["turn_started"]
    url = reverse("undo", args=[game.pk])
    game.refresh_from_db()
    r = axis.post(url, {"version": game.version}, **HTMX)
    assert r.status_code == 200 and "Отменено" in r.content.decode() and "is-undone" in r.content.decode()
    assert not st(game)["turn_started"]
    assert log.replay(game) == log.current_state(game)
    game.refresh_from_db()
    r = axis.post(url, {"version": game.version}, **HTMX)  # the Axis did not make the Allies' end of turn
    assert r.status_code == 403
    game.refresh_from_db()
    r = axis.post(reverse("redo", args=[game.pk]), {"version": game.version}, **HTMX)
    assert r.status_code == 200 and st(game)["turn_started"]
    assert log.replay(game) == log.current_state(game)
    game.refresh_from_db()
    assert axis.post(url, {"version": game.version - 1}, **HTMX).status_code == 409
    assert slot


def test_a_battle_cannot_be_undone_its_cards_stay_seen(game, players):
    axis, allies, _ = players
    slot = op_ready(game, axis, allies)
    post(axis, game, "launch", do="resolve", slot=slot, origin="italy", supply_reaches="yes", wheel_mark="none",
         reveal_attack="L3 L2", reveal_defence="L1")
    assert st(game)["provinces"]["vichy"]["control"] == "axis"
    before = snapshot(game)
    html = axis.get(game.get_absolute_url()).content.decode()
    assert 'id="undo-sealed"' in html and "нельзя отменить" in html
    r = axis.post(reverse("undo", args=[game.pk]), {"version": game.version}, **HTMX)
    assert r.status_code == 422 and "нельзя отменить" in r.content.decode()
    assert snapshot(game) == before


# --- map -----------------------------------------------------------------------------------------

def test_map_entry_turns_on_supply_and_bad_maps_are_refused(game, players):
    axis, _, _ = players
    r = post(axis, game, "set_map", board_map="berlin; Berlin; land; 5; 4; snow; nowhere")
    assert r.status_code == 400 and "nowhere" in r.content.decode()
    r = post(axis, game, "set_map", board_map="berlin; Berlin; land; 5; 4; snow;")
    assert r.status_code == 422 and "уже в игре" in r.content.decode()
    # (PostgreSQL's jsonb does not keep the order of keys: build the lines by name)
    seas = ("western_mediterranean", "north_sea", "north_atlantic", "eastern_mediterranean")
    lines = ["berlin; ; land; 5; 4; snow; ruhr poland"] + [
        f"{k}; ; {'sea' if k in seas else 'land'}; 1; 1; none;" for k in sorted(st(game)["provinces"]) if k != "berlin"]
    r = post(axis, game, "set_map", board_map="\n".join(lines))
    assert r.status_code == 200 and "снабжение теперь считается" in r.content.decode()
    e = st(game)
    assert e["board"] is not None and e["provinces"]["poland"]["no_supply"] is False
    assert e["provinces"]["libya"]["no_supply"] is True


# --- year end ------------------------------------------------------------------------------------

def test_year_end_checklist_runs_in_order(client):
    game = create(client, axis_cards="4", allies_cards="4", set_exhausted_turn_mode="own_turns", map_choice="")
    axis, allies, _ = clients(None, game)
    for c, side in ((axis, "axis"), (allies, "allies")):
        post(c, game, "start_turn")
        post(c, game, "defend", province="berlin" if side == "axis" else "britain", cards=hand(game, side)[:1])
        assert post(c, game, "end_turn").status_code == 200
    e = st(game)
    assert e["phase"] == "year_end" and e["winter"] is True
    html = axis.get(game.get_absolute_url()).content.decode()
    assert "checklist" in html and 'name="vp_gain"' in html
    r = post(axis, game, "ye_refresh_intel")
    assert r.status_code == 422 and "по порядку" in r.content.decode()
    assert post(axis, game, "ye_score_vp", vp_gain="7").status_code == 200
    assert st(game)["sides"]["axis"]["vp"] == 7
    assert post(axis, game, "ye_split_wins").status_code == 200
    assert post(axis, game, "ye_refresh_intel").status_code == 200
    # 3.5: the side without superiority (the Allies) first
    r = post(axis, game, "ye_spend", resources="5")
    assert r.status_code == 422
    r = post(allies, game, "ye_spend", resources="5", level="9")
    assert r.status_code == 422 and "ОП" in r.content.decode()
    assert post(allies, game, "ye_spend", resources="5", level="1").status_code == 200
    assert post(axis, game, "ye_spend", resources="6", vp="1", level="2").status_code == 200
    e = st(game)
    assert (e["sides"]["allies"]["production_level"], e["sides"]["axis"]["production_level"], e["sides"]["axis"]["vp"]) == (7, 10, 8)
    assert post(allies, game, "ye_recall", provinces=["britain"]).status_code == 200
    assert post(axis, game, "ye_recall").status_code == 200
    for cmd in ("ye_balkans", "ye_usa", "ye_ussr", "ye_new_decks", "ye_advance"):
        r = post(axis, game, cmd)
        assert r.status_code == 200, (cmd, r.content.decode()[:300])
    assert st(game)["provinces"]["balkans"]["control"] == "axis"  # not attacked in 1940
    assert post(axis, game, "ye_reinforcements", reinf_axis="2", reinf_allies="L3 N2").status_code == 200
    assert post(axis, game, "ye_start_year").status_code == 200
    e = st(game)
    assert (e["year"], e["phase"], e["winter"]) == (1941, "turn", False)
    assert len(e["sides"]["allies"]["losses"]) == 2
    assert log.replay(game) == log.current_state(game)


def test_english_reasons(client, game):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    seat(client, game, 1)
    post(client, game, "start_turn")
    r = post(client, game, "new_op", target="berlin", cards=hand(game, "axis")[:1])
    assert "must be neutral or enemy-controlled" in r.content.decode()


def test_poll_and_live_refresh_markup(client, game):
    seat(client, game, 1)
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'hx-trigger="game-changed from:body, sse:version"' in html and reverse("poll", args=[game.pk]) in html
    assert f'sse-connect="{reverse("stream", args=[game.pk])}?v=' in html
    game.refresh_from_db()
    assert client.get(reverse("poll", args=[game.pk]), {"v": game.version}).status_code == 204


def test_the_host_cannot_play_cards_from_a_sides_hand(client, game):
    """Cards from a hand are the hand's own seat's: the host (the creating browser) is refused before
    the engine looks, whether or not the cards are in that hand."""
    axis, _allies, _watcher = clients(None, game)
    assert post(axis, game, "start_turn").status_code == 200
    before = snapshot(game)
    real = post(client, game, "new_op", side="axis", target="vichy", cards=hand(game, "axis")[:1])
    made_up = post(client, game, "new_op", side="axis", target="vichy", cards=["A-L9-99"])
    assert real.status_code == made_up.status_code == 403
    assert snapshot(game) == before
    assert post(axis, game, "new_op", target="vichy", cards=hand(game, "axis")[:1]).status_code == 200

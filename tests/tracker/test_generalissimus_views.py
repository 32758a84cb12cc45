"""View tests of the Generalissimus companion: setup, every turn form (legal / refused with its
reason / stale), permissions, hidden cards never rendered to the other seat or a spectator, and
the event log replaying to the stored state (undo included)."""
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from gameplay.generalissimus import describe_settings
from tracker.core import log
from tracker.generalissimus.forms import NewBattleForm
from tracker.models import Event, Game, GameState

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def setup_data(**over):
    """The new-battle form as a browser would post it with every default kept."""
    data = {"name": "Бородино", "south_player": "Аня", "north_player": "Боря", "preset": "contact", "units": ""}
    for name, field in NewBattleForm().fields.items():
        if name in data:
            continue
        v = field.initial
        if isinstance(v, bool):
            if v:
                data[name] = "on"
        elif isinstance(v, list):
            data[name] = v
        else:
            data[name] = "" if v is None else v
    data.update(over)
    return data


def create(client, **over):
    r = client.post(reverse("generalissimus:new"), setup_data(**over))
    assert r.status_code == 302, r.content.decode()[:2000]
    return Game.objects.get(name=over.get("name", "Бородино")), r


@pytest.fixture
def game(client):
    return create(client)[0]


def seat_client(client_class, game, number):
    c = client_class()
    c.get(reverse("join", args=[game.seats.get(number=number).token]))
    return c


@pytest.fixture
def south(game):
    return seat_client(Client, game, 1)


@pytest.fixture
def north(game):
    return seat_client(Client, game, 2)


@pytest.fixture
def spectator(game):
    c = Client()
    c.get(reverse("watch", args=[game.spectator_token]))
    return c


def post(client, game, command, htmx=True, version=None, **fields):
    game.refresh_from_db()
    data = {"command": command, "version": game.version if version is None else version, **fields}
    url = reverse(command if command in ("undo", "redo") else "command", args=[game.pk])
    return client.post(url, data, **(HTMX if htmx else {}))


def engine(game):
    return log.current_state(game)["engine"]


def snapshot(game):
    game.refresh_from_db()
    return game.version, Event.objects.filter(game=game).count(), log.current_state(game)


def page(client, game, query=""):
    return client.get(reverse("game", args=[game.pk]) + query).content.decode()


def ok(r):
    assert r.status_code == 200, r.content.decode()[:3000]
    return r.content.decode()


def play_orders(game, south, north):
    ok(post(south, game, "place", side="south", card_type="musket_volley", zone="center"))
    ok(post(south, game, "place", side="south", card_type="bayonets", zone="center"))
    ok(post(north, game, "place", side="north", card_type="musket_volley", zone="center"))
    ok(post(north, game, "place", side="north", card_type="bayonets", zone="center"))
    ok(post(south, game, "confirm", side="south"))
    ok(post(north, game, "confirm", side="north"))


def dice(client, game, side, roll, faces):
    fields = {f"d{i}": v for i, v in enumerate(faces, 1)}
    return post(client, game, "dice", side=side, roll=roll, n=len(faces), **fields)


# --- new battle ----------------------------------------------------------------------------------

def test_new_battle_page_offers_every_default_with_its_reason(client):
    html = client.get(reverse("generalissimus:new")).content.decode()
    for d in describe_settings():
        if d["key"] in ("terrain_map", "pile_composition"):
            continue
        if d["choices"] is not None and len(d["choices"]) < 2:  # a reading with one value is no choice to offer
            assert f'name="s_{d["key"]}"' not in html, d["key"]
            continue
        assert f'name="s_{d["key"]}"' in html, d["key"]
        assert escape(d["ru"]) in html, d["key"]  # the source's silence, in one line
        assert f'{d["ref"]}:' not in html, d["key"]  # in plain words: no spec row ids
    assert 'name="t_a1"' in html and 'name="t_f6"' in html and 'name="pile_move"' in html
    assert "style=" not in html and "onclick" not in html


def test_create_makes_the_creator_host_and_redirects_to_the_seats_page(client):
    game, r = create(client, s_give_way_flag="down", t_c4="hill", name="Аустерлиц")
    assert r["Location"] == reverse("seats", args=[game.pk])
    assert game.kind == Game.GENERALISSIMUS
    assert [s.countries for s in game.seats.all()] == [["south"], ["north"]]
    html = client.get(reverse("seats", args=[game.pk])).content.decode()
    assert "Юг" in html and "Север" in html  # the stepper's side_name
    st = engine(game)
    assert st["phase"] == "orders" and st["terrain"] == {"c4": "hill"}
    assert st["settings"]["give_way_flag"] == "down"
    assert len([c for c in st["cards"] if c["owner"] == "south"]) == 20


def test_standard_preset_fills_both_home_rows(client):
    game, _ = create(client, preset="standard", name="Стандарт")
    units = engine(game)["units"]
    assert sorted(u["sector"] for u in units if u["owner"] == "south") == [f"{c}1" for c in "abcdef"]
    assert sorted(u["sector"] for u in units if u["owner"] == "north") == [f"{c}6" for c in "abcdef"]


def test_own_units_replace_the_preset(client):
    game, _ = create(client, units="south infantry c1 N line 3\nnorth cavalry c6\n", name="Свои")
    assert [(u["id"], u["sector"], u["formation"]) for u in engine(game)["units"]] == [
        ("S-inf-1", "c1", "line"), ("N-cav-1", "c6", "column")]


def test_deployment_is_checked_against_the_nearest_rows_and_the_terrain(client):
    r = client.post(reverse("generalissimus:new"), setup_data(units="south infantry c3\nnorth cavalry c6", name="Далеко"))
    assert r.status_code == 200 and not Game.objects.filter(name="Далеко").exists()
    assert "c3" in r.content.decode() and "deploy_rows" in r.content.decode()
    r = client.post(reverse("generalissimus:new"), setup_data(units="south artillery c1\nnorth cavalry c6", t_c1="forest",
                                                              name="Лес"))
    assert not Game.objects.filter(name="Лес").exists() and "c1" in r.content.decode()
    game, _ = create(client, units="south infantry c3\nnorth cavalry c4", s_deploy_rows=3, name="Три ряда")
    assert [u["sector"] for u in engine(game)["units"]] == ["c3", "c4"]


def test_the_contact_preset_obeys_deployment(client):
    game, _ = create(client, preset="contact", name="Сближение")
    st = engine(game)
    assert st["settings"]["deploy_rows"] == 3 and {u["sector"] for u in st["units"]} >= {"c3", "c4"}


@pytest.mark.parametrize("over, message", [
    ({"units": "south dragoons c3"}, "errorlist"),
    ({"units": "south infantry z9"}, "z9"),
    ({"units": "south infantry c3\nnorth infantry c3"}, "c3"),
    ({"units": "south cavalry c3 square"}, "square"),
    ({"s_zone_columns": "{not json"}, "JSON"),
    ({"s_zone_columns": '{"west": ["a"], "center": ["c"], "east": ["e"]}'}, "zone_columns"),
])
def test_bad_setup_shows_a_clear_message_and_creates_nothing(client, over, message):
    r = client.post(reverse("generalissimus:new"), setup_data(name="Плохо", **over))
    assert r.status_code == 200
    assert message in r.content.decode()
    assert not Game.objects.filter(name="Плохо").exists()


def test_soft_limits_warn_but_do_not_block(client):
    game, _ = create(client, units="south infantry c1\nsouth infantry d1\nnorth infantry c6", name="Неравно")
    html = client.get(reverse("seats", args=[game.pk]), follow=True).content.decode()
    assert "South 6 blocks, North 3 blocks" in html or "Юг" in html


# --- access ---------------------------------------------------------------------------------------

def test_page_needs_a_link(client, game):
    assert Client().get(reverse("game", args=[game.pk])).status_code == 403


def test_spectator_and_other_seat_are_refused(game, south, north, spectator):
    before = snapshot(game)
    r = post(spectator, game, "place", side="south", card_type="move", zone="west")
    assert r.status_code == 403
    r = post(north, game, "place", side="south", card_type="move", zone="west")
    assert r.status_code == 403
    r = post(north, game, "place", htmx=False, side="south", card_type="move", zone="west")
    assert r.status_code == 403
    r = post(south, game, "undo")  # nothing of South's to undo: the creation is not a move
    assert r.status_code == 422
    assert snapshot(game) == before


def test_undo_of_the_other_seats_move_is_forbidden(game, south, north):
    ok(post(south, game, "place", side="south", card_type="move", zone="west"))
    before = snapshot(game)
    assert post(north, game, "undo").status_code == 403
    assert snapshot(game) == before


# --- orders: hidden information -------------------------------------------------------------------

def test_face_down_cards_are_never_rendered_to_the_other_seat_or_spectators(client, game, south, north, spectator):
    ok(post(north, game, "place", side="north", card_type="bayonets", zone="center"))
    ok(post(north, game, "place", side="north", card_type="artillery_volley", zone="east"))
    own = page(north, game)
    assert "N-bayonets-1" in own and "N-artillery_volley-1" in own
    for viewer in (south, spectator, client):  # client: the host's table screen (no seat)
        html = page(viewer, game)
        htmx = viewer.get(reverse("game", args=[game.pk]), **HTMX).content.decode()
        for text in (html, htmx):
            assert "N-bayonets" not in text and "N-artillery_volley" not in text
            assert 'class="g-count">1<' in text  # only the count per zone
    # South's own answer after placing does not carry North's cards either
    text = ok(post(south, game, "place", side="south", card_type="move", zone="center"))
    assert "N-bayonets" not in text and "S-move-1" in text


def test_pending_choice_stays_secret_until_both_have_chosen(game, south, north, spectator):
    play_orders(game, south, north)
    ok(post(south, game, "initiative", south=6, north=1))
    ok(post(south, game, "zones", side="south", sequence="center,west,east"))
    text = ok(post(north, game, "choose", side="north", cards="N-bayonets-1", unit="N-inf-2"))
    assert "N-bayonets-1" not in page(south, game) and "N-bayonets-1" not in page(spectator, game)
    south_page = page(south, game)
    assert "card chosen (face down)" in south_page or "карта выбрана" in south_page
    assert "Bayonets!" in text or "В Штыки" in text or "N-inf-2" in text


# --- orders forms -----------------------------------------------------------------------------------

def test_place_and_take_back(game, south):
    ok(post(south, game, "place", side="south", card_type="move", zone="west"))
    cards = [c for c in engine(game)["cards"] if c["state"] == "placed"]
    assert [(c["id"], c["zone"]) for c in cards] == [("S-move-1", "west")]
    ok(post(south, game, "unplace", side="south", card="S-move-1"))
    assert not [c for c in engine(game)["cards"] if c["state"] == "placed"]


def test_place_refused_when_the_pile_has_no_such_card(game, south):
    for _ in range(2):
        ok(post(south, game, "place", side="south", card_type="retreat", zone="west"))
    before = snapshot(game)
    r = post(south, game, "place", side="south", card_type="retreat", zone="west")
    assert r.status_code == 422
    assert "В стопке нет карты" in r.content.decode()
    assert snapshot(game) == before


def test_invalid_input_is_400_and_changes_nothing(game, south):
    before = snapshot(game)
    assert post(south, game, "place", side="south", card_type="nuke", zone="west").status_code == 400
    assert post(south, game, "teleport", side="south").status_code == 400
    assert post(south, game, "place", side="south", card_type="move", zone="west", version="x").status_code == 400
    assert snapshot(game) == before


def test_stale_version_is_409_and_changes_nothing(game, south):
    ok(post(south, game, "place", side="south", card_type="move", zone="west"))
    before = snapshot(game)
    for command, fields in (("undo", {}), ("confirm", {"side": "south"}), ("end_turn", {})):
        r = post(south, game, command, version=1, **fields)
        assert r.status_code == 409, command
        assert "изменилась" in r.content.decode() or "changed" in r.content.decode()
    assert snapshot(game) == before
    # quick taps on the card buttons: a second placement from the same old form still counts
    ok(post(south, game, "place", version=1, side="south", card_type="move", zone="east"))


def test_without_javascript_a_form_posts_and_redirects(game, south):
    r = post(south, game, "place", htmx=False, side="south", card_type="move", zone="west")
    assert r.status_code == 302 and r["Location"] == reverse("game", args=[game.pk])
    # a refusal without JavaScript: the whole page with the message and the real status (as every game)
    r = post(south, game, "place", htmx=False, side="south", card_type="move", zone="bad")
    assert r.status_code == 400
    html = r.content.decode()
    assert "flash-error" in html and "<html" in html


def test_confirm_twice_is_refused(game, south):
    ok(post(south, game, "confirm", side="south"))
    r = post(south, game, "confirm", side="south")
    assert r.status_code == 422


# --- initiative -----------------------------------------------------------------------------------

def test_initiative_tie_then_winner_sets_the_zones(game, south, north):
    ok(post(south, game, "confirm", side="south"))
    ok(post(north, game, "confirm", side="north"))
    text = ok(post(north, game, "initiative", south=4, north=4))
    assert "перебросить" in text or "roll again" in text
    ok(post(north, game, "initiative", south=2, north=5))
    r = post(south, game, "zones", side="south", sequence="east,center,west")
    assert r.status_code == 422 and "победитель инициативы" in r.content.decode()
    ok(post(north, game, "zones", side="north", sequence="east,center,west"))
    assert engine(game)["phase"] == "end_of_turn"  # no cards anywhere
    assert engine(game)["initiative_rolls"] == {"south": [4, 2], "north": [4, 5]}


def test_initiative_needs_both_dice(game, south, north):
    ok(post(south, game, "confirm", side="south"))
    ok(post(north, game, "confirm", side="north"))
    before = snapshot(game)
    r = post(south, game, "initiative", south=3)
    assert r.status_code == 400
    assert post(south, game, "initiative", south=3, north=9).status_code == 400
    assert snapshot(game) == before


def test_digital_initiative_is_drawn_server_side_and_logged(game, south, north):
    ok(post(south, game, "confirm", side="south"))
    ok(post(north, game, "confirm", side="north"))
    ok(post(south, game, "initiative", digital="on"))
    event = Event.objects.filter(game=game).order_by("-seq").first()
    cmd = event.command
    assert cmd["type"] == "initiative" and cmd["source"] == "digital"
    assert 1 <= cmd["south"] <= 6 and 1 <= cmd["north"] <= 6
    assert "digital" in event.summary_en and "цифровой" in event.summary_ru
    assert log.replay(game) == log.current_state(game)


def test_digital_dice_can_be_switched_off(client):
    game, _ = create(client, name="Без цифры", **{"s_allow_digital_dice": ""})
    s, n = seat_client(Client, game, 1), seat_client(Client, game, 2)
    ok(post(s, game, "confirm", side="south"))
    ok(post(n, game, "confirm", side="north"))
    r = post(s, game, "initiative", digital="on")
    assert r.status_code == 400
    assert "Roll for us" not in page(s, game)


# --- a whole turn: volley, charge, rout, undo, replay --------------------------------------------------

def test_a_turn_with_a_volley_and_a_charge_routs_the_enemy_and_replays(game, south, north, spectator):
    play_orders(game, south, north)
    ok(post(south, game, "initiative", south=5, north=2))
    ok(post(south, game, "zones", side="south", sequence="center,west,east"))
    # step 1: both volley
    ok(post(south, game, "choose", side="south", cards="S-musket_volley-1", unit="S-inf-1", target="N-inf-1"))
    text = ok(post(north, game, "choose", side="north", cards="N-musket_volley-1", unit="N-inf-1", target="S-inf-1"))
    assert "S-inf-1" in text and "N-inf-1" in text  # both cards shown at once
    html = page(spectator, game)
    assert "roll 3 dice, hit on 4–6" in html or "4–6" in html
    # a wrong number of dice is refused and changes nothing
    before = snapshot(game)
    assert dice(south, game, "south", "fire", [4, 1]).status_code in (400, 422)
    assert snapshot(game) == before
    # the other seat cannot enter South's dice
    assert dice(north, game, "south", "fire", [6, 6, 6]).status_code == 403
    ok(dice(south, game, "south", "fire", [4, 1, 1]))
    text = ok(dice(north, game, "north", "fire", [1, 2, 2]))
    st = engine(game)
    n1 = next(u for u in st["units"] if u["id"] == "N-inf-1")
    assert n1["blocks"] == 2 and st["step"] == 1
    assert "попаданий 1" in text or "1 hit" in text
    # step 2: South charges, North meets it with Bayonets!
    ok(post(south, game, "choose", side="south", cards="S-bayonets-1", unit="S-inf-2", target="N-inf-2"))
    ok(post(north, game, "choose", side="north", cards="N-bayonets-1", unit="N-inf-2"))
    html = page(north, game)
    assert "Melee" in html or "Рукопашн" in html or "melee" in html
    ok(dice(north, game, "north", "melee", [1, 1, 1]))
    ok(dice(south, game, "south", "melee", [6, 6, 6]))
    # North lost: its phone offers the sectors, the proposal (straight back) pre-selected; South waits
    html = page(north, game)
    assert 'name="sector" value="d5" checked' in html and 'value="c5"' in html and 'value="e5"' in html
    assert all(f'hint-retreat" data-sector="{x}"' in html for x in ("d5", "c5", "e5"))  # lit on North's board
    assert 'hint-retreat' not in page(south, game)
    assert 'class="g-retreat"' not in page(south, game)
    assert post(south, game, "retreat_choice", side="north", unit="N-inf-2", sector="d5").status_code == 403
    text = ok(post(north, game, "retreat_choice", side="north", unit="N-inf-2", sector="d5"))
    assert "побеждает 19:3" in text or "wins 19 to 3" in text
    st = engine(game)
    n2 = next(u for u in st["units"] if u["id"] == "N-inf-2")
    s2 = next(u for u in st["units"] if u["id"] == "S-inf-2")
    assert n2["flag"] == "routed" and n2["sector"] == "d5" and s2["sector"] == "d4"
    assert st["phase"] == "end_of_turn"
    board = page(spectator, game)
    assert 'class="g-unit side-north kind-infantry formation-disordered routed' in board
    # undo the last move (North's choice) and redo it; then the log replays to the stored state
    ok(post(north, game, "undo"))
    st = engine(game)
    assert next(u for u in st["units"] if u["id"] == "N-inf-2")["flag"] == "up"
    assert log.replay(game) == log.current_state(game)
    ok(post(north, game, "redo"))
    ok(post(north, game, "end_turn"))
    st = engine(game)
    assert st["turn"] == 2 and st["phase"] == "orders"
    assert log.replay(game) == GameState.objects.get(game=game).state


def test_choose_refusals(game, south, north):
    play_orders(game, south, north)
    ok(post(south, game, "initiative", south=5, north=2))
    before = snapshot(game)
    r = post(south, game, "choose", side="south", cards="S-musket_volley-1", unit="S-inf-1", target="N-inf-1")
    assert r.status_code in (400, 422)  # zone order not chosen yet: no card can be revealed
    ok(post(south, game, "zones", side="south", sequence="center,west,east"))
    before = snapshot(game)
    # a card of the other side / a unit of the other side
    assert post(south, game, "choose", side="south", cards="N-bayonets-1", unit="S-inf-1").status_code == 400
    r = post(south, game, "choose", side="south", cards="S-bayonets-1", unit="N-inf-1")
    assert r.status_code == 400
    assert snapshot(game) == before
    # an order that cannot be carried out is accepted with a warning and voided on reveal
    text = ok(post(south, game, "choose", side="south", cards="S-bayonets-1", unit="S-inf-1", target="N-inf-2"))
    assert "Внимание" in text or "Warning" in text
    r = post(south, game, "choose", side="south", cards="S-musket_volley-1", unit="S-inf-1", target="N-inf-1")
    assert r.status_code == 422  # one card per step
    ok(post(north, game, "choose", side="north", cards="N-bayonets-1", unit="N-inf-2"))
    last = log.current_state(game)["steps"][-1]
    assert last["cards"]["south"]["state"] == "void"
    assert "прямо перед собой" in last["cards"]["south"]["reason"]["ru"]


def test_dice_when_none_are_needed_is_refused(game, south):
    r = dice(south, game, "south", "fire", [1, 2, 3])
    assert r.status_code == 422


# --- page details -----------------------------------------------------------------------------------------

def test_tapping_a_unit_shows_what_it_may_do(game, south):
    html = page(south, game, "?unit=S-inf-1")
    assert "N-inf-1" in html and 'class="g-unit-info card"' in html or "g-unit-info" in html
    assert "hint-target" in html
    assert page(south, game, "?unit=nope").count("g-unit-info") == 0


def test_each_player_sees_the_board_from_their_side(game, south, north, spectator):
    assert "g-flipped" in page(north, game)
    assert "g-flipped" not in page(south, game)
    assert "g-flipped" not in page(spectator, game)


def test_no_inline_scripts_styles_or_handlers(game, south):
    html = page(south, game)
    assert "style=" not in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r"\son[a-z]+=", html)


def test_poll_reports_changes(game, south):
    game.refresh_from_db()
    url = reverse("poll", args=[game.pk])
    assert south.get(url, {"v": game.version}).status_code == 204
    ok(post(south, game, "place", side="south", card_type="move", zone="west"))
    r = south.get(url, {"v": game.version})
    assert r.status_code == 200 and r["HX-Trigger"] == "game-changed"


def test_a_secret_simultaneous_move_survives_the_other_sides_move(game, south, north):
    game.refresh_from_db()
    rendered = game.version  # South's form was rendered at this version
    ok(post(north, game, "place", side="north", card_type="move", zone="west"))
    r = post(south, game, "place", version=rendered, side="south", card_type="move", zone="east")
    assert r.status_code == 200
    assert {c["id"] for c in engine(game)["cards"] if c["state"] == "placed"} == {"N-move-1", "S-move-1"}
    # but not when the table changed in public (an undo): then the form is stale
    ok(post(south, game, "undo"))
    game.refresh_from_db()
    r = post(north, game, "place", version=game.version - 1, side="north", card_type="move", zone="east")
    assert r.status_code == 409
    r = post(south, game, "place", version=game.version - 1, side="south", card_type="move", zone="east")
    assert r.status_code == 409


def test_the_host_cannot_handle_or_probe_a_sides_face_down_orders(client, game, south):
    """The host's powers never include a side's face-down cards: placing, taking back or choosing one
    for a side is refused before the engine looks, so the answer is the same whether the card exists."""
    ok(post(south, game, "place", side="south", card_type="move", zone="west"))
    before = snapshot(game)
    existing = post(client, game, "unplace", side="south", card="S-move-1")
    missing = post(client, game, "unplace", side="south", card="S-move-99")
    assert existing.status_code == missing.status_code == 403
    assert "ведущий" in existing.content.decode() or "host" in existing.content.decode()
    assert post(client, game, "place", side="north", card_type="move", zone="west").status_code == 403
    assert snapshot(game) == before
    # the side's own seat still may
    ok(post(south, game, "unplace", side="south", card="S-move-1"))

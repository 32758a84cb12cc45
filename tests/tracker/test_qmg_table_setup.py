"""On the web table: «Подготовка к войне» and the Air Marshal deck sizes on the new-game form, the
preparation taps, and a face-down response discarded unseen (Magic) in its owner's private list."""
import json

import pytest
from django.urls import reverse

from gameplay.qmg import load_board
from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log, transfer
from tracker.models import Event, Game, PrivateNote
from tracker.qmg import selectors
from tracker.qmg.views import create_game

from .test_cards_views import pass_turn
from .test_views import post

pytestmark = pytest.mark.django_db
BOARD = load_board()
CATALOGUE = default_catalogue()


SEATS = {f"seat_{c}": n for n, c in enumerate(BOARD.turn_order, 1)}  # what the browser sends with the form


def new_game(client, **extra):
    data = {"name": "Клуб", "players": 6, "default_seating": "on", **SEATS, **extra}
    r = client.post(reverse("home"), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    return Game.objects.latest("id")


def seat(client, game, number):
    c = client.__class__()
    c.get(reverse("join", args=[game.seats.get(number=number).token]))
    return c


def test_the_form_offers_preparing_for_war_and_stores_it(client):
    html = client.get(reverse("home")).content.decode()
    assert 'name="prepare_for_war"' in html and 'name="air_deck_germany"' in html
    game = new_game(client, prepare_for_war="on")
    assert game.options.get("prepare_for_war") is True
    assert selectors.options_of(game).prepare_for_war
    plain = new_game(client)
    assert "prepare_for_war" not in plain.options and "decks" not in plain.options


def test_air_marshal_deck_sizes_entered_by_the_club(client):
    game = new_game(client, air_marshal="on", air_deck_germany=50, air_deck_italy=30)
    assert game.options["decks"] == {"germany": 50}  # Italy left at the base size: nothing stored for it
    table = selectors.table_of(game)
    assert table.cards_of("germany").deck == 50 - 12 and table.cards_of("germany").hand == 7
    assert table.cards_of("italy").deck == BOARD.countries["italy"].deck - 12
    # the decks are not changed without the expansion, and a size below the 12 dealt is a form error
    plain = new_game(client, air_deck_germany=50)
    assert selectors.table_of(plain).cards_of("germany").deck == BOARD.countries["germany"].deck - 10
    r = client.post(reverse("home"), {"name": "x", "players": 6, "default_seating": "on", **SEATS,
                                      "air_marshal": "on", "air_deck_germany": 5})
    assert r.status_code == 200 and Game.objects.filter(name="x").count() == 0


def test_an_imported_deck_size_out_of_bounds_is_ignored():
    opts = selectors.options_from({"air_marshal": True, "decks": {"germany": 10**9, "italy": "x", "mars": 40,
                                                                  "japan": 44}})
    assert dict(opts.decks) == {"japan": 44}


def test_preparing_for_war_one_tap_a_status_and_a_private_response(client):
    game = new_game(client, prepare_for_war="on")
    germany = seat(client, game, 1)
    page = germany.get(reverse("game", args=[game.pk]))
    rows = page.context["prepare"]
    assert [r["country"] for r in rows] == ["germany"]
    status_id = rows[0]["statuses"][0][0]
    assert 'value="prepare"' in page.content.decode()
    r = post(germany, game, "prepare", country="germany", card_type="status", card_id=status_id)
    assert r.status_code == 200, r.content.decode()[:500]
    game.refresh_from_db()
    cards = game.country_cards.get(country="germany")
    assert cards.statuses == [status_id] and cards.deck == BOARD.countries["germany"].deck - 10 - 1
    assert germany.get(reverse("game", args=[game.pk])).context["prepare"] == []  # one card per country
    # Japan puts a response face down: its name stays on Japan's phone only
    japan = seat(client, game, 3)
    r = post(japan, game, "prepare", country="japan", card_type="response", card_id="jpn_kamikaze")
    assert r.status_code == 200, r.content.decode()[:500]
    event = Event.objects.filter(game=game, kind=Event.MOVE).latest("seq")
    assert "jpn_kamikaze" not in str(event.command)
    assert [x["name"] for x in japan.get(reverse("game", args=[game.pk])).context["private_responses"]] \
        == ["Камикадзе"]
    assert germany.get(reverse("game", args=[game.pk])).context["private_responses"] == []
    # the host cannot put another country's response face down
    host = client.__class__()
    host.get(reverse("host_link", args=[game.host_token]))
    r = post(host, game, "prepare", country="italy", card_type="response", card_id="ita_bravado")
    assert r.status_code in (403, 400)
    # once Germany plays its first card, preparing is over
    pass_turn(germany, game)
    italy_status = next(c.id for c in CATALOGUE.by_country("italy") if c.type == "status")
    r = post(seat(client, game, 5), game, "prepare", country="italy", card_type="status", card_id=italy_status)
    assert r.status_code == 422
    game.refresh_from_db()
    assert game.country_cards.get(country="italy").statuses == []


def test_prepare_is_refused_when_the_game_does_not_use_it(client):
    game = new_game(client)
    germany = seat(client, game, 1)
    assert germany.get(reverse("game", args=[game.pk])).context["prepare"] == []
    status = next(c.id for c in CATALOGUE.by_country("germany") if c.type == "status")
    r = post(germany, game, "prepare", country="germany", card_type="status", card_id=status)
    assert r.status_code == 422 and "Подготовка к войне" in r.content.decode()


def turn(player, game, answer=None, **play):
    """One turn; ``answer``: the phone of an opponent holding a face-down response, who passes first when the
    response window asks it (only when a response card of its deck could answer the move)."""
    assert post(player, game, "play_card", **(play or {"card_type": "discard_unused"})).status_code == 200
    if answer is not None:  # (phone, country) or the Japanese phone
        phone, country = answer if isinstance(answer, tuple) else (answer, "japan")
        game.refresh_from_db()
        if game.qmg.window:
            assert post(phone, game, "pass", country=country).status_code == 200
    for cmd, fields in (("end_play", {}), ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        r = post(player, game, cmd, **fields)
        assert r.status_code == 200, (cmd, r.content.decode()[:300])


def _japan_with_two_face_down(client, on_created=None):
    game = new_game(client, prepare_for_war="on")
    if on_created is not None:  # e.g. open the pages that watch the game (tests/tracker/test_live.py)
        on_created(game)
    japan = seat(client, game, 3)
    assert post(japan, game, "prepare", country="japan", card_type="response", card_id="jpn_kamikaze").status_code == 200
    turn(seat(client, game, 1), game)
    turn(seat(client, game, 2), game, answer=japan)
    turn(japan, game, card="Трук", card_type="response")
    turn(seat(client, game, 4), game, answer=japan)
    turn(seat(client, game, 5), game)
    return game, japan


def test_a_response_discarded_unseen_the_owner_says_which_and_undo_brings_it_back(client):
    game, japan = _japan_with_two_face_down(client)
    names = lambda: sorted(x["name"] for x in japan.get(reverse("game", args=[game.pk])).context["private_responses"])
    assert names() == ["Камикадзе", "Трук"]
    us = seat(client, game, 6)
    assert post(us, game, "play_card", card="Мэджик", card_type="event").status_code == 200
    r = post(us, game, "card_step", country="united_states", action="discard_response", target_country="japan")
    assert r.status_code == 200, r.content.decode()[:800]
    game.refresh_from_db()
    assert game.country_cards.get(country="japan").responses == 1
    page = japan.get(reverse("game", args=[game.pk]))
    assert [u["country"] for u in page.context["discarded_unseen"]] == ["japan"]
    assert "не глядя — какой именно?" in page.content.decode()
    assert seat(client, game, 6).get(reverse("game", args=[game.pk])).context["discarded_unseen"] == []
    # only the owner's seat answers; then the list holds the one still face down
    assert us.post(reverse("qmg_unseen", args=[game.pk]), {"country": "japan", "card_id": "jpn_truk"}).status_code == 400
    r = japan.post(reverse("qmg_unseen", args=[game.pk]), {"country": "japan", "card_id": "jpn_truk"})
    assert r.status_code == 302
    assert names() == ["Камикадзе"]
    assert japan.get(reverse("game", args=[game.pk])).context["discarded_unseen"] == []
    r = japan.post(reverse("qmg_unseen", args=[game.pk]), {"country": "japan", "card_id": "jpn_kamikaze"},
                   follow=True)  # a second tap: nothing left to settle, and the page says so
    assert r.status_code == 200 and "Исправлять нечего" in r.content.decode()
    assert names() == ["Камикадзе"]
    # undo of the discard: both are face down again, by name
    assert post(us, game, "undo").status_code == 200
    assert names() == ["Камикадзе", "Трук"]
    assert post(us, game, "redo").status_code == 200
    assert names() == ["Камикадзе"]


def test_an_undone_face_down_play_leaves_the_private_list(client):
    game, japan = _japan_with_two_face_down(client)
    assert PrivateNote.objects.filter(game=game, card_id="jpn_truk", active=True).exists()
    # undo back to Japan's play of Трук: the moves after it are Japan's steps and two other turns
    host = client.__class__()
    host.get(reverse("host_link", args=[game.host_token]))
    play = Event.objects.filter(game=game, kind=Event.MOVE, command__type="play_card", country="japan").latest("seq")
    game.refresh_from_db()
    while play.seq in (game.done_moves or []):
        assert post(host, game, "undo").status_code == 200, "undo"
        game.refresh_from_db()
    names = sorted(x["name"] for x in japan.get(reverse("game", args=[game.pk])).context["private_responses"])
    assert names == ["Камикадзе"]
    assert japan.get(reverse("game", args=[game.pk])).context["discarded_unseen"] == []


def test_blue_division_discards_unseen_inside_a_play_the_note_follows_and_undo_brings_it_back(client):
    """«Голубая дивизия» discards a Soviet face-down response as part of Italy's play (no step of its own).
    With one face-down card the count says which went: no question to the owner; an undo of Italy's play puts
    the name back on the Soviet phone, a redo takes it away again."""
    game = new_game(client, prepare_for_war="on")
    su = seat(client, game, 4)
    assert post(su, game, "prepare", country="soviet_union", card_type="response",
                card_id="su_rasputitsa").status_code == 200
    turn(seat(client, game, 1), game, answer=(su, "soviet_union"))  # the Allies hold a face-down card
    turn(seat(client, game, 2), game)
    turn(seat(client, game, 3), game, answer=(su, "soviet_union"))
    turn(su, game)
    italy = seat(client, game, 5)
    assert post(italy, game, "play_card", card="Голубая дивизия", card_type="event").status_code == 200
    game.refresh_from_db()
    assert game.country_cards.get(country="soviet_union").responses == 0
    names = lambda: [x["name"] for x in su.get(reverse("game", args=[game.pk])).context["private_responses"]]
    assert names() == []
    assert su.get(reverse("game", args=[game.pk])).context["discarded_unseen"] == []
    assert post(italy, game, "undo").status_code == 200
    assert names() == ["Распутица"]
    assert post(italy, game, "redo").status_code == 200
    assert names() == []


def test_a_game_created_under_card_rules_2_keeps_them_through_replay_export_and_import(client):
    """A game stored before this version's card corrections records ``"rules": 2``: it keeps those rules (e.g.
    Malta Submarines' discards applied without a choice), so its log replays to the state it was stored with,
    and an export of it imports as a rules-2 game."""
    game = create_game("Старые правила", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {})
    create = game.events.get(kind=Event.CREATE)
    create.command = {**create.command, "rules": 2}
    create.save(update_fields=["command"])
    game = Game.objects.get(pk=game.pk)
    assert selectors.rules_level(game) == 2 and selectors.options_of(game).card_rules == 2
    assert not selectors.legacy_rules(game)
    allies = seat(client, game, 2)
    axis = seat(client, game, 1)
    for player in (axis, allies, axis, allies):  # Germany, the UK, Japan, the USSR
        turn(player, game)
    turn(axis, game, card_type="build_navy", space="mediterranean")  # Italy
    turn(allies, game)  # the US
    turn(axis, game)  # Germany, round 2
    assert post(allies, game, "play_card", card="Мальтийские субмарины", card_type="economic_warfare").status_code == 200
    game.refresh_from_db()
    table = selectors.table_of(game)
    assert table.pending == ()  # rules 2: both discards applied at once, no choice left to Germany or Italy
    assert table.options.card_rules == 2
    replayed = log.replay(game)
    assert selectors.canonical(replayed) == selectors.canonical(table)
    doc = json.loads(transfer.dumps(transfer.export_game(Game.objects.get(pk=game.pk))))
    copy = transfer.import_game(doc)
    assert selectors.rules_level(copy) == 2


def test_a_game_created_under_card_rules_5_keeps_its_response_window_through_replay(client):
    """A game stored under card rules 5 (``"rules": 5``): the opponents' window opened after every card and any
    country of the team passed for it, so its log holds passes today's window would refuse. It keeps those rules:
    the passes apply, and its log replays to exactly the state it was stored with."""
    game = create_game("Окно по-старому", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {})
    create = game.events.get(kind=Event.CREATE)
    create.command = {**create.command, "rules": 5}
    create.save(update_fields=["command"])
    game = Game.objects.get(pk=game.pk)
    assert selectors.rules_level(game) == 5 and selectors.options_of(game).card_rules == 5
    axis, allies = seat(client, game, 1), seat(client, game, 2)
    assert post(axis, game, "play_card", card_type="land_battle", space="eastern_europe").status_code == 200
    game.refresh_from_db()
    assert game.qmg.window == "allies"  # rules 5: the window opens whoever holds what
    assert post(allies, game, "pass", country="soviet_union").status_code == 200  # any Allied country passes
    assert post(axis, game, "pass", country="italy").status_code == 200
    game.refresh_from_db()
    table = selectors.table_of(game)
    assert game.qmg.window == "" and table.options.card_rules == 5
    assert selectors.canonical(log.replay(game)) == selectors.canonical(table)


def test_unknown_rules_levels_are_the_old_rules_not_a_crash():
    assert selectors.rules_of({"rules": 2}) == 2 and selectors.rules_of({"rules": 3}) == 3
    for bad in ({"rules": True}, {"rules": "3"}, {"rules": 99}, {}, None, []):
        assert selectors.rules_of(bad) is None


def test_a_malformed_card_id_in_a_stored_command_path_is_refused_not_a_crash():
    """Found by the stateful fuzz: a list where a card id belongs reached the catalogue as a dict key."""
    game = create_game("Фазз", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {})
    assert CATALOGUE.get(["ger_blitzkrieg"]) is None and CATALOGUE.get(None) is None
    for command in ({"type": "use_card", "country": "germany", "card_id": [475, -7]},
                    {"type": "play_card", "card_type": "status", "card_id": {"x": 1}}):
        result = log.submit(game.pk, game.version, log.Actor(is_host=True), command)
        assert not result.applied

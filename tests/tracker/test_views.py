"""View tests: every form (legal, illegal with its message, stale version), links and access."""
import pytest
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.models import BoardVariant, Event, Game, Piece
from tracker.qmg import selectors
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game():
    return create_game("Вечер", list(zip(["Аня", "Боря"], DEFAULT_SEATING[2])), {})


def as_host(client, game):
    client.get(reverse("host_link", args=[game.host_token]))
    return client


def as_seat(client, game, number):
    client.get(reverse("join", args=[game.seats.get(number=number).token]))
    return client


def post(client, game, command, htmx=True, **fields):
    """One move through the command endpoint; "undo" and "redo" post to their own endpoints."""
    game.refresh_from_db()
    if command in ("undo", "redo"):
        return client.post(reverse(command, args=[game.pk]), {"version": game.version, **fields},
                           **(HTMX if htmx else {}))
    data = {"command": command, "version": game.version, **fields}
    return client.post(reverse("command", args=[game.pk]), data, **(HTMX if htmx else {}))


def state(game):
    game.refresh_from_db()
    return game.version, Event.objects.filter(game=game).count(), Piece.objects.filter(game=game).count()


# --- start page and new game ---------------------------------------------------------------

def test_home_lists_unfinished_games_and_offers_a_new_game(client, game):
    # a browser without a link sees the new-game form but no game; with a link, its games
    html = client.get("/").content.decode()
    assert "Вечер" not in html and 'name="players"' in html
    html = as_host(client, game).get("/").content.decode()
    assert "Вечер" in html and 'name="players"' in html


def test_new_game_with_the_rulebook_seating(client):
    r = client.post("/", {"name": "Пятница", "players": 3, "player_1": "A", "player_2": "B", "player_3": "C",
                          "default_seating": "on", "seat_germany": 1, "seat_united_kingdom": 2, "seat_japan": 3,
                          "seat_soviet_union": 1, "seat_italy": 1, "seat_united_states": 1, "early_victory": "on"})
    game = Game.objects.get(name="Пятница")
    assert r.status_code == 302 and r["Location"] == reverse("seats", args=[game.pk])
    assert [s.countries for s in game.seats.all()] == DEFAULT_SEATING[3]
    assert game.options["early_victory"] is True
    # the creating browser is the host
    assert client.get(reverse("seats", args=[game.pk])).status_code == 200


def test_new_game_with_custom_seating_and_a_player_without_country_is_refused(client):
    r = client.post("/", {"name": "X", "players": 3, "seat_germany": 1, "seat_united_kingdom": 2, "seat_japan": 1,
                          "seat_soviet_union": 2, "seat_italy": 1, "seat_united_states": 2})
    assert r.status_code == 200
    assert not Game.objects.filter(name="X").exists()
    assert "хотя бы одна страна" in r.content.decode() or "at least one country" in r.content.decode()


def test_new_game_custom_seating_accepted(client):
    client.post("/", {"name": "Y", "players": 2, "seat_germany": 1, "seat_united_kingdom": 2, "seat_japan": 2,
                      "seat_soviet_union": 2, "seat_italy": 1, "seat_united_states": 2})
    game = Game.objects.get(name="Y")
    assert [s.countries for s in game.seats.all()] == [["germany", "italy"],
                                                        ["united_kingdom", "japan", "soviet_union", "united_states"]]


# --- links and access ----------------------------------------------------------------------

def test_seats_page_shows_join_links_with_qr_codes_for_the_host_only(client, game):
    assert client.get(reverse("seats", args=[game.pk])).status_code == 403
    html = as_host(client, game).get(reverse("seats", args=[game.pk]), HTTP_HOST="127.0.0.1:8000").content.decode()
    for seat in game.seats.all():
        assert f"/join/{seat.token}/" in html
    assert html.count("<svg") >= 3  # one QR per seat and the spectator's
    assert "127.0.0.1" not in html.split("join links", 1)[-1] or True  # LAN address used when one exists


def test_game_page_needs_a_link(client, game):
    r = client.get(reverse("game", args=[game.pk]))
    assert r.status_code == 403
    assert "ссылк" in r.content.decode()


def test_join_link_binds_the_seat_and_shows_its_stepper(client, game):
    html = as_seat(client, game, 1).get(reverse("game", args=[game.pk])).content.decode()
    assert 'value="play_card"' in html  # Germany is active and belongs to seat 1


def test_other_seat_waits(client, game):
    html = as_seat(client, game, 2).get(reverse("game", args=[game.pk])).content.decode()
    assert 'value="play_card"' not in html
    assert "Германия" in html


def test_spectator_sees_the_game_but_cannot_move(client, game):
    client.get(reverse("watch", args=[game.spectator_token]))
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    before = state(game)
    r = post(client, game, "play_card", card_type="build_army", space="eastern_europe")
    assert r.status_code == 403 and state(game) == before


def test_regenerated_join_link_revokes_the_old_one(client, game):
    seat = game.seats.get(number=1)
    old = seat.token
    as_host(client, game).post(reverse("seats", args=[game.pk]), {"seat": seat.pk, "confirm": "yes"})
    seat.refresh_from_db()
    assert seat.token != old
    other = client.__class__()
    assert other.get(reverse("join", args=[old])).status_code == 404


# --- moves: every form ---------------------------------------------------------------------

def test_play_card_legal_htmx_returns_the_partial_with_the_message(client, game):
    as_seat(client, game, 1)
    r = post(client, game, "play_card", card_type="build_army", space="eastern_europe")
    html = r.content.decode()
    assert r.status_code == 200
    assert html.lstrip().startswith('<section id="game"')
    assert "Создайте армию" in html
    assert Piece.objects.filter(game=game, country="germany", space="eastern_europe").exists()


def test_play_card_illegal_shows_the_reason_and_changes_nothing(client, game):
    as_seat(client, game, 1)
    before = state(game)
    r = post(client, game, "play_card", card_type="build_army", space="russia")
    html = r.content.decode()
    assert r.status_code == 422
    assert "Создать армию можно только рядом с вашей снабжаемой армией или флотом" in html
    assert state(game) == before


def test_without_javascript_a_refusal_renders_the_page_and_a_success_redirects(client, game):
    as_seat(client, game, 1)
    r = post(client, game, "play_card", htmx=False, card_type="build_army", space="russia")
    assert r.status_code == 422
    html = r.content.decode()
    assert "Создать армию можно только рядом" in html and "<html" in html
    r = post(client, game, "play_card", htmx=False, card_type="build_army", space="eastern_europe")
    assert r.status_code == 302
    assert "Восточная Европа" in client.get(r["Location"]).content.decode()


def test_stale_version_answers_game_changed_and_nothing_is_applied_twice(client, game):
    as_seat(client, game, 1)
    game.refresh_from_db()
    v = game.version
    data = {"command": "play_card", "version": v, "card_type": "build_army", "space": "eastern_europe"}
    assert client.post(reverse("command", args=[game.pk]), data, **HTMX).status_code == 200
    r = client.post(reverse("command", args=[game.pk]), {**data, "space": "balkans"}, **HTMX)
    assert r.status_code == 409 and "Игра изменилась" in r.content.decode()
    assert not Piece.objects.filter(game=game, space="balkans").exists()


def test_malformed_form_is_a_clean_400_with_a_message(client, game):
    as_seat(client, game, 1)
    before = state(game)
    r = post(client, game, "play_card", card_type="nuke", space="mars")
    assert r.status_code == 400 and state(game) == before
    r = client.post(reverse("command", args=[game.pk]), {"command": "play_card"}, **HTMX)
    assert r.status_code == 400 and state(game) == before
    r = client.post(reverse("command", args=[game.pk]), {"command": "warp", "version": 1}, **HTMX)
    assert r.status_code == 400 and state(game) == before


def test_a_whole_turn_through_the_forms(client, game):
    as_seat(client, game, 1)
    assert post(client, game, "play_card", card_type="event").status_code == 200
    r = post(client, game, "step", action="recruit_army", country="germany", space="balkans")
    assert r.status_code == 200
    # a step without a space is refused by the form
    assert post(client, game, "step", action="build_army", country="germany").status_code == 400
    # a step for a country this seat does not play is forbidden
    assert post(client, game, "step", action="build_army", country="soviet_union", space="russia").status_code == 403
    assert post(client, game, "end_play").status_code == 200
    html = post(client, game, "supply").content.decode()
    assert "Победные очки" in html or "Victory" in html
    html = post(client, game, "score").content.decode()
    assert "Германия 2" in html
    assert post(client, game, "discard", n=8).status_code == 422  # only 6 in hand
    assert post(client, game, "discard", n=1).status_code == 200
    assert post(client, game, "draw").status_code == 200
    game.refresh_from_db()
    assert (game.qmg.turn, game.qmg.phase, game.qmg.vp_axis) == (1, "play", 2)
    assert selectors.canonical(selectors.table_of(game)) == selectors.canonical(log.replay(game))


def test_wrong_phase_is_refused_with_the_rule(client, game):
    as_seat(client, game, 1)
    r = post(client, game, "score")
    assert r.status_code == 422 and "Фазы хода" in r.content.decode()


def test_undo_and_redo_forms(client, game):
    as_seat(client, game, 1)
    post(client, game, "play_card", card_type="build_army", space="eastern_europe")
    r = post(client, game, "undo")
    assert r.status_code == 200 and "Отменено" in r.content.decode()
    assert not Piece.objects.filter(game=game, space="eastern_europe").exists()
    assert "is-undone" in r.content.decode()
    r = post(client, game, "redo")
    assert r.status_code == 200
    assert Piece.objects.filter(game=game, space="eastern_europe").exists()


def test_english_messages(client, game):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    as_seat(client, game, 1)
    html = post(client, game, "play_card", card_type="build_army", space="russia").content.decode()
    assert "An army can only be built next to your supplied army or navy" in html


# --- live sync -----------------------------------------------------------------------------

def test_poll_answers_unchanged_cheaply_and_triggers_a_refresh_when_changed(client, game, django_assert_num_queries):
    # without a link the poll says nothing about the game (as for a game that does not exist)
    assert client.get(reverse("poll", args=[game.pk]), {"v": 0}).status_code == 404
    as_host(client, game)
    game.refresh_from_db()
    with django_assert_num_queries(1):
        r = client.get(reverse("poll", args=[game.pk]), {"v": game.version})
    assert r.status_code == 204
    r = client.get(reverse("poll", args=[game.pk]), {"v": game.version - 1})
    assert r.status_code == 200 and r["HX-Trigger"] == "game-changed"
    assert client.get(reverse("poll", args=[game.pk]), {"v": "x"}).status_code == 200
    assert client.get(reverse("poll", args=[99999])).status_code == 404


def test_game_page_shows_the_map_and_the_vp_chart(client, game):
    html = as_seat(client, game, 2).get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-space="moscow"' in html
    assert 'class="vp-chart"' in html


# --- board variants ------------------------------------------------------------------------

def test_board_variant_is_saved_and_used_by_a_new_game(client):
    r = client.post(reverse("boards"), {"name": "Клуб", "patch": "extends: standard\nremove_stars: [germany]\n"})
    assert r.status_code == 302
    variant = BoardVariant.objects.get(name="Клуб")
    r = client.post("/", {"name": "V", "players": 2, "default_seating": "on", "board_variant": variant.pk,
                          "seat_germany": 1, "seat_united_kingdom": 2, "seat_japan": 1, "seat_soviet_union": 2,
                          "seat_italy": 1, "seat_united_states": 2})
    game = Game.objects.get(name="V")
    assert not selectors.board_of(game).spaces["germany"].supply
    # on this board Germany's own home army is unsupplied, so a build next to it is refused
    client.get(reverse("host_link", args=[game.host_token]))
    r = post(client, game, "play_card", card_type="build_army", space="eastern_europe")
    assert r.status_code == 422


@pytest.mark.parametrize("patch,message", [
    ("extends: standard\nadd_edges: [[atlantis, india]]\n", "unknown space"),
    ("extends: [\n", "YAML"),
    ("- a list\n", "mapping"),
])
def test_bad_board_variant_is_refused_with_a_message(client, patch, message):
    client.cookies["django_language"] = "en"
    r = client.post(reverse("boards"), {"name": "Bad", "patch": patch})
    assert r.status_code == 200 and message in r.content.decode()
    assert not BoardVariant.objects.filter(name="Bad").exists()


def test_board_variant_contradicting_the_rulebook_is_saved_with_a_warning(client):
    r = client.post(reverse("boards"), {"name": "W", "patch": "extends: standard\nadd_edges: [[japan, vladivostok]]\n"},
                    follow=True)
    assert "japan and vladivostok" in r.content.decode()


def test_a_whole_error_page_for_an_htmx_tap_reloads_instead_of_nesting(client, game):
    """A spectator's tap (403 page), a tap after the seat's link was replaced (403 page): htmx is told to reload
    (``HX-Refresh``) so the phone shows the error page itself, not a page inside the game's box. A move the
    rules refuse is still a fragment swapped in place."""
    client.get(reverse("watch", args=[game.spectator_token]))
    r = post(client, game, "play_card", card_type="build_army", space="eastern_europe")
    assert r.status_code == 403 and r["HX-Refresh"] == "true"
    r = post(client, game, "play_card", card_type="build_army", space="eastern_europe", htmx=False)
    assert r.status_code == 403 and "HX-Refresh" not in r
    player = as_seat(client.__class__(), game, 1)
    r = post(player, game, "play_card", card_type="build_army", space="russia")
    assert r.status_code == 422 and "HX-Refresh" not in r and not r.content.lstrip().lower().startswith(b"<!doctype")
    seat = game.seats.get(number=1)
    seat.token = "replaced"
    seat.save()
    r = post(player, game, "play_card", card_type="build_army", space="eastern_europe")
    assert r.status_code in (403, 404) and r["HX-Refresh"] == "true"
    # the reloaded page says why the tap was lost (here: the link no longer opens the game)
    spectator = client
    r = post(spectator, game, "play_card", card_type="build_army", space="eastern_europe")
    page = spectator.get(reverse("game", args=[game.pk])).content.decode()
    assert "Нажатие не принято" in page


def test_a_new_link_is_made_only_after_a_confirmation_naming_whose_phone_loses_access(client, game):
    seat = game.seats.get(number=1)
    old = seat.token
    host = as_host(client, game)
    r = host.post(reverse("seats", args=[game.pk]), {"seat": seat.pk})
    assert r.status_code == 200
    text = r.content.decode()
    assert seat.player_name in text and 'name="confirm" value="yes"' in text
    seat.refresh_from_db()
    assert seat.token == old  # asking changes nothing
    for link in ("watch", "host"):
        before = (game.spectator_token, game.host_token)
        assert host.post(reverse("seats", args=[game.pk]), {"link": link}).status_code == 200
        game.refresh_from_db()
        assert (game.spectator_token, game.host_token) == before
    host.post(reverse("seats", args=[game.pk]), {"seat": seat.pk, "confirm": "yes"})
    seat.refresh_from_db()
    assert seat.token != old

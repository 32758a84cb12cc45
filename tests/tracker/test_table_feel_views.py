"""The site's own answers (styled 404/403/500 that say what to do, favicon, web-app manifest), the
rules search without repeated cards, the rule pages' way back to the game, and the game partial's
forms only where they apply."""
import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.qmg import load_board
from gameplay.qmg.seating import DEFAULT_SEATING
from gameplay.qmg.table import new_table
from tracker import urls
from tracker.core import errors
from tracker.qmg import board_svg
from tracker.templatetags import qmg_board as board_tag
from tracker.qmg.models import Piece
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return create_game("Вечер", list(zip(["Аня", "Боря"], DEFAULT_SEATING[2])), {})


def test_a_replaced_join_link_answers_a_styled_404_that_says_to_ask_for_the_new_qr(client, game):
    seat = game.seats.get(number=1)
    old = seat.token
    seat.token = "replaced"
    seat.save()
    r = client.get(reverse("join", args=[old]))
    html = r.content.decode()
    assert r.status_code == 404 and 'class="card error-page"' in html and "QR" in html
    assert 'href="/"' in html and "<title>" in html and "Not Found" not in html


def test_an_unknown_page_is_a_styled_404_and_the_handlers_are_wired(client):
    r = client.get("/no/such/page/")
    assert r.status_code == 404 and "error-page" in r.content.decode()
    assert urls.handler404 is errors.page_not_found and urls.handler500 is errors.server_error
    assert urls.handler403 is errors.permission_denied


def test_the_500_page_renders_without_a_request_context(rf):
    r = errors.server_error(rf.get("/"))
    assert r.status_code == 500 and "error-page" in r.content.decode()


def test_403_page_says_what_to_do(rf):
    r = errors.permission_denied(rf.get("/g/1/seats/"))
    assert r.status_code == 403 and "QR" in r.content.decode()


def test_favicon_and_manifest(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 301 and r["Location"].endswith(".ico")
    r = client.get(reverse("manifest"))
    data = json.loads(r.content)
    assert r.status_code == 200 and r["Content-Type"] == "application/manifest+json"
    assert data["start_url"] == "/" and data["display"] == "standalone"
    assert {i["sizes"] for i in data["icons"]} >= {"192x192", "512x512"}
    page = client.get("/").content.decode()
    assert 'rel="manifest"' in page and 'rel="icon"' in page


def test_the_rules_search_shows_a_card_in_several_decks_once(client):
    html = client.get(reverse("rules"), {"q": "Атака на море"}).content.decode()
    items = html.split('<li class="hit hit-card game-qmg">')[1:]
    titles = [i.split("</a>")[0].rsplit(">", 1)[1] for i in items]
    assert titles and len(titles) == len(set(titles))
    assert "Атака на море" in titles


def test_a_rule_page_links_back_to_the_game_this_browser_had_open(client, game):
    client.get(reverse("join", args=[game.seats.get(number=1).token]))
    client.get(reverse("game", args=[game.pk]))
    html = client.get(reverse("rules")).content.decode()
    assert f'href="{game.get_absolute_url()}"' in html and "back-to-game" in html
    stranger = Client()
    assert "back-to-game" not in stranger.get(reverse("rules")).content.decode()


def test_a_seat_without_statuses_or_responses_gets_no_use_card_form(client, game):
    client.get(reverse("join", args=[game.seats.get(number=2).token]))
    html = client.get(reverse("game", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert 'value="use_card"' not in html
    assert 'value="pass"' not in html  # no answer window open


def test_the_supply_step_names_whose_pieces_leave(client, game):
    client.get(reverse("join", args=[game.seats.get(number=1).token]))
    Piece.objects.create(game=game, country="germany", kind="army", space="north_africa")  # cut off
    game.refresh_from_db()
    client.post(reverse("command", args=[game.pk]), {"command": "play_card", "card_type": "build_army",
                                                     "space": "eastern_europe", "version": game.version})
    game.refresh_from_db()
    client.post(reverse("command", args=[game.pk]), {"command": "finish_turn", "version": game.version})
    game.refresh_from_db()
    assert game.qmg.phase == "supply"  # «Закончить ход» stops where pieces would leave
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "армия (Германия) в секторе «Северная Африка»" in html


def test_strait_labels_cover_no_space_and_no_other_label():
    board = load_board()
    svg = board_tag.render_board_svg(board, new_table(board).position)
    centres = board_svg.layout_of(board).centre
    rects = []
    pattern = r'<text class="strait-label"[^>]* x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<tspan[^>]*>([^<]*)<'
    for m in re.finditer(pattern, svg):
        x, y = float(m[1]), float(m[2])
        rects.append(board_svg.label_rect((html.unescape(m[3]), html.unescape(m[4])), x, y))
    assert len(rects) == len(board.straits)
    boxes = [(x - board_svg.BOX_W / 2, y - board_svg.BOX_H / 2, x + board_svg.BOX_W / 2, y + board_svg.BOX_H / 2)
             for x, y in centres.values()]

    def overlap(a, b):
        return max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))

    for i, r in enumerate(rects):
        assert all(overlap(r, b) == 0 for b in boxes), r
        assert all(overlap(r, o) == 0 for o in rects[:i]), r

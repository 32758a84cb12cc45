"""Render once per version (issue 21): a QMG page is the skeleton every viewer of a game version shares
(rendered for a spectator, once per version and language) with the viewer's own slots rendered into it.
Every viewer's page is exactly what the plain render gives, the skeleton holds nothing private (no
CSRF token, no face-down card), and six phones refreshing one version render the skeleton once."""
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from gameplay.qmg.cards import default_catalogue
from tracker.core import responses
from tracker.qmg.adapter import QmgAdapter

from .test_cards_views import game6, pass_turn  # noqa: F401 - fixture
from .test_qmg_table_setup import _japan_with_two_face_down, seat
from .test_views import HTMX, post

pytestmark = pytest.mark.django_db
CATALOGUE = default_catalogue()
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def viewers(game):
    host = Client()
    host.get(reverse("host_link", args=[game.host_token]))
    watcher = Client()
    watcher.get(reverse("watch", args=[game.spectator_token]))
    return {"host": host, "spectator": watcher,
            **{f"seat {n}": seat(Client(), game, n) for n in range(1, game.seats.count() + 1)}}


def pages(game, clients, monkeypatch, once: bool) -> dict:
    monkeypatch.setattr(QmgAdapter, "render_once", once)
    cache.clear()
    out = {}
    for name, c in clients.items():
        r = c.get(reverse("game", args=[game.pk]), **HTMX)
        assert r.status_code == 200
        html = r.content.decode()
        assert "{#" not in html and "{%" not in html and "<!--slot:" not in html, name  # no template text shows
        out[name] = TOKEN.sub("TOKEN", html)  # every response has its own masked token
    return out


def assert_same_pages(game, monkeypatch):
    clients = viewers(game)
    plain = pages(game, clients, monkeypatch, once=False)
    slotted = pages(game, clients, monkeypatch, once=True)
    for name in plain:
        assert slotted[name] == plain[name], name
    return slotted


def bar(html: str) -> str:
    """The decision bar of a page (issue 23): a slot of its own, the viewer's current decision."""
    return html[html.index('<section class="decision-bar"'):][:6000]


def test_every_viewer_sees_exactly_the_plain_page_in_a_plain_turn(game6, monkeypatch):  # noqa: F811
    first = assert_same_pages(game6, monkeypatch)
    # the bar is per viewer: the active seat's holds the play form, the others' whom they wait for
    assert 'name="command" value="play_card"' in bar(first["seat 1"])
    assert 'value="play_card"' not in first["spectator"] and "Ждём ход: Германия" in bar(first["spectator"])
    assert "Ждём ход: Германия" in bar(first["seat 2"])
    germany = seat(Client(), game6, 1)
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    assert_same_pages(game6, monkeypatch)
    assert post(germany, game6, "end_play").status_code == 200
    assert_same_pages(game6, monkeypatch)


def test_face_down_cards_a_card_step_and_an_answer_window_render_the_same(client, monkeypatch):
    game, japan = _japan_with_two_face_down(client)
    assert_same_pages(game, monkeypatch)
    us = seat(Client(), game, 6)
    assert post(us, game, "play_card", card="Мэджик", card_type="event").status_code == 200
    assert_same_pages(game, monkeypatch)  # the card step open on the US phone
    assert post(us, game, "card_step", country="united_states", action="discard_response",
                target_country="japan").status_code == 200
    pages_now = assert_same_pages(game, monkeypatch)  # Japan is asked which card went, on its phone only
    assert "не глядя — какой именно?" in pages_now["seat 3"]
    assert "не глядя — какой именно?" not in pages_now["spectator"]


def test_the_skeleton_holds_no_token_and_no_face_down_card(client, monkeypatch):
    game, japan = _japan_with_two_face_down(client)
    monkeypatch.setattr(QmgAdapter, "render_once", True)
    cache.clear()
    japan.get(reverse("game", args=[game.pk]), **HTMX)  # the owner's phone renders the skeleton first
    game.refresh_from_db()
    keys = [k for k in cache._cache if "skeleton:" in k]  # the local-memory render cache of the tests
    assert len(keys) == 1
    skeleton = "".join(cache.get(keys[0].split(":", 2)[2]) or [])
    assert skeleton and "csrfmiddlewaretoken" not in skeleton
    for cid in ("jpn_kamikaze", "jpn_truk"):
        card = CATALOGUE[cid]
        assert card.name_ru not in skeleton and card.name_en not in skeleton
    page = japan.get(reverse("game", args=[game.pk]), **HTMX).content.decode()
    assert CATALOGUE["jpn_kamikaze"].name_ru in page  # its owner still sees it, in its own slot


def test_six_phones_of_one_version_render_the_skeleton_once(game6, monkeypatch):  # noqa: F811
    clients = viewers(game6)
    spectator_contexts = []  # the skeleton's context: everything a spectator sees of the version
    real = QmgAdapter.skeleton_context

    def counting(self, game, state):
        spectator_contexts.append(game.version)
        return real(self, game, state)

    monkeypatch.setattr(QmgAdapter, "skeleton_context", counting)
    cache.clear()
    for c in clients.values():
        assert c.get(reverse("game", args=[game6.pk]), **HTMX).status_code == 200
    assert len(spectator_contexts) == 1
    germany = clients["seat 1"]
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    for c in clients.values():
        c.get(reverse("game", args=[game6.pk]), **HTMX)
    assert len(spectator_contexts) == 2  # the mover's answer rendered the new version's skeleton


def test_a_full_page_and_an_answer_with_a_message_are_unchanged(game6, monkeypatch):  # noqa: F811
    germany = seat(Client(), game6, 1)
    r = post(germany, game6, "play_card", card_type="build_army", space="nowhere")
    assert r.status_code in (400, 422) and 'class="flash' in r.content.decode()
    full = germany.get(reverse("game", args=[game6.pk]))
    assert full.status_code == 200 and "<!--slot:" not in full.content.decode()


def test_a_skeleton_from_another_version_of_the_app_is_not_trusted(game6, monkeypatch):  # noqa: F811
    """A shared cache (Redis) may still hold a skeleton rendered by the previous release, whose slots are not
    this release's: the page is then rendered whole instead of failing."""
    monkeypatch.setattr(QmgAdapter, "render_once", True)
    watcher = viewers(game6)["spectator"]
    cache.clear()
    game6.refresh_from_db()
    key = f"skeleton:qmg:{game6.pk}:{game6.spectator_token}:{game6.version}:ru"
    cache.set(key, ["<section id=\"game\">", "a_slot_of_old", "</section>"], 600)
    r = watcher.get(reverse("game", args=[game6.pk]), **HTMX)
    assert r.status_code == 200 and "a_slot_of_old" not in r.content.decode() and 'class="status-bar"' in r.content.decode()


def test_a_public_fragment_is_reused_only_while_what_it_shows_is_unchanged(game6, monkeypatch):  # noqa: F811
    """The skeleton's public fragments are keyed by what they show (tracker.qmg.page._fragment_keys), not by the
    version: after every move each viewer's page, rendered with the fragments kept from earlier versions, is
    exactly the page rendered from an empty cache; a move that leaves the map alone does not draw it again."""
    from tracker.qmg import page

    clients = viewers(game6)
    drawn = []
    real_svg = page.render_board_svg
    monkeypatch.setattr(page, "render_board_svg", lambda *a, **k: drawn.append(1) or real_svg(*a, **k))
    monkeypatch.setattr(QmgAdapter, "render_once", True)
    cache.clear()

    def kept_pages():  # with the fragments earlier versions left in the cache
        out = {}
        for name, c in clients.items():
            r = c.get(reverse("game", args=[game6.pk]), **HTMX)
            assert r.status_code == 200
            out[name] = TOKEN.sub("TOKEN", r.content.decode())
        return out

    def vp_chart(html):
        return html[html.index("<h3>Победные очки по раундам</h3>"):][:4000]

    kept_pages()
    germany = clients["seat 1"]
    seen = []
    for cmd, fields in (("play_card", {"card_type": "build_army", "space": "eastern_europe"}), ("end_play", {}),
                        ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        drawn.clear()
        assert post(germany, game6, cmd, **fields).status_code == 200, cmd
        kept = kept_pages()
        seen.append((cmd, len(drawn), kept["spectator"]))
        saved = dict(cache._cache), dict(cache._expire_info)
        assert kept == pages(game6, clients, monkeypatch, once=False), cmd  # from an empty cache
        cache._cache.update(saved[0]), cache._expire_info.update(saved[1])  # keep the fragments for the next move
        monkeypatch.setattr(QmgAdapter, "render_once", True)
    assert seen[0][1] == 1 and 'data-pieces="[{&quot;country&quot;: &quot;germany&quot;' in seen[0][2]
    assert seen[1][1] == 0  # the end of the play step changed nothing on the map: its fragment was reused
    game6.refresh_from_db()
    assert game6.qmg.vp_axis > 0  # Germany scored: the status bar and the VP chart show it
    assert vp_chart(seen[3][2]) != vp_chart(seen[2][2])

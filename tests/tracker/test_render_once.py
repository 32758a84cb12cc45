"""Render once per version: what every viewer of a QMG game version sees alike is rendered once and shared from
the render cache (templates/qmg/_game.html's {% cache %} fragments and the version's public context), each
viewer's own parts for each request. Every viewer's page is exactly the page rendered from an empty cache, the
shared cache never holds a CSRF token or a face-down card, and six phones refreshing one version compute its
public parts once."""
import pickle
import re

import pytest
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from gameplay.qmg.cards import default_catalogue
from tracker.qmg import page
from tracker.templatetags import qmg_board as board_tag
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


def page_of(c, game) -> str:
    r = c.get(reverse("game", args=[game.pk]), **HTMX)
    assert r.status_code == 200
    html = r.content.decode()
    assert "{#" not in html and "{%" not in html  # no template text shows
    assert "csrf-token&gt;" not in html  # every form carries this request's own token
    return TOKEN.sub("TOKEN", html)  # every response has its own masked token


def fresh_pages(game, clients) -> dict:
    """Each viewer's page rendered from an empty render cache."""
    out = {}
    for name, c in clients.items():
        cache.clear()
        out[name] = page_of(c, game)
    return out


def shared_pages(game, clients, order) -> dict:
    """Each viewer's page, in ``order``, from one render cache the viewers before it filled."""
    cache.clear()
    return {name: page_of(clients[name], game) for name in order}


def assert_same_pages(game):
    clients = viewers(game)
    fresh = fresh_pages(game, clients)
    with pytest.MonkeyPatch.context() as patch:  # the section rendered whole for each viewer, without the skeleton
        patch.setattr(QmgAdapter, "slots", {})
        plain = fresh_pages(game, clients)
    assert plain == fresh
    for order in (list(clients), list(reversed(clients))):  # the host or a seat first, the spectator first
        shared = shared_pages(game, clients, order)
        for name in fresh:
            assert shared[name] == fresh[name], name
    return fresh


@pytest.fixture
def written(monkeypatch):
    """Every value written to the render cache (both aliases share one local-memory store)."""
    out = []
    for name in ("set", "add", "set_many"):
        real = getattr(LocMemCache, name)

        def recording(self, *args, _real=real, _name=name, **kwargs):
            if _name == "set_many":
                out.extend(args[0].items())
            else:
                out.append((args[0], args[1]))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(LocMemCache, name, recording)
    return out


def holds(value, text: str) -> bool:
    return text in value if isinstance(value, str) else text.encode() in pickle.dumps(value)


def holds_token(value) -> bool:
    """A CSRF token value in a cached value (a kept form's token field holds only the mark the answer replaces)."""
    text = value if isinstance(value, str) else pickle.dumps(value).decode("latin-1")
    return any(value != "&lt;csrf-token&gt;" for value in re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', text))


def bar(html: str) -> str:
    """The decision bar of a page: the viewer's current decision."""
    return html[html.index('<section class="decision-bar"'):][:6000]


def test_every_viewer_sees_exactly_the_fresh_page_in_a_plain_turn(game6):  # noqa: F811
    first = assert_same_pages(game6)
    # the bar is per viewer: the active seat's holds the play form, the others' whom they wait for
    assert 'name="command" value="play_card"' in bar(first["seat 1"])
    assert 'value="play_card"' not in first["spectator"] and "Ждём ход: Германия" in bar(first["spectator"])
    assert "Ждём ход: Германия" in bar(first["seat 2"])
    germany = seat(Client(), game6, 1)
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    assert_same_pages(game6)
    assert post(germany, game6, "end_play").status_code == 200
    assert_same_pages(game6)


def test_face_down_cards_a_card_step_and_an_answer_window_render_the_same(client):
    game, japan = _japan_with_two_face_down(client)
    assert_same_pages(game)
    us = seat(Client(), game, 6)
    assert post(us, game, "play_card", card="Мэджик", card_type="event").status_code == 200
    assert_same_pages(game)  # the card step open on the US phone
    assert post(us, game, "card_step", country="united_states", action="discard_response",
                target_country="japan").status_code == 200
    pages_now = assert_same_pages(game)  # Japan is asked which card went, on its phone only
    assert "не глядя — какой именно?" in pages_now["seat 3"]
    assert "не глядя — какой именно?" not in pages_now["spectator"]


def test_the_shared_cache_holds_no_token_and_no_face_down_card(client, written):
    game, japan = _japan_with_two_face_down(client)
    cache.clear()
    written.clear()
    page = japan.get(reverse("game", args=[game.pk]), **HTMX).content.decode()  # the owner's phone renders first
    assert CATALOGUE["jpn_kamikaze"].name_ru in page  # its owner sees it, in its own part
    for name, c in viewers(game).items():
        other = c.get(reverse("game", args=[game.pk]), **HTMX).content.decode()
        if name not in ("seat 3", "host"):  # (the host's use-card list names every response card of the catalogue)
            assert CATALOGUE["jpn_kamikaze"].name_ru not in other and CATALOGUE["jpn_truk"].name_ru not in other, name
    assert any(key.startswith("qmg:part:board:") for key, _v in written)
    for key, value in written:
        assert not holds_token(value), key  # a kept form prints the mark, never a token
        for cid in ("jpn_kamikaze", "jpn_truk"):
            card = CATALOGUE[cid]
            assert not holds(value, card.name_ru) and not holds(value, card.name_en), (key, cid)


def test_six_phones_of_one_version_compute_its_public_parts_once(game6, monkeypatch):  # noqa: F811
    clients = viewers(game6)
    computed, drawn = [], []
    real_public, real_svg = page._public_of, board_tag.render_board_svg
    monkeypatch.setattr(page, "_public_of", lambda game, *a: computed.append(game.version) or real_public(game, *a))
    monkeypatch.setattr(board_tag, "render_board_svg", lambda *a, **k: drawn.append(1) or real_svg(*a, **k))
    cache.clear()
    for c in clients.values():
        assert c.get(reverse("game", args=[game6.pk]), **HTMX).status_code == 200
    assert len(computed) == 1 and len(drawn) == 1
    germany = clients["seat 1"]
    assert post(germany, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    for c in clients.values():
        c.get(reverse("game", args=[game6.pk]), **HTMX)
    assert len(computed) == 2 and len(drawn) == 2  # the mover's answer computed the new version's


def test_a_full_page_and_an_answer_with_a_message(game6):  # noqa: F811
    germany = seat(Client(), game6, 1)
    r = post(germany, game6, "play_card", card_type="build_army", space="nowhere")
    assert r.status_code in (400, 422) and 'class="flash' in r.content.decode()
    full = germany.get(reverse("game", args=[game6.pk]))
    assert full.status_code == 200 and full.content.decode().count('<section id="game"') == 1


def test_a_part_renders_alone_by_its_name(game6):  # noqa: F811
    """The decision bar is a named partial: rendered alone with the page's context it is the page's bar."""
    germany = seat(Client(), game6, 1)
    r = germany.get(reverse("game", args=[game6.pk]), **HTMX)
    # this viewer's own parts are rendered together into the version's skeleton (tracker.core.responses)
    context = next(c for t, c in zip(r.templates, r.context) if t.name == "core/_slots.html").flatten()
    alone = render_to_string("qmg/_game.html#decision-bar", context, r.wsgi_request)
    assert TOKEN.sub("TOKEN", alone).strip() in TOKEN.sub("TOKEN", r.content.decode())
    assert alone.lstrip().startswith('<section class="decision-bar" id="decision-bar"')


def test_a_public_fragment_is_reused_only_while_what_it_shows_is_unchanged(game6, monkeypatch):  # noqa: F811
    """The public fragments are keyed by what they show (tracker.qmg.page._fragment_keys), not by the version:
    after every move each viewer's page, rendered with the fragments kept from earlier versions, is exactly
    the page rendered from an empty cache; a move that leaves the map alone does not draw it again."""
    clients = viewers(game6)
    drawn = []
    real_svg = board_tag.render_board_svg
    monkeypatch.setattr(board_tag, "render_board_svg", lambda *a, **k: drawn.append(1) or real_svg(*a, **k))
    cache.clear()

    def kept_pages():  # with the fragments earlier versions left in the cache
        return {name: page_of(c, game6) for name, c in clients.items()}

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
        for name, c in clients.items():  # the same page from an empty cache (which is then warm for the next move)
            cache.clear()
            assert page_of(c, game6) == kept[name], (cmd, name)
    assert seen[0][1] == 1 and 'data-pieces="[{&quot;country&quot;: &quot;germany&quot;' in seen[0][2]
    assert seen[1][1] == 0  # the end of the play step changed nothing on the map: its fragment was reused
    game6.refresh_from_db()
    assert game6.qmg.vp_axis > 0  # Germany scored: the status bar and the VP chart show it
    assert vp_chart(seen[3][2]) != vp_chart(seen[2][2])


def test_two_phones_of_one_seat_post_with_their_own_token_from_a_kept_form(game6):  # noqa: F811
    """The note form and undo/redo come from the render cache, filled by the other phone: each phone's page and
    htmx section hold its own session's token, and a browser that checks CSRF posts with it (the note form posts
    without htmx, from a refreshed section too)."""
    cache.clear()
    phones = []
    for _ in range(2):
        c = Client(enforce_csrf_checks=True)
        c.get(reverse("join", args=[game6.seats.get(number=1).token]))
        phones.append(c)
    tokens = []
    for c in phones:
        html = c.get(reverse("game", args=[game6.pk]), **HTMX).content.decode()
        found = re.findall(r'<form method="post" action="/g/%d/note/">\s*<input type="hidden" '
                           r'name="csrfmiddlewaretoken" value="([^"]+)"' % game6.pk, html)
        assert len(found) == 1
        tokens.append(found[0])
    assert tokens[0] != tokens[1]
    for c, token in zip(phones, tokens):
        r = c.post(reverse("note", args=[game6.pk]), {"csrfmiddlewaretoken": token, "country": "germany",
                                                      "text": "two builds"})
        assert r.status_code == 302
    other = phones[1].post(reverse("note", args=[game6.pk]), {"csrfmiddlewaretoken": "x" * 64, "country": "germany",
                                                             "text": "no"})
    assert other.status_code == 403
    page = phones[1].get(reverse("game", args=[game6.pk])).content.decode()
    header = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)  # what htmx sends with every request
    r = phones[1].post(reverse("command", args=[game6.pk]), {"command": "end_play", "version": game6.version},
                       HTTP_X_CSRFTOKEN=header, **HTMX)
    assert r.status_code != 403

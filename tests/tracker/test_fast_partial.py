"""A seat's game partial, the refresh every phone makes after each move (issue 21: ≤ 10× the bare view):
its seat-and-game lookup and its private notes are prepared queries (compiled once, run fresh on every
request: nothing private is kept between requests), and what only some states show is cached per version
(the played card) or per language and board (the fields of an empty «Сыграть карту» form), never with a
player's input in it."""
import pickle

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tracker.core import access
from tracker.core.models import Game, Seat
from tracker.core.prepared import Prepared

from .test_cards_views import game6  # noqa: F401 - fixture
from .test_render_once import viewers
from .test_views import HTMX, as_seat, post

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_the_prepared_seat_lookup_gives_what_the_orm_gives(game6):  # noqa: F811
    for seat in game6.seats.all():
        orm = Seat.objects.select_related("game").get(game_id=game6.pk, token=seat.token)
        [fast] = access._SEAT_AND_GAME.run(pk=game6.pk, token=seat.token)
        assert fields(fast) == fields(orm) and fields(fast.game) == fields(orm.game)
        assert isinstance(fast.countries, list) and isinstance(fast.game.done_moves, list)  # JSON decoded
        assert fast._state.adding is False and fast._state.db == "default"
    assert access._SEAT_AND_GAME.run(pk=game6.pk, token="not-a-token") == []
    assert access._SEAT_AND_GAME.run(pk=game6.pk + 1, token=game6.seats.first().token) == []  # another game's id
    [game] = access._GAME.run(pk=game6.pk)
    assert fields(game) == fields(Game.objects.get(pk=game6.pk))


def test_a_prepared_query_is_compiled_once_per_connection(game6, monkeypatch):  # noqa: F811
    compiled = []
    real = Prepared._compile

    def counting(self, *args):
        compiled.append(self)
        return real(self, *args)

    monkeypatch.setattr(Prepared, "_compile", counting)
    query = Prepared(lambda pk: Game.objects.filter(pk=pk), pk=1_999_999_973)
    for _ in range(3):
        with CaptureQueriesContext(connection) as queries:
            assert [g.pk for g in query.run(pk=game6.pk)] == [game6.pk]
        assert len(queries) == 1  # each run reads the database
    assert compiled == [query]


def test_a_prepared_query_refuses_a_placeholder_it_cannot_place():
    # the same value for two parameters: which is which cannot be told
    with pytest.raises(ValueError):
        Prepared(lambda a, b: Game.objects.filter(pk=a, version=b), a=7, b=7).run(a=1, b=1)
    with pytest.raises(ValueError):  # a parameter the query does not use
        Prepared(lambda a, b: Game.objects.filter(pk=a), a=1_999_999_973, b=1_999_999_979).run(a=1, b=1)


def test_the_partial_of_a_game_that_does_not_exist_is_404(client):
    for pk in (999_999, 2 ** 63, 10 ** 30):
        assert client.get(f"/g/{pk}/", **HTMX).status_code == 404


def test_a_hand_note_shows_on_its_seats_next_refresh_and_on_no_other_page(game6):  # noqa: F811
    clients = viewers(game6)
    url = reverse("game", args=[game6.pk])
    for c in clients.values():  # every cache of this version warm
        assert c.get(url, **HTMX).status_code == 200
    germany = clients["seat 1"]
    for text in ("держу Блицкриг", "уже не Блицкриг, а Тайфун"):
        assert germany.post(reverse("note", args=[game6.pk]), {"country": "germany", "text": text}).status_code == 302
        game6.refresh_from_db()
        for name, c in clients.items():
            page = c.get(url, **HTMX).content.decode()
            assert (text in page) == (name == "seat 1"), name
            assert "держу Блицкриг" not in page or text == "держу Блицкриг" and name == "seat 1", name


def test_the_played_card_shows_on_the_active_phone_once_per_version(game6):  # noqa: F811
    germany = as_seat(Client(), game6, 1)
    cache.clear()
    assert post(germany, game6, "play_card", card="Блицкриг", card_type="event").status_code == 200
    played = [k for k in cache._cache if ":qmg:played:" in k]  # the answer to the move showed it
    assert len(played) == 1
    for _ in range(2):
        page = germany.get(reverse("game", args=[game6.pk]), **HTMX).content.decode()
        assert '<div class="played-card">' in page and "<strong>Блицкриг</strong>" in page
    assert [k for k in cache._cache if ":qmg:played:" in k] == played
    assert '<div class="played-card">' not in as_seat(Client(), game6, 2).get(reverse("game", args=[game6.pk]),
                                                                             **HTMX).content.decode()


def test_a_refused_play_keeps_the_typed_name_on_that_phone_only_and_out_of_the_cache(game6):  # noqa: F811
    germany = as_seat(Client(), game6, 1)
    url = reverse("game", args=[game6.pk])
    cache.clear()
    assert 'id="id_space"' in germany.get(url, **HTMX).content.decode()  # the empty form, cached
    r = post(germany, game6, "play_card", card="секретный план Барбаросса", card_type="event")
    assert r.status_code == 400 and "секретный план Барбаросса" in r.content.decode()  # kept for its player
    for value in cache._cache.values():  # text is kept as it is, other values pickled (tracker.core.textcache)
        assert "секретный план Барбаросса" not in str(pickle.loads(value) if isinstance(value, bytes) else value)
    page = germany.get(url, **HTMX).content.decode()
    assert "секретный план Барбаросса" not in page and 'id="id_space"' in page


def test_the_host_links_are_a_slot_of_their_own(game6):  # noqa: F811
    """The links every viewer shares (ask, rules) are in the skeleton; the host's own (join links, export)
    in a slot. A skeleton of the release before that slot (shared cache, under the same game version) is not
    taken: the host would lose its links."""
    clients = viewers(game6)
    url = reverse("game", args=[game6.pk])
    game6.refresh_from_db()
    cache.clear()
    old = (f"skeleton:qmg:{game6.pk}:{game6.spectator_token}:{game6.version}:ru", [
        '<section id="game">', "you", "", "bar", "", "turn", "", "own_cards", "", "notes", "", "history",
        '<p class="links"></p></section>'])
    cache.set(*old, 600)
    seats_link, export_link = reverse("seats", args=[game6.pk]), reverse("export_game", args=[game6.pk])
    for name, c in clients.items():
        page = c.get(url, **HTMX).content.decode()
        assert reverse("ask", args=[game6.pk]) in page and reverse("rules") in page, name
        assert (seats_link in page) == (export_link in page) == (name == "host"), name

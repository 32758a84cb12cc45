"""A seat's game partial, the refresh every phone makes after each move: its seat-and-game lookup and its
private notes are plain SQL made into model instances (tracker.core.rows; run fresh on every request: nothing
private is kept between requests), and what only some states show is cached per version (the played card)
or per language and board (the fields of an empty «Сыграть карту» form), never with a player's input in it."""
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tracker.core import rows
from tracker.core.models import Game, PrivateNote, Seat

from .test_cards_views import game6  # noqa: F401 - fixture
from .test_render_once import holds, viewers, written  # noqa: F401 - fixture
from .test_views import HTMX, as_seat, post

pytestmark = pytest.mark.django_db


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in rows.columns(type(obj))}


def test_the_seat_lookup_gives_what_the_orm_gives(game6):  # noqa: F811
    for seat in game6.seats.all():
        orm = Seat.objects.select_related("game").get(game_id=game6.pk, token=seat.token)
        [fast] = rows.fetch_with(Seat, "game", "game_id = %s AND token = %s", [game6.pk, seat.token])
        assert fields(fast) == fields(orm) and fields(fast.game) == fields(orm.game)
        assert isinstance(fast.countries, list) and isinstance(fast.game.done_moves, list)  # JSON decoded
        assert fast.game.created_at == orm.game.created_at  # a date not read is loaded when asked for
    assert rows.fetch_with(Seat, "game", "game_id = %s AND token = %s", [game6.pk, "not-a-token"]) == []
    [game] = rows.fetch(Game, "id = %s", [game6.pk])
    assert fields(game) == fields(Game.objects.get(pk=game6.pk))


def test_a_note_read_as_sql_is_the_orm_s(game6):  # noqa: F811
    seat = game6.seats.get(number=1)
    PrivateNote.objects.create(game=game6, seat=seat, country="germany", kind=PrivateNote.HAND, text="<b>x</b>",
                               active=False)
    [fast] = rows.fetch(PrivateNote, "game_id = %s AND seat_id = %s", [game6.pk, seat.pk], "id")
    assert fields(fast) == fields(PrivateNote.objects.get(game=game6, seat=seat)) and fast.active is False


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


def test_the_played_card_shows_on_the_active_phone_once_per_version(game6, written):  # noqa: F811
    germany = as_seat(Client(), game6, 1)
    cache.clear()
    assert post(germany, game6, "play_card", card="Блицкриг", card_type="event").status_code == 200
    played = [k for k, _v in written if k.startswith("qmg:played:")]  # the answer to the move showed it
    assert len(played) == 1
    for _ in range(2):
        page = germany.get(reverse("game", args=[game6.pk]), **HTMX).content.decode()
        assert '<div class="played-card">' in page and "<strong>Блицкриг</strong>" in page
    assert [k for k, _v in written if k.startswith("qmg:played:")] == played
    assert '<div class="played-card">' not in as_seat(Client(), game6, 2).get(reverse("game", args=[game6.pk]),
                                                                             **HTMX).content.decode()


def test_a_refused_play_keeps_the_typed_name_on_that_phone_only_and_out_of_the_cache(game6, written):  # noqa: F811
    germany = as_seat(Client(), game6, 1)
    url = reverse("game", args=[game6.pk])
    cache.clear()
    assert 'id="id_space"' in germany.get(url, **HTMX).content.decode()  # the empty form, cached
    r = post(germany, game6, "play_card", card="секретный план Барбаросса", card_type="event")
    assert r.status_code == 400 and "секретный план Барбаросса" in r.content.decode()  # kept for its player
    assert written and not any(holds(value, "секретный план Барбаросса") for _key, value in written)
    page = germany.get(url, **HTMX).content.decode()
    assert "секретный план Барбаросса" not in page and 'id="id_space"' in page


def test_only_the_host_sees_the_host_links(game6):  # noqa: F811
    """The links every viewer shares (ask, rules) are on every page; the host's own (join links, export) only
    on the host's."""
    clients = viewers(game6)
    url = reverse("game", args=[game6.pk])
    seats_link, export_link = reverse("seats", args=[game6.pk]), reverse("export_game", args=[game6.pk])
    for name, c in clients.items():
        page = c.get(url, **HTMX).content.decode()
        assert reverse("ask", args=[game6.pk]) in page and reverse("rules") in page, name
        assert (seats_link in page) == (export_link in page) == (name == "host"), name

"""Named cards, statuses and face-down responses at the table, the response window, Reallocate Resources."""
import pytest
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.models import Event, PrivateNote
from tracker.qmg.views import create_game

from .test_views import HTMX, as_seat, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def game6():
    names = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]
    return create_game("Шесть", list(zip(names, DEFAULT_SEATING[6])), {"reallocate": True})


def pass_turn(client, game):
    for cmd, fields in (("play_card", {"card_type": "discard_unused"}), ("end_play", {}), ("supply", {}),
                        ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        r = post(client, game, cmd, **fields)
        assert r.status_code == 200, (cmd, r.content.decode()[:300])


def test_play_a_card_by_its_russian_or_english_name(client, game6):
    as_seat(client, game6, 1)
    r = post(client, game6, "play_card", card="Пикирующие", card_type="event")
    assert r.status_code == 200
    game6.refresh_from_db()
    assert game6.country_cards.get(country="germany").statuses == ["ger_dive_bombers"]
    assert "Пикирующие бомбардировщики" in r.content.decode()  # public: statuses are face up


def test_unknown_or_foreign_card_name_is_a_form_error(client, game6):
    as_seat(client, game6, 1)
    r = post(client, game6, "play_card", card="Сталинград", card_type="event")  # a Soviet card
    assert r.status_code == 400
    r = post(client, game6, "play_card", card="zzzz", card_type="event")
    assert r.status_code == 400


def test_event_by_name_scores_immediately(client, game6):
    as_seat(client, game6, 1)
    assert post(client, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    for cmd in ("end_play", "supply", "score"):
        post(client, game6, cmd)
    post(client, game6, "discard", n=0)
    post(client, game6, "draw")
    # ... five other countries pass, then Germany plunders with one army outside Germany
    seats = {n: game6.seats.get(number=n) for n in range(1, 7)}
    for n in (2, 3, 4, 5, 6):
        client.get(reverse("join", args=[seats[n].token]))
        pass_turn(client, game6)
    client.get(reverse("join", args=[seats[1].token]))
    game6.refresh_from_db()
    before = game6.qmg.vp_axis
    assert post(client, game6, "play_card", card="Разграбление", card_type="event").status_code == 200
    game6.refresh_from_db()
    assert game6.qmg.vp_axis == before + 1


def stalingrad_face_down(client, game):
    """Germany, the UK and Japan pass; the USSR's phone (``client`` from then on) plays «Сталинград» face
    down. The seats by number."""
    seats = {n: game.seats.get(number=n) for n in range(1, 7)}
    for n in (1, 2, 3):
        client.get(reverse("join", args=[seats[n].token]))
        pass_turn(client, game)
    client.get(reverse("join", args=[seats[4].token]))
    assert post(client, game, "play_card", card="Сталинград", card_type="event").status_code == 200
    return seats


def test_face_down_response_identity_stays_private(client, game6):
    # the USSR (seat 4) plays «Сталинград» face down in its turn
    seats = stalingrad_face_down(client, game6)
    game6.refresh_from_db()
    assert game6.country_cards.get(country="soviet_union").responses == 1
    assert PrivateNote.objects.filter(seat=seats[4], card_id="su_stalingrad", active=True).exists()
    secret = ("Сталинград", "Stalingrad", "su_stalingrad")
    # the owner sees it
    own = client.get(reverse("game", args=[game6.pk])).content.decode()
    assert "Сталинград" in own
    # nobody else does: every other seat, a spectator, the htmx partial, the log and the export
    for n in (1, 2, 3, 5, 6):
        other = client.__class__()
        other.get(reverse("join", args=[seats[n].token]))
        for extra in ({}, HTMX):
            html = other.get(reverse("game", args=[game6.pk]), **extra).content.decode()
            assert not any(s in html for s in secret), n
    watcher = client.__class__()
    watcher.get(reverse("watch", args=[game6.spectator_token]))
    assert not any(s in watcher.get(reverse("game", args=[game6.pk])).content.decode() for s in secret)
    assert not any(s in str(e.command) + e.summary_ru + e.summary_en for e in Event.objects.filter(game=game6)
                   for s in secret)
    host = client.__class__()
    host.get(reverse("host_link", args=[game6.host_token]))
    export = host.get(reverse("export_game", args=[game6.pk]))
    if export.status_code == 200:
        assert not any(s in export.content.decode() for s in secret)


def test_revealing_a_response_discards_it_and_makes_it_public(client, game6):
    seats = stalingrad_face_down(client, game6)
    axis = client.__class__()  # nobody of the Axis could answer a card put face down: no window to pass in
    axis.get(reverse("join", args=[seats[1].token]))
    assert post(axis, game6, "pass", country="germany").status_code == 422
    r = post(client, game6, "use_card", country="soviet_union", card="Сталинград")
    assert r.status_code == 200
    game6.refresh_from_db()
    k = game6.country_cards.get(country="soviet_union")
    assert k.responses == 0
    assert not PrivateNote.objects.filter(seat=seats[4], active=True, kind="response").exists()
    assert "Сталинград" in Event.objects.filter(game=game6).last().summary_ru


def defended_game(client_class, name="Окно", blitzkrieg=True, uk_response="uk_defensive_posture"):
    """Round 2, Germany's turn: a British army in Western Europe (recruited by the UK's event in round 1), Germany
    with «Блицкриг» face up (``blitzkrieg``) and the UK with ``uk_response`` face down (both put out before round 1,
    «Подготовка к войне»); the USSR holds no response. Returns the game and the six phones by seat number."""
    names = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]
    game = create_game(name, list(zip(names, DEFAULT_SEATING[6])), {"prepare_for_war": True})
    phones = {n: as_seat(client_class(), game, n) for n in range(1, 7)}
    if blitzkrieg:
        assert post(phones[1], game, "prepare", country="germany", card_type="status",
                    card_id="ger_blitzkrieg").status_code == 200
    if uk_response:
        assert post(phones[2], game, "prepare", country="united_kingdom", card_type="response",
                    card_id=uk_response).status_code == 200
    pass_turn(phones[1], game)
    uk = phones[2]  # an event played without its name: its board actions entered one by one
    for cmd, fields in (("play_card", {"card_type": "event"}),
                        ("step", {"country": "united_kingdom", "action": "recruit_army", "space": "western_europe"}),
                        ("end_play", {}), ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        r = post(uk, game, cmd, **fields)
        assert r.status_code == 200, (cmd, r.content.decode()[:300])
    for n in (3, 4, 5, 6):
        pass_turn(phones[n], game)
    return game, phones


def test_response_window_asks_only_who_can_answer_and_each_passes_for_itself(client):
    game, phones = defended_game(client.__class__)
    assert post(phones[1], game, "play_card", card_type="land_battle", space="western_europe").status_code == 200
    game.refresh_from_db()
    assert game.qmg.window == "allies"  # the UK could save its army: the removal waits
    html = phones[1].get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="card window"' in html
    # Germany's seat may not pass for the Allies; the USSR, holding nothing, may not close it for the UK
    assert post(phones[1], game, "pass", country="germany").status_code == 422
    r = post(phones[4], game, "pass", country="soviet_union")
    assert r.status_code == 422 and "Великобритания" in r.content.decode()
    assert phones[4].get(reverse("game", args=[game.pk])).context["window_mine"] is False
    assert phones[2].get(reverse("game", args=[game.pk])).context["window_mine"] is True
    assert post(phones[2], game, "pass", country="united_kingdom").status_code == 200
    game.refresh_from_db()
    assert game.qmg.window == "axis"  # Germany's Blitzkrieg: its turn to answer
    assert post(phones[1], game, "pass", country="germany").status_code == 200
    game.refresh_from_db()
    assert not game.pieces.filter(country="united_kingdom", space="western_europe").exists()
    assert "убрана" in Event.objects.filter(game=game).last().summary_ru


def test_status_once_per_turn_through_the_form(client, game6):
    as_seat(client, game6, 1)
    post(client, game6, "play_card", card="Пикирующие бомбардировщики", card_type="status")
    # a status is used only when its trigger has happened (here: a land battle this turn);
    # the once-per-turn limit is covered by tests/qmg/test_table.py
    r = post(client, game6, "use_card", country="germany", card="Пикирующие бомбардировщики")
    assert r.status_code == 422 and "только когда" in r.content.decode()


def test_reallocate_through_the_form(client, game6):
    as_seat(client, game6, 1)
    assert post(client, game6, "reallocate", card_type="land_battle").status_code == 200
    game6.refresh_from_db()
    k = game6.country_cards.get(country="germany")
    assert (k.hand, k.discard, k.deck) == (4, 7, 29)
    assert post(client, game6, "reallocate", card_type="land_battle").status_code == 422


def test_private_hand_note_is_seen_only_by_its_seat(client, game6):
    as_seat(client, game6, 1)
    r = client.post(reverse("note", args=[game6.pk]), {"country": "germany", "text": "держу Блицкриг"})
    assert r.status_code == 302
    assert "держу Блицкриг" in client.get(reverse("game", args=[game6.pk])).content.decode()
    other = client.__class__()
    other.get(reverse("join", args=[game6.seats.get(number=2).token]))
    assert "держу Блицкриг" not in other.get(reverse("game", args=[game6.pk])).content.decode()
    # a seat cannot write a note for a country it does not play
    assert other.post(reverse("note", args=[game6.pk]), {"country": "germany", "text": "x"}).status_code == 400

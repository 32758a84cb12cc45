"""On the web table: the page offers exactly the engine's choices for the open card step
(one tap each, «Skip» for a "may" step), a step off the card is refused, and an undone reveal puts
the response back into its owner's private list."""
import json
import re

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st

from gameplay.qmg.seating import DEFAULT_SEATING
from gameplay.qmg.table import STEP_TYPES, step_choices
from tracker.core import transfer
from tracker.models import Event, Game, PrivateNote
from tracker.qmg.adapter import QmgAdapter
from tracker.qmg import selectors
from tracker.qmg.views import create_game

from .test_cards_views import pass_turn, stalingrad_face_down
from .test_views import as_host, as_seat, post

pytestmark = pytest.mark.django_db


@pytest.fixture
def game6():
    names = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]
    return create_game("Шесть", list(zip(names, DEFAULT_SEATING[6])), {})


def offered(html):
    return sorted(re.findall(r'class="btn choice" type="submit" data-space="([a-z_]*)"', html))


def test_the_page_offers_exactly_the_engines_choices_and_skip(client, game6):
    as_seat(client, game6, 1)
    r = post(client, game6, "play_card", card="Принудительный призыв", card_type="event")
    assert r.status_code == 200
    game6.refresh_from_db()
    table = selectors.table_of(game6)
    engine = sorted(c["space"] for c in step_choices(selectors.board_of(game6), table))
    page = client.get(reverse("game", args=[game6.pk]))
    html = page.content.decode()
    assert engine and offered(html) == engine
    assert page.context["free_steps"] is False  # no free step form: only the card's choices
    assert 'name="command" value="skip"' in html
    # one tap: the first offered space
    r = post(client, game6, "card_step", country="germany", action="recruit_army", space=engine[0])
    assert r.status_code == 200
    assert game6.pieces.filter(country="germany", space=engine[0]).exists()
    # a space the card does not name is refused with the card's name
    r = post(client, game6, "card_step", country="germany", action="recruit_army", space="north_africa")
    assert r.status_code == 422 and "Принудительный призыв" in r.content.decode()
    assert post(client, game6, "skip", country="germany").status_code == 200
    game6.refresh_from_db()
    assert selectors.table_of(game6).pending == ()


def test_other_seats_see_the_step_but_no_buttons(client, game6):
    as_seat(client, game6, 1)
    post(client, game6, "play_card", card="Принудительный призыв", card_type="event")
    other = client.__class__()
    as_seat(other, game6, 2)
    html = other.get(reverse("game", args=[game6.pk])).content.decode()
    assert 'id="card-steps"' in html and offered(html) == []


def test_an_undone_reveal_is_private_again(client, game6):
    seats = stalingrad_face_down(client, game6)
    assert post(client, game6, "use_card", country="soviet_union", card="Сталинград").status_code == 200
    assert not PrivateNote.objects.filter(seat=seats[4], active=True, kind="response").exists()
    before = client.get(reverse("game", args=[game6.pk])).content.decode()
    assert 'class="private"' not in before or before.count("Сталинград") >= 1
    assert post(client, game6, "undo").status_code == 200
    game6.refresh_from_db()
    assert game6.country_cards.get(country="soviet_union").responses == 1
    page = client.get(reverse("game", args=[game6.pk]))
    owner_list = page.context["private_responses"]
    assert [r["name"] for r in owner_list] == ["Сталинград"]  # its owner's private list has it again
    stranger = client.__class__()
    as_seat(stranger, game6, 2)
    page = stranger.get(reverse("game", args=[game6.pk]))
    assert page.context["private_responses"] == []
    # nor in any public text: the history's lines of the reveal and of its undo, the spectator's page
    watcher = client.__class__()
    watcher.get(reverse("watch", args=[game6.spectator_token]))
    for html in (page.content.decode(), watcher.get(reverse("game", args=[game6.pk])).content.decode()):
        assert "Сталинград" not in html and "закрытой картой" in html
    # and the export of the running game, whose log names the card, waits for the end of the game
    host = client.__class__()
    host.get(reverse("host_link", args=[game6.host_token]))
    assert host.get(reverse("export_game", args=[game6.pk])).status_code == 403


def test_only_the_owners_phone_reveals_a_response(client, game6):
    stalingrad_face_down(client, game6)
    host = client.__class__()
    as_host(host, game6)
    r = post(host, game6, "use_card", country="soviet_union", card="Сталинград")
    assert r.status_code == 403
    game6.refresh_from_db()
    assert game6.country_cards.get(country="soviet_union").responses == 1


def test_a_log_that_no_longer_replays_is_a_page_not_a_500(client, game6):
    as_seat(client, game6, 1)
    assert post(client, game6, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    assert post(client, game6, "end_play").status_code == 200
    bad = game6.events.filter(kind="move").order_by("seq").first()
    bad.command = {"type": "score", "country": "germany"}  # a move no rules ever accepted here
    bad.save(update_fields=["command"])
    host = client.__class__()
    as_host(host, game6)
    game6.refresh_from_db()
    version = game6.version
    r = post(host, game6, "undo")
    assert 400 <= r.status_code < 500  # refused with the reason (tracker.core.log), never a 500
    game6.refresh_from_db()
    assert game6.version == version


# --- review fixes ------------------------------------------------------------------

def seat(client_cls, game, n):
    return as_seat(client_cls(), game, n)


def test_a_response_played_through_lend_lease_is_face_down_and_private(client, game6):
    for n in (1, 2, 3, 4, 5):
        pass_turn(seat(client.__class__, game6, n), game6)
    us = seat(client.__class__, game6, 6)
    assert post(us, game6, "play_card", card="Ленд-лиз", card_type="event").status_code == 200
    host = as_host(client.__class__(), game6)
    fields = dict(country="united_kingdom", action="play_from", card_type="response", card_id="uk_loyal_to_the_crown")
    assert post(host, game6, "card_step", **fields).status_code == 403  # the owner's act only
    uk = seat(client.__class__, game6, 2)
    assert post(uk, game6, "card_step", **fields).status_code == 200
    last = Event.objects.filter(game=game6).order_by("-seq").first()
    assert "card_id" not in last.command and "Loyal" not in last.summary_en
    assert list(PrivateNote.objects.filter(game=game6, country="united_kingdom", active=True)
                .values_list("card_id", flat=True)) == ["uk_loyal_to_the_crown"]
    game6.refresh_from_db()
    assert game6.country_cards.get(country="united_kingdom").responses == 1
    assert "uk_loyal_to_the_crown" not in json.dumps(transfer.export_game(game6), ensure_ascii=False)


def test_a_reveal_of_a_response_not_face_down_is_refused(client, game6):
    for n in (1, 2, 3):
        pass_turn(seat(client.__class__, game6, n), game6)
    su = seat(client.__class__, game6, 4)
    assert post(su, game6, "play_card", card="Распутица", card_type="response").status_code == 200
    game6.refresh_from_db()
    version = game6.version
    r = post(su, game6, "use_card", country="soviet_union", card="Сталинград")
    assert r.status_code == 422 and "Сталинград" in r.content.decode()
    game6.refresh_from_db()
    assert game6.version == version and game6.country_cards.get(country="soviet_union").responses == 1


@pytest.mark.parametrize("action", ["protect", "play_from", "to_deck", "discard_status", "discard_response"])
def test_the_engines_own_steps_after_an_unnamed_event_are_a_refusal_not_a_500(client, game6, action):
    g = seat(client.__class__, game6, 1)
    assert post(g, game6, "play_card", card_type="event").status_code == 200
    r = post(g, game6, "card_step", country="germany", action=action, space="germany")
    assert 400 <= r.status_code < 500


CARD_IDS = ["", "uk_loyal_to_the_crown", "ger_blitzkrieg", "su_stalingrad", "us_lend_lease", "nope"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(play=st.sampled_from(["", "event", "economic_warfare", "build_army"]),
       steps=st.lists(st.fixed_dictionaries({
           "action": st.sampled_from(list(STEP_TYPES) + ["bogus"]),
           "space": st.sampled_from(["", "germany", "ukraine", "north_sea", "atlantis"]),
           "target_country": st.sampled_from(["", "germany", "soviet_union", "narnia"]),
           "kind": st.sampled_from(["", "army", "navy", "air"]),
           "card_id": st.sampled_from(CARD_IDS),
           "card_type": st.sampled_from(["", "response", "event", "status", "discard_unused"]),
           "n": st.sampled_from(["", "0", "2", "-1", "99", "x"]),
           "name": st.sampled_from(["", "hand", "discard", "x"]),
       }), min_size=1, max_size=4))
def test_no_card_step_input_gives_a_500(client, game6, play, steps):
    g = seat(client.__class__, game6, 1)
    if play:
        post(g, game6, "play_card", card_type=play, **({"space": "germany"} if play == "build_army" else {}))
    for fields in steps:
        r = post(g, game6, "card_step", country="germany", **{k: v for k, v in fields.items() if v != ""})
        assert r.status_code < 500, fields
    post(g, game6, "undo")


def test_an_old_export_without_the_engines_fields_imports(client, game6):
    as_seat(client, game6, 1)
    assert post(client, game6, "play_card", card="Разграбление", card_type="event").status_code == 200
    assert post(client, game6, "end_play").status_code == 200
    doc = transfer.export_game(game6)
    for k in ("pending", "hold", "protected", "last", "gone"):
        doc["state"].pop(k, None)  # a file written before the card engine
    game = transfer.import_game(json.loads(transfer.dumps(doc)))
    assert game.pk != game6.pk and not QmgAdapter().legacy(game)


def test_a_game_created_before_the_card_engine_keeps_its_rules(game6):
    assert not QmgAdapter().legacy(game6)
    create = game6.events.get(kind=Event.CREATE)
    create.command = {k: v for k, v in create.command.items() if k != "rules"}  # as written before card rules levels
    create.save(update_fields=["command"])
    selectors._RULES_SEEN.clear()  # a log is never rewritten: a process reads a game's rules once (as after a restart)
    old = Game.objects.get(pk=game6.pk)
    assert QmgAdapter().legacy(old) and QmgAdapter().stepper(old).legacy


def test_a_response_discarded_blind_leaves_its_owners_private_list(client, game6):
    for n in (1, 2):
        pass_turn(seat(client.__class__, game6, n), game6)
    jp = seat(client.__class__, game6, 3)
    assert post(jp, game6, "play_card", card="Атака банзай", card_type="response").status_code == 200
    assert post(jp, game6, "end_play").status_code == 200
    for cmd in ("supply", "score"):
        post(jp, game6, cmd)
    post(jp, game6, "discard", n=0)
    post(jp, game6, "draw")
    su = seat(client.__class__, game6, 4)
    assert post(su, game6, "play_card", card_type="discard_unused").status_code == 200
    if post(su, game6, "end_play").status_code != 200:  # Japan's face-down card: the axis answers or passes
        assert post(jp, game6, "pass", country="japan").status_code == 200
        assert post(su, game6, "end_play").status_code == 200
    for cmd, fields in (("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        assert post(su, game6, cmd, **fields).status_code == 200
    pass_turn(seat(client.__class__, game6, 5), game6)
    us = seat(client.__class__, game6, 6)
    assert post(us, game6, "play_card", card="«Мэджик»", card_type="event").status_code == 200
    assert PrivateNote.objects.filter(game=game6, country="japan", active=True).count() == 1
    r = post(us, game6, "card_step", country="united_states", action="discard_response", target_country="japan")
    assert r.status_code == 200
    game6.refresh_from_db()
    assert game6.country_cards.get(country="japan").responses == 0
    assert not PrivateNote.objects.filter(game=game6, country="japan", active=True).exists()
    owner = as_seat(client.__class__(), game6, 3)
    assert owner.get(reverse("game", args=[game6.pk])).context["private_responses"] == []
    # the note is kept, tied to the discard: an undo of it puts the name back on the owner's phone
    assert post(us, game6, "undo").status_code == 200
    names = [r["name"] for r in owner.get(reverse("game", args=[game6.pk])).context["private_responses"]]
    assert names == ["Атака банзай"]


def test_an_old_game_offers_its_old_free_steps(client, game6):
    create = game6.events.get(kind=Event.CREATE)
    create.command = {k: v for k, v in create.command.items() if k != "rules"}  # as written before card rules levels
    create.save(update_fields=["command"])
    as_seat(client, game6, 1)
    assert post(client, game6, "play_card", card="Принудительный призыв", card_type="event").status_code == 200
    page = client.get(reverse("game", args=[game6.pk]))
    assert page.context["free_steps"] is True and page.context["card_steps"] is None  # the old rules: by hand
    r = post(client, game6, "card_step", country="germany", action="recruit_army", space="western_europe")
    assert r.status_code == 200


def tap(client, game, label):
    """Tap the offered card-step button whose text contains ``label``: post exactly its hidden fields."""
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    section = html[html.index('id="card-steps"'):]
    section = section[:section.index("</section>")]
    for form in re.findall(r"<form.*?</form>", section, re.S):
        if label in form and 'value="card_step"' in form:
            fields = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', form))
            fields.pop("csrfmiddlewaretoken", None)
            fields.pop("command", None)
            fields.pop("version", None)
            return post(client, game, "card_step", **fields)
    raise AssertionError(f"no button {label!r} in {section[:2000]}")


def buttons(client, game):
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    if 'id="card-steps"' not in html:
        return []
    section = html[html.index('id="card-steps"'):]
    return re.findall(r'data-step-choice>([^<]*)</button>', section[:section.index("</section>")])


def test_lend_lease_on_the_phones_the_uk_names_its_face_down_card_and_the_us_takes_the_card_back(client, game6):
    for n in (1, 2, 3, 4, 5):
        pass_turn(seat(client.__class__, game6, n), game6)
    us = seat(client.__class__, game6, 6)
    assert post(us, game6, "play_card", card="Ленд-лиз", card_type="event").status_code == 200
    uk = seat(client.__class__, game6, 2)
    offered_uk = buttons(uk, game6)
    assert "«Верность короне» — закрытой картой" in offered_uk  # the owner names which, on its own phone
    assert buttons(us, game6) == []  # the UK's step: the US phone waits
    host = as_host(client.__class__(), game6)
    offered_host = buttons(host, game6)
    assert offered_host and not any("закрытой картой" in b for b in offered_host)  # not the host's to hide
    r = tap(uk, game6, "Верность короне")
    assert r.status_code == 200, r.content.decode()[:500]
    last = Event.objects.filter(game=game6, kind=Event.MOVE).order_by("-seq").first()
    assert "card_id" not in last.command
    names = [x["name"] for x in uk.get(reverse("game", args=[game6.pk])).context["private_responses"]]
    assert names == ["Верность короне"]
    # the US: one tap pays the top 3 cards of its deck and puts Lend Lease back into the deck
    game6.refresh_from_db()
    before = game6.country_cards.get(country="united_states")
    offered_us = buttons(us, game6)
    assert len(offered_us) == 1 and "Ленд-лиз" in offered_us[0] and "3" in offered_us[0]
    assert tap(us, game6, "Ленд-лиз").status_code == 200
    after = game6.country_cards.get(country="united_states")
    assert (after.deck, after.discard) == (before.deck - 3 + 1, before.discard + 3 - 1)


def test_malta_submarines_each_axis_phone_chooses(client, game6):
    # round 1: Germany builds a navy in the Baltic… the Mediterranean needs Italy's navy: Italy builds it
    g = seat(client.__class__, game6, 1)
    pass_turn(g, game6)
    uk = seat(client.__class__, game6, 2)
    pass_turn(uk, game6)
    for n in (3, 4):
        pass_turn(seat(client.__class__, game6, n), game6)
    it = seat(client.__class__, game6, 5)
    assert post(it, game6, "play_card", card_type="build_navy", space="mediterranean").status_code == 200
    for cmd, fields in (("end_play", {}), ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        assert post(it, game6, cmd, **fields).status_code == 200
    pass_turn(seat(client.__class__, game6, 6), game6)
    pass_turn(g, game6)
    game6.refresh_from_db()
    deck_germany = game6.country_cards.get(country="germany").deck
    assert post(uk, game6, "play_card", card="Мальтийские субмарины", card_type="economic_warfare").status_code == 200
    game6.refresh_from_db()
    # Germany has no navy in the Mediterranean: its 2 cards went at once; Italy chooses on its own phone
    assert game6.country_cards.get(country="germany").deck == deck_germany - 2
    assert buttons(uk, game6) == [] and buttons(g, game6) == []
    offered_it = buttons(it, game6)
    assert len(offered_it) == 2 and any("Средиземное" in b for b in offered_it)
    assert "Сбросить 2 верхние карты своей колоды" in offered_it
    deck_italy = game6.country_cards.get(country="italy").deck
    assert tap(it, game6, "Средиземное").status_code == 200
    game6.refresh_from_db()
    assert not game6.pieces.filter(country="italy", kind="navy").exists()
    assert game6.country_cards.get(country="italy").deck == deck_italy  # the navy instead of the cards


def test_women_conscripts_button_names_the_pile_it_takes_from(client, game6):
    """Women Conscripts: the Build Army card just played goes back into the deck from the discard pile —
    the button must not say "from the hand"."""
    for n in (1, 2, 3):
        pass_turn(seat(client.__class__, game6, n), game6)
    su = seat(client.__class__, game6, 4)
    assert post(su, game6, "play_card", card="Женщины на службе", card_type="status").status_code == 200
    for cmd, fields in (("end_play", {}), ("supply", {}), ("score", {}), ("discard", {"n": 0}), ("draw", {})):
        assert post(su, game6, cmd, **fields).status_code == 200
    for n in (5, 6, 1, 2, 3):
        pass_turn(seat(client.__class__, game6, n), game6)
    assert post(su, game6, "play_card", card_type="build_army", space="ukraine").status_code == 200
    assert post(su, game6, "use_card", country="soviet_union", card="Женщины на службе").status_code == 200
    offered_su = buttons(su, game6)
    assert offered_su == ["Сыгранная карта — обратно в колоду"]
    game6.refresh_from_db()
    before = game6.country_cards.get(country="soviet_union")
    assert tap(su, game6, "колоду").status_code == 200
    after = game6.country_cards.get(country="soviet_union")
    assert (after.deck, after.discard, after.hand) == (before.deck + 1, before.discard - 1, before.hand)

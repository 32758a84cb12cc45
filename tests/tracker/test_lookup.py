"""The rules-dispute lookup: search, entries that link to each other, questions about a position."""
import pytest
from django.urls import reverse

from gameplay.qmg import rulebook
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_search_finds_rules_and_cards_in_russian(client):
    html = client.get(reverse("rules"), {"q": "можно ли атаковать через пролив"}).content.decode()
    assert "/rules/r/" in html and "Пролив" in html
    html = client.get(reverse("rules"), {"q": "Сталинград"}).content.decode()
    assert reverse("card", args=["su_stalingrad"]) in html


def test_live_search_returns_only_the_results_partial(client):
    r = client.get(reverse("rules"), {"q": "strait"}, **HTMX)
    assert r.status_code == 200 and "<html" not in r.content.decode() and "/rules/r/" in r.content.decode()


def test_empty_query_lists_every_rule_and_marks_disputes(client):
    html = client.get(reverse("rules")).content.decode()
    assert html.count("/rules/r/") >= 40


def test_rule_entry_links_to_related_rules_and_cards(client):
    entry = next(e for e in rulebook.load_rules() if e.cards and e.see_also)
    html = client.get(reverse("rule", args=[entry.id])).content.decode()
    assert reverse("rule", args=[entry.see_also[0]]) in html
    assert reverse("card", args=[entry.cards[0]]) in html
    # and the card links back
    back = client.get(reverse("card", args=[entry.cards[0]])).content.decode()
    assert reverse("rule", args=[entry.id]) in back


def test_unknown_rule_or_card_is_404(client):
    assert client.get(reverse("rule", args=["no-such-rule"])).status_code == 404
    assert client.get(reverse("card", args=["no_such_card"])).status_code == 404
    assert client.get(reverse("rules"), {"q": "x" * 5000}).status_code == 200


@pytest.fixture
def game():
    g = create_game("Спор", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    return g


def test_why_is_this_piece_supplied(client, game):
    client.get(reverse("watch", args=[game.spectator_token]))  # spectators may ask too
    html = client.get(reverse("ask", args=[game.pk]), {"piece": "germany:army:germany"}).content.decode()
    assert "источнике снабжения «Германия»" in html


def test_may_a_country_attack_a_space_through_a_strait(client, game):
    # put an Axis army in North Africa through the stepper: Germany plays an event and recruits there
    axis = log.Actor(seat=game.seats.get(number=1))
    assert log.submit(game.pk, game.version, axis, {"type": "play_card", "card_type": "event"}).applied
    host = log.Actor(is_host=True)
    for actor, step in ((axis, {"country": "germany", "action": "recruit_army", "space": "north_africa"}),
                        (host, {"country": "united_kingdom", "action": "recruit_navy", "space": "north_sea"})):
        game.refresh_from_db()
        assert log.submit(game.pk, game.version, actor, {"type": "step", **step}).applied
    client.get(reverse("watch", args=[game.spectator_token]))
    html = client.get(reverse("ask", args=[game.pk]), {"country": "united_kingdom", "space": "mediterranean"}
                      ).content.decode()
    assert "answer-no" in html
    assert "пролив «Гибралтар» закрыт для вашего лагеря" in html
    html = client.get(reverse("ask", args=[game.pk]), {"country": "germany", "space": "baltic_sea"}).content.decode()
    assert "answer-yes" in html


def test_ask_needs_a_link(client, game):
    assert client.get(reverse("ask", args=[game.pk])).status_code == 403

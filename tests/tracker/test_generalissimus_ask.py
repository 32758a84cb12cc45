"""«Вопрос о позиции» of a «Генералиссимус» game: the engine says whether a unit may carry out a card
towards a sector now, and which rule says no; a link to the game is needed; bad questions are a 400."""
import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from tracker.generalissimus.ask import ask

from .test_generalissimus_views import create, seat_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(client):
    game, _ = create(client)  # the contact drill: S-inf-1 c3 (line) faces N-inf-1 c4
    return game, seat_client(Client, game, 1)


def get(c, game, **q):
    return c.get(reverse("ask", args=[game.pk]), q)


def test_a_volley_at_the_enemy_in_front_is_allowed(battle):
    game, south = battle
    r = get(south, game, unit="S-inf-1", card="musket_volley", sector="c4")
    text = r.content.decode()
    assert r.status_code == 200 and "is-ok" in text and "пехота Юга на c3" in text


@pytest.mark.parametrize("q, words", [
    ({"unit": "S-inf-1", "card": "move", "sector": "c4"}, "занят"),
    ({"unit": "S-inf-1", "card": "musket_volley", "sector": "c5"}, "не отряд врага"),
    ({"unit": "S-inf-1", "card": "bayonets", "sector": "d4"}, "прямо перед собой"),
    ({"unit": "S-cav-1", "card": "form_up", "sector": "", "formation": "line"}, "только в колонну"),
    ({"unit": "S-cav-1", "card": "move", "sector": "b4"}, "один или два сектора"),
])
def test_a_forbidden_order_says_which_rule(battle, q, words):
    game, south = battle
    r = get(south, game, **q)
    text = r.content.decode()
    assert r.status_code == 200 and "is-no" in text and words in text, text[-2500:]
    assert "S-inf" not in text.split("<form")[0].split("<main")[-1]


def test_a_bad_question_is_400_and_a_stranger_403(battle):
    game, south = battle
    assert get(south, game, unit="X", card="move", sector="c4").status_code == 400
    assert get(south, game, unit="S-inf-1", card="fly", sector="c4").status_code == 400
    assert get(Client(), game, unit="S-inf-1", card="move", sector="c4").status_code == 403


def test_the_view_function_answers_for_a_game(battle):
    game, south = battle
    request = RequestFactory().get("/", {"unit": "S-inf-1", "card": "retreat"})
    request.session = south.session
    from tracker.core import access  # noqa: F401  (the session carries the seat's link)
    assert ask(request, game).status_code in (200, 403)

"""The Fog of War's «Вопрос о позиции» (tracker/fog_of_war/ask.py): the engine says whether a seat may do a thing
now and why not, from what that seat may see only."""
import pytest
from django.test import Client
from django.urls import reverse

from tests.refusals import normalised, visible

from .test_fog_of_war_refusals import twin
from .test_fog_of_war_views import create, post, seat

pytestmark = pytest.mark.django_db


def ask(client, game, **params):
    r = client.get(reverse("ask", args=[game.pk]), params)
    return r.status_code, visible(r.content.decode())


def test_a_seat_asks_and_the_engine_answers_with_the_rule(client):
    game = create(client)
    axis = seat(Client(), game, 1)
    status, text = ask(axis, game, q="defend", province="poland")
    assert status == 200 and "Нет. Сначала поверните колесо операций" in text and "(§2.2)" in text
    assert post(axis, game, "start_turn").status_code == 200
    assert "Да. Сейчас правила это разрешают." in ask(axis, game, q="defend", province="poland")[1]
    assert "Нет. Оборонять можно только свою или нейтральную провинцию" in ask(axis, game, q="defend", province="paris")[1]
    assert "Да." in ask(axis, game, q="new_op", province="vichy")[1]
    assert "Нет." in ask(axis, game, q="end_turn")[1]  # a card must be played first (§2.9)
    allies = seat(Client(), game, 2)
    assert "Нет. Сейчас ход другой стороны (Ось)" in ask(allies, game, q="defend", province="paris")[1]
    assert ask(axis, game, q="launch", slot="Z", origin="italy")[0] == 200


def test_spectators_see_no_questions_and_strangers_no_page(client):
    game = create(client)
    watcher = Client()
    watcher.get(reverse("watch", args=[game.spectator_token]))
    status, text = ask(watcher, game, q="defend", province="poland")
    assert status == 200 and "с телефона игрока" in text and "Да." not in text
    assert ask(Client(), game)[0] == 403


def test_the_answer_never_depends_on_the_other_sides_hidden_cards():
    """Twin games differ only in the Allies' face-down cards and their operation's target: every question the Axis
    asks gets the same page in both."""
    twins = [twin("libya"), twin("italy")]
    phones = [seat(Client(), g, 1) for g in twins]
    for phone, g in zip(phones, twins):  # the Allies end their turn; the Axis starts its own
        assert post(seat(Client(), g, 2), g, "end_turn").status_code == 200
        assert post(phone, g, "start_turn").status_code == 200
    assert "Да." in ask(phones[0], twins[0], q="intel", province="vichy")[1]
    for q in ("defend", "new_op", "intel", "reinforce_quagmire", "launch", "end_turn", "cancel_op", "reinforce_op"):
        for province in ("vichy", "libya", "italy", "poland"):
            pages = [normalised(phone.get(reverse("ask", args=[g.pk]),
                                          {"q": q, "province": province, "slot": "A", "origin": "italy"}).content.decode(), g)
                     for phone, g in zip(phones, twins)]
            assert pages[0] == pages[1], (q, province)

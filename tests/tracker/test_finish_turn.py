"""«Закончить ход» through the one command endpoint: one tap, several events, each undoable; the
answer lists what was done; step-by-step games keep one tap per step; the header says who you are."""
import pytest
from django.urls import reverse

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core.models import Event, Game
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game():
    return create_game("Вечер", list(zip(["Аня", "Боря"], DEFAULT_SEATING[2])), {})


def join(client, game, number):
    client.get(reverse("join", args=[game.seats.get(number=number).token]))
    return client


def post(client, game, command, **fields):
    game.refresh_from_db()
    return client.post(reverse("command", args=[game.pk]), {"command": command, "version": game.version, **fields},
                       **HTMX)


def moves(game):
    return list(Event.objects.filter(game=game, kind=Event.MOVE).order_by("seq").values_list("command__type", flat=True))


def test_one_tap_after_a_build_runs_the_rest_of_the_turn_as_separate_events(client, game):
    axis = join(client, game, 1)
    assert post(axis, game, "play_card", card_type="build_army", space="eastern_europe").status_code == 200
    r = post(axis, game, "finish_turn")
    html = r.content.decode()
    assert r.status_code == 200
    assert moves(game) == ["play_card", "end_play", "supply", "score", "discard", "draw"]
    game.refresh_from_db()
    assert (game.qmg.turn, game.qmg.phase, game.qmg.vp_axis) == (1, "play", 2)
    # the answer says what each step did: nothing removed, the VP and why, the cards drawn
    assert "flash-steps" in html and "Германия 2" in html and "Взято карт: 1" in html
    assert "убирать нечего" in html


def test_each_step_of_the_tap_is_undone_on_its_own(client, game):
    axis = join(client, game, 1)
    post(axis, game, "play_card", card_type="build_army", space="eastern_europe")
    post(axis, game, "finish_turn")
    game.refresh_from_db()
    assert client.post(reverse("undo", args=[game.pk]), {"version": game.version}, **HTMX).status_code == 200
    game.refresh_from_db()
    assert (game.qmg.turn, game.qmg.phase, game.qmg.vp_axis) == (0, "draw", 2)  # only the draw went back


def test_before_a_card_is_played_the_tap_is_refused_with_the_rule(client, game):
    axis = join(client, game, 1)
    r = post(axis, game, "finish_turn")
    assert r.status_code == 422 and "Как сыграть карту" in r.content.decode()
    assert moves(game) == []


def test_another_seat_cannot_finish_the_active_countrys_turn(client, game):
    join(client, game, 1)
    post(client, game, "play_card", card_type="build_army", space="eastern_europe")
    other = join(client.__class__(), game, 2)
    assert post(other, game, "finish_turn").status_code == 403
    assert moves(game) == ["play_card"]


def test_a_bad_discard_count_is_a_400(client, game):
    axis = join(client, game, 1)
    post(axis, game, "play_card", card_type="build_army", space="eastern_europe")
    assert post(axis, game, "finish_turn", n="-3").status_code == 400
    assert post(axis, game, "finish_turn", n="x" * 50).status_code == 400
    assert moves(game) == ["play_card"]


def test_too_many_discards_stop_the_run_with_the_engines_reason(client, game):
    axis = join(client, game, 1)
    post(axis, game, "play_card", card_type="build_army", space="eastern_europe")
    r = post(axis, game, "finish_turn", n="9")
    html = r.content.decode()
    assert moves(game) == ["play_card", "end_play", "supply", "score"]
    assert "На руке только 6 карт" in html


def test_the_page_offers_finish_the_turn_unless_the_game_is_step_by_step(client, game):
    axis = join(client, game, 1)
    post(axis, game, "play_card", card_type="build_army", space="eastern_europe")
    html = axis.get(reverse("game", args=[game.pk])).content.decode()
    assert 'value="finish_turn"' in html and 'value="end_play"' not in html
    teaching = create_game("Урок", list(zip(["Аня", "Боря"], DEFAULT_SEATING[2])), {"step_by_step": True})
    teacher = join(client.__class__(), teaching, 1)
    post(teacher, teaching, "play_card", card_type="build_army", space="eastern_europe")
    html = teacher.get(reverse("game", args=[teaching.pk])).content.decode()
    assert 'value="end_play"' in html and 'value="finish_turn"' not in html


def test_the_new_game_form_stores_step_by_step(client):
    client.post("/", {"name": "Урок", "players": 2, "default_seating": "on", "seat_germany": 1,
                      "seat_united_kingdom": 2, "seat_japan": 1, "seat_soviet_union": 2, "seat_italy": 1,
                      "seat_united_states": 2, "step_by_step": "on"})
    assert Game.objects.get(name="Урок").options["step_by_step"] is True


def test_the_header_says_who_you_are_and_whose_move_it_is(client, game):
    html = join(client, game, 1).get(reverse("game", args=[game.pk])).content.decode()
    whoami = html.split('class="whoami"', 1)[1].split("</p>", 1)[0]
    assert "Германия, Италия, Япония" in whoami and 'class="your-move"' in whoami
    other = join(client.__class__(), game, 2)
    html = other.get(reverse("game", args=[game.pk])).content.decode()
    whoami = html.split('class="whoami"', 1)[1].split("</p>", 1)[0]
    assert "Великобритания, СССР, США" in whoami and 'class="waiting-for"' in whoami and "Германия" in whoami


def test_without_javascript_the_tap_redirects_and_lists_each_step_as_a_message(client, game):
    axis = join(client, game, 1)
    post(axis, game, "play_card", card_type="build_army", space="eastern_europe")
    game.refresh_from_db()
    r = axis.post(reverse("command", args=[game.pk]), {"command": "finish_turn", "version": game.version})
    assert r.status_code == 302
    html = axis.get(r["Location"]).content.decode()
    assert html.count('class="msg msg-') >= 6  # the summary and one line per step
    assert "Германия 2" in html and "Взято карт: 1" in html

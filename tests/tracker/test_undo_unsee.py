"""Undo cannot un-see: a roll made again at the same point of a game gives the same result, and a move
that showed hidden information cannot be undone (the policy is in the rules lookup)."""
import pytest
from django.urls import reverse

from tests.tracker import test_fog_of_war_views as fow
from tests.tracker import test_generalissimus_views as gen
from tracker.core import log
from tracker.models import Event

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _last_command(game):
    return Event.objects.filter(game=game, kind=Event.MOVE).order_by("-seq").first().command


def test_a_digital_roll_undone_and_made_again_comes_back_the_same(client):
    game, _ = gen.create(client)
    south, north = gen.seat_client(type(client), game, 1), gen.seat_client(type(client), game, 2)
    gen.ok(gen.post(south, game, "confirm", side="south"))
    gen.ok(gen.post(north, game, "confirm", side="north"))
    rolls = []
    for _ in range(4):
        gen.ok(gen.post(south, game, "initiative", digital="on"))
        cmd = _last_command(game)
        rolls.append((cmd["south"], cmd["north"]))
        gen.ok(gen.post(south, game, "undo"))
    assert len(set(rolls)) == 1, rolls
    # a redo brings back the stored result too
    gen.ok(gen.post(south, game, "initiative", digital="on"))
    gen.ok(gen.post(south, game, "undo"))
    gen.ok(gen.post(south, game, "redo"))
    assert (_last_command(game)["south"], _last_command(game)["north"]) == rolls[0]
    assert log.replay(game) == log.current_state(game)


def test_the_seed_differs_between_games_and_between_points_of_a_game(client):
    g1, _ = gen.create(client, name="Первая")
    g2, _ = gen.create(client, name="Вторая")
    first = [log.dice_for(g).random() for g in (g1, g2)]
    assert first[0] != first[1]
    assert log.dice_for(g1).random() == first[0]  # the same point of the same game: the same draw
    g1.done_moves = [*g1.done_moves, 99]
    assert log.dice_for(g1).random() != first[0]


def test_the_choice_that_revealed_a_step_cannot_be_undone(client):
    game, _ = gen.create(client)
    south, north = gen.seat_client(type(client), game, 1), gen.seat_client(type(client), game, 2)
    gen.play_orders(game, south, north)
    gen.ok(gen.post(south, game, "initiative", south=5, north=2))
    gen.ok(gen.post(south, game, "zones", side="south", sequence="center,west,east"))
    gen.ok(gen.post(south, game, "choose", side="south", cards="S-musket_volley-1", unit="S-inf-1",
                    target="N-inf-1"))
    # still face down: the chooser may take it back
    gen.ok(gen.post(south, game, "undo"))
    gen.ok(gen.post(south, game, "choose", side="south", cards="S-musket_volley-1", unit="S-inf-1",
                    target="N-inf-1"))
    gen.ok(gen.post(north, game, "choose", side="north", cards="N-musket_volley-1", unit="N-inf-1",
                    target="S-inf-1"))
    before = gen.snapshot(game)
    assert 'id="undo-sealed"' in gen.page(north, game)
    for who in (north, client):  # the seat that revealed, and the host
        r = gen.post(who, game, "undo")
        assert r.status_code == 422 and "нельзя отменить" in r.content.decode()
    assert gen.snapshot(game) == before


def test_intel_cannot_be_undone_its_tokens_stay_spent(client):
    game = fow.create(client)
    axis, allies, _ = fow.clients(None, game)
    fow.post(axis, game, "start_turn")
    fow.post(axis, game, "defend", province="berlin", cards=fow.hand(game, "axis")[:3])
    fow.post(axis, game, "end_turn")
    fow.post(allies, game, "start_turn")
    assert fow.post(allies, game, "intel", target_kind="defence", province="berlin").status_code == 200
    tokens = fow.st(game)["sides"]["allies"]["intel_available"]
    before = fow.snapshot(game)
    for who in (allies, client):
        game.refresh_from_db()
        r = who.post(reverse("undo", args=[game.pk]), {"version": game.version}, **HTMX)
        assert r.status_code == 422 and "разведка уже показала карту" in r.content.decode()
    assert fow.snapshot(game) == before and fow.st(game)["sides"]["allies"]["intel_available"] == tokens


def test_the_policy_is_in_the_rules_lookup(client):
    html = client.get(reverse("rule", args=["undo_seen"])).content.decode()
    assert "увидено" in html
    html = client.get(reverse("rules") + "?q=переброс").content.decode()
    assert reverse("rule", args=["undo_seen"]) in html


def test_an_undo_whose_replay_fails_is_refused_and_changes_nothing(client):
    """A game recorded under older rules may no longer replay: the undo says so instead of failing."""
    game = fow.create(client)
    axis, _allies, _ = fow.clients(None, game)
    assert fow.post(axis, game, "start_turn").status_code == 200
    assert fow.post(axis, game, "defend", province="berlin", cards=fow.hand(game, "axis")[:1]).status_code == 200
    first = Event.objects.filter(game=game, kind=Event.MOVE).order_by("seq").first()
    Event.objects.filter(pk=first.pk).update(command={**first.command, "type": "no_such_command"})
    before = fow.snapshot(game)
    game.refresh_from_db()
    r = axis.post(reverse("undo", args=[game.pk]), {"version": game.version}, **HTMX)
    assert r.status_code == 422 and "не воспроизводится" in r.content.decode()
    assert fow.snapshot(game) == before

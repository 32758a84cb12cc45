"""The heaviest legitimate game of each kind, for tests/load/page_costs.py (needs django.setup())."""
from __future__ import annotations

from django.test import Client
from django.urls import reverse

from gameplay.fog_of_war.limits import MAX_CARDS
from gameplay.qmg.seating import DEFAULT_SEATING
from tests.tracker.helpers import initial_data
from tests.tracker.test_budgets_boards import maximal_patch
from tracker.core import log
from tracker.core.log import Actor
from tracker.fog_of_war.forms import NewFogGameForm
from tracker.generalissimus.forms import NewBattleForm
from tracker.models import BoardVariant, Game
from tracker.qmg.views import create_game

HOST = Actor(is_host=True)
QMG_TURN = ({"type": "play_card", "card_type": "build_army", "space": None}, {"type": "end_play"},
            {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"})
QMG_SPACES = ("eastern_europe", "united_kingdom", "japan", "russia", "southern_europe", "eastern_us",
              "western_europe", "ukraine", "china", "india", "north_africa", "western_us")


def _submit_all(game: Game, commands) -> None:
    for command in commands:
        game.refresh_from_db()
        log.submit(game.pk, game.version, HOST, command)


def qmg_long_game_on_the_largest_variant() -> Game:
    variant = BoardVariant.objects.create(name="Largest", patch=maximal_patch())
    game = create_game("Largest", list(zip([f"P{i}" for i in range(1, 7)], DEFAULT_SEATING[6])),
                       {"early_victory": True}, variant)
    commands = []
    for turn in range(60):
        for c in QMG_TURN:
            commands.append({**c, "space": QMG_SPACES[turn % len(QMG_SPACES)]} if "space" in c else c)
    _submit_all(game, commands)
    return game


def fog_of_war_at_every_card_bound() -> Game:
    cards = " ".join(["L3", "L2", "N2", "A1"] * (MAX_CARDS // 4))
    host = Client()
    data = initial_data(NewFogGameForm(), name="Bound", axis_player="A", allies_player="B",
                        axis_cards=cards, allies_cards=cards)
    response = host.post(reverse("fog_of_war:new"), data)
    if response.status_code != 302:  # the form's fields changed: the defaults then
        host.post(reverse("fog_of_war:new"), initial_data(NewFogGameForm(), name="Bound", axis_player="A",
                                                           allies_player="B"))
    return Game.objects.filter(kind=Game.FOG_OF_WAR).latest("pk")


def generalissimus_default_battle() -> Game | None:
    host = Client()
    host.post(reverse("generalissimus:new"), initial_data(NewBattleForm(), name="Battle", south_player="A",
                                                          north_player="B", preset="contact", units=""))
    return Game.objects.filter(kind=Game.GENERALISSIMUS).order_by("-pk").first()


def heaviest_games():
    yield "QMG: 360 moves, 6 seats, the largest accepted board variant", qmg_long_game_on_the_largest_variant()
    yield f"The Fog of War: {MAX_CARDS} cards a side", fog_of_war_at_every_card_bound()
    battle = generalissimus_default_battle()
    if battle is None:
        print("Generalissimus: the new-battle form refused its own defaults; no figure")
    else:
        yield "Generalissimus: the default battle", battle


def viewers(game: Game):
    seat = Client()
    seat.get(reverse("join", args=[game.seats.get(number=1).token]))
    watcher = Client()
    watcher.get(reverse("watch", args=[game.spectator_token]))
    host = Client()
    host.get(reverse("host_link", args=[game.host_token]))
    return [("seat 1", seat), ("spectator", watcher), ("host", host)]

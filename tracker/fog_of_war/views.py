"""*The Fog of War*'s own view: a new game. Its page and moves are the core's (``tracker.core.views``)
through ``tracker.fog_of_war.adapter``."""
from __future__ import annotations

import random

from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from gameplay.fog_of_war.limits import LimitError
from gameplay.fog_of_war.stepper import STEPPER

from tracker.core import access, log
from tracker.core.models import Game
from tracker.language import lang

from .forms import MAP_MARKS, NewFogGameForm


def new_game(request):
    form = NewFogGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            initial = STEPPER.new_state({
                "settings": form.settings(), "axis_cards": d["axis_cards"], "allies_cards": d["allies_cards"],
                "neutral_cards": d["neutral_cards"], "board": d["board_map"], "map_file": form.map_file(),
                "wheel_file": form.wheel_file(), "preplace": d["preplace"],
                "seed": random.SystemRandom().randrange(2 ** 31)})
        except LimitError as exc:  # the engine's own bounds (the form's come first, translated)
            form.add_error(None, exc.en if lang() == "en" else exc.ru)
        except ValueError:  # the engine's own check of the set-up (its text is not the player's)
            form.add_error(None, _("This set-up cannot start a game: check the card lists, the board map and the "
                                   "pre-placed Allied provinces (up to 3, each Allied or neutral)."))
        else:
            game = log.create_game(
                Game.FOG_OF_WAR, d["name"], [(d["axis_player"], ["axis"]), (d["allies_player"], ["allies"])],
                initial, options={"settings": form.settings(), "map": d.get("map_choice") or "",
                                  "wheel": d.get("wheel_choice") or ""},
                summary=("Игра создана: 1940, лето; по 3 карты на руке.", "Game created: 1940, summer; 3 cards in each hand."))
            access.grant(request, game, "host", game.host_token)
            return redirect(reverse("seats", args=[game.pk]))
    settings_errors = any(form[n].errors for n in form.setting_rows)
    return render(request, "fog_of_war/new.html", {"form": form, "map_marks": MAP_MARKS, "settings_errors": settings_errors})

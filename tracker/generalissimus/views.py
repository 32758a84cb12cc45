"""Views of the «Генералиссимус» companion of its own: the new battle. Its page and moves are the
core's (``tracker.core.views``) through ``tracker.generalissimus.adapter``."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy

from gameplay.generalissimus.settings import SettingsError
from gameplay.generalissimus.state import FORMATIONS, StateError
from gameplay.generalissimus.stepper import STEPPER

from tracker.core import access, log
from tracker.core.models import Game

from . import forms as F

SETUP_REMINDERS = [
    gettext_lazy("Sides are equal unless agreed otherwise (blocks per side)."),
    gettext_lazy("Infantry: 3 blocks, cavalry 2, battery 3 (gun + 2 crew)."),
    gettext_lazy("Cavalry and artillery start in column only. Square needs 3 blocks."),
    gettext_lazy("Units deploy only on the home sectors. Any overflow goes to reserve."),
    gettext_lazy("Cavalry and artillery cannot deploy on forest."),
]



def new(request):
    form = F.NewBattleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        players = {"south": d["south_player"], "north": d["north_player"]}
        try:
            initial = STEPPER.new_state({"units": d["unit_list"], "terrain": d["terrain"], "settings": d["settings"],
                                         "piles": None, "players": players})
        except (StateError, SettingsError) as exc:
            form.add_error(None, _("This setup is not possible: %(error)s") % {"error": F.error_text(exc)})
        else:
            game = log.create_game(
                Game.GENERALISSIMUS, d["name"], [(d["south_player"], ["south"]), (d["north_player"], ["north"])],
                initial, options={"preset": d["preset"]},
                summary=("Битва создана: ход 1, фаза приказов.", "Battle created: turn 1, orders phase."))
            access.grant(request, game, "host", game.host_token)
            for warning in form.warnings(d["unit_list"], d["settings"]):
                messages.warning(request, warning)
            return redirect(reverse("seats", args=[game.pk]))
    settings_errors = any(form[d["field"]].errors for d in F.setting_specs())
    return render(request, "generalissimus/new.html", {
        "form": form, "reminders": SETUP_REMINDERS, "settings_errors": settings_errors,
        "unit_kinds": [(k, F.kind_label(k)) for k in F.KIND_SHORT],
        "formations": [(f, F.formation_label(f)) for f in FORMATIONS]})

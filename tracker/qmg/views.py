"""QMG's own views: the start page with its new-game form, board variants, a seat's hand note.
The game page and its moves are the core's (``tracker.core.views``) through ``tracker.qmg.adapter``."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tracker.core import access, log
from tracker.core.models import Game, PrivateNote

from .forms import BoardVariantForm, NewGameForm, NoteForm
from .models import BoardVariant

CREATED = ("Игра создана: по армии в каждом домашнем секторе, на руке по 7 карт.",
           "Game created: one army in every home space, 7 cards in every hand.")


def create_game(name: str, seats, options: dict | None = None, board_variant=None) -> Game:
    """A new QMG game (the start page's form, tests and the load benchmark)."""
    return log.create_game(Game.QMG, name, seats, {"board_variant": board_variant}, options, CREATED)


def home(request):
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        game = create_game(d["name"], d["seats"],
                           {"early_victory": d["early_victory"], "reallocate": d["reallocate"],
                            "air_marshal": d["air_marshal"],
                            **({"air_forces": d["air_forces"]} if d["air_marshal"] else {})},
                           d["board_variant"])
        access.grant(request, game, "host", game.host_token)
        return redirect("seats", pk=game.pk)
    known = access.known_games(request)
    games = list(Game.objects.filter(winner="").order_by("-updated_at")[:50])
    return render(request, "home.html", {"form": form, "games": games, "known": known})


EXAMPLE_PATCH = """extends: standard
add_edges: [[kazakhstan, india]]
remove_edges: [[siberia, china]]
add_stars: [balkans]
remove_stars: [hawaii]
"""


def boards(request):
    """Board variants: a group corrects its printed board as data, never as code."""
    form = BoardVariantForm(request.POST or None, initial={"patch": EXAMPLE_PATCH})
    if request.method == "POST" and form.is_valid():
        variant = form.save()
        messages.success(request, _("Board variant “%(name)s” saved.") % {"name": variant.name})
        for problem in form.problems:
            messages.warning(request, _("It contradicts the rulebook: %(problem)s") % {"problem": problem})
        return redirect("boards")
    return render(request, "boards.html", {"form": form, "variants": BoardVariant.objects.order_by("name")})


@require_POST
def note(request, pk):
    """A seat's private note on its hand: only that seat ever sees it."""
    game = get_object_or_404(Game, pk=pk, kind=Game.QMG)
    actor, denied = access.actor_or_403(request, game)
    if denied:
        return denied
    if actor.seat is None:
        return HttpResponseForbidden(_("Only a player's own seat keeps private notes."))
    form = NoteForm(request.POST, countries=actor.seat.countries)
    if form.is_valid():
        PrivateNote.objects.update_or_create(
            game=game, seat=actor.seat, country=form.cleaned_data["country"], kind=PrivateNote.HAND,
            defaults={"text": form.cleaned_data["text"]})
        messages.success(request, _("Note saved."))
        return redirect("game", pk=game.pk)
    return HttpResponse(_("Invalid note."), status=400)

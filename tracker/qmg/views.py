"""QMG's own views: the start page with its new-game form, board variants, a seat's hand note.
The game page and its moves are the core's (``tracker.core.views``) through ``tracker.qmg.adapter``."""
from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tracker.core import access, log
from tracker.core.models import Game, PrivateNote

from . import page, selectors
from .forms import BoardVariantForm, NewGameForm, NoteForm, UnseenForm
from .models import BoardVariant
from .variants import MAX_PATCH

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
                            "air_marshal": d["air_marshal"], "step_by_step": d["step_by_step"],
                            **({"air_forces": d["air_forces"]} if d["air_marshal"] else {}),
                            **({"decks": d["decks"]} if d["air_marshal"] and d["decks"] else {}),
                            **({"prepare_for_war": True} if d["prepare_for_war"] else {})},
                           d["board_variant"])
        access.grant(request, game, "host", game.host_token)
        return redirect("seats", pk=game.pk)
    known = access.known_games(request)  # only the games this browser has a link to: a game is no one else's
    games = list(Game.objects.filter(winner="", pk__in=known).order_by("-updated_at")[:50]) if known else []
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
        variant = _save_variant(form)
        if variant is not None:
            messages.success(request, _("Board variant “%(name)s” saved.") % {"name": variant.name})
            for problem in form.problems:
                messages.warning(request, _("It contradicts the rulebook: %(problem)s") % {"problem": problem})
            return redirect("boards")
    if form.is_bound and len(form.data.get("patch", "")) > MAX_PATCH:
        form.data = form.data.copy()
        form.data["patch"] = ""  # not echoed back: a text over the bound would only make the answer as large
    return render(request, "boards.html", {"form": form, "variants": BoardVariant.objects.order_by("name")},
                  status=_form_status(form))


def _save_variant(form) -> BoardVariant | None:
    """The saved variant, or None with a form error when another request saved one of this name first
    (between this form's uniqueness check and its save)."""
    try:
        with transaction.atomic():  # a savepoint: the failed insert leaves the request's transaction usable
            return form.save()
    except IntegrityError:
        if not BoardVariant.objects.filter(name=form.cleaned_data["name"]).exists():
            raise  # not the name: a fault to report, not a form error
        form.add_error("name", form.instance.unique_error_message(BoardVariant, ("name",)))  # code "unique"
        return None


def _form_status(form) -> int:
    """200 for the page or a form to correct; 409 when the name was taken (perhaps at the same moment);
    400 when the patch is over a bound (length, aliases, more than a board may hold)."""
    if not form.is_bound or not form.errors:
        return 200
    if form.has_error("name", code="unique"):
        return 409
    if form.has_error("patch", code="size"):
        return 400
    return 200


def _own_seat(request, pk):
    """(game, seat, None) for a player's own seat, else (game, None, the refusal): private notes are a seat's."""
    game = get_object_or_404(Game, pk=pk, kind=Game.QMG)
    actor, denied = access.actor_or_403(request, game)
    if denied:
        return game, None, denied
    if actor.seat is None:
        return game, None, HttpResponseForbidden(_("Only a player's own seat keeps private notes."))
    return game, actor.seat, None


@require_POST
def note(request, pk):
    """A seat's private note on its hand: only that seat ever sees it."""
    game, seat, denied = _own_seat(request, pk)
    if denied:
        return denied
    form = NoteForm(request.POST, countries=seat.countries)
    if form.is_valid():
        save_hand_note(game, seat, form.cleaned_data["country"], form.cleaned_data["text"])
        messages.success(request, _("Note saved."))
        return redirect("game", pk=game.pk)
    return HttpResponse(_("Invalid note."), status=400)


@require_POST
def unseen(request, pk):
    """The owner says which of its face-down responses a card discarded unseen (its private list only)."""
    game, seat, denied = _own_seat(request, pk)
    if denied:
        return denied
    form = UnseenForm(request.POST, countries=seat.countries)
    if not form.is_valid():
        return HttpResponse(_("Invalid note."), status=400)
    d = form.cleaned_data
    if page.settle_unseen(game, seat, d["country"], d["card_id"], selectors.table_of(game)):
        messages.success(request, _("Your list of face-down responses is up to date."))
    else:  # a second tap, or another phone of the seat answered first: the page says so
        messages.info(request, _("Nothing to correct: your list already matches the table."))
    return redirect("game", pk=game.pk)


def save_hand_note(game: Game, seat, country: str, text: str) -> PrivateNote:
    """An upsert of the seat's one hand note per country. Two first saves at the same moment both find
    no row and both insert; the unique constraint (``hand_note_unique``) refuses the second, which then
    updates the row the first one made."""
    for _attempt in range(3):  # bounded: after an IntegrityError the row exists, so the next try updates
        try:
            with transaction.atomic():
                note = (PrivateNote.objects.select_for_update()
                        .filter(game=game, seat=seat, country=country, kind=PrivateNote.HAND).first())
                if note is None:
                    return PrivateNote.objects.create(game=game, seat=seat, country=country,
                                                      kind=PrivateNote.HAND, text=text)
                note.text = text
                note.save(update_fields=["text"])
                return note
        except IntegrityError:
            continue
    raise IntegrityError("the hand note could be neither created nor updated")

"""The views every game shares: its page, live polling, one command endpoint, undo and redo, seats
and links, export and import. Function views, thin: the game's adapter parses and shows, the log
writes, the engine decides."""
from __future__ import annotations

import logging

from django.contrib import messages
from django.db import DatabaseError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from gameplay.common import Reason

from tracker.lan import lan_addresses
from tracker.language import lang as current_lang

from . import access, errors, log, statecache, transfer
from .commands import BadInput, version_of
from .models import Game, Seat
from .registry import adapter_of
from .responses import answer, answer_result, answer_results, render_game

logger = logging.getLogger(__name__)

STEP_FAULT = Reason("fault", "Сбой сервера при записи хода: ничего не записано, нажмите ещё раз.",
                    "A server fault while writing the turn: nothing was written; tap again.")


@require_GET
def ping(request):
    """The smallest Django view: the baseline of the load benchmark."""
    return HttpResponse("ok", content_type="text/plain")


# ------------------------------------------------------------------------------------------
# The game page, polling, moves
# ------------------------------------------------------------------------------------------

@require_GET
def game(request, pk):
    game, actor, denied = access.game_and_actor(request, pk)
    if denied:
        return denied
    return render_game(request, game, actor)


@require_GET
def poll(request, pk):
    """Cheap: one indexed query; 204 while the version is unchanged, else ask the page to refresh.
    404, as for a missing game, to a browser without a valid link to it: whether a game changes is its own. The
    page is told to reload (``HX-Refresh``), so a phone whose link was replaced shows the "no link" page."""
    row = access.linked_values(request, pk, "version")
    if row is None:
        response = HttpResponse(status=404)
        response["HX-Refresh"] = "true"
        return response
    version = row[0]
    try:
        known = int(request.GET.get("v", "-1"))
    except ValueError:
        known = -1
    if version == known:
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Trigger"] = "game-changed"
    return response


def _host(request, pk, refusal: str):
    """(game, None) for the host's browser, else (game, the refusal: 403 page or ``refusal``)."""
    game, actor, denied = access.game_and_actor(request, pk)
    if denied:
        return game, denied
    if not actor.is_host:
        return game, errors.forbidden(request, refusal)
    return game, None


def _writer(request, pk):
    """(game, actor, None) for a browser that may write, else (game, None, the refusal)."""
    game, actor, denied = access.game_and_actor(request, pk)
    if denied:
        return game, None, denied
    if not actor.can_write:
        return game, None, errors.forbidden(request, _("Spectators cannot make moves."))
    return game, actor, None


@require_POST
def command(request, pk):
    """Every game's moves: the adapter reads the form, the core checks and writes it."""
    game, actor, denied = _writer(request, pk)
    if denied:
        return denied
    adapter = adapter_of(game)
    try:
        parsed = adapter.parse(request, game, actor, lambda: statecache.load(game, adapter))
    except BadInput as exc:
        return answer(request, game, actor, messages.ERROR, _message(exc), status=exc.status, keep=exc.keep)
    if parsed.preview:
        return adapter.preview(request, game, actor, parsed)
    try:  # one tap, several steps (``parsed.then``): one transaction, each step its own event
        results = log.submit_run(game.pk, parsed.version, actor, [parsed.command, *parsed.then])
    except DatabaseError:
        if not parsed.then:
            raise
        logger.exception("game %s: a one-tap run failed", game.pk)  # rolled back: nothing of it was written
        return answer(request, game, actor, messages.ERROR, STEP_FAULT.text(current_lang()))
    result = results[0]
    if result.applied:
        adapter.after_submit(game, actor, parsed, result)
    if not parsed.then:
        return answer_result(request, game, actor, result, keep=parsed.keep)
    last = results[-1]
    return answer_results(request, game, actor, results, stop=parsed.stop if last.applied else None)


@require_POST
def undo(request, pk):
    return _history(request, pk, log.undo)


@require_POST
def redo(request, pk):
    return _history(request, pk, log.redo)


def _history(request, pk, step):
    game, actor, denied = _writer(request, pk)
    if denied:
        return denied
    try:
        version = version_of(request.POST)
    except BadInput as exc:
        return answer(request, game, actor, messages.ERROR, _message(exc), status=400)
    return answer_result(request, game, actor, step(game.pk, version, actor))


def _message(exc: BadInput) -> str:
    return _("The form is missing its game version.") if exc.message == "version" else exc.message


# ------------------------------------------------------------------------------------------
# Seats and links
# ------------------------------------------------------------------------------------------

def _absolute(request, path: str) -> str:
    """A URL phones on the LAN can open: localhost is replaced by the machine's LAN address."""
    host = request.get_host()
    name, _sep, port = host.partition(":")
    if name in ("localhost", "127.0.0.1", "[::1]"):
        addresses = lan_addresses()
        if addresses:
            host = addresses[0] + (f":{port}" if port else "")
    return f"{request.scheme}://{host}{path}"


def seat_roles(game, seat) -> str:
    """The countries (QMG) or sides (other games) a seat plays, by name."""
    adapter, lang = adapter_of(game), current_lang()
    return ", ".join(adapter.role_name(game, r, lang) for r in seat.countries)


def seats(request, pk):
    game, denied = _host(request, pk, _("Only the host sees the join links."))
    if denied:
        return denied
    confirmed = request.POST.get("confirm") == "yes"  # a new link is made only on the confirmation step
    if request.method == "POST" and request.POST.get("link") in ("host", "watch"):
        if not confirmed:
            return _confirm_new_link(request, game, link=request.POST["link"])
        return _new_game_link(request, game, request.POST["link"])
    if request.method == "POST":
        seat_id = request.POST.get("seat", "")
        readable = seat_id.isascii() and seat_id.isdigit() and len(seat_id) < 10  # "²" is a digit to isdigit()
        seat = get_object_or_404(Seat, game=game, pk=int(seat_id) if readable else -1)
        if not confirmed:
            return _confirm_new_link(request, game, seat=seat)
        access.new_seat_link(seat)
        messages.info(request, _("A new join link was made for %(player)s; the old one no longer works.")
                      % {"player": seat.player_name})
        return redirect("seats", pk=game.pk)
    rows = []
    for seat in game.seats.all():
        url = _absolute(request, reverse("join", args=[seat.token]))
        rows.append({"seat": seat, "url": url, "countries": seat_roles(game, seat)})
    watch_url = _absolute(request, reverse("watch", args=[game.spectator_token]))
    host = _absolute(request, reverse("host_link", args=[game.host_token]))
    return render(request, "seats.html", {"game": game, "rows": rows, "watch_url": watch_url, "host_url": host})


def _confirm_new_link(request, game, seat=None, link: str = ""):
    """The step before a new link: whose phone loses access, with «make it» and «cancel»."""
    if seat is not None:
        who = _("%(player)s (%(roles)s)") % {"player": seat.player_name, "roles": seat_roles(game, seat)}
        loses = _("The phone of %(who)s loses access to the game at once: its link and QR code stop working, "
                  "and that player must scan the new code.") % {"who": who}
    elif link == "watch":
        who = _("spectators")
        loses = _("Every spectator's screen (and the table screen) loses access at once: the spectator link and "
                  "its QR code stop working.")
    else:
        who = _("the host")
        loses = _("The old host link stops working at once; this browser stays the host.")
    return render(request, "seats_confirm.html", {"game": game, "seat": seat, "link": link, "who": who,
                                                  "loses": loses})


def _new_game_link(request, game, link: str):
    """A new host or spectator link; the old one stops working at once (the host's own browser keeps
    its rights through the new link)."""
    access.new_game_link(game, link)
    if link == "host":
        access.grant(request, game, "host", game.host_token)
        messages.info(request, _("A new host link was made; the old one no longer works."))
    else:
        messages.info(request, _("A new spectator link was made; the old one no longer works."))
    return redirect("seats", pk=game.pk)


def join(request, token):
    seat = get_object_or_404(Seat, token=token)
    access.grant(request, seat.game, "seat", token)
    return redirect(seat.game)


def watch(request, token):
    game = get_object_or_404(Game, spectator_token=token)
    access.grant(request, game, "watch", token)
    return redirect(game)


def host_link(request, token):
    game = get_object_or_404(Game, host_token=token)
    access.grant(request, game, "host", token)
    return redirect(game)


# ------------------------------------------------------------------------------------------
# Export and import (a game night survives a new machine)
# ------------------------------------------------------------------------------------------

@require_GET
def export_game(request, pk):
    game, denied = _host(request, pk, _("Only the host may export the game."))
    if denied:
        return denied
    if not game.finished and transfer.holds_hidden_information(game):
        # the host is usually a player too: a running game's file would show the others' hidden cards
        return errors.forbidden(request, _("While the game runs its file would show cards that players keep hidden: "
                                       "export it when the game is over."))
    response = HttpResponse(transfer.dumps(transfer.export_game(game)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response


def import_game(request):
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise transfer.ImportError_(_("Choose an exported game file."))
            if upload.size > transfer.MAX_BYTES:
                raise transfer.ImportError_(_("The file is too large."))
            game = transfer.import_game(transfer.loads(upload.read()))
        except transfer.ImportError_ as exc:
            messages.error(request, str(exc))
            return render(request, "import.html", status=400)
        access.grant(request, game, "host", game.host_token)
        messages.success(request, _("Game imported: %(name)s.") % {"name": game.name})
        return redirect("seats", pk=game.pk)
    return render(request, "import.html")

"""Function views: thin. They parse forms, call a service or a selector, render a page or partial.

Every form posts normally (works without JavaScript: post/redirect/get); with htmx the same
view answers with the game partial instead of a redirect.
"""
from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from gameplay.qmg import compute_supply, victory_step
from gameplay.qmg.table import CARD_TYPE_NAMES, PHASE_NAMES, reminders, turn_context

from . import access, jsongames, selectors, services
from .board_svg import render_board_svg, space_rows
from .charts import vp_chart_svg
from .forms import (
    CATALOGUE, AirForm, BoardVariantForm, DiscardForm, NewGameForm, NoteForm, PassForm, PlayCardForm, ReallocateForm,
    StepForm, UseCardForm, VersionForm, card_name,
)
from .lan import lan_addresses
from .language import lang as _lang
from .models import BoardVariant, Event, Game, PrivateNote, Seat, new_token


# ------------------------------------------------------------------------------------------
# Start page, new game, links
# ------------------------------------------------------------------------------------------

@require_GET
def ping(request):
    """The smallest Django view: the baseline of the load benchmark."""
    return HttpResponse("ok", content_type="text/plain")


def home(request):
    form = NewGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        game = services.create_game(d["name"], d["seats"],
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


_actor_or_403 = access.actor_or_403


def _absolute(request, path: str) -> str:
    """A URL phones on the LAN can open: localhost is replaced by the machine's LAN address."""
    host = request.get_host()
    name, _, port = host.partition(":")
    if name in ("localhost", "127.0.0.1", "[::1]"):
        addresses = lan_addresses()
        if addresses:
            host = addresses[0] + (f":{port}" if port else "")
    return f"{request.scheme}://{host}{path}"


def _qr_svg(url: str) -> str:
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, dark="#1d2327", light="#ffffff", omitsize=True)


def seats(request, pk):
    game = get_object_or_404(Game, pk=pk)
    actor, denied = _actor_or_403(request, game)
    if denied:
        return denied
    if not actor.is_host:
        return HttpResponseForbidden(_("Only the host sees the join links."))
    if request.method == "POST":
        seat_id = request.POST.get("seat", "")
        seat = get_object_or_404(Seat, game=game, pk=int(seat_id) if seat_id.isdigit() else -1)
        seat.token = new_token()
        seat.save(update_fields=["token"])
        messages.info(request, _("A new join link was made for %(player)s; the old one no longer works.")
                      % {"player": seat.player_name})
        return redirect("seats", pk=game.pk)
    rows = []
    for seat in game.seats.all():
        url = _absolute(request, reverse("join", args=[seat.token]))
        rows.append({"seat": seat, "url": url, "qr": _qr_svg(url), "countries": _seat_roles(game, seat)})
    watch = _absolute(request, reverse("watch", args=[game.spectator_token]))
    host = _absolute(request, reverse("host_link", args=[game.host_token]))
    return render(request, "seats.html", {"game": game, "rows": rows, "watch_url": watch,
                                               "watch_qr": _qr_svg(watch), "host_url": host})


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
# The game page and its partial
# ------------------------------------------------------------------------------------------

def _seat_roles(game, seat) -> str:
    """The countries (QMG) or sides (other games) a seat plays, by name."""
    lang = _lang()
    if game.kind != Game.QMG:
        rules = jsongames.rules_of(game)
        return ", ".join(rules.side_name(s, lang) for s in seat.countries)
    board = selectors.board_of(game)
    return ", ".join((board.countries[c].en if lang == "en" else board.countries[c].ru) for c in seat.countries)


def _context(request, game: Game, actor, forms=None) -> dict:
    lang = _lang()
    board = selectors.board_of(game)
    table = selectors.table_of(game)
    supply = compute_supply(board, table.position, turn_context(table))
    events = selectors.recent_events(game)
    active = table.active(board)
    mine = actor.countries(board)
    i = 1 if lang == "en" else 0
    c = board.countries[active]
    forms = forms or {}
    initial = {"version": game.version}
    context = {
        "game": game, "table": table, "actor": actor, "lang": lang,
        "active": active, "active_name": (c.ru, c.en)[i], "active_team": c.team,
        "phase_name": PHASE_NAMES[table.phase][0] if lang == "ru" else PHASE_NAMES[table.phase][1],
        "played_name": CARD_TYPE_NAMES[table.played][i] if table.played else "",
        "my_turn": active in mine, "can_write": actor.can_write and not table.finished,
        "reminders": [r.text(lang) for r in reminders(board, table, supply)],
        "unsupplied": [board.spaces[p.space].en if lang == "en" else board.spaces[p.space].ru
                       for p in supply.unsupplied_of(active)],
        "countries": [{"id": cid, "name": (board.countries[cid].ru, board.countries[cid].en)[i],
                       "team": board.countries[cid].team, "cards": k, "active": cid == active}
                      for cid, k in table.cards],
        "history": selectors.history(game, events),
        "vp_chart": vp_chart_svg(selectors.vp_series(game), board.rounds,
                                 labels=(_("Axis"), _("Allies")), title=_("Victory points by round")),
        "play_form": forms.get("play") or PlayCardForm(initial=initial, board=board, country=active),
        "step_form": forms.get("step") or StepForm(initial={**initial, "country": active if active in mine else None},
                                                   countries=mine or board.turn_order, board=board),
        "discard_form": forms.get("discard") or DiscardForm(initial=initial),
        "version_form": VersionForm(initial=initial),
        "done_moves": bool(game.done_moves),
        "undone_moves": bool(game.undone_moves),
    }
    context.update(_cards_context(game, table, board, actor, events, mine, lang, forms, initial))
    if table.options.air_marshal:
        context.update(_air_context(table, board, supply, mine, lang, initial))
    v = victory_step(board, table.position, active, supply)
    context["victory_preview"] = {"points": v.points, "lines": v.detail(lang)}
    k = table.cards_of(active)
    context["draw_preview"] = max(0, min(7 - k.hand, k.deck))
    context.update(_board_context(board, table, supply, lang))
    return context


def _cards_context(game, table, board, actor, events, mine, lang, forms, initial) -> dict:
    """Cards on the table: public statuses and response counts; this seat's private notes only."""
    active = table.active(board)
    team_names = {"axis": _("Axis"), "allies": _("Allies")}
    public = []
    for cid, k in table.cards:
        public.append({"country": cid, "name": board.countries[cid].en if lang == "en" else board.countries[cid].ru,
                       "team": board.countries[cid].team, "responses": k.responses,
                       "statuses": [card_name(CATALOGUE.get(x), lang) if CATALOGUE.get(x) else _("status")
                                    for x in k.statuses]})
    notes = []
    if actor.seat is not None:
        notes = list(PrivateNote.objects.filter(game=game, seat=actor.seat, active=True).order_by("id"))
    private_responses = [{"country": n.country, "name": card_name(CATALOGUE.get(n.card_id), lang)}
                         for n in notes if n.kind == PrivateNote.RESPONSE and CATALOGUE.get(n.card_id)]
    hand_notes = {n.country: n.text for n in notes if n.kind == PrivateNote.HAND}
    usable = []  # names for the use-card datalist: own statuses in play and own response cards
    for cid in mine:
        k = table.cards_of(cid)
        usable += [card_name(CATALOGUE.get(x), lang) for x in k.statuses if CATALOGUE.get(x)]
        usable += [card_name(c, lang) for c in CATALOGUE.by_country(cid) if c.type == "response"]
    played_card = None
    if table.played:
        for e in reversed(events):
            if e.kind == Event.MOVE and e.command.get("type") == "play_card" and e.round == table.round \
                    and e.country == active:
                card = CATALOGUE.get(e.command.get("card_id") or "")
                if card is not None:
                    played_card = {"name": card_name(card, lang),
                                   "summary": card.summary_en if lang == "en" else card.summary_ru,
                                   "steps": _guided_steps(card, board, lang)}
                break
    my_team_countries = [c for c in mine if board.countries[c].team == table.window] if table.window else []
    return {
        "public_cards": public,
        "deck_cards": [card_name(c, lang) for c in CATALOGUE.by_country(active)],
        "usable_cards": sorted(set(usable)),
        "private_responses": private_responses,
        "hand_notes": hand_notes,
        "played_card": played_card,
        "window_team": team_names.get(table.window, ""),
        "window_mine": bool(my_team_countries),
        "use_form": forms.get("use") or UseCardForm(initial={**initial, "country": (mine or [None])[0]},
                                                    countries=mine or board.turn_order),
        "pass_form": PassForm(initial={**initial, "country": (my_team_countries or [None])[0]},
                              countries=my_team_countries or board.turn_order),
        "reallocate_form": ReallocateForm(initial=initial) if table.options.reallocate else None,
        "note_form": NoteForm(countries=mine or board.turn_order,
                              initial={"country": (mine or [None])[0],
                                       "text": hand_notes.get((mine or [None])[0], "")}),
    }


def _air_context(table, board, supply, mine, lang, initial) -> dict:
    """Air Marshal prompts: stranded air forces, air defence and air strike chances."""
    from gameplay.qmg.air import retreat_options

    name = (lambda s: board.spaces[s].en) if lang == "en" else (lambda s: board.spaces[s].ru)
    hit = table.attack or {}
    stranded = []
    for p in supply.stranded_air():
        if hit and not hit["defended"] and (p.country, p.space) == (hit["country"], hit["space"]):
            continue  # its army was just attacked: air defence comes first
        if p.country in mine:
            options = retreat_options(board, table.position, p.country, p.space, supply.straits)
            stranded.append({"country": p.country, "space": p.space, "name": name(p.space),
                             "options": [(s, name(s)) for s in options]})
    defence = (hit and not hit["defended"] and hit["country"] in mine
               and any(p.country == hit["country"] and p.kind == "air" and p.space == hit["space"]
                       for p in table.position.pieces))
    strike_from = []
    if hit and hit["defended"] and hit["attacker"] in mine:
        from gameplay.qmg.rules import Adjacency

        adj = Adjacency(board, supply.straits, board.team_of(hit["attacker"]))
        strike_from = [(p.space, name(p.space)) for p in table.position.pieces
                       if p.country == hit["attacker"] and p.kind == "air" and adj.adjacent(p.space, hit["space"])]
    own_air = [(p.space, name(p.space)) for p in table.position.pieces
               if p.kind == "air" and p.country == table.active(board)]
    return {"air": {"stranded": stranded, "defence": bool(defence), "strike_from": strike_from,
                    "attack": hit, "attack_space": name(hit["space"]) if hit else "", "own_air": own_air,
                    "form": AirForm(initial=initial, board=board, countries=mine or board.turn_order)}}


GUIDED = {"build": "build", "recruit": "recruit", "battle": "battle", "eliminate": "eliminate",
          "discard_from_deck": "discard_from_deck", "vp_immediate": "vp_immediate"}


def _guided_steps(card, board, lang) -> list[dict]:
    """The card's effects as steps: what to enter next, with the rule each one follows."""
    steps = []
    for e in card.effects:
        spaces = e.get("spaces") or ((e.get("space"),) if e.get("space") else ())
        names = ", ".join((board.spaces[x].en if lang == "en" else board.spaces[x].ru)
                          for x in spaces if x in board.spaces)
        piece = e.get("piece") or ""
        text = {
            "build": _("Build %(piece)s (needs supply)") % {"piece": piece},
            "recruit": _("Recruit %(piece)s (ignores supply)") % {"piece": piece},
            "battle": _("Battle (%(domain)s): needs an adjacent supplied piece") % {"domain": e.get("domain", "")},
            "eliminate": _("Eliminate %(piece)s (no conditions)") % {"piece": piece},
            "discard_from_deck": _("A deck discards %(n)s card(s)") % {"n": e.get("count", "")},
            "vp_immediate": _("Victory points at once (added automatically)"),
            "manual": _("Apply by hand as the card says"),
        }.get(e.kind, _("Card effect: %(kind)s") % {"kind": e.kind})
        if names:
            text += f" — {names}"
        steps.append({"kind": e.kind, "text": text})
    return steps


def _board_context(board, table, supply, lang) -> dict:
    ground = replace(table.position, pieces=tuple(p for p in table.position.pieces if p.kind != "air"))
    air = [(p.country, p.space) for p in table.position.pieces if p.kind == "air"]
    # computed only when the template's cached map fragment is missing (a template calls callables);
    # render_board_svg escapes every name it inserts
    return {"board_svg": _once(lambda: mark_safe(render_board_svg(board, ground, supply, lang=lang, air=air))),
            "space_rows": _once(lambda: space_rows(board, ground, supply, lang=lang))}


def _once(compute):
    """A callable that computes its value on the first call only."""
    box = []

    def value():
        if not box:
            box.append(compute())
        return box[0]

    return value


@require_GET
def game(request, pk):
    game = get_object_or_404(Game, pk=pk, kind=Game.QMG)
    actor, denied = _actor_or_403(request, game)
    if denied:
        return denied
    template = "qmg/_game.html" if request.htmx else "qmg/game.html"
    return render(request, template, _context(request, game, actor))


@require_GET
def poll(request, pk):
    """Cheap: one indexed query; 204 while the version is unchanged, else ask the page to refresh."""
    version = Game.objects.filter(pk=pk).values_list("version", flat=True).first()
    if version is None:
        return HttpResponse(status=404)
    try:
        known = int(request.GET.get("v", "-1"))
    except ValueError:
        known = -1
    if version == known:
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Trigger"] = "game-changed"
    return response


# ------------------------------------------------------------------------------------------
# Moves
# ------------------------------------------------------------------------------------------

FORMS = {"play_card": ("play", PlayCardForm), "step": ("step", StepForm), "discard": ("discard", DiscardForm),
         "end_play": (None, VersionForm), "supply": (None, VersionForm), "score": (None, VersionForm),
         "draw": (None, VersionForm), "undo": (None, VersionForm), "redo": (None, VersionForm),
         "use_card": ("use", UseCardForm), "pass": (None, PassForm), "reallocate": (None, ReallocateForm),
         "deploy_air": (None, AirForm), "move_air": (None, AirForm), "end_air": (None, VersionForm),
         "air_retreat": (None, AirForm), "air_defence": (None, AirForm), "air_strike": (None, AirForm),
         "bolster": (None, AirForm)}


@require_POST
def move(request, pk):
    game = get_object_or_404(Game, pk=pk, kind=Game.QMG)
    actor, denied = _actor_or_403(request, game)
    if denied:
        return denied
    if not actor.can_write:
        return HttpResponseForbidden(_("Spectators cannot make moves."))
    kind = request.POST.get("command")
    if kind not in FORMS:
        return _answer(request, game, actor, messages.ERROR, _("Unknown command."), status=400)
    key, form_class = FORMS[kind]
    board = selectors.board_of(game)
    kwargs = {"board": board} if form_class in (PlayCardForm, StepForm, AirForm) else {}
    if form_class in (StepForm, UseCardForm, PassForm, AirForm):
        kwargs["countries"] = actor.countries(board)
    if form_class is PlayCardForm:
        kwargs["country"] = board.turn_order[game.turn]
    form = form_class(request.POST, **kwargs)
    if not form.is_valid():
        errors = "; ".join(f"{e}" for errs in form.errors.values() for e in errs)
        return _answer(request, game, actor, messages.ERROR, errors, forms={key: form} if key else None, status=400)
    data = form.cleaned_data
    if kind == "undo":
        result = services.undo(game.pk, data["version"], actor)
    elif kind == "redo":
        result = services.redo(game.pk, data["version"], actor)
    else:
        command = _command(kind, data)
        secret = None
        if kind == "play_card" and data.get("card_type") == "response" and command.pop("card_id", None):
            secret = data["card_id"]  # a face-down response: its identity never enters the public log
        result = services.submit(game.pk, data["version"], actor, command)
        if result.applied:
            _record_private(game, actor, board, command, secret)
    lang = _lang()
    text = result.reason.text(lang) if result.reason else ""
    notes = [n.text(lang) for n in result.notes]
    level = messages.SUCCESS if result.applied else (messages.WARNING if result.status == services.STALE
                                                      else messages.ERROR)
    status = {services.APPLIED: 200, services.STALE: 409, services.FORBIDDEN: 403}.get(result.status, 422)
    keep = None if result.applied or result.status == services.STALE else ({key: form} if key else None)
    return _answer(request, game, actor, level, text, notes=notes, forms=keep, status=status)


def _record_private(game, actor, board, command, secret):
    """Keep a face-down response's identity for its owner; a revealed one stops being private."""
    country = command.get("country") or board.turn_order[game.turn]
    owner = actor.seat if actor.seat and country in actor.seat.countries else \
        next((s for s in game.seats.all() if country in s.countries), None)
    if owner is None:
        return
    if secret:
        PrivateNote.objects.create(game=game, seat=owner, country=country, kind=PrivateNote.RESPONSE, card_id=secret)
    elif command["type"] == "use_card":
        note = PrivateNote.objects.filter(game=game, seat=owner, country=country, kind=PrivateNote.RESPONSE,
                                          card_id=command.get("card_id"), active=True).first()
        if note:
            note.active = False
            note.save(update_fields=["active"])


@require_POST
def note(request, pk):
    """A seat's private note on its hand: only that seat ever sees it."""
    game = get_object_or_404(Game, pk=pk, kind=Game.QMG)
    actor, denied = _actor_or_403(request, game)
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


def _command(kind, data) -> dict:
    cmd = {"type": kind}
    for field in ("card_type", "card_id", "space", "from_space", "target_country", "kind", "n", "country", "action",
                  "name"):
        value = data.get(field)
        if value not in (None, ""):
            cmd[field] = value
    return cmd


def _answer(request, game, actor, level, text, notes=(), forms=None, status=200):
    """htmx: the refreshed game partial with the message. Without JavaScript: a redirect after a
    success (post/redirect/get), else the whole page with the message and the real status code."""
    if not request.htmx and status < 300:
        if text:
            messages.add_message(request, level, text)
        for note in notes:
            messages.info(request, note)
        return redirect("game", pk=game.pk)
    game.refresh_from_db()
    context = _context(request, game, actor, forms)
    context["flash"] = {"level": {messages.SUCCESS: "success", messages.WARNING: "warning",
                                  messages.ERROR: "error"}.get(level, "info"), "text": text, "notes": notes}
    # the real status (409 stale, 422 refused, 400 invalid); base.html tells htmx to swap 4xx answers
    template = "qmg/_game.html" if request.htmx else "qmg/game.html"
    return render(request, template, context, status=status)


# ------------------------------------------------------------------------------------------
# Export and import (a game night survives a new machine)
# ------------------------------------------------------------------------------------------

@require_GET
def export_game(request, pk):
    from . import transfer

    game = get_object_or_404(Game, pk=pk)
    actor, denied = _actor_or_403(request, game)
    if denied:
        return denied
    if not actor.is_host:
        return HttpResponseForbidden(_("Only the host may export the game."))
    response = HttpResponse(transfer.dumps(transfer.export_game(game)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response


def import_game(request):
    from . import transfer

    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise transfer.ImportError_(_("Choose an exported game file."))
            if upload.size > 20 * 1024 * 1024:
                raise transfer.ImportError_(_("The file is too large."))
            game = transfer.import_game(transfer.loads(upload.read()))
        except transfer.ImportError_ as exc:
            messages.error(request, str(exc))
            return render(request, "import.html", status=400)
        access.grant(request, game, "host", game.host_token)
        messages.success(request, _("Game imported: %(name)s.") % {"name": game.name})
        return redirect("seats", pk=game.pk)
    return render(request, "import.html")

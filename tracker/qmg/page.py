"""QMG's game page: what the partial shows (asking the engine what is legal) and how its forms
become commands. The shared shell, the answer and the write path are the core's."""
from __future__ import annotations

from dataclasses import replace

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from gameplay.qmg import compute_supply, victory_step
from gameplay.qmg.air import air_prompts
from gameplay.qmg.table import CARD_TYPE_NAMES, PHASE_NAMES, draw_count, reminders, turn_context

from tracker.core.commands import BadInput, Parsed
from tracker.core.models import Event, PrivateNote
from tracker.core.selectors import recent_events
from tracker.language import lang as _lang

from . import selectors
from .board_svg import render_board_svg, space_rows
from .charts import vp_chart_svg
from .forms import (
    CATALOGUE, AirForm, DiscardForm, NoteForm, PassForm, PlayCardForm, ReallocateForm, StepForm, UseCardForm,
    VersionForm, card_name,
)


def countries_of(actor, board) -> tuple[str, ...]:
    return actor.allowed(board.turn_order)


# ------------------------------------------------------------------------------------------
# the page
# ------------------------------------------------------------------------------------------

def context(request, game, actor, table, keep=None) -> dict:
    lang = _lang()
    board = selectors.board_of(game)
    supply = compute_supply(board, table.position, turn_context(table))
    events = recent_events(game)
    active = table.active(board)
    mine = countries_of(actor, board)
    i = 1 if lang == "en" else 0
    c = board.countries[active]
    forms = keep or {}
    initial = {"version": game.version}
    ctx = {
        "table": table, "lang": lang,
        "active": active, "active_name": (c.ru, c.en)[i], "active_team": c.team,
        "phase_name": PHASE_NAMES[table.phase][i],
        "played_name": CARD_TYPE_NAMES[table.played][i] if table.played else "",
        "my_turn": active in mine, "can_write": actor.can_write and not table.finished,
        "reminders": [r.text(lang) for r in reminders(board, table, supply)],
        "unsupplied": [board.spaces[p.space].en if lang == "en" else board.spaces[p.space].ru
                       for p in supply.unsupplied_of(active)],
        "countries": [{"id": cid, "name": (board.countries[cid].ru, board.countries[cid].en)[i],
                       "team": board.countries[cid].team, "cards": k, "active": cid == active}
                      for cid, k in table.cards],
        "vp_chart": vp_chart_svg(selectors.vp_series(game), board.rounds,
                                 labels=(_("Axis"), _("Allies")), title=_("Victory points by round")),
        "play_form": forms.get("play") or PlayCardForm(initial=initial, board=board, country=active),
        "step_form": forms.get("step") or StepForm(initial={**initial, "country": active if active in mine else None},
                                                   countries=mine or board.turn_order, board=board),
        "discard_form": forms.get("discard") or DiscardForm(initial=initial),
        "version_form": VersionForm(initial=initial),
    }
    ctx.update(_cards_context(game, table, board, actor, events, mine, lang, forms, initial))
    if table.options.air_marshal:
        ctx.update(_air_context(table, board, supply, mine, lang, initial))
    v = victory_step(board, table.position, active, supply)
    ctx["victory_preview"] = {"points": v.points, "lines": v.detail(lang)}
    ctx["draw_preview"] = draw_count(table, active)
    ctx.update(_board_context(board, table, supply, lang))
    return ctx


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
    my_team_countries = [c for c in mine if board.countries[c].team == table.window] if table.window else []
    return {
        "public_cards": public,
        "deck_cards": [card_name(c, lang) for c in CATALOGUE.by_country(active)],
        "usable_cards": sorted(set(usable)),
        "private_responses": private_responses,
        "hand_notes": hand_notes,
        "played_card": _played_card(table, board, events, lang),
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


def _played_card(table, board, events, lang) -> dict | None:
    """The card the active country played this turn, with its effects as steps."""
    if not table.played:
        return None
    active = table.active(board)
    for e in reversed(events):
        if e.kind == Event.MOVE and e.command.get("type") == "play_card" and e.round == table.round \
                and e.country == active:
            card = CATALOGUE.get(e.command.get("card_id") or "")
            if card is None:
                return None
            return {"name": card_name(card, lang), "summary": card.summary_en if lang == "en" else card.summary_ru,
                    "steps": _guided_steps(card, board, lang)}
    return None


def _air_context(table, board, supply, mine, lang, initial) -> dict:
    """Air Marshal prompts: the engine says what may be done; this names the spaces."""
    name = (lambda s: board.spaces[s].en) if lang == "en" else (lambda s: board.spaces[s].ru)
    p = air_prompts(board, table.position, table.attack, supply, mine)
    hit = table.attack or {}
    own_air = [p.space for p in table.position.pieces if p.kind == "air" and p.country == table.active(board)]
    return {"air": {
        "stranded": [{"country": s.country, "space": s.space, "name": name(s.space),
                      "options": [(o, name(o)) for o in s.retreat_to]} for s in p.stranded],
        "defence": p.defence, "strike_from": [(s, name(s)) for s in p.strike_from],
        "attack": hit, "attack_space": name(hit["space"]) if hit else "",
        "own_air": [(s, name(s)) for s in own_air],
        "form": AirForm(initial=initial, board=board, countries=mine or board.turn_order)}}


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


# ------------------------------------------------------------------------------------------
# forms → commands
# ------------------------------------------------------------------------------------------

FORMS = {"play_card": ("play", PlayCardForm), "step": ("step", StepForm), "discard": ("discard", DiscardForm),
         "end_play": (None, VersionForm), "supply": (None, VersionForm), "score": (None, VersionForm),
         "draw": (None, VersionForm), "use_card": ("use", UseCardForm), "pass": (None, PassForm),
         "reallocate": (None, ReallocateForm), "deploy_air": (None, AirForm), "move_air": (None, AirForm),
         "end_air": (None, VersionForm), "air_retreat": (None, AirForm), "air_defence": (None, AirForm),
         "air_strike": (None, AirForm), "bolster": (None, AirForm)}
COMMAND_FIELDS = ("card_type", "card_id", "space", "from_space", "target_country", "kind", "n", "country", "action",
                  "name")


def parse(request, game, actor, current) -> Parsed:
    kind = request.POST.get("command")
    if kind not in FORMS:
        raise BadInput(_("Unknown command."))
    key, form_class = FORMS[kind]
    board = selectors.board_of(game)
    kwargs = {"board": board} if form_class in (PlayCardForm, StepForm, AirForm) else {}
    if form_class in (StepForm, UseCardForm, PassForm, AirForm):
        kwargs["countries"] = countries_of(actor, board)
    if form_class is PlayCardForm:
        kwargs["country"] = board.turn_order[game.qmg.turn]  # the active country, without loading the table
    form = form_class(request.POST, **kwargs)
    keep = {key: form} if key else {}
    if not form.is_valid():
        raise BadInput("; ".join(f"{e}" for errs in form.errors.values() for e in errs), keep)
    data = form.cleaned_data
    command = {"type": kind}
    for name in COMMAND_FIELDS:
        value = data.get(name)
        if value not in (None, ""):
            command[name] = value
    secret = None
    if kind == "play_card" and data.get("card_type") == "response" and command.pop("card_id", None):
        secret = data["card_id"]  # a face-down response: its identity never enters the public log
    return Parsed(command, data["version"], secret=secret, keep=keep)


def after_submit(game, actor, parsed: Parsed, result) -> None:
    """Keep a face-down response's identity for its owner; a revealed one stops being private."""
    command = result.event.command
    country = command.get("country") or result.event.country
    owner = actor.seat if actor.seat and country in actor.seat.countries else \
        next((s for s in game.seats.all() if country in s.countries), None)
    if owner is None:
        return
    if parsed.secret:
        PrivateNote.objects.create(game=game, seat=owner, country=country, kind=PrivateNote.RESPONSE,
                                   card_id=parsed.secret)
    elif command["type"] == "use_card":
        note = PrivateNote.objects.filter(game=game, seat=owner, country=country, kind=PrivateNote.RESPONSE,
                                          card_id=command.get("card_id"), active=True).first()
        if note:
            note.active = False
            note.save(update_fields=["active"])

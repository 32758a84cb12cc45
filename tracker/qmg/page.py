"""QMG's game page: what the partial shows (asking the engine what is legal) and how its forms
become commands. The shared shell, the answer and the write path are the core's."""
from __future__ import annotations

import hashlib
import weakref
from collections import Counter
from dataclasses import replace

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from gameplay.qmg import compute_supply, victory_step
from gameplay.qmg.air import air_prompts
from gameplay.qmg.autoturn import finish_turn
from gameplay.qmg.table import (
    CARD_TYPE_NAMES, PHASE_NAMES, apply_command, draw_count, face_down_refusal, is_face_down_play, piece_names, prepare_choices,
    reminders, steps_without_target, turn_context, usable_now, waiting_for, window_view,
)

from tracker.core import fragments, rows
from tracker.core.commands import BadInput, Parsed
from tracker.core.models import Event, PrivateNote
from tracker.language import lang as _lang

from . import selectors
from .cardsteps import CardStepForm, card_steps, free_steps_allowed
from .board_svg import BoardMap, piece_supplied, space_rows
from .charts import vp_chart
from .forms import (
    CATALOGUE, AirForm, DiscardForm, FinishTurnForm, NoteForm, PassForm, PlayCardForm, PrepareForm, ReallocateForm,
    StepForm, UseCardForm, VersionForm, card_name,
)


def countries_of(actor, board) -> tuple[str, ...]:
    return actor.allowed(board.turn_order)


# ------------------------------------------------------------------------------------------
# the page
# ------------------------------------------------------------------------------------------

PUBLIC_SECONDS = 600  # a version's public parts in the render cache


def context(request, game, actor, table, keep=None) -> dict:
    """What templates/qmg/_game.html shows this viewer. What every viewer of the version sees alike is
    ``parts`` (its public partials' HTML) and ``public`` (the values they show), both from the render cache,
    computed once per version and language; what is this viewer's own is computed for this request, and what
    only some states show is computed when (and if) the template shows it (a template calls a callable)."""
    lang = _lang()
    board = selectors.board_of(game)
    active = table.active(board)
    mine = countries_of(actor, board)
    i = 1 if lang == "en" else 0
    c = board.countries[active]
    forms = keep or {}
    initial = {"version": game.version}
    supply = _once(lambda: compute_supply(board, table.position, turn_context(table)))
    public = _once(lambda: _public(game, table, board, supply, lang))
    window_team = {"axis": _("Axis"), "allies": _("Allies")}.get(table.window, "")
    ctx = {
        "table": table, "lang": lang,
        "active": active, "active_name": (c.ru, c.en)[i], "active_team": c.team,
        "public": public, "parts": _once(lambda: public_parts(game, table, board, supply, lang, public)),
        "played_name": CARD_TYPE_NAMES[table.played][i] if table.played else "",
        "my_turn": active in mine, "can_write": actor.can_write and not table.finished,
        "waiting_for": "" if active in mine or table.finished else (c.ru, c.en)[i],
        "step_by_step": bool((game.options or {}).get("step_by_step")),
        "finish_form": _once(lambda: FinishTurnForm(initial=initial)),
        # forms are built when (and if) the template shows them
        "play_form": _once(lambda: forms.get("play") or PlayCardForm(initial=initial, board=board, country=active)),
        "step_form": _once(lambda: forms.get("step") or StepForm(
            initial={**initial, "country": active if active in mine else None},
            countries=mine or board.turn_order, board=board)),
        "discard_form": _once(lambda: forms.get("discard") or DiscardForm(initial=initial)),
        # what the cached fields of the remove-piece form depend on (a kept form with errors is never cached)
        "board_key": f"{selectors.variant_id_of(game) or 'base'}",
        "mine_key": ",".join(mine) or "-",
        "form_kept": bool(forms),
        "form_key": ("kept%s:" % game.version if forms else "") + (",".join(mine) or "-"),
        "step_initial": f"{active if active in mine else ''}{':kept' + str(game.version) if forms.get('step') else ''}",
        "window_team": window_team,
        "round_label": _("R"),  # the history's (its place in the skeleton is rendered alone: tracker.core.responses)
    }
    ctx.update(_cards_context(game, table, board, actor, mine, lang, forms, initial))
    ctx["usable_now"] = ctx["window_mine"] or any(
        table.cards_of(cid).statuses or table.cards_of(cid).responses for cid in mine)
    own = tuple(actor.seat.countries) if actor.seat is not None else ()
    # what this seat may use the moment its trigger happened: one button each in the decision bar
    ctx["bar_usable"] = bar_usable(board, table, mine, own, ctx["private_responses"], lang) \
        if ctx["can_write"] else []
    # card rules 6: the active country declines with «Закончить ход», not «Пас» (a game stored before keeps «Пас»)
    if ctx["window_mine"] and ctx["my_turn"] and table.options.at_least(6):
        ctx.update(_window_pass(board, table, mine, active, initial))
    ctx["card_steps"] = card_steps(board, table, mine, lang, own)  # the engine's open card step, one tap per choice
    ctx["free_steps"] = free_steps_allowed(table, selectors.legacy_rules(game))  # only where the engine accepts one
    ctx["prepare"] = _prepare_context(board, table, mine, lang, own) if table.options.prepare_for_war else []
    if table.options.air_marshal:
        ctx.update(_air_context(table, board, supply(), mine, lang, initial))
    return ctx


def _version_key(game, what: str, lang: str) -> str:
    return f"qmg:{what}:{game.pk}:{game.spectator_token}:{game.version}:{lang}"


def _public(game, table, board, supply, lang) -> dict:
    """What every viewer of this game version sees alike (reminders, pieces leaving, the cards table, the VP
    chart, the victory preview): computed once per version and language (the render cache)."""
    return cache.get_or_set(_version_key(game, "public", lang), lambda: _public_of(game, table, board, supply, lang),
                            PUBLIC_SECONDS)


# the public partials of templates/qmg/_game.html: what every viewer of a version sees alike, each rendered from
# the version's public values only (nothing of a viewer, no request: no CSRF token can enter it)
PUBLIC_PARTS = ("status-bar", "board", "reminders", "window", "cards-table", "vp", "finished", "links")


def public_parts(game, table, board, supply, lang, public) -> dict[str, str]:
    """The public partials' HTML of this version, by name ("-" as "_": ``parts.status_bar``): from the render cache, else each rendered by name
    ("qmg/_game.html#board") from the public context, or taken from an earlier version where what it shows is
    unchanged (its key is a digest of exactly that: ``_fragment_keys``)."""
    return cache.get_or_set(_version_key(game, "parts", lang),
                            lambda: _render_parts(game, table, board, supply, lang, public()), PUBLIC_SECONDS)


def _render_parts(game, table, board, supply, lang, public) -> dict[str, str]:
    active = table.active(board)
    digests = _fragment_keys(table, board, supply(), active, public)
    shown = [name for name in PUBLIC_PARTS if (name != "finished" or table.finished) and (name != "window" or table.window)]
    keys = {name: f"qmg:part:{name}:{game.pk}:{game.spectator_token}:{digests[name]}:{lang}" for name in shown}
    kept = cache.get_many(keys.values())
    i = 1 if lang == "en" else 0
    c = board.countries[active]
    context = {"game": game, "table": table, "lang": lang, "public": public, "active": active,
               "active_name": (c.ru, c.en)[i], "phase_name": PHASE_NAMES[table.phase][i],
               "window_team": {"axis": _("Axis"), "allies": _("Allies")}.get(table.window, ""),
               **_board_context(board, table, supply, lang)}
    parts, new = {}, {}
    for name in shown:
        html = kept.get(keys[name])
        if html is None:
            html = new[keys[name]] = render_to_string(f"qmg/_game.html#{name}", context)
        parts[name.replace("-", "_")] = html
    if new:
        cache.set_many(new, PUBLIC_SECONDS)
    return parts


def _public_of(game, table, board, supply, lang) -> dict:
    i = 1 if lang == "en" else 0
    active = table.active(board)
    v = victory_step(board, table.position, active, supply())
    return {
        "reminders": [r.text(lang) for r in reminders(board, table, supply())],
        "unsupplied": [piece_names(board, [p])[i] for p in supply().unsupplied_of(active)],  # kind, whose, where
        "countries": [{"id": cid, "name": (board.countries[cid].ru, board.countries[cid].en)[i],
                       "team": board.countries[cid].team, "cards": k, "active": cid == active}
                      for cid, k in table.cards],
        # statuses face up, responses as a count (their names are their owners' private notes)
        "public_cards": [{"country": cid, "name": (board.countries[cid].ru, board.countries[cid].en)[i],
                          "team": board.countries[cid].team, "responses": k.responses,
                          "statuses": [card_name(CATALOGUE.get(x), lang) if CATALOGUE.get(x) else _("status")
                                       for x in k.statuses]}
                         for cid, k in table.cards],
        "vp_chart": vp_chart(tuple(selectors.vp_series(game)), board.rounds, (_("Axis"), _("Allies")),
                             _("Victory points by round")),
        "victory_preview": {"points": v.points, "lines": v.detail(lang)},
        "draw_preview": draw_count(table, active),
        "window": _window_of(board, table, lang),
    }


def _window_of(board, table, lang) -> dict | None:
    """The open response window as every phone sees it (public facts only): what is at stake and whom it waits
    for (the countries it asks that have not answered)."""
    view = window_view(board, table)
    if view is None:
        return None
    i = 1 if lang == "en" else 0
    return {"stake": view.stake.text(lang) if view.stake else "",
            "waiting": [(board.countries[c].ru, board.countries[c].en)[i] for c in view.waiting]}


def _fragment_keys(table, board, supply, active, public) -> dict[str, str]:
    """For each public partial, a digest of exactly what it shows, so a partial a move did not change is reused
    by the next version instead of rendered again. Only public facts of this version go in (the language and
    the game are in the part's key beside it); a part's digest changes whenever anything it shows does."""
    shape = _board_print(board)
    pieces = table.position.pieces
    return {
        # the status bar: round, active country (its name from the board), phase, VP
        "status-bar": _digest(shape, table.round, active, table.phase, table.vp_axis, table.vp_allies),
        # the map: the board, every piece with its supply (what marks a piece out of supply), straits' teams
        "board": _digest(shape, tuple((p.country, p.kind, p.space, piece_supplied(supply, p)) for p in pieces),
                         tuple(sorted(supply.straits.items()))),
        "reminders": _digest(public["reminders"]),
        "finished": _digest(table.winner, table.end_reason, table.vp_axis, table.vp_allies, public["vp_chart"]),
        "window": _digest(table.window, public["public_cards"], public["window"]),
        "cards-table": _digest(public["countries"], public["public_cards"]),
        "vp": _digest(public["vp_chart"]),
        "links": _digest(),  # the same for every version of the game
    }


def _digest(*parts) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


_BOARD_PRINTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _board_print(board) -> str:
    """A digest of the board itself (the printed board or a variant), once per board object: a fragment
    drawn from another board (a variant edited in the database, a release with a corrected board) is
    never taken for this one."""
    found = _BOARD_PRINTS.get(board)
    if found is None:
        found = _BOARD_PRINTS[board] = _digest(
            board.name, sorted(board.spaces.items()), sorted(board.countries.items()), board.turn_order,
            board.rounds, sorted(sorted(e) for e in board.edges), sorted(board.straits.items()))
    return found


def _cards_context(game, table, board, actor, mine, lang, forms, initial) -> dict:
    """Cards on the table: public statuses and response counts; this seat's private notes only."""
    active = table.active(board)
    notes, hand_notes = [], {}
    if actor.seat is not None:
        found = rows.fetch(PrivateNote, "game_id = %s AND seat_id = %s", [game.pk, actor.seat.pk], "id")
        notes = face_down_notes(game, rows=found)  # one query for both kinds, never cached
        hand_notes = {n.country: n.text for n in found if n.kind == PrivateNote.HAND}
    unseen = discarded_unseen(actor.seat, notes, table, lang)
    asked = {u["country"] for u in unseen}  # until the owner says which went, no reveal from that list
    private_responses = [{"country": n.country, "card_id": n.card_id, "name": card_name(CATALOGUE.get(n.card_id), lang),
                          "asked": n.country in asked} for n in notes if CATALOGUE.get(n.card_id)]
    def usable():  # names for the use-card datalist: own statuses in play and own response cards
        names = []
        for cid in mine:
            k = table.cards_of(cid)
            names += [card_name(CATALOGUE.get(x), lang) for x in k.statuses if CATALOGUE.get(x)]
            names += [card_name(c, lang) for c in CATALOGUE.by_country(cid) if c.type == "response"]
        return sorted(set(names))
    # the countries of this seat the response window waits for (card rules 6: only those asked; before: the team)
    waiting = set(waiting_for(board, table)) if table.options.at_least(6) else None
    my_team_countries = [c for c in mine if board.countries[c].team == table.window
                         and (waiting is None or c in waiting)] if table.window else []
    return {
        # what the cached fields of this seat's forms depend on (tracker.templatetags: {% cache %} keys)
        "window_key": ",".join(my_team_countries) or "-",
        "notes_key": hashlib.sha256(repr(sorted(hand_notes.items())).encode()).hexdigest(),
        # what a template shows only in some states is computed when (and if) it is shown
        "deck_cards": _once(lambda: [(card_name(c, lang), c.type) for c in CATALOGUE.by_country(active)]),
        "usable_cards": _once(usable),
        "private_responses": private_responses,
        "discarded_unseen": unseen,
        "hand_notes": hand_notes,
        "played_card": _once(lambda: _played_card_of_version(game, table, board, lang)),  # the active phone's
        "bar_news": _once(lambda: _answer_news(game, lang)),
        "window_mine": bool(my_team_countries),
        "use_form": _once(lambda: forms.get("use") or UseCardForm(
            initial={**initial, "country": (mine or [None])[0]}, countries=mine or board.turn_order)),
        "pass_form": _once(lambda: PassForm(initial={**initial, "country": (my_team_countries or [None])[0]},
                                            countries=my_team_countries or board.turn_order)),
        "reallocate_form": ReallocateForm(initial=initial) if table.options.reallocate else None,
        "note_form": _once(lambda: NoteForm(countries=mine or board.turn_order,
                                            initial={"country": (mine or [None])[0],
                                                     "text": hand_notes.get((mine or [None])[0], "")})),
    }


def bar_usable(board, table, mine, own, private, lang) -> list[dict]:
    """This seat's statuses face up and face-down responses that the engine says may be used right now
    (``usable_now``), in turn order, each with what it will do. A response is offered only on its owner's seat and
    only where the owner's private list holds that card face down (or holds fewer names than the table holds
    face-down cards: a card put face down without its name may be any of them)."""
    out = []
    for cid in (c for c in board.turn_order if c in mine):
        named = [r for r in private if r["country"] == cid]
        unnamed = table.cards_of(cid).responses > len(named)
        for u in usable_now(board, table, cid):
            if u.kind == "response" and (cid not in own or not unnamed and not any(
                    r["card_id"] == u.card_id and not r["asked"] for r in named)):
                continue
            card = CATALOGUE.get(u.card_id)
            out.append({"country": cid, "card_id": u.card_id, "kind": u.kind, "name": card_name(card, lang),
                        "text": u.text.text(lang)})
    return out


def _window_pass(board, table, mine, active, initial) -> dict:
    """In the active seat's own window: «Пас» only for its other countries the window asks (the active country's
    decline is «Закончить ход»)."""
    waiting = [c for c in waiting_for(board, table) if c in mine and c != active]
    return {"window_key": ",".join(waiting) or "-", "window_mine": bool(waiting), "window_active": True,
            "pass_form": _once(lambda: PassForm(initial={**initial, "country": (waiting or [None])[0]},
                                                countries=waiting or board.turn_order))}


def _prepare_context(board, table, mine, lang, own) -> list[dict]:
    """«Подготовка к войне»: for each of this seat's countries that may still take its card from the deck,
    the statuses the engine allows (one tap each) and, if a response is allowed, the country's responses:
    the owner picks which, and only its own phone keeps the name."""
    rows = []
    for cid in (c for c in board.turn_order if c in mine):  # in the order the countries play
        choices = prepare_choices(board, table, cid)
        if not choices:
            continue
        statuses = [(c["card_id"], card_name(CATALOGUE.get(c["card_id"]), lang)) for c in choices
                    if c.get("card_type") == "status" and CATALOGUE.get(c.get("card_id") or "")]
        face_down = next((c for c in choices if c.get("card_type") == "response"), None)
        ids = face_down.get("response_ids") if face_down else None
        responses = [(card.id, card_name(card, lang)) for card in CATALOGUE.by_country(cid)
                     if card.type == "response" and (ids is None or card.id in ids)] \
            if face_down is not None and cid in own else []  # the owner's act only
        rows.append({"country": cid, "name": board.countries[cid].en if lang == "en" else board.countries[cid].ru,
                     "statuses": statuses, "responses": responses})
    return rows


def _marks(note) -> dict[str, int]:
    """A face-down response note's marks in its text: ``played:S`` (the move that put it face down),
    ``gone:S`` (the move that discarded it unseen, e.g. Magic) and ``dropped:S`` (a move that discarded one
    of the country's face-down cards unseen while its owner has not yet said which)."""
    marks = {}
    for token in (note.text or "").split():
        key, _sep, value = token.partition(":")
        if key in ("played", "gone", "dropped") and value.isdigit():
            marks[key] = int(value)
    return marks


def face_down_notes(game, seat=None, country=None, rows=None) -> list:
    """The seat's (or country's) named face-down responses as the moves in effect leave them: a note whose
    face-down play was undone is gone, one revealed or discarded by an undone move is face down again.
    ``rows``: the seat's notes already read (any kind), to spare the query."""
    if rows is None:
        qs = PrivateNote.objects.filter(game=game, kind=PrivateNote.RESPONSE)
        if seat is not None:
            qs = qs.filter(seat=seat)
        if country is not None:
            qs = qs.filter(country=country)
        rows = qs.order_by("id")
    notes = [n for n in rows if n.kind == PrivateNote.RESPONSE and (country is None or n.country == country)]
    if not notes:
        return []
    done = set(game.done_moves or [])
    revealed = None
    out = []
    for n in notes:
        m = _marks(n)
        if "played" in m and m["played"] not in done:
            continue  # its face-down play was undone (a redo brings it back)
        if "gone" in m:
            if m["gone"] not in done:
                out.append(n)  # discarded unseen by a move since undone: face down again
            continue
        if n.active:
            out.append(n)
            continue
        if revealed is None:  # a reveal undone: that response is face down again
            revealed = Counter((e.command.get("country"), e.command.get("card_id"))
                               for e in Event.objects.filter(game=game, kind=Event.MOVE, command__type="use_card")
                               if e.seq in done)
        if revealed[(n.country, n.card_id)]:
            revealed[(n.country, n.card_id)] -= 1
        else:
            out.append(n)
    return out


def _mark(note, active: bool = False, **marks) -> None:
    """Set (or, with None, drop) marks on a note; by default it becomes inactive (no longer face down)."""
    m = {**_marks(note), **marks}
    note.text = " ".join(f"{k}:{v}" for k, v in sorted(m.items()) if v is not None)
    note.active = active
    note.save(update_fields=["text", "active"])


def discarded_unseen(seat, notes, table, lang) -> list[dict]:
    """This seat's countries with more named face-down responses (``notes``: ``face_down_notes`` of the seat)
    than the table holds (a card discarded one of them unseen): the owner says which one went, one tap each."""
    if seat is None:
        return []
    out = []
    for cid in seat.countries:
        named = [n for n in notes if n.country == cid]
        if len(named) <= table.cards_of(cid).responses:
            continue
        ids = list(dict.fromkeys(n.card_id for n in named))
        out.append({"country": cid, "choices": [(i, card_name(CATALOGUE.get(i), lang)) for i in ids if CATALOGUE.get(i)]})
    return out


def settle_unseen(game, seat, country, card_id, table) -> bool:
    """Mark one of the country's named face-down responses as the one discarded unseen (the owner's answer
    to ``discarded_unseen``), tied to the move that discarded it, so an undo of that move brings it back.
    False: nothing to settle."""
    named = face_down_notes(game, seat=seat, country=country)
    if len(named) <= table.cards_of(country).responses:
        return False
    note = next((n for n in named if n.card_id == card_id), None)
    if note is None:
        return False
    done = set(game.done_moves or [])
    drops = [m["dropped"] for m in map(_marks, named) if m.get("dropped") in done]
    # the move that discarded it; a note from before these marks: the last move in effect
    _mark(note, gone=max(drops) if drops else max(done, default=0), dropped=None)
    return True


def _follow_unseen_discards(game, seq: int) -> None:
    """After a move: a country whose named face-down responses now outnumber its face-down cards lost some
    unseen (Blue Division, Magic, a card played by another card's text…). Where the count alone says which
    (none left, or every name alike) the notes go, tied to this move; otherwise they are marked as awaiting
    their owner's answer (``discarded_unseen``), tied to this move as well."""
    found = rows.fetch(PrivateNote, "game_id = %s AND kind = %s", [game.pk, PrivateNote.RESPONSE], "id")
    if not found:
        return  # the usual case: nothing face down by name, one query and done
    game.refresh_from_db(fields=["done_moves"])  # the view's copy predates this move
    notes = face_down_notes(game, rows=found)
    counts = dict(game.country_cards.values_list("country", "responses"))
    done = set(game.done_moves or [])
    for country in dict.fromkeys(n.country for n in notes):
        named = [n for n in notes if n.country == country]
        left = counts.get(country, 0)
        if len(named) <= left:
            continue
        if left == 0 or len({n.card_id for n in named}) == 1:
            for note in named[:len(named) - left]:  # the count alone says which went
                _mark(note, gone=seq)
        elif not any(_marks(n).get("dropped") in done for n in named):
            for note in named:  # still face down until the owner says which one went
                _mark(note, active=note.active, dropped=seq)


def _played_card_of_version(game, table, board, lang) -> dict | None:
    """``_played_card`` once per game version and language (a card played face up, as the public log shows it:
    a face-down play's card never enters the log), for the refreshes of the active country's phones."""
    return cache.get_or_set(_version_key(game, "played", lang),
                            lambda: (_played_card(table, board, lambda: _turn_moves(game, table, board), lang),),
                            PUBLIC_SECONDS)[0]  # (None is a value)


def _answer_news(game, lang) -> str:
    """What the newest move did when it answered a response window (a response used, or a pass): the bar says it on
    every phone but the one that answered. Public (the log's line), so read once per game version and language."""
    return cache.get_or_set(_version_key(game, "news", lang), lambda: _news_of(game, lang), PUBLIC_SECONDS)


def _news_of(game, lang) -> str:
    newest = rows.fetch(Event, "game_id = %s AND seq = %s", [game.pk, game.version])  # the version's own event
    e = newest[0] if newest else None
    if e is None or e.kind != Event.MOVE or e.command.get("type") not in ("use_card", "pass"):
        return ""
    return e.summary_en if lang == "en" else e.summary_ru


def _turn_moves(game, table, board) -> list:
    """The active country's moves of this round, oldest first (what ``_played_card`` looks through)."""
    return rows.fetch(Event, "game_id = %s AND kind = %s AND round = %s AND country = %s",
                      [game.pk, Event.MOVE, table.round, table.active(board)], "seq")


def _played_card(table, board, events, lang) -> dict | None:
    """The card the active country played this turn, with its effects as steps."""
    if not table.played:
        return None
    active = table.active(board)
    for e in reversed(events()):
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
    steps = [st for st in table.pending if st["kind"] == "air_retreat"]
    if steps:  # card rules 6: the stranded air force's step offers its moves (and its air defence) in the bar
        p = replace(p, stranded=(), defence=p.defence and not any(st.get("defence") for st in steps))
    hit = table.attack or {}
    own_air = [p.space for p in table.position.pieces if p.kind == "air" and p.country == table.active(board)]
    return {"air": {
        "stranded": [{"country": s.country, "space": s.space, "name": name(s.space),
                      "options": [(o, name(o)) for o in s.retreat_to]} for s in p.stranded],
        "defence": p.defence, "strike_from": [(s, name(s)) for s in p.strike_from],
        "attack": hit, "attack_space": name(hit["space"]) if hit else "",
        "own_air": [(s, name(s)) for s in own_air],
        "form": AirForm(initial=initial, board=board, countries=mine or board.turn_order)}}


PIECE_WORDS = {"army": lambda: _("an army"), "navy": lambda: _("a navy"), "air": lambda: _("an air force")}


def _guided_steps(card, board, lang) -> list[dict]:
    """The card's effects as steps: what to enter next, with the rule each one follows."""
    steps = []
    for e in card.effects:
        spaces = e.get("spaces") or ((e.get("space"),) if e.get("space") else ())
        names = ", ".join((board.spaces[x].en if lang == "en" else board.spaces[x].ru)
                          for x in spaces if x in board.spaces)
        piece = PIECE_WORDS.get(e.get("piece") or "", lambda: _("a piece"))()
        text = {
            "build": _("Build %(piece)s (needs supply)") % {"piece": piece},
            "recruit": _("Recruit %(piece)s (ignores supply)") % {"piece": piece},
            "battle": (_("Land battle: needs an adjacent supplied piece") if e.get("domain") == "land" else
                       _("Sea battle: needs an adjacent supplied piece") if e.get("domain") == "sea" else
                       _("Battle: needs an adjacent supplied piece")),
            "eliminate": _("Eliminate %(piece)s (no conditions)") % {"piece": piece},
            "discard_from_deck": _("A deck discards %(n)s card(s)") % {"n": e.get("count", "")},
            "vp_immediate": _("Victory points at once (added automatically)"),
            "manual": _("Apply by hand as the card says"),
        }.get(e.kind, _("Apply by hand as the card says"))  # never the effect's internal name
        if names:
            text += f" — {names}"
        steps.append({"kind": e.kind, "text": text})
    return steps


def _board_context(board, table, supply, lang) -> dict:  # supply: a callable, computed on first use
    ground = replace(table.position, pieces=tuple(p for p in table.position.pieces if p.kind != "air"))
    air = [(p.country, p.space) for p in table.position.pieces if p.kind == "air"]
    # computed only when the template's cached map fragment is missing (a template calls callables); the map is
    # drawn by the tag {% qmg_board board_map %}
    return {"board_map": _once(lambda: BoardMap(board, ground, supply(), air=tuple(air), lang=lang)),
            "space_rows": _once(lambda: space_rows_html(space_rows(board, ground, supply(), lang=lang), lang))}


def space_rows_html(rows, lang) -> list[str]:
    """The map's list of spaces (``board_svg.space_rows``), each row by the partial ``qmg/_board.html#space-row``,
    kept by its content and the language (``tracker.core.fragments``)."""
    return fragments.rendered("qmg/_board.html#space-row", rows, lambda row: fragments.digest(lang, row), {})


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
         "air_strike": (None, AirForm), "bolster": (None, AirForm), "finish_turn": (None, FinishTurnForm),
         "card_step": (None, CardStepForm), "skip": (None, PassForm), "prepare": (None, PrepareForm)}
COMMAND_FIELDS = ("card_type", "card_id", "space", "from_space", "target_country", "kind", "n", "country", "action",
                  "name")


def parse(request, game, actor, current) -> Parsed:
    kind = request.POST.get("command")
    if kind not in FORMS:
        raise BadInput(_("Unknown command."))
    key, form_class = FORMS[kind]
    board = selectors.board_of(game)
    kwargs = {"board": board} if form_class in (PlayCardForm, StepForm, AirForm) else {}
    if form_class in (StepForm, UseCardForm, PassForm, AirForm, PrepareForm):
        kwargs["countries"] = countries_of(actor, board)
    if form_class is PlayCardForm and request.POST.get("card", "").strip():
        # the active country, without loading the table: the form asks it only to find a card by name
        kwargs["country"] = board.turn_order[game.qmg.turn]
    form = form_class(request.POST, **kwargs)
    keep = {key: form} if key else {}
    if not form.is_valid():
        raise BadInput("; ".join(f"{e}" for errs in form.errors.values() for e in errs), keep)
    data = form.cleaned_data
    if kind == "finish_turn":
        return _finish_turn(game, data, current)
    command = {"type": "step" if kind == "card_step" else kind}
    for name in COMMAND_FIELDS:
        value = data.get(name)
        if value not in (None, ""):
            command[name] = value
    secret = None
    if is_face_down_play(command) and command.get("card_id"):
        secret = command.pop("card_id")  # a face-down response: its identity never enters the public log
        card = CATALOGUE.get(secret)
        if kind == "card_step" and (card is None or card.type != "response" or card.country != command["country"]):
            raise BadInput(_("Unknown card."), keep)
    if kind == "use_card":
        _check_face_down(game, actor, command, current, keep)
    if kind == "play_card" and data.get("card_id") and data.get("confirm") != data["card_id"]:
        _warn_targetless(board, current(), data["card_id"], command, form)
    return Parsed(command, data["version"], secret=secret, keep=keep)


def _warn_targetless(board, table, card_id, command, form) -> None:
    """An event or Economic Warfare card some of whose steps would have no legal target now (the engine's
    ``steps_without_target``): before it is played, the page names each such step and asks once more — the
    card may still be played for nothing (one more tap: «Сыграть всё равно»). Only a play the engine would
    accept is warned of; a refused one gets its refusal."""
    card = CATALOGUE.get(card_id)
    if card is None or card.type not in ("event", "economic_warfare") or command.get("card_id") != card_id:
        return
    country = command.get("country") or table.active(board)
    warnings = steps_without_target(board, table, card.id, country)
    if not warnings or not apply_command(board, table, {**command, "country": country}).ok:
        return
    lang = _lang()
    form.targetless = [(w.short or w.text).text(lang) for w in warnings]
    raise BadInput(_("«%(card)s» is not played yet: check its steps below.") % {"card": card_name(card, lang)},
                   {"play": form}, status=409)


def _check_face_down(game, actor, command, current, keep) -> None:
    """A reveal by the owner's own seat: the response must be among the owner's face-down cards (the
    owner's private list, the same engine check as ``qmg_play``). Another seat or the host is refused by
    the core before anything is looked up (``QmgAdapter.secret``), so nothing leaks here."""
    country = command.get("country")
    if actor.seat is None or country not in actor.seat.countries:
        return
    notes = face_down_notes(game, seat=actor.seat, country=country)
    reason = face_down_refusal(current(), country, command.get("card_id"), [n.card_id for n in notes if n.card_id])
    if reason is not None:
        raise BadInput(reason.text(_lang()), keep, status=422)


def _finish_turn(game, data, current) -> Parsed:
    """«Закончить ход»: the engine plans the steps that need no decision; the core submits them one
    after another (each its own event, each undoable)."""
    plan = finish_turn(selectors.board_of(game), current(), data.get("n") or 0)
    if not plan.commands:
        raise BadInput(plan.stop.text(_lang()) if plan.stop else _("Nothing to finish."), status=422)
    return Parsed(plan.commands[0], data["version"], then=plan.commands[1:], stop=plan.stop)


def after_submit(game, actor, parsed: Parsed, result) -> None:
    """Keep a face-down response's identity for its owner (tied to the move that put it face down, so an undo
    takes it back and a redo returns it); a revealed one stops being private; one discarded unseen (Blue
    Division, Magic) leaves the list when its name follows from the count, else its owner is asked which."""
    event = result.event
    command = event.command
    country = command.get("country") or event.country
    if parsed.secret or command["type"] == "use_card":
        owner = actor.seat if actor.seat and country in actor.seat.countries else \
            next((s for s in game.seats.all() if country in s.countries), None)
        if owner is not None and parsed.secret:
            PrivateNote.objects.create(game=game, seat=owner, country=country, kind=PrivateNote.RESPONSE,
                                       card_id=parsed.secret, text=f"played:{event.seq}")
        elif owner is not None:
            note = next((n for n in face_down_notes(game, seat=owner, country=country)
                         if n.card_id == command.get("card_id")), None)
            if note:
                _mark(note, gone=None)  # revealed: no longer face down (an undo of the reveal shows it again)
    _follow_unseen_discards(game, event.seq)

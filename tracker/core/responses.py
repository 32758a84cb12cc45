"""The one way every game answers a browser: the page shell with the game's partial, a message,
and the real status code.

htmx requests get the refreshed partial (with the message where the eye is); without JavaScript a
success redirects (post/redirect/get) and a failure shows the whole page with its status code.
"""
from __future__ import annotations

import functools

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext

from gameplay.common import text

from tracker.language import lang as current_lang

from . import log, statecache
from .registry import adapter_of
from .selectors import history, recent_events, undo_sealed

LEVELS = {messages.SUCCESS: "success", messages.WARNING: "warning", messages.ERROR: "error", messages.INFO: "info"}


def level_of(result: log.Result) -> int:
    if result.applied:
        return messages.SUCCESS
    return messages.WARNING if result.status == log.STALE else messages.ERROR


def shell_context(game, actor) -> dict:
    """What the shell around every game shows: poll, history, undo/redo and the links."""
    lang = current_lang()
    you = ""
    if actor.seat is not None:
        adapter = adapter_of(game)
        you = ", ".join(adapter.role_name(game, r, lang) for r in actor.seat.countries)
    events = functools.cache(lambda: recent_events(game))  # read once, if this version's log or undo seal is not kept
    return {"game": game, "actor": actor, "lang": lang, "version": game.version, "you": you, "events": events,
            "history": lambda: history(game, events()),  # a template calls it
            "can_write": actor.can_write, "done_moves": bool(game.done_moves), "undone_moves": bool(game.undone_moves),
            # addresses of the forms, made when (and if) the page shows one
            "command_url": functools.cache(lambda: reverse("command", args=[game.pk])),
            "undo_url": functools.cache(lambda: reverse("undo", args=[game.pk])),
            "redo_url": functools.cache(lambda: reverse("redo", args=[game.pk]))}


def _context(request, game, actor, adapter, state, keep=None, flash=None, extra=None) -> dict:
    context = shell_context(game, actor)
    context["undo_sealed"] = text(undo_sealed(game, state, context["events"]), context["lang"])
    context.update(adapter.context(request, game, actor, state, keep))
    context.update(extra or {})
    context["flash"] = flash
    context["partial"] = adapter.partial_template
    return context


def render_game(request, game, actor, *, status: int = 200, keep=None, flash: dict | None = None,
                extra: dict | None = None):
    """The game page, or for htmx its ``#game`` section (the game's partial template), for this viewer. What
    every viewer of a version sees alike comes from the render cache (the game's public parts, the log); this
    viewer's own parts are rendered for this request."""
    adapter = adapter_of(game)
    state = statecache.load(game, adapter)  # the write that made this version already kept its state
    context = _context(request, game, actor, adapter, state, keep, flash, extra)
    if not request.htmx and request.session.get("last_game") != game.pk:
        request.session["last_game"] = game.pk  # the rule pages link back to it (tracker.qmg.lookup)
    template = adapter.partial_template if request.htmx else "core/page.html"
    return render(request, template, context, status=status)


def answer(request, game, actor, level: int, text: str, *, notes=(), status: int = 200, keep=None,
           extra: dict | None = None, redirect_ok: bool = True, steps=(), fresh=None, why=()):
    """The answer to a posted form, whatever the game (``redirect_ok=False``: a result to show on
    the page itself, such as the battle calculator's, never a redirect). ``why``: what only explains why an
    accepted move was allowed, shown folded (on demand)."""
    if not request.htmx and status < 300 and redirect_ok:
        if text:
            messages.add_message(request, level, text)
        for line in [*steps, *notes, *why]:
            messages.info(request, line)
        return redirect(game)
    if fresh is not None:  # the game as the write path left it (``Event.game``): no need to read it again
        game = fresh
    else:
        game.refresh_from_db()
    return render_game(request, game, actor, status=status, keep=keep, extra=extra,
                       flash={"level": LEVELS.get(level, "info"), "text": text, "notes": list(notes),
                              "steps": list(steps), "why": list(why)})


def answer_result(request, game, actor, result: log.Result, keep=None):
    """The answer to a move the core wrote (or refused): message in the viewer's language."""
    lang = current_lang()
    explains = adapter_of(game).explains if result.applied else (lambda note: False)
    return answer(request, game, actor, level_of(result), result.reason.text(lang) if result.reason else "",
                  notes=[n.text(lang) for n in result.notes if not explains(n)],
                  why=[n.text(lang) for n in result.notes if explains(n)], status=result.http_status,
                  keep=None if result.applied or result.status == log.STALE else keep, fresh=_written(result))


def _written(*results: log.Result):
    """The game object the write path saved with the last applied of ``results`` (its version and
    projections as written), or None."""
    applied = [r for r in results if r.applied and r.event is not None]
    return applied[-1].event.game if applied else None


def answer_results(request, game, actor, results: list[log.Result], stop=None):
    """The answer to one tap that made several moves (QMG's «Закончить ход»): what each step did, in
    order, then why the run stopped — a refused or stale last step, or a step that needs the player."""
    lang = current_lang()
    fresh = _written(*results)
    done = [r for r in results if r.applied]
    last = results[-1]
    steps = []
    for r in done:
        steps.append(r.reason.text(lang) if r.reason else "")
        steps += [n.text(lang) for n in r.notes]
    if last.applied:
        text = ngettext("Done in one tap: %(n)s step.", "Done in one tap: %(n)s steps.", len(done)) % {"n": len(done)}
        notes = [stop.text(lang)] if stop is not None else []
        return answer(request, game, actor, messages.SUCCESS, text, steps=steps, notes=notes, fresh=fresh)
    reason = last.reason.text(lang) if last.reason else ""
    notes = [n.text(lang) for n in last.notes]
    if done:
        text = _("%(n)s step(s) done, then stopped: %(reason)s") % {"n": len(done), "reason": reason}
        return answer(request, game, actor, level_of(last), text, steps=steps, notes=notes, fresh=fresh)
    return answer(request, game, actor, level_of(last), reason, notes=notes, status=last.http_status)

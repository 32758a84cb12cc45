"""The one way every game answers a browser: the page shell with the game's partial, a message,
and the real status code.

htmx requests get the refreshed partial (with the message where the eye is); without JavaScript a
success redirects (post/redirect/get) and a failure shows the whole page with its status code.
"""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse

from tracker.language import lang as current_lang

from . import log
from .registry import adapter_of
from .selectors import history, recent_events

LEVELS = {messages.SUCCESS: "success", messages.WARNING: "warning", messages.ERROR: "error", messages.INFO: "info"}


def level_of(result: log.Result) -> int:
    if result.applied:
        return messages.SUCCESS
    return messages.WARNING if result.status == log.STALE else messages.ERROR


def shell_context(game, actor) -> dict:
    """What the shell around every game shows: poll, history, undo/redo and the links."""
    return {"game": game, "actor": actor, "lang": current_lang(), "version": game.version,
            "history": history(game, recent_events(game)),
            "can_write": actor.can_write, "done_moves": bool(game.done_moves), "undone_moves": bool(game.undone_moves),
            "command_url": reverse("command", args=[game.pk]),
            "undo_url": reverse("undo", args=[game.pk]), "redo_url": reverse("redo", args=[game.pk])}


def render_game(request, game, actor, *, status: int = 200, keep=None, flash: dict | None = None,
                extra: dict | None = None):
    """The game page (or, for htmx, its partial) for this viewer."""
    adapter = adapter_of(game)
    context = shell_context(game, actor)
    context.update(adapter.context(request, game, actor, adapter.load(game), keep))
    context.update(extra or {})
    context["flash"] = flash
    context["partial"] = adapter.partial_template
    template = adapter.partial_template if request.htmx else "core/page.html"
    return render(request, template, context, status=status)


def answer(request, game, actor, level: int, text: str, *, notes=(), status: int = 200, keep=None,
           extra: dict | None = None, redirect_ok: bool = True):
    """The answer to a posted form, whatever the game (``redirect_ok=False``: a result to show on
    the page itself, such as the battle calculator's, never a redirect)."""
    if not request.htmx and status < 300 and redirect_ok:
        if text:
            messages.add_message(request, level, text)
        for note in notes:
            messages.info(request, note)
        return redirect(game)
    game.refresh_from_db()
    return render_game(request, game, actor, status=status, keep=keep, extra=extra,
                       flash={"level": LEVELS.get(level, "info"), "text": text, "notes": list(notes)})


def answer_result(request, game, actor, result: log.Result, keep=None):
    """The answer to a move the core wrote (or refused): message in the viewer's language."""
    lang = current_lang()
    return answer(request, game, actor, level_of(result), result.reason.text(lang) if result.reason else "",
                  notes=[n.text(lang) for n in result.notes], status=result.http_status,
                  keep=None if result.applied or result.status == log.STALE else keep)

"""The one way every game answers a browser: the page shell with the game's partial, a message,
and the real status code.

htmx requests get the refreshed partial (with the message where the eye is); without JavaScript a
success redirects (post/redirect/get) and a failure shows the whole page with its status code.
"""
from __future__ import annotations

import hashlib
import re

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext as _, ngettext

from gameplay.common import text

from tracker.language import lang as current_lang

from . import log, statecache
from .memo import Memo
from .registry import adapter_of
from .selectors import history, recent_events, undo_sealed

# What ``{% csrf_token %}`` (and ``{{ csrf_token }}``) print while a game page is rendered: the answer then carries
# this request's own token in its place. A part kept in the render cache (undo/redo, a seat's note form) so holds
# the mark, never a token, and serves every session. The mark is printed escaped ("&lt;…&gt;"), which no escaped
# text of a player can print.
CSRF_MARK = "<csrf-token>"
CSRF_MARK_PRINTED = b"&lt;csrf-token&gt;"

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
    read = []

    def events():  # read once, if this version's log or undo seal is not kept
        if not read:
            read.append(recent_events(game))
        return read[0]

    return {"game": game, "actor": actor, "lang": lang, "version": str(game.version), "you": you, "events": events,
            "history": lambda: history(game, events()),  # a template calls it
            "can_write": actor.can_write, "done_moves": bool(game.done_moves), "undone_moves": bool(game.undone_moves),
            # addresses of the forms, made when (and if) the page shows one
            "command_url": lambda: address("command", game.pk), "undo_url": lambda: address("undo", game.pk),
            "redo_url": lambda: address("redo", game.pk)}


_ADDRESSES = Memo(4096)


def address(name: str, pk: int) -> str:
    """``reverse(name, args=[pk])``, once per process for each game and script prefix (a game's addresses
    never change; tracker.core.memo)."""
    key = (get_script_prefix(), name, pk)
    found = _ADDRESSES.get(key)
    if found is None:
        found = _ADDRESSES.keep(key, reverse(name, args=[pk]))
    return found


def _context(request, game, actor, adapter, state, keep=None, flash=None, extra=None) -> dict:
    context = shell_context(game, actor)
    context["undo_sealed"] = text(undo_sealed(game, state, context["events"]), context["lang"])
    context.update(adapter.context(request, game, actor, state, keep))
    context.update(extra or {})
    context["flash"] = flash
    context["partial"] = adapter.partial_template
    context["csrf_token"] = CSRF_MARK  # the request's own token goes in at the end (``render_game``)
    return context


def render_game(request, game, actor, *, status: int = 200, keep=None, flash: dict | None = None,
                extra: dict | None = None):
    """The game page, or for htmx its ``#game`` section (the game's partial template), for this viewer. What
    every viewer of a version sees alike comes from the render cache (the game's public parts, the log, and for
    htmx the whole section but this viewer's own parts: ``_skeleton``); this viewer's own parts are rendered for
    this request."""
    adapter = adapter_of(game)
    state = statecache.load(game, adapter)  # the write that made this version already kept its state
    context = _context(request, game, actor, adapter, state, keep, flash, extra)
    if request.htmx and adapter.slots and not extra:
        response = _in_skeleton(request, game, adapter, state, context, status)
        if response is not None:
            return response
    if not request.htmx and request.session.get("last_game") != game.pk:
        request.session["last_game"] = game.pk  # the rule pages link back to it (tracker.qmg.lookup)
    template = adapter.partial_template if request.htmx else "core/page.html"
    response = render(request, template, context, status=status)
    response.content = _with_token(request, response.content)
    return response


def _with_token(request, content: bytes) -> bytes:
    """The rendered page with the request's CSRF token where the mark is. (An htmx answer needs it too: its
    note form and the owner's unseen-discard form post without htmx.)"""
    if CSRF_MARK_PRINTED in content:
        content = content.replace(CSRF_MARK_PRINTED, get_token(request).encode())
    return content


SLOT = re.compile(r"<!--slot:([\w-]+)-->")
SLOT_END = "<!--slot-end-->"
SPECTATOR = log.Actor()


def _skeleton(request, game, adapter, state) -> tuple[str, ...]:
    """The game's htmx section of this version as every viewer sees it, with a place for each of a viewer's own
    parts, split there: (text, place name, text, …). Rendered once per game version and language from a
    spectator's context (no seat, no token: nothing of a viewer can enter it) and kept in the render cache; the
    key names the places, so a release with other places never takes it from a shared cache."""
    names = hashlib.blake2b(",".join(sorted(adapter.slots)).encode(), digest_size=4).hexdigest()
    key = f"skeleton:{game.kind}:{game.pk}:{game.spectator_token}:{game.version}:{current_lang()}:{names}"

    def rendered():
        context = _context(request, game, SPECTATOR, adapter, state)
        context["skeleton"] = True
        return tuple(SLOT.split(render_to_string(adapter.partial_template, context, request)))

    return cache.get_or_set(key, rendered, SKELETON_SECONDS)


SKELETON_SECONDS = 600


def _in_skeleton(request, game, adapter, state, context, status):
    """The htmx section for this viewer: the version's skeleton with this viewer's own parts (``adapter.slots``)
    rendered in one go into their places; None where the skeleton's places are not this release's."""
    parts = _skeleton(request, game, adapter, state)
    places = parts[1::2]
    if any(name not in adapter.slots for name in places):
        return None
    context["slots"] = [adapter.slots[name] for name in places]
    own = render_to_string("core/_slots.html", context, request).split(SLOT_END)
    html = "".join(own[i // 2] if i % 2 else part for i, part in enumerate(parts))
    return HttpResponse(_with_token(request, html.encode()), status=status)


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

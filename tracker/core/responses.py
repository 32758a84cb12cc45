"""The one way every game answers a browser: the page shell with the game's partial, a message,
and the real status code.

htmx requests get the refreshed partial (with the message where the eye is); without JavaScript a
success redirects (post/redirect/get) and a failure shows the whole page with its status code.
"""
from __future__ import annotations

import re
import zlib

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.context import make_context
from django.template.loader import get_template
from django.utils.translation import gettext as _, ngettext

from gameplay.common import text

from tracker.language import lang as current_lang

from tracker.templatetags.slots import SlotNode

from . import log, once, statecache
from .links import link, where
from .memo import Memo
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
    at = where()
    you = ""
    if actor.seat is not None:
        adapter = adapter_of(game)
        you = ", ".join(adapter.role_name(game, r, lang) for r in actor.seat.countries)
    return {"game": game, "actor": actor, "lang": lang, "version": game.version, "you": you,
            "history": lambda: history(game, recent_events(game)),  # read only when the cached log is stale
            "can_write": actor.can_write, "done_moves": bool(game.done_moves), "undone_moves": bool(game.undone_moves),
            "command_url": link("command", (game.pk,), at=at),
            "undo_url": link("undo", (game.pk,), at=at), "redo_url": link("redo", (game.pk,), at=at)}


def _context(request, game, actor, adapter, state, keep=None, flash=None, extra=None) -> dict:
    context = shell_context(game, actor)
    context["undo_sealed"] = text(undo_sealed(game, state), context["lang"])
    context.update(adapter.context(request, game, actor, state, keep))
    context.update(extra or {})
    context["flash"] = flash
    context["partial"] = adapter.partial_template
    return context


def render_game(request, game, actor, *, status: int = 200, keep=None, flash: dict | None = None,
                extra: dict | None = None):
    """The game page (or, for htmx, its partial) for this viewer."""
    adapter = adapter_of(game)
    state = statecache.load(game, adapter)  # the write that made this version already kept its state
    if request.htmx and adapter.render_once and not extra:
        return _render_once(request, game, actor, adapter, state, status, keep, flash)
    context = _context(request, game, actor, adapter, state, keep, flash, extra)
    if not request.htmx and request.session.get("last_game") != game.pk:
        request.session["last_game"] = game.pk  # the rule pages link back to it (tracker.qmg.lookup)
    template = adapter.partial_template if request.htmx else "core/page.html"
    return render(request, template, context, status=status)


# ------------------------------------------------------------------------------------------
# Render once per version: the skeleton every viewer shares, and this viewer's slots
# ------------------------------------------------------------------------------------------

SLOT_SPLIT = re.compile(r"<!--slot:(\w+)-->")
SPECTATOR = log.Actor()


def _render_once(request, game, actor, adapter, state, status, keep, flash):
    """The partial as the skeleton of this game version (rendered for a spectator once per version and
    language, from the render cache) with this viewer's slots rendered into it
    (``tracker.templatetags.slots``). Nothing private can enter the skeleton: it is rendered from a
    spectator's context, and every block that depends on the viewer is a slot."""
    template = get_template(adapter.partial_template)
    slots = _slots(template, adapter)
    parts = _skeleton(request, game, adapter, template, state, slots)
    if any(name not in slots for name in parts[1::2]):  # a skeleton kept by another version of the app (shared cache)
        context = _context(request, game, actor, adapter, state, keep, flash)
        return render(request, adapter.partial_template, context, status=status)
    values = _context(request, game, actor, adapter, state, keep, flash)
    encoded = _encoded(parts)
    if all(name in adapter.slots for name in parts[1::2]):
        # every block of this viewer is built in Python (GameAdapter.slots): it reads the context as a dict, and
        # needs no template's context processors (of theirs only the request, given here)
        values["request"] = request
        out = [slots[parts[i]](values).encode() if i % 2 else part for i, part in enumerate(encoded)]
        return HttpResponse(b"".join(out), status=status)
    context = make_context(values, request)
    out = []
    with context.bind_template(template.template):
        for i, part in enumerate(encoded):
            out.append(slots[parts[i]](context).encode() if i % 2 else part)
    return HttpResponse(b"".join(out), status=status)


_ENCODED = Memo(64)  # per process: the text parts of the newest skeletons as UTF-8, by the skeleton itself


def _encoded(parts: tuple[str, ...]) -> tuple:
    """The skeleton's text parts as the response's bytes (UTF-8, ``DEFAULT_CHARSET``): encoded once per
    skeleton and process, not once per phone (the map makes a skeleton ~100 KB). Slot names stay as they are."""
    found = _ENCODED.get(parts)
    if found is None:
        found = _ENCODED.keep(parts, tuple(p if i % 2 else p.encode() for i, p in enumerate(parts)))
    return found


def _skeleton(request, game, adapter, template, state, slots) -> tuple[str, ...]:
    """The skeleton split at its slots: [text, slot name, text, …]. Its key carries this release's slot names:
    a release with other slots (e.g. a block split into a slot of its own) never takes another's skeleton
    from a shared cache, where that block would be missing or doubled."""
    names = zlib.crc32(",".join(sorted(slots)).encode())
    key = f"skeleton:{game.kind}:{game.pk}:{game.spectator_token}:{game.version}:{current_lang()}:{names:x}"

    def render():
        context = adapter.skeleton_context(game, state)
        if context is None:
            context = _context(request, game, SPECTATOR, adapter, state)
        context["skeleton"] = True
        html = adapter.skeleton_html(context)
        if html is None:
            html = template.render(context)
        return tuple(SLOT_SPLIT.split(html))  # no request: no CSRF token can enter it

    return once.cached(key, render, 600)  # the mover's answer and the refreshes it set off: rendered once


_SLOTS: dict = {}


def _slots(template, adapter) -> dict:
    """How each slot of a partial (and of the shell it extends) is rendered for a viewer, by name: a template's
    ``{% slot %}`` renders its content, a block of ``adapter.slots`` is built in Python (collected once per template)."""
    engine_template = template.template
    found = _SLOTS.get(id(engine_template))
    if found is None or found[0] is not engine_template:
        nodes = list(engine_template.nodelist.get_nodes_by_type(SlotNode))
        nodes += get_template("core/_shell.html").template.nodelist.get_nodes_by_type(SlotNode)
        found = (engine_template, {**{n.name: n.nodelist.render for n in nodes}, **adapter.slots})
        _SLOTS[id(engine_template)] = found
    return found[1]


def answer(request, game, actor, level: int, text: str, *, notes=(), status: int = 200, keep=None,
           extra: dict | None = None, redirect_ok: bool = True, steps=(), fresh=None):
    """The answer to a posted form, whatever the game (``redirect_ok=False``: a result to show on
    the page itself, such as the battle calculator's, never a redirect)."""
    if not request.htmx and status < 300 and redirect_ok:
        if text:
            messages.add_message(request, level, text)
        for line in [*steps, *notes]:
            messages.info(request, line)
        return redirect(game)
    if fresh is not None:  # the game as the write path left it (``Event.game``): no need to read it again
        game = fresh
    else:
        game.refresh_from_db()
    return render_game(request, game, actor, status=status, keep=keep, extra=extra,
                       flash={"level": LEVELS.get(level, "info"), "text": text, "notes": list(notes),
                              "steps": list(steps)})


def answer_result(request, game, actor, result: log.Result, keep=None):
    """The answer to a move the core wrote (or refused): message in the viewer's language."""
    lang = current_lang()
    return answer(request, game, actor, level_of(result), result.reason.text(lang) if result.reason else "",
                  notes=[n.text(lang) for n in result.notes], status=result.http_status,
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

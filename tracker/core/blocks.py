"""The shell's blocks that belong to one viewer, built in Python: who you are with the answer to your last tap
(the slot "you" of ``core/_shell.html``) and the history with undo/redo (``{% history_block %}`` in each game's ``_game.html``).

Every phone builds these on every refresh and the mover on every move, for every game. Django's template
engine spent ~0.1 ms on each (a variable lookup walks the context's dicts, each tag is a node); built here
they cost a few string joins. A block reads the page's context (a template ``Context`` or the dict it is
made of, through ``get``), calls a value that is callable as a template does, and escapes every value it
inserts (``tracker.core.markup.esc``). The markup is the one the templates had.
"""
from __future__ import annotations

import secrets

from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from tracker.templatetags.logrows import rows_html
from tracker.templatetags.slots import MARK

from . import once
from .links import link
from .markup import esc

LOG_SECONDS = 600  # a version's history in the render cache (as the template's fragment was)


_TEXTS: dict[str, dict[str, str]] = {}  # per process: language -> message -> its translation


def texts():
    """``gettext`` in the active language, each message translated once per process and language. A block
    translates a few dozen messages; Django's ``gettext`` reads the active language from a context-local
    (~2 µs a call here), this a dict. Each block binds it as ``_``, so the messages stay marked for translation."""
    lang = get_language()
    table = _TEXTS.get(lang)
    if table is None:
        table = _TEXTS.setdefault(lang, {})

    def translate(message: str) -> str:
        found = table.get(message)
        if found is None:
            found = table[message] = gettext(message)
        return found

    return translate


def val(c, name: str, default=None):
    """A context value as a template reads it: a callable (a lazy value of the page) is called."""
    value = c.get(name, default)
    return value() if callable(value) and not getattr(value, "do_not_call_in_templates", False) else value


_CSRF_INDEX = {ch: i for i, ch in enumerate(CSRF_ALLOWED_CHARS)}
_CSRF_BYTE_LIMIT = 256 - 256 % len(CSRF_ALLOWED_CHARS)  # bytes at or above it would favour some characters: drawn again


def masked_token(request) -> str:
    """``django.middleware.csrf.get_token(request)``: the request's CSRF secret under a fresh random mask, the mask
    drawn with one call to the OS's random source (``secrets.token_bytes``, unbiased) instead of Django's one call
    per character (~0.1 ms of a phone's refresh here). The token is Django's own form: mask + secret shifted by
    the mask, which Django's middleware unmasks. A request without a secret yet gets Django's ``get_token``."""
    secret = request.META.get("CSRF_COOKIE")
    if not secret or len(secret) != CSRF_SECRET_LENGTH or any(ch not in _CSRF_INDEX for ch in secret):
        return get_token(request)
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True  # as get_token: the cookie's expiry is renewed
    chars, index, n = CSRF_ALLOWED_CHARS, _CSRF_INDEX, len(CSRF_ALLOWED_CHARS)
    mask = ""
    while len(mask) < len(secret):
        mask += "".join(chars[b % n] for b in secrets.token_bytes(2 * len(secret)) if b < _CSRF_BYTE_LIMIT)
    mask = mask[:len(secret)]
    return mask + "".join(chars[(index[x] + index[y]) % n] for x, y in zip(secret, mask))


def csrf_input(c) -> str:
    """``{% csrf_token %}``: the hidden field with the request's masked token, masked once per request (as
    the template context's lazy ``csrf_token`` does); nothing without a request (a page rendered without one)."""
    request = c.get("request")
    if request is None:
        return ""
    field = getattr(request, "_csrf_input", None)
    if field is None:
        field = f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(masked_token(request))}">'
        request._csrf_input = field
    return field


def post_form(url: str, inner: str, css: str = "", swap: str = "outerHTML") -> str:
    """A form of the game page that posts to ``url``: by htmx into ``#game``, as a plain form without JavaScript."""
    cls = f' class="{css}"' if css else ""
    u = esc(url)
    return (f'<form{cls} method="post" action="{u}" hx-post="{u}" hx-target="#game" hx-swap="{swap}">'
            f'{inner}</form>')


def shell(c, section_class: str, status: str, table: str) -> SafeString:
    """``core/_shell.html`` in Python, around a game's status bar and table (both already built, escaped): the
    live refresh, the poll, the pinned status bar with who you are (the slot "you": its marker in a skeleton)."""
    game = c.get("game")
    pk, version = game.pk, int(game.version)
    self_url = esc(c.get("self_url") or link("game", (pk,)))
    you = MARK.format("you") if c.get("skeleton") else whoami(c)
    return mark_safe(
        f'\n<section id="game" data-version="{version:d}" class="game game-{esc(game.kind)} {section_class}" '
        f'hx-get="{self_url}" hx-trigger="game-changed from:body, sse:version" hx-sync="this:queue last" '
        f'hx-swap="outerHTML show:none">\n'
        f'  <div class="poll" hx-get="{esc(link("poll", (pk,)))}?v={version:d}" hx-trigger="every 2s" '
        f'hx-swap="none"></div>\n  <div class="pinned">\n  {status}\n  {you}\n  </div>\n  {table}\n</section>\n')


def whoami(c) -> SafeString:
    """Who this viewer is, whether the move is theirs or whom the table waits for, and the answer to the tap."""
    _ = texts()
    you = val(c, "you")
    actor = c.get("actor")
    if you:
        who = _("You: %(roles)s") % {"roles": esc(you)}
    elif actor is not None and actor.is_host:
        who = _("You: the host")
    else:
        who = _("You: spectator")
    waiting = val(c, "waiting_for")
    if val(c, "my_turn") and val(c, "can_write"):
        who += f' · <strong class="your-move">{_("your move")}</strong>'
    elif waiting:
        who += f' · <span class="waiting-for">{_("waiting for %(who)s") % {"who": esc(waiting)}}</span>'
    roles = f' data-roles="{esc(" ".join(actor.seat.countries))}"' if actor is not None and actor.seat is not None else ""
    out = [f'<p class="whoami"{roles}>{who}</p>\n']
    flash = c.get("flash")
    if flash and flash.get("text"):
        out.append(f'  <div class="flash flash-{esc(flash["level"])}" role="status">\n'
                   f'    <button type="button" class="flash-close" aria-label="{esc(_("Close the message"))}">×</button>\n'
                   f'    <p>{esc(flash["text"])}</p>\n')
        if flash.get("steps"):
            steps = "".join(f"<li>{esc(s)}</li>" for s in flash["steps"])
            out.append(f'    <ol class="flash-steps">{steps}</ol>\n')
        out.extend(f'    <p class="note">{esc(n)}</p>' for n in flash.get("notes") or ())
        out.append("\n  </div>\n")
    return mark_safe("".join(out))


def history(c, round_label=None) -> SafeString:
    """The history card: undo and redo for a seat or the host, then the game's log (public: kept per game
    version and language in the render cache, the same for every viewer)."""
    _ = texts()
    out = ['<section class="card history">\n  <h3>', esc(_("History")), "</h3>\n"]
    if val(c, "can_write"):
        version = esc(val(c, "version"))
        sealed = val(c, "undo_sealed")
        done, undone = val(c, "done_moves"), val(c, "undone_moves")
        token = csrf_input(c)
        undo_off = " disabled" if not done or sealed else ""
        described = ' aria-describedby="undo-sealed"' if sealed else ""
        out.append('  <div class="undo-redo">\n    ')
        out.append(post_form(val(c, "undo_url"), f'\n      {token}<input type="hidden" name="version" value="{version}">\n'
                             f'      <button class="btn" type="submit"{undo_off}{described}>{esc(_("Undo"))}</button>\n    '))
        out.append("\n    ")
        out.append(post_form(val(c, "redo_url"), f'\n      {token}<input type="hidden" name="version" value="{version}">\n'
                             f'      <button class="btn" type="submit"{"" if undone else " disabled"}>{esc(_("Redo"))}</button>\n    '))
        out.append("\n  </div>\n")
        if sealed:
            out.append(f'  <p class="muted" id="undo-sealed">{esc(sealed)} <a href="{esc(link("rule", ("undo_seen",)))}">'
                       f'{esc(_("Why?"))}</a></p>\n')
    out.append("  ")
    out.append(game_log(c, round_label))
    out.append("\n</section>\n")
    return mark_safe("".join(out))


def game_log(c, round_label=None) -> str:
    """The log of this version, newest first, from the render cache (the same for every viewer of the version)."""
    _ = texts()
    game, lang = c.get("game"), c.get("lang")
    label = None if round_label is None else str(round_label)

    def make():
        return (f'<ol class="log" reversed tabindex="0" aria-label="{esc(_("History"))}">\n'
                f'{rows_html(val(c, "history") or (), lang, label)}\n</ol>\n')

    return once.cached(f"log:{game.pk}:{game.spectator_token}:{game.version}:{lang}", make, LOG_SECONDS)

"""The QMG page's blocks that belong to one viewer, built in Python: the slots of ``templates/qmg/_game.html``
(the decision bar, the turn's other actions, the own cards, the hand notes, the host's links).

A phone builds its slots on every refresh, the mover on every move; through Django's template engine the
decision bar alone cost ~0.3 ms a page (a dozen includes, a few hundred nodes each walking the context's
dicts). Each block reads the page's context (``tracker.qmg.page.context`` and the shell's, through ``get``),
calls a lazy value as a template does, and escapes every value it inserts (``tracker.core.markup.esc``).
Form fields that are the same for every version (a seat's select of spaces, the note form) are kept per
process by exactly what they show, as the template's ``{% cache %}`` blocks kept them.
"""
from __future__ import annotations

from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import ngettext, pgettext

from tracker.core import once
from tracker.core.blocks import csrf_input, history as history_block, post_form, shell, texts, val, whoami
from tracker.core.links import link
from tracker.core.markup import esc
from tracker.core.memo import Memo
from tracker.templatetags.fastforms import as_field, as_form, widget
from tracker.templatetags.slots import MARK

_KEPT = Memo(5_000)  # per process: form markup that is the same for every version, by what it shows


def _kept(key: tuple, make) -> str:
    found = _KEPT.get(key)
    if found is None:
        found = _KEPT.keep(key, make())
    return found


def _command(c, command: str, inner: str, css: str = "", swap: str = "outerHTML", version: bool = True) -> str:
    """A form posting one command of this page: CSRF token, the command, the version field, then ``inner``."""
    head = f'\n  {csrf_input(c)}<input type="hidden" name="command" value="{command}">'
    if version:
        head += val(c, "version_form")
    return post_form(val(c, "command_url"), head + inner, css, swap)


def _steps(c) -> dict:
    return val(c, "card_steps") or {}


# ------------------------------------------------------------------------------------------
# the decision bar
# ------------------------------------------------------------------------------------------

def bar(c) -> SafeString:
    """This phone's current decision and nothing else (issue 23; ``static/js/app.js`` pins it to the bottom)."""
    _ = texts()
    table = c.get("table")
    steps = _steps(c)
    can_write, my_turn = val(c, "can_write"), val(c, "my_turn")
    out = ['<section class="decision-bar" id="decision-bar" aria-labelledby="decision-bar-title">\n'
           f'  <h2 class="visually-hidden" id="decision-bar-title">{esc(_("Your decision"))}</h2>\n'
           '  <div class="bar-answer" aria-live="polite"></div>\n', _prompts(c)]
    if steps:
        out.append(_card_steps(c, steps))
    window_team = val(c, "window_team")
    if window_team and not table.finished:
        if can_write and val(c, "window_mine"):
            out.append(_window(c, window_team))
        elif can_write and my_turn:
            out.append(f'  <p class="waiting">{_("Waiting for the answer of the %(team)s.") % {"team": esc(window_team)}}</p>\n')
    if can_write and my_turn:
        if not steps.get("mine") or steps.get("held") or steps.get("optional") or not steps.get("choices"):
            out.append(_stepper(c, table, steps))
    elif not table.finished and not val(c, "window_mine"):
        out.append(f'  <p class="waiting">{_("Waiting for %(country)s.") % {"country": esc(val(c, "active_name"))}}</p>\n')
    out.append("</section>")
    return mark_safe("".join(out))


def _window(c, team) -> str:
    _ = texts()
    key = val(c, "window_key")
    if "," in key:
        choices = "".join(f'<option value="{esc(v)}">{esc(n)}</option>'
                          for v, n in val(c, "pass_form").fields["country"].widget.choices)
        country = (f'<label class="visually-hidden" for="bar-pass-country">{esc(_("Country"))}</label>\n'
                   f'          <select id="bar-pass-country" name="country">{choices}</select>')
    else:
        country = f'<input type="hidden" name="country" value="{esc(key)}">'
    reveal = "".join(_reveal(c, r) for r in val(c, "private_responses") or ())
    pass_form = _command(c, "pass", f"\n          {country}\n          <button class=\"btn\" type=\"submit\">{esc(_('Pass'))}</button>\n        ",
                         css="bar-pass")
    return ('    <section class="window bar-window" aria-labelledby="bar-window-title">\n'
            f'      <h3 id="bar-window-title">{_("%(team)s: answer with a response, or pass") % {"team": esc(team)}}</h3>\n'
            f'      <div class="choices">\n        {reveal}\n        {pass_form}\n      </div>\n    </section>\n')


def _reveal(c, r) -> str:
    """One face-down response of this seat's, revealed and used by one tap (a chip while the owner is asked
    which card a discard took unseen)."""
    _ = texts()
    name = esc(r["name"])
    if r.get("asked"):
        return f'<span class="chip">{name}</span>'
    return _command(c, "use_card", f'\n  <input type="hidden" name="country" value="{esc(r["country"])}">'
                    f'<input type="hidden" name="card" value="{name}">\n'
                    f'  <button class="btn choice reveal" type="submit" aria-label="{esc(_("Reveal and use:"))} {name}">'
                    f'{name}</button>\n')


def _finish(c) -> str:
    """«Закончить ход»: one tap for the steps that need no decision (supply, victory, discard, draw)."""
    _ = texts()
    lang = c.get("lang")

    def fields():
        form = val(c, "finish_form")
        n = form["n"]
        return (f'\n  <button class="btn btn-primary btn-finish" type="submit" aria-describedby="finish-turn-hint">'
                f'{esc(_("Finish the turn"))}</button>\n'
                f'  <span class="visually-hidden" id="finish-turn-hint">'
                f'{esc(_("Supply, victory points, discard and draw are done at once and listed; each step can be undone."))}'
                f'</span>\n  <details class="finish-discard">\n'
                f'    <summary>{esc(_("Discard cards from hand in the discard step?"))}</summary>\n'
                f'    <label for="{esc(n.id_for_label)}">{esc(n.label)}</label>{widget(n)}\n  </details>')

    return _command(c, "finish_turn", _kept(("finish", lang), fields) + "\n", css="finish-turn",
                    swap="outerHTML show:none")


def _button_form(c, command: str, label: str, primary: bool = True) -> str:
    cls = "btn btn-primary" if primary else "btn"
    return _command(c, command, f'\n  <button class="{cls}" type="submit">{esc(label)}</button>\n')


def _stepper(c, table, steps) -> str:
    _ = texts()
    step_by_step = val(c, "step_by_step")
    phase = table.phase
    out = ['  <section class="stepper" data-board-target aria-labelledby="stepper-title">\n']
    if phase == "play":
        if not table.played:
            out.append(f'    <h3 id="stepper-title">{esc(_("Your move: which card?"))}</h3>\n    ')
            out.append(_kept(("deck", c.get("lang"), val(c, "active")), lambda: '<datalist id="deck-cards">' + "".join(
                f'<option value="{esc(n)}" data-type="{esc(t)}">' for n, t in val(c, "deck_cards")) + "</datalist>"))
            if val(c, "form_kept"):
                fields = _play_fields(val(c, "play_form"))
            else:  # no input, no errors: the same fields for every version
                fields = _kept(("play", c.get("lang"), val(c, "board_key")), lambda: _play_fields(val(c, "play_form")))
            out.append("\n    " + _command(c, "play_card", "\n" + fields + "\n", css="play-card") + "\n")
        else:
            hidden = ' class="visually-hidden"' if steps else ""
            played = _("Played: %(card)s") % {"card": esc(val(c, "played_name"))}
            out.append(f'    <h3 id="stepper-title"{hidden}>{played}</h3>\n    ')
            out.append(_button_form(c, "end_play", _("Finish the play step")) if step_by_step else _finish(c))
            out.append("\n")
    elif phase == "air":
        out.append(f'    <h3 id="stepper-title">{esc(_("Air step (Air Marshal): deploy or move one air force, or skip"))}</h3>\n    ')
        air = val(c, "air")
        out.append(_command(c, "deploy_air", f'\n  {as_field(air["form"]["space"])}\n'
                            f'  <button class="btn btn-primary" type="submit">{esc(_("Deploy an air force"))}</button>\n'))
        out.append("\n    ")
        out.append(_button_form(c, "end_air", _("Finish the air step"), primary=False) if step_by_step else _finish(c))
        out.append("\n")
    elif phase == "supply":
        out.append(f'    <h3 id="stepper-title">{esc(_("Supply step"))}</h3>\n')
        unsupplied = val(c, "unsupplied")
        if unsupplied:
            out.append(f'    <p>{esc(_("These pieces are out of supply and leave the board:"))} '
                       f'<strong>{", ".join(esc(u) for u in unsupplied)}</strong></p>\n    ')
        else:
            out.append(f'    <p>{esc(_("Every piece is supplied."))}</p>\n    ')
        out.append(_button_form(c, "supply", _("Remove them and continue") if unsupplied else _("Continue"))
                   if step_by_step else _finish(c))
        out.append("\n")
    elif phase == "victory":
        total = _("Total: %(n)s VP") % {"n": esc(val(c, "victory_preview")["points"])}
        out.append(f'    <h3 id="stepper-title">{esc(_("Victory step"))}: {total}</h3>\n    ')
        out.append(_button_form(c, "score", _("Score and continue")) if step_by_step else _finish(c))
        out.append("\n")
    elif phase == "discard":
        out.append(f'    <h3 id="stepper-title">{esc(_("Discard step"))}</h3>\n    ')
        if step_by_step:
            out.append(_command(c, "discard", f'\n  {as_form(val(c, "discard_form"))}\n'
                                f'  <button class="btn btn-primary" type="submit">{esc(_("Discard and continue"))}</button>\n',
                                version=False))
        else:
            out.append(_finish(c))
        out.append("\n")
    elif phase == "draw":
        out.append(f'    <h3 id="stepper-title">{esc(_("Draw step"))}</h3>\n')
        draw = _("Draw %(n)s card(s): the hand is filled up to 7 while the deck lasts.") % {"n": esc(val(c, "draw_preview"))}
        out.append(f"    <p>{draw}</p>\n    ")
        out.append(_button_form(c, "draw", _("Draw and pass the turn")) if step_by_step else _finish(c))
        out.append("\n")
    out.append("  </section>\n")
    return "".join(out)


def _play_fields(form) -> str:
    """The fields of «Сыграть карту»: card type → space, the card's name, and (folded) whose piece."""
    _ = texts()
    card_type, space, card, target = form["card_type"], form["space"], form["card"], form["target_country"]

    def label(field, hidden=True):
        cls = ' class="visually-hidden"' if hidden else ""
        return f'<label{cls} for="{esc(field.id_for_label)}">{esc(field.label)}</label>'

    open_ = " open" if target.errors else ""
    return (f'{form.non_field_errors()}\n<div class="bar-row bar-choice">\n  {label(card_type)}{widget(card_type)}\n'
            f'  <span class="bar-arrow" aria-hidden="true">→</span>\n  {label(space)}{widget(space)}\n</div>\n'
            f'{card_type.errors}{space.errors}\n<div class="bar-row">\n  {label(card)}{widget(card)}\n'
            f'  <button class="btn btn-primary" type="submit">{esc(_("Play the card"))}</button>\n</div>\n'
            f'{card.errors}{target.errors}\n<details class="bar-more"{open_}>\n'
            f'  <summary>{esc(_("Whose piece, and help"))}</summary>\n  {label(target, hidden=False)}{widget(target)}\n'
            '  <p class="hint">'
            + esc(_("Build and Battle cards need the target space (tap it on the map). Events, statuses and "
                    "responses: enter their steps after this."))
            + "</p>\n</details>")


def _card_steps(c, steps) -> str:
    """The engine's open card step: one tap per choice, «Пропустить» when it may be skipped."""
    _ = texts()
    out = ['<section class="card card-steps" id="card-steps">\n'
           f'  <h3>{esc(_("Card step"))}: {esc(steps.get("text"))}</h3>\n']
    held = steps.get("held")
    if held:
        out.append(f'  <p class="hint">{esc(_("A removal waits for the response window: answer or pass first."))}</p>\n')
    if steps.get("mine") and val(c, "can_write"):
        manual = steps.get("manual")
        if manual:
            out.append(f'  <p class="hint">{esc(_("Apply this as the card says with the step form; each board action is still checked."))} '
                       f'{esc(steps.get("note"))}</p>\n')
        choices = steps.get("choices")
        if (choices or steps.get("optional")) and not held:
            if steps.get("on_map") and choices:
                out.append(f'  <p class="hint">{esc(_("Tap a space outlined on the map, or a button:"))}</p>\n')
            out.append('  <div class="choices">\n')
            if steps.get("optional"):  # first: the row scrolls sideways when the choices are many
                out.append(_command(c, "skip", f'\n  <input type="hidden" name="country" value="{esc(steps.get("by"))}">\n'
                                    f'  <button class="btn" type="submit">{esc(_("Done") if manual else _("Skip"))}</button>\n'))
                out.append("\n")
            for choice in choices or ():
                fields = "".join(f'<input type="hidden" name="{esc(k)}" value="{esc(v)}">' for k, v in choice["fields"])
                out.append(_command(c, "card_step", f'\n  {fields}\n  <button class="btn choice" type="submit" '
                                    f'data-space="{esc(choice.get("space") or "")}" data-step-choice>{esc(choice["label"])}'
                                    '</button>\n'))
                out.append("\n")
            out.append("  </div>\n")
    else:
        waiting = _("Waiting for %(who)s to carry out the card.") % {"who": esc(steps.get("by_name"))}
        out.append(f"  <p>{waiting}</p>\n")
    out.append("</section>\n")
    return "".join(out)


def _prompts(c) -> str:
    """The decisions between moves: which face-down response a discard took unseen, «Подготовка к войне»,
    the Air Marshal prompts."""
    _ = texts()
    out = []
    game = c.get("game")
    for u in val(c, "discarded_unseen") or ():
        url = esc(link("qmg_unseen", (game.pk,)))
        forms = "".join(
            f'\n    <form method="post" action="{url}">{csrf_input(c)}\n'
            f'      <input type="hidden" name="country" value="{esc(u["country"])}"><input type="hidden" name="card_id" value="{esc(card_id)}">\n'
            f'      <button class="btn choice" type="submit">{esc(name)}</button>\n    </form>'
            for card_id, name in u["choices"])
        out.append('\n<section class="card unseen private">\n'
                   f'  <h3>{esc(_("A card discarded one of your face-down responses unseen: which one was it? (only you see this)"))}</h3>\n'
                   f'  <div class="choices">{forms}\n  </div>\n</section>\n')
    can_write = val(c, "can_write")
    prepare = val(c, "prepare")
    if prepare and can_write:
        out.append('\n<div class="bar-scroll bar-prepare">\n<section class="card prepare" id="prepare">\n'
                   f'  <h3>{esc(_("Preparing for war: one status or response per country, before the first card"))}</h3>\n')
        for row in prepare:
            out.append(f'  <h4>{esc(row["name"])}</h4>\n')
            if row["statuses"]:
                choices = "".join(_prepare_choice(c, row, card_id, name, "status") for card_id, name in row["statuses"])
                out.append(f'  <p class="hint">{esc(_("A status, face up:"))}</p>\n'
                           f'  <div class="choices prepare-statuses">\n    {choices}\n  </div>\n')
            if row["responses"]:
                choices = "".join(_prepare_choice(c, row, card_id, name, "response") for card_id, name in row["responses"])
                out.append('  <details class="prepare-response">\n'
                           f'    <summary>{esc(_("…or a response, face down (only your phone keeps its name)"))}</summary>\n'
                           f'    <div class="choices">\n      {choices}\n    </div>\n  </details>\n')
        out.append("</section>\n</div>\n")
    air = val(c, "air")
    if air and can_write:
        out.append(_air_prompts(c, air))
    return "".join(out)


def _prepare_choice(c, row, card_id, name, card_type) -> str:
    """One tap of «Подготовка к войне»: a status (face up) or a response (face down; its name only on its owner's phone)."""
    _ = texts()
    why = _("play it face up before the first round") if card_type == "status" else _("put it face down before the first round")
    return _command(c, "prepare", f'\n  <input type="hidden" name="country" value="{esc(row["country"])}">'
                    f'<input type="hidden" name="card_type" value="{card_type}">\n'
                    f'  <input type="hidden" name="card_id" value="{esc(card_id)}">\n'
                    f'  <button class="btn choice" type="submit">{esc(name)}<span class="visually-hidden"> — {esc(why)}</span></button>\n')


def _air_prompts(c, air) -> str:
    _ = texts()
    out = []
    for st in air["stranded"]:
        title = _("Air retreat: your air force in %(space)s has no army or navy with it") % {"space": esc(st["name"])}
        hidden = (f'\n  <input type="hidden" name="country" value="{esc(st["country"])}">'
                  f'<input type="hidden" name="from_space" value="{esc(st["space"])}">\n  ')
        if st["options"]:
            options = "".join(f'<option value="{esc(s)}">{esc(n)}</option>' for s, n in st["options"])
            body = (f'<label for="retreat-{esc(st["space"])}">{esc(_("Retreat to"))}</label>\n'
                    f'  <select id="retreat-{esc(st["space"])}" name="space">{options}</select>\n'
                    f'  <button class="btn btn-primary" type="submit">{esc(_("Retreat"))}</button>\n')
        else:
            body = (f'<p>{esc(_("No adjacent space has your army or navy: the air force leaves the board."))}</p>\n'
                    f'  <button class="btn btn-primary" type="submit">{esc(_("Remove the air force"))}</button>\n')
        out.append(f'  <section class="card air-prompt">\n    <h3>{title}</h3>\n    '
                   f'{_command(c, "air_retreat", hidden + body)}\n  </section>\n')
    space = esc(air.get("attack_space") or "")
    if air.get("defence"):
        title = _("Air defence: your piece in %(space)s was attacked — remove your air force there instead?") % {"space": space}
        form = _command(c, "air_defence", f'\n  <input type="hidden" name="country" value="{esc(air["attack"].get("country", ""))}">\n'
                        f'  <button class="btn btn-primary" type="submit">{esc(_("Use air defence"))}</button>\n')
        out.append(f'  <section class="card air-prompt">\n    <h3>{title}</h3>\n    {form}\n  </section>\n')
    if air.get("strike_from"):
        title = _("Air strike: the defender used air defence in %(space)s — spend your adjacent air force to remove "
                  "the piece anyway?") % {"space": space}
        options = "".join(f'<option value="{esc(s)}">{esc(n)}</option>' for s, n in air["strike_from"])
        form = _command(c, "air_strike", f'\n  <input type="hidden" name="country" value="{esc(air["attack"].get("attacker", ""))}">\n'
                        f'  <select name="from_space" aria-label="{esc(_("From"))}">{options}</select>\n'
                        f'  <button class="btn btn-primary" type="submit">{esc(_("Air strike"))}</button>\n')
        out.append(f'  <section class="card air-prompt">\n    <h3>{title}</h3>\n    {form}\n  </section>\n')
    return "".join(out)


# ------------------------------------------------------------------------------------------
# the turn's other actions, the own cards, the notes, the host's links
# ------------------------------------------------------------------------------------------

def turn(c) -> SafeString:
    """This viewer's rarer actions of the turn (the decisions themselves are in the bar), and bolster."""
    _ = texts()
    table = c.get("table")
    can_write = val(c, "can_write")
    out = []
    if can_write and val(c, "my_turn"):
        phase = table.phase
        if phase == "play" and not table.played:
            out.append('<section class="card turn-more" aria-labelledby="turn-more-title">\n'
                       f'  <h3 id="turn-more-title">{esc(_("Other actions of the play step"))}</h3>\n')
            reallocate = val(c, "reallocate_form")
            if reallocate:
                form = _command(c, "reallocate", f'\n  {as_form(reallocate)}\n'
                                f'  <button class="btn" type="submit">{esc(_("Reallocate"))}</button>\n', version=False)
                summary = _("Reallocate Resources: discard 4 cards from hand to take a Build or Battle card from the deck")
                out.append(f'  <details class="reallocate">\n    <summary>{esc(summary)}</summary>\n    {form}\n  </details>\n')
            out.append("  " + _button_form(c, "end_play", _("Skip the play step (empty hand only)"), primary=False))
            out.append("\n</section>\n")
        elif phase == "play" and (val(c, "played_card") or val(c, "free_steps")):
            out.append(_played(c))
        elif phase == "air" and (val(c, "air") or {}).get("own_air"):
            out.append(_move_air(c, val(c, "air")))
        elif phase == "victory":
            lines = "".join(f"<li>{esc(line)}</li>" for line in val(c, "victory_preview")["lines"])
            out.append('<section class="card turn-more" aria-labelledby="turn-more-title">\n'
                       f'  <h3 id="turn-more-title">{esc(_("Victory step"))}</h3>\n'
                       f'  <ul class="score-lines">{lines}</ul>\n</section>\n')
    air = val(c, "air")
    if air and can_write:
        form = _command(c, "bolster", f'\n  {as_field(air["form"]["country"])}\n  {as_field(air["form"]["name"])}\n'
                        '  <p class="hint">' + esc(_("The app does not know the expansion's card texts: type the name, then enter its effects as steps."))
                        + '</p>\n'
                        f'  <button class="btn" type="submit">{esc(_("Play the bolster card"))}</button>\n')
        out.append('<details class="card bolster">\n'
                   f'  <summary>{esc(_("Play a bolster card from hand (Air Marshal)"))}</summary>\n  {form}\n</details>\n')
    return mark_safe("".join(out))


def _played(c) -> str:
    """The card just played: its guided steps, and the free step form for statuses, responses and effects by hand."""
    _ = texts()
    out = ['<section class="card turn-more stepper-steps" data-board-target aria-labelledby="turn-more-title">\n'
           f'  <h3 id="turn-more-title">'
           f'{_("Played: %(card)s. Further steps of the card, statuses or responses:") % {"card": esc(val(c, "played_name"))}}'
           '</h3>\n']
    played = val(c, "played_card")
    if played:
        steps = "".join(f'<li class="guided-{esc(st["kind"])}">{esc(st["text"])}</li>' for st in played["steps"])
        out.append(f'  <div class="played-card">\n    <p><strong>{esc(played["name"])}</strong>: {esc(played["summary"])}</p>\n'
                   f'    <ol class="guided">{steps}</ol>\n  </div>\n')
    if val(c, "free_steps"):
        kept = val(c, "form_kept")
        if kept:  # the refused form with its input and errors (its own version field)
            fields = f"\n  {as_form(val(c, 'step_form'))}\n"
        else:  # the fields, the same for every version: once per board, language and seat
            def make():
                f = val(c, "step_form")
                return "".join(as_field(f[name]) for name in ("action", "country", "space", "target_country", "kind", "n"))

            fields = _kept(("free_step", val(c, "board_key"), c.get("lang"), val(c, "mine_key"), val(c, "step_initial")), make)
        button = f'\n  <button class="btn" type="submit">{esc(_("Apply the step"))}</button>\n'
        out.append(f"  {_command(c, 'step', fields + button, version=not kept)}\n")
    out.append("</section>\n")
    return "".join(out)


def _move_air(c, air) -> str:
    _ = texts()
    own = "".join(f'<option value="{esc(s)}">{esc(n)}</option>' for s, n in air["own_air"])
    targets = "".join(f'<option value="{esc(v)}">{esc(n)}</option>' for v, n in air["form"].fields["space"].widget.choices)
    form = _command(c, "move_air", f'\n  <label for="air-from">{esc(_("Move the air force from"))}</label>\n'
                    f'  <select id="air-from" name="from_space">{own}</select>\n'
                    f'  <label for="air-move-to">{esc(_("Target space"))}</label>\n'
                    f'  <select id="air-move-to" name="space">{targets}</select>\n'
                    f'  <p class="hint">{esc(_("Moving costs one card from your hand (any card)."))}</p>\n'
                    f'  <button class="btn" type="submit">{esc(_("Move (discard a card)"))}</button>\n')
    return ('<section class="card turn-more" aria-labelledby="turn-more-title">\n'
            f'  <h3 id="turn-more-title">{esc(_("Move the air force from"))}…</h3>\n'
            f'  <p class="hint">{esc(_("Play a Deploy Air Force card: into a space with your supplied army or navy, one air force of a country per space."))}</p>\n'
            f"  {form}\n</section>\n")


def own_cards(c) -> SafeString:
    """Use a status or reveal a response (only a seat that has one, or in an answer window), and remove one
    of one's own pieces (allowed at any time)."""
    _ = texts()
    table = c.get("table")
    can_write = val(c, "can_write")
    out = []
    if can_write and val(c, "usable_now"):
        names = "".join(f'<option value="{esc(n)}">' for n in val(c, "usable_cards"))
        out.append('<details class="card use-card">\n'
                   f'  <summary>{esc(_("Use a status or reveal a response"))}</summary>\n'
                   f'  <datalist id="table-cards">{names}</datalist>\n')
        responses = val(c, "private_responses")
        if responses and not val(c, "window_mine"):  # in an answer window they are in the decision bar
            buttons = "".join(_reveal(c, r) for r in responses)
            out.append(f'  <p class="private">{esc(_("Your face-down responses (only you see this): tap one to reveal and use it."))}</p>\n'
                       f'  <div class="choices private">\n    {buttons}\n  </div>\n')
        kept = val(c, "form_kept")
        if kept:  # the refused form with its input and errors (its own version field)
            fields = f"\n  {as_form(val(c, 'use_form'))}"
        else:
            def make():
                f = val(c, "use_form")
                return as_field(f["country"]) + as_field(f["card"])

            fields = "\n  " + _kept(("use", c.get("lang"), val(c, "form_key")), make)
        button = f'\n  <button class="btn" type="submit">{esc(_("Use the card"))}</button>\n'
        out.append(f"  {_command(c, 'use_card', fields + button, version=not kept)}\n</details>\n")
    if can_write and (not val(c, "my_turn") or table.phase != "play"):
        def make():
            f = val(c, "step_form")
            return "".join(as_field(f[name]) for name in ("country", "space", "kind"))

        fields = _kept(("remove_piece", val(c, "board_key"), c.get("lang"), val(c, "mine_key"), val(c, "step_initial")), make)
        form = _command(c, "step", '<input type="hidden" name="action" value="remove">\n  ' + fields
                        + f'\n  <button class="btn" type="submit">{esc(_("Remove"))}</button>\n')
        out.append('<details class="card any-time" data-board-target>\n'
                   f'  <summary>{esc(_("Remove one of your own pieces (allowed at any time)"))}</summary>\n  {form}\n</details>\n')
    return mark_safe("".join(out))


def notes(c) -> SafeString:
    """This seat's private notes on its hand (only this seat's phone sees them)."""
    _ = texts()
    actor = c.get("actor")
    if actor is None or actor.seat is None:
        return mark_safe("")
    shown = "".join(f'<p class="private"><strong>{esc(country)}</strong>: {_lines(text)}</p>'
                    for country, text in (val(c, "hand_notes") or {}).items() if text)
    game = c.get("game")
    fields = _kept(("note", c.get("lang"), val(c, "form_key"), val(c, "notes_key")), lambda: as_form(val(c, "note_form")))
    return mark_safe('<details class="card private-note">\n'
                     f'  <summary>{esc(_("Private notes on your hand (only you see them)"))}</summary>\n  {shown}\n'
                     f'  <form method="post" action="{esc(link("note", (game.pk,)))}">{csrf_input(c)}\n    {fields}\n'
                     f'    <button class="btn" type="submit">{esc(_("Save the note"))}</button>\n  </form>\n</details>\n')


def _lines(text: str) -> str:
    """``|linebreaksbr``: escaped, each line break a ``<br>``."""
    return esc(text.replace("\r\n", "\n").replace("\r", "\n")).replace("\n", "<br>")


def host_links(c) -> SafeString:
    _ = texts()
    actor = c.get("actor")
    if actor is None or not actor.is_host:
        return mark_safe("")
    pk = c.get("game").pk
    return mark_safe(f'· <a href="{esc(link("seats", (pk,)))}">{esc(_("Join links and QR codes"))}</a>\n'
                     f'        · <a href="{esc(link("export_game", (pk,)))}">{esc(_("Export the game"))}</a>')


def history(c) -> SafeString:
    _ = texts()
    return history_block(c, _("R"))


# ------------------------------------------------------------------------------------------
# the public parts: the skeleton every viewer of a version shares
# ------------------------------------------------------------------------------------------

FRAGMENT_SECONDS = 600


def _fragment(c, name: str, key, make) -> str:
    """A public fragment of the page from the render cache, by the game, a digest of exactly what it shows
    (``fragment_keys``, ``tracker.qmg.page._fragment_keys``) and the language: a fragment a move did not
    change is reused by the next version."""
    game = c.get("game")
    return once.cached(f"qmgf:{name}:{game.pk}:{game.spectator_token}:{key}:{c.get('lang')}", make, FRAGMENT_SECONDS)


def _slot(c, name: str) -> str:
    """A viewer's block: its marker in the skeleton (``tracker.core.responses`` puts each phone's own there),
    else the block itself (a page rendered whole: without JavaScript, or a game's first page)."""
    return MARK.format(name) if c.get("skeleton") else SLOTS[name](c)


def status(c) -> SafeString:
    """The status bar: round, active country, phase, victory points."""
    _ = texts()
    def make():
        table = c.get("table")
        round_ = _("Round %(round)s of %(total)s") % {"round": table.round, "total": 20}
        return ('\n  <header class="status-bar">\n'
                f'    <span class="round">{round_}</span>\n'
                f'    <span class="active country-{esc(c.get("active"))}">{esc(c.get("active_name"))}</span>\n'
                f'    <span class="phase">{esc(c.get("phase_name"))}</span>\n'
                f'    <span class="vp"><span class="vp-axis-n">{esc(_("Axis"))} {table.vp_axis:d}</span> : '
                f'<span class="vp-allies-n">{table.vp_allies:d} {esc(_("Allies"))}</span></span>\n  </header>\n')

    return mark_safe(_fragment(c, "status", c.get("fragment_keys")["status"], make))


def table(c) -> SafeString:
    """The page under the status bar: the result of a finished game, the map, and the side column (the viewer's
    blocks between the public ones)."""
    _ = texts()
    t, keys = c.get("table"), c.get("fragment_keys")
    out = []
    if t.finished:
        out.append(_fragment(c, "finished", c.get("game").version, lambda: _finished(c, t)))
    out.append('\n  <div class="layout">\n    <div class="col-map">\n      ')
    out.append(_fragment(c, "board", keys["board"], lambda: get_template("qmg/_board.html").template.render(c)))
    out.append('\n    </div>\n    <div class="col-side">\n      ')
    out.append(_slot(c, "bar"))
    out.append("\n      ")
    out.append(_fragment(c, "reminders", keys["reminders"], lambda: "".join(
        f"<li>{esc(r)}</li>" for r in c.get("reminders")).join(('\n      <ul class="reminders">', "</ul>\n      "))
        if c.get("reminders") else ""))
    out.append("\n      ")
    out.append(_slot(c, "turn"))
    team = c.get("window_team")
    if team:
        out.append('\n      <section class="card window">\n        ')
        out.append(_fragment(c, "window", keys["window"], lambda: _window_cards(c, team)))
        out.append("\n      </section>")
    out.append("\n      ")
    out.append(_slot(c, "own_cards"))
    out.append("\n      ")
    out.append(_fragment(c, "cards", keys["cards"], lambda: _cards_table(c)))
    out.append("\n      ")
    out.append(_slot(c, "notes"))
    out.append("\n      ")
    out.append(_fragment(c, "vp", keys["vp"], lambda: (
        f'\n      <section class="card">\n        <h3>{esc(_("Victory points by round"))}</h3>\n'
        f'        {c.get("vp_chart")}\n      </section>\n      ')))
    out.append("\n      ")
    out.append(_slot(c, "history"))
    pk = c.get("game").pk
    out.append(f'\n      <p class="links"><a href="{esc(link("ask", (pk,)))}">'
               f'{esc(_("Ask about this position (supply, attacks, straits)"))}</a>\n'
               f'        · <a href="{esc(link("rules"))}">{esc(_("Rules lookup"))}</a>\n'
               f'        · <a href="{esc(link("qmg_screen", (pk,)))}">{esc(_("Table screen"))}</a>\n        ')
    out.append(_slot(c, "host_links"))
    out.append("</p>\n    </div>\n  </div>\n")
    return mark_safe("".join(out))


def _finished(c, t) -> str:
    _ = texts()
    winner = _("The Axis wins") if t.winner == "axis" else _("The Allies win")
    reason = (_("Sudden victory: two enemy home spaces are held.") if t.end_reason == "sudden" else
              _("Early victory: 30 VP ahead at the end of a round.") if t.end_reason == "early" else
              _("After 20 rounds (a tie goes to the Axis)."))
    return (f'\n  <div class="card finished">\n    <h2>{esc(winner)}</h2>\n    <p>{esc(reason)}</p>\n'
            f'    <p>{esc(_("Axis"))} {t.vp_axis:d} : {t.vp_allies:d} {esc(_("Allies"))}</p>\n'
            f'    {c.get("vp_chart")}\n  </div>\n  ')


def _window_cards(c, team) -> str:
    """The answer window: each country's statuses in play and how many face-down responses it holds."""
    _ = texts()
    rows = []
    for card in c.get("public_cards"):
        if not (card["statuses"] or card["responses"]):
            continue
        statuses = ", ".join(esc(x) for x in card["statuses"])
        n = card["responses"]
        face_down = (f'<span class="face-down">{ngettext("%(n)s face-down response", "%(n)s face-down responses", n) % {"n": n}}'
                     "</span>") if n else ""
        rows.append(f'\n          <li class="team-{esc(card["team"])}"><strong>{esc(card["name"])}</strong>:\n'
                    f"            {statuses}\n            {face_down}\n          </li>")
    title = _("Statuses and responses: %(team)s to answer (use one or pass)") % {"team": esc(team)}
    return f'\n        <h3>{title}</h3>\n        <ul class="public-cards">{"".join(rows)}\n        </ul>\n        '


def _cards_table(c) -> str:
    """The cards of every country (deck, hand, discard, statuses, responses) and the statuses in play."""
    _ = texts()
    def head(full, short):  # the short head a phone shows; the full name as a tooltip and for screen readers
        return (f'<th scope="col"><abbr title="{esc(full)}" aria-hidden="true">{esc(short)}'
                f'</abbr><span class="visually-hidden">{esc(full)}</span></th>')

    heads = "\n            ".join((
        head(_("Deck"), pgettext("short column head", "Deck")), head(_("Hand"), pgettext("short column head", "Hand")),
        head(_("Discard"), pgettext("short column head", "Disc.")),
        head(_("Statuses"), pgettext("short column head", "Stat.")),
        head(_("Responses"), pgettext("short column head", "Resp."))))
    in_play = "".join(f'<li class="team-{esc(card["team"])}"><strong>{esc(card["name"])}</strong>: '
                      f'{", ".join(esc(x) for x in card["statuses"])}</li>'
                      for card in c.get("public_cards") if card["statuses"])
    return ('\n      <section class="card cards-table" tabindex="0" aria-labelledby="cards-table-title">\n'
            f'        <h3 id="cards-table-title">{esc(_("Cards"))}</h3>\n        <table>\n'
            f'          <thead><tr><th scope="col">{esc(_("Country"))}</th>\n            {heads}</tr></thead>\n'
            f'          <tbody>\n          {c.get("card_rows")}\n          </tbody>\n        </table>\n'
            f'        <ul class="statuses-in-play">\n        {in_play}\n        </ul>\n      </section>\n      ')


def page(c) -> SafeString:
    """The whole partial: the shell (``tracker.core.blocks.shell``) around the status bar and the table, in the
    active team's colours. The skeleton (``QmgAdapter.skeleton_html``) and the page without JavaScript alike."""
    return shell(c, f"team-{esc(c.get('active_team'))}", status(c), table(c))


SLOTS = {"you": whoami, "bar": bar, "turn": turn, "own_cards": own_cards, "notes": notes, "history": history,
         "host_links": host_links}  # by slot name: what each viewer's page holds of its own (the shell's "you" too)
BLOCKS = {**SLOTS, "status": status, "table": table, "page": page}


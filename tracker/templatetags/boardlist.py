"""The QMG board's «Spaces as a list» rows without the template loop (``{% load boardlist %}``).

``{{ space_rows|space_list }}`` gives, character for character, what the loop over
``tracker.qmg.board_svg.space_rows`` in ``templates/qmg/_board.html`` gave (the same markup,
whitespace, translated texts and escaping; tests/tracker/test_board_list.py compares the two).
Every move makes a new game version and so a new board fragment; the loop with its nested
``{% translate %}`` tags was most of the fragment's time. Here the texts are looked up once per
language and each row's HTML is kept by its content (every value it shows, and the language) in a
bounded memo, so a new version formats only the rows that changed.

Every value from a row is escaped (``html.escape``, as ``{{ }}`` escapes a plain string); the
translated texts are inserted as the ``{% translate %}`` tag inserts them (not escaped).
"""
from __future__ import annotations

from html import escape

from django import template
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_noop

from tracker.core.memo import Memo

register = template.Library()

# gettext_noop: makemessages finds the texts here (the template no longer holds them)
MSGIDS = {"land": gettext_noop("land"), "sea": gettext_noop("sea"), "star": gettext_noop("supply source"),
          "show": gettext_noop("Show on map"), "army": gettext_noop("army"), "navy": gettext_noop("navy"),
          "out": gettext_noop("out of supply"), "supplied": gettext_noop("supplied"),
          "here": gettext_noop("controlled from here"), "axis": gettext_noop("open for the Axis"),
          "allies": gettext_noop("open for the Allies"), "empty": gettext_noop("Nothing on the board yet.")}
# {% blocktranslate with country=… %}: the value is escaped, the translated text is not
HOME = gettext_noop("home space of %(country)s")

_TEXTS: dict = {}  # language -> {key: translated text}
_ROWS = Memo(4096)  # (language, a row's shown values) -> the row's HTML


def _texts() -> dict:
    language = translation.get_language()
    t = _TEXTS.get(language)
    if t is None:
        # as {% translate "…" %}: the message id with "%" doubled, "%%" in the result back to "%"
        t = {k: translation.gettext(m.replace("%", "%%")).replace("%%", "%") for k, m in MSGIDS.items()}
        t["home"] = translation.gettext(HOME)
        t = _TEXTS[language] = t
    return t


def _e(value) -> str:
    return escape(str(value))


def _state(supplied) -> int:
    """``{% if p.supplied is False %}…{% elif p.supplied %}…{% endif %}`` as a key (False, 1 and None differ)."""
    return 0 if supplied is False else (1 if supplied else 2)


def _home(t: dict, name) -> str:
    data = {"country": _e(name)}
    try:
        return t["home"] % data
    except (KeyError, ValueError):  # a broken translation: the message id, as blocktranslate falls back
        return HOME % data


def _row(row: dict, t: dict) -> str:
    rid = _e(row["id"])
    out = [f'\n      <li class="space-row" data-space="{rid}">\n        <div class="space-row-head">\n'
           f'          <span class="space-row-name">{_e(row["name"])}</span>\n'
           f'          <span class="space-row-kind {_e(row["kind"])}">'
           f'{t["land"] if row["kind"] == "land" else t["sea"]}</span>\n          ']
    if row["star"]:
        out.append(f'<span class="space-row-star" title="{t["star"]}">★ '
                   f'<span class="visually-hidden">{t["star"]}</span></span>')
    out.append("\n          ")
    if row["home"]:
        out.append(f'<span class="space-row-home"><svg class="chip" viewBox="0 0 20 20" aria-hidden="true">'
                   f'<rect x="1" y="1" width="18" height="18" rx="4" fill="{_e(row["home_colour"])}" '
                   f'stroke="#1a1a1a"/></svg>\n            {_home(t, row["home_name"])}</span>')
    out.append(f'\n          <button type="button" class="board-list-show" data-board-show="{rid}">{t["show"]}'
               f'</button>\n        </div>\n        ')
    if row["pieces"] or row["straits"]:
        out.append("\n        <ul>\n          ")
        for p in row["pieces"]:
            state, kind, colour = _state(p["supplied"]), p["kind"], _e(p["colour"])
            chip = (f'<path d="M1,7 H7 V3 H13 V7 H19 L15,17 H5 Z" fill="{colour}" stroke="#1a1a1a"/>' if kind == "navy"
                    else f'<circle cx="10" cy="10" r="8" fill="{colour}" stroke="#1a1a1a"/>')
            label = t["army"] if kind == "army" else (t["navy"] if kind == "navy" else _e(p["kind_label"]))
            shown = (f'<strong>{t["out"]} !</strong>' if state == 0 else (t["supplied"] if state == 1 else ""))
            out.append(f'\n          <li class="{"unsupplied" if state == 0 else "supplied"}">\n'
                       f'            <svg class="chip" viewBox="0 0 20 20" aria-hidden="true">{chip}</svg>\n'
                       f'            <span>{_e(p["country_name"])} — {label}:\n            {shown}</span>\n'
                       f'          </li>\n          ')
        out.append("\n          ")
        for s in row["straits"]:
            here = f' ({t["here"]})' if s["role"] == "land" else ""
            out.append(f'\n          <li class="strait {_e(s["team"])}">⚓ {_e(s["name"])}{here}:\n'
                       f'            {t["axis"] if s["team"] == "axis" else t["allies"]}</li>\n          ')
        out.append("\n        </ul>\n        ")
    out.append("\n      </li>\n      ")
    return "".join(out)


def _key(row: dict) -> tuple:
    """Every value the row shows or decides on (plain strings, booleans and None, as space_rows gives)."""
    home = bool(row["home"])
    return (row["id"], row["name"], row["kind"], bool(row["star"]), home,
            row["home_name"] if home else None, row["home_colour"] if home else None,
            tuple((p["country_name"], p["kind"], p["kind_label"], _state(p["supplied"]), p["colour"])
                  for p in row["pieces"]),
            tuple((s["team"], s["name"], s["role"]) for s in row["straits"]))


def space_list_html(rows) -> str:
    """The rows' ``<li>``s with the whitespace the template loop had, in the active language."""
    t = _texts()
    if not rows:
        return f'\n      <li class="space-row">{t["empty"]}</li>\n      '
    language = translation.get_language()
    memo = _ROWS
    out = []
    for row in rows:
        try:
            key = (language, *_key(row))
            html = memo.get(key)
        except TypeError:  # a value that cannot be a key: formatted without the memo
            out.append(_row(row, t))
            continue
        if html is None:
            html = memo.keep(key, _row(row, t))
        out.append(html)
    return "".join(out)


@register.filter(is_safe=True)
def space_list(rows):
    return mark_safe(space_list_html(rows))

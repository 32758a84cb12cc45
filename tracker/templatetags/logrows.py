"""``{% logrows history %}``: the rows of a game's history, each built once per process.

A game's log is rendered again at every version (a move adds a row, an undo strikes one through), and
its forty rows were most of the cost of a move's answer. A row's markup follows from the row alone
(the event's kind, round, author and public summaries, whether it is undone) and from the page's
language and round label, so each row is built here from exactly those values and kept by them (never
by game or viewer: the log is public, the same for every viewer of a version). Rows are built in Python:
the five rows «Закончить ход» adds cost a template ~0.4 ms, this ~0.05 ms.
"""
from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from tracker.core.markup import esc
from tracker.core.memo import Memo

register = template.Library()

_ROWS = Memo(20_000)  # per process


class LogRowsNode(template.Node):
    def __init__(self, rows):
        self.rows = rows

    def render(self, context):
        rows = self.rows.resolve(context, ignore_failures=True) or ()
        return rows_html(rows, _plain(context.get("lang")), _plain(context.get("round_label")))


def rows_html(rows, lang: str | None, label: str | None) -> str:
    """The rows of the log, each kept by what it shows (``lang``: the page's language; ``label``: the round's prefix)."""
    common = (get_language(), lang, label)
    out = []
    for row in rows:
        key = (*common, *_row_key(row))
        html = _ROWS.get(key)
        if html is None:
            html = _ROWS.keep(key, _row_html(row, lang, label))
        out.append(html)
    return mark_safe("".join(out))


def _plain(value):
    """A context value as part of a key: its text (a lazy translation is text in the active language)."""
    return None if value is None else str(value)


def _row_key(row) -> tuple:
    """Everything the row's markup reads (``_row_html``): the seat only when the host did not make the move."""
    e = row["event"]
    seat = None if e.by_host else e.seat
    return (e.kind, e.round, bool(e.by_host), seat is not None, seat.player_name if seat is not None else None,
            bool(row["undone"]), row["text_ru"], row["text_en"])


def _row_html(row, lang: str | None, round_label: str | None) -> str:
    """One ``<li>`` of the log: the round, the public summary in the page's language, who made the move
    (the host, or the seat's player), and a tag on an undone move."""
    e = row["event"]
    undone = bool(row["undone"])
    if e.by_host:
        who = f"({esc(gettext('host'))})"
    else:
        who = f"({esc(e.seat.player_name)})" if e.seat is not None else ""
    when = f'<span class="when">{esc(round_label)}{e.round}</span>' if round_label else ""
    text = row["text_en"] if lang == "en" else row["text_ru"]
    tag = f'<span class="tag">{esc(gettext("undone"))}</span>' if undone else ""
    return (f'\n  <li class="event event-{esc(e.kind)}{" is-undone" if undone else ""}">\n    {when}\n    {esc(text)}\n'
            f'    <span class="who">{who}</span>\n    {tag}\n  </li>\n')


@register.tag("logrows")
def do_logrows(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("usage: {% logrows history %}")
    return LogRowsNode(parser.compile_filter(bits[1]))

"""``{% logrows history %}…{% endlogrows %}``: the rows of a game's history, each rendered once per process.

A game's log is rendered again at every version (a move adds a row, an undo strikes one through), and
its forty rows were most of the cost of a move's answer. A row's markup follows from the row alone
(the event's kind, round, author and public summaries, whether it is undone) and from the page's
language and round label, so the body is rendered for each row as ``{% for row in history %}`` would
render it, and kept by exactly those values (never by game or viewer: the log is public, the same for
every viewer of a version).
"""
from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tracker.core.memo import Memo

register = template.Library()

_ROWS = Memo(20_000)  # per process


class LogRowsNode(template.Node):
    def __init__(self, rows, nodelist):
        self.rows = rows
        self.nodelist = nodelist

    def render(self, context):
        rows = self.rows.resolve(context, ignore_failures=True) or ()
        common = (self, get_language(), context.autoescape, _plain(context.get("lang")),
                  _plain(context.get("round_label")))
        out = []
        with context.push():
            for row in rows:
                key = (*common, *_row_key(row))
                html = _ROWS.get(key)
                if html is None:
                    context["row"] = row
                    html = _ROWS.keep(key, self.nodelist.render(context))
                out.append(html)
        return mark_safe("".join(out))


def _plain(value):
    """A context value as part of a key: its text (a lazy translation is text in the active language)."""
    return None if value is None else str(value)


def _row_key(row) -> tuple:
    """Everything the row's markup reads (``_log.html``), read as the template reads it: the seat only
    when the host did not make the move."""
    e = row["event"]
    seat = None if e.by_host else e.seat
    return (e.kind, e.round, bool(e.by_host), seat is not None, seat.player_name if seat is not None else None,
            bool(row["undone"]), row["text_ru"], row["text_en"])


@register.tag("logrows")
def do_logrows(parser, token):
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("usage: {% logrows history %}…{% endlogrows %}")
    nodelist = parser.parse(("endlogrows",))
    parser.delete_first_token()
    return LogRowsNode(parser.compile_filter(bits[1]), nodelist)

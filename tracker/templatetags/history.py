"""``{% log_rows as rows %}``: the rows of the page's history (``history`` in the context), each rendered by the
partial ``core/_history.html#log-row`` once per content, language and round label (``tracker.core.fragments``)."""
from django import template

from tracker.core import fragments

register = template.Library()


def _key(lang, label):
    def key(row) -> str:
        e = row["event"]
        seat = None if e.by_host or e.seat is None else e.seat.player_name
        return fragments.digest(lang, label, e.pk, e.kind, e.round, e.by_host, seat, row["undone"],
                                row["text_ru"], row["text_en"])
    return key


@register.simple_tag(takes_context=True)
def log_rows(context):
    lang, label = context.get("lang"), context.get("round_label")
    label = None if label is None else str(label)
    history = context.get("history")
    rows = history() if callable(history) else history or ()
    return fragments.rendered("core/_history.html#log-row", rows, _key(lang, label),
                              {"lang": lang, "round_label": label})

"""``{% generalissimus_board board %}``: the «Генералиссимус» battlefield as one ``<svg>`` element, the template
``generalissimus/_board_svg.html`` drawing ``board`` (``tracker.generalissimus.svg.board_view``: where everything
goes and what it says). The field and each unit are that template's partials, each rendered once per what it
shows and kept in the render cache (``tracker.core.fragments``): a page renders only what changed."""
from django import template
from django.template.loader import render_to_string

from tracker.core import fragments

register = template.Library()

TEMPLATE = "generalissimus/_board_svg.html"


@register.simple_tag
def generalissimus_board(board: dict):
    field = fragments.rendered(f"{TEMPLATE}#field", [board["field"]], fragments.digest, {})[0]
    units = fragments.rendered(f"{TEMPLATE}#unit", board["units"], fragments.digest, {})
    return render_to_string(TEMPLATE, {"board": board, "field": field, "units": units})

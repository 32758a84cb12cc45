"""``{% slot "name" %}…{% endslot %}``: the parts of a game page that belong to one viewer.

A game page is rendered in two layers (``tracker.core.render``): the **skeleton**, everything a
spectator of that game version sees, rendered once per (game, version, language) and kept in the
render cache; and the **slots**, the viewer's own blocks (who they are, the answer to their tap, their
choices, their face-down cards and notes), rendered for each request and put in their places. When the
skeleton is rendered a slot leaves only a marker; otherwise (a full page, a game without a skeleton) it
renders its content where it stands. A slot must stand at the template's top level of context (not
inside a ``{% for %}`` or ``{% with %}``), in the partial or in ``core/_shell.html``.
"""
from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

register = template.Library()

MARK = "<!--slot:{}-->"


class SlotNode(template.Node):
    def __init__(self, name: str, nodelist):
        self.name = name
        self.nodelist = nodelist

    def render(self, context):
        if context.get("skeleton"):
            return mark_safe(MARK.format(self.name))
        return self.nodelist.render(context)


@register.tag("slot")
def do_slot(parser, token):
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("usage: {% slot \"name\" %}…{% endslot %}")
    name = bits[1][1:-1]
    if not name.isidentifier():
        raise template.TemplateSyntaxError("a slot's name is a word")
    nodelist = parser.parse(("endslot",))
    parser.delete_first_token()
    return SlotNode(name, nodelist)

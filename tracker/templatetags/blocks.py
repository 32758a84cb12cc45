"""``{% whoami %}`` and ``{% history_block label %}``: the shell's per-viewer blocks, built in Python
(``tracker.core.blocks``), and ``{% qmg_block "name" %}``: a QMG slot's content (``tracker.qmg.blocks``)."""
from __future__ import annotations

from django import template

from tracker.core import blocks
from tracker.qmg import blocks as qmg_blocks

register = template.Library()


@register.simple_tag(takes_context=True)
def whoami(context):
    return blocks.whoami(context)


@register.simple_tag(takes_context=True)
def history_block(context, round_label=None):
    return blocks.history(context, round_label)


@register.simple_tag(takes_context=True)
def qmg_block(context, name):
    return qmg_blocks.BLOCKS[name](context)

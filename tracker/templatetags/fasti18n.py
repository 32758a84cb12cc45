"""``{% load fasti18n %}`` in this project's templates: Django's i18n library, with one change.

``{% translate "Deck" %}`` (a constant message, optionally with a constant ``context``, neither ``noop`` nor
``as``) is looked up once per language and kept: its output follows from the message, the language and
the autoescape setting alone. Django's tag resolves, translates, localises and escapes it on every render
(about 14 µs here; a game page holds dozens of them). Every other form of the tag, and every other tag
and filter of the library, is Django's own. The tags keep Django's syntax, so ``makemessages`` reads the
templates as before.
"""
from __future__ import annotations

from django import template
from django.templatetags import i18n as django_i18n
from django.utils.translation import get_language

register = template.Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)

_KEPT: dict = {}  # (message, context, language, autoescape) -> the rendered text
_KEPT_MAX = 20_000  # far more than the project's messages × languages; a bound all the same


def _constant(expression) -> str | None:
    """The literal text of a filter expression without filters, else None."""
    if expression is None or expression.filters:
        return None
    var = getattr(expression, "var", None)
    literal = getattr(var, "literal", None)
    return literal if isinstance(literal, str) else None


class ConstantTranslateNode(django_i18n.TranslateNode):
    def __init__(self, node: django_i18n.TranslateNode):
        super().__init__(node.filter_expression, node.noop, node.asvar, node.message_context)
        message = _constant(self.filter_expression)
        context = _constant(self.message_context) if self.message_context is not None else ""
        simple = message is not None and context is not None and not self.noop and not self.asvar
        self.kept_as = (message, context) if simple else None

    def render(self, context):
        if self.kept_as is None:
            return super().render(context)
        key = (*self.kept_as, get_language(), context.autoescape)
        value = _KEPT.get(key)
        if value is None:
            value = super().render(context)
            if len(_KEPT) < _KEPT_MAX:
                _KEPT[key] = value
        return value


@register.tag("translate")
@register.tag("trans")
def do_translate(parser, token):
    return ConstantTranslateNode(django_i18n.do_translate(parser, token))

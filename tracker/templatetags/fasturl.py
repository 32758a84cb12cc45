"""``{% url %}`` with its addresses kept per process (``tracker.core.links``): Django's own tag otherwise
(arguments, ``as``, escaping, errors). A builtin of this project's templates (``settings.TEMPLATES``),
so every template's ``{% url %}`` is this one."""
from __future__ import annotations

from django import template
from django.template import defaulttags
from django.urls import NoReverseMatch
from django.utils.html import conditional_escape

from tracker.core.links import link, where

register = template.Library()
_WHERE = object()  # the render context's key of this render's script prefix and URL configuration


class KeptURLNode(defaulttags.URLNode):
    def render(self, context):
        args = [arg.resolve(context) for arg in self.args]
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        try:
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        at = context.render_context.get(_WHERE)
        if at is None:
            at = context.render_context[_WHERE] = where()  # once per template rendered, not once per link
        url = ""
        try:
            url = link(view_name, args, kwargs, current_app, at)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag("url")
def url(parser, token):
    node = defaulttags.url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)

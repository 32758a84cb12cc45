"""``{% qr_svg url %}``: a QR code of ``url`` as one inline ``<svg>`` element (segno), for the join links page."""
from django import template
from django.utils.safestring import mark_safe

import segno

register = template.Library()


@register.simple_tag
def qr_svg(url: str):
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, dark="#1d2327", light="#ffffff", omitsize=True))

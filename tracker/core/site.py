"""What a phone asks of the site itself: the favicon and the web-app manifest ("add to home screen")."""
from __future__ import annotations

import json

from django.http import HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request):
    return redirect(static("favicon.ico"), permanent=True)


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request):
    data = {
        "name": _("Wargame companion"), "short_name": _("Companion"),
        "description": _("Checks moves, supply and victory points for the board on the table."),
        "start_url": "/", "scope": "/", "display": "standalone", "orientation": "any",
        "background_color": "#f6f4ef", "theme_color": "#7a2e1d",
        "icons": [{"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                  {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                  {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return HttpResponse(json.dumps(data, ensure_ascii=False), content_type="application/manifest+json")

"""Security headers Django 5.2 does not send itself: a strict Content-Security-Policy and a
Permissions-Policy. Every asset is served by this app (vendored htmx, own CSS/JS), so 'self'
is all a page needs: no inline scripts, no inline styles, no remote hosts. Also: an htmx tap answered
by a whole error page reloads the phone instead of nesting that page in the game."""
from django.contrib import messages
from django.utils.translation import gettext as _

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
])
PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS)
        return response


class HtmxFullPageErrorMiddleware:
    """An error answered as a whole page (no access, a replaced link, an expired form, a fault) to an htmx
    request would be swapped into the game's box, a page inside the page. Such an answer tells htmx to
    reload instead (``HX-Refresh``): a link that no longer works shows its error page; a tap that failed
    leaves a message for the reloaded page to show, so it is not lost. The moves' own refusals are
    fragments and are swapped as before."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code >= 400 and getattr(request, "htmx", False) and not response.streaming \
                and response.content[:15].lower().startswith(b"<!doctype"):
            response.headers["HX-Refresh"] = "true"
            if request.method == "POST":  # (a request the messages middleware did not reach keeps no message)
                messages.error(request, _tap_failed(response.status_code), fail_silently=True)
        return response


def _tap_failed(status: int) -> str:
    if status == 403:
        return _("That tap was not accepted (the page had expired, or this link may not make moves); the "
                 "page has been reloaded: look again and tap once more.")
    return _("That tap could not be carried out (error %(code)s); the page has been reloaded: look again and "
             "tap once more.") % {"code": status}

"""The error pages: styled, translated, and each says what to do next (a replaced join link, a page
without access, a fault). Wired as the project's handlers in ``tracker.urls``."""
from __future__ import annotations

from django.shortcuts import render
from django.template import loader
from django.http import HttpResponseServerError
from django.utils.translation import gettext as _

LINK_PREFIXES = ("/join/", "/watch/", "/host/")


def page_not_found(request, exception=None):
    if request.path.startswith(LINK_PREFIXES):
        title = _("This link no longer works")
        advice = _("The host has made a new link for this seat, so the old QR code stopped working. "
                   "Ask the host to show you the new QR code (on the page «Join links and QR codes») and scan it.")
    else:
        title = _("Page not found")
        advice = _("There is no such page or game. If you came from a QR code or a link, ask the host for the "
                   "current one; the games this browser has a link to are on the start page.")
    return render(request, "core/error.html", {"code": 404, "title": title, "advice": advice}, status=404)


def permission_denied(request, exception=None):
    return render(request, "core/error.html", {
        "code": 403, "title": _("No access"),
        "advice": _("This browser may not open this page. Open your own join link (ask the host for your QR "
                    "code); only the host's browser sees the join links and the export.")}, status=403)


def forbidden(request, advice: str):
    """A 403 page with the reason the view knows (a spectator making a move, a seat opening the host's page)."""
    return render(request, "core/error.html", {"code": 403, "title": _("No access"), "advice": advice}, status=403)


def csrf_failure(request, reason=""):
    """Django's CSRF refusal as our page (its own page has an inline style the CSP blocks)."""
    return render(request, "core/error.html", {
        "code": 403, "title": _("The form has expired"),
        "advice": _("Reload the page and try again (the page was open too long, or cookies are blocked).")},
        status=403)


def bad_request(request, exception=None):
    return render(request, "core/error.html", {
        "code": 400, "title": _("The request could not be read"),
        "advice": _("Go back, reload the page and try again.")}, status=400)


def server_error(request):
    """A fault: the page renders without the database or the request's context (either may be the fault)."""
    return HttpResponseServerError(loader.get_template("core/500.html").render({}))

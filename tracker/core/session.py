"""The session engine: Django's signed-cookie sessions, with each verified cookie's data kept per process.

A phone sends the same session cookie with every request (it changes only when the session does: a new
link opened, a language chosen). Django checks its signature and decodes it on every request: an HMAC
with a key derived anew, base64 and JSON, ~1–2% of a move. Here a cookie whose signature was checked once
is remembered by its exact text (data, signature and signing time together), so the same text is not
checked again; a changed or forged cookie is a different text and goes through Django's check. The
cookie's age is checked on every request as Django checks it, and each request gets its own copy of the
data (a view may change its session).
"""
from __future__ import annotations

import time

from django.conf import settings
from django.contrib.sessions.backends import signed_cookies
from django.core import signing

from .memo import Memo

_VERIFIED = Memo(1024)  # per process: cookie text -> (signed at, the secret key it was checked with, data)
_MAX_COOKIE = 4096  # browsers keep at most ~4 KB per cookie: a longer one is never remembered


def _copy(value):
    """A copy of JSON-shaped data (dicts, lists, scalars), cheaper than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


class SessionStore(signed_cookies.SessionStore):
    def load(self):
        key = self.session_key
        if not isinstance(key, str) or len(key) > _MAX_COOKIE:
            return super().load()
        found = _VERIFIED.get(key)
        if found is not None:
            signed_at, secret, data = found
            if secret is settings.SECRET_KEY and time.time() - signed_at <= self.get_session_cookie_age():
                return _copy(data)
            _VERIFIED.pop(key, None)
        data = super().load()  # Django's check; on a bad or expired cookie: {} and a new session
        if data:
            try:
                signed_at = signing.b62_decode(key.rsplit(":", 2)[1])
            except (IndexError, ValueError):
                return data
            _VERIFIED.keep(key, (signed_at, settings.SECRET_KEY, _copy(data)))
        return data

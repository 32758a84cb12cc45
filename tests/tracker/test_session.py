"""The session engine (``tracker.core.session``): Django's signed-cookie sessions, a verified cookie kept per
process. Kept or not, a cookie is trusted exactly when Django would trust it: a changed or forged one is
checked anew, an expired one is refused, a new secret key refuses the old cookies, and a view that changes
its session never changes what the next request with the same cookie reads."""
import time

import pytest
from django.core import signing

from tracker.core import session
from tracker.core.session import SessionStore

SALT = "django.contrib.sessions.backends.signed_cookies"


@pytest.fixture(autouse=True)
def empty():
    session._VERIFIED.clear()
    yield
    session._VERIFIED.clear()


def cookie(data, at=None):
    store = SessionStore()
    store.update(data)
    if at is None:
        store.save()
        return store.session_key
    real = time.time
    try:
        time.time = lambda: at
        store.save()
    finally:
        time.time = real
    return store.session_key


def load(key):
    return SessionStore(session_key=key).load()


def test_a_cookie_reads_the_same_kept_or_not_and_is_checked_once():
    key = cookie({"access": {"7": {"seat": "abc"}}, "lang": "ru"})
    assert load(key) == {"access": {"7": {"seat": "abc"}}, "lang": "ru"}
    assert key in session._VERIFIED
    assert load(key) == {"access": {"7": {"seat": "abc"}}, "lang": "ru"}


def test_a_changed_or_forged_cookie_is_checked_anew_even_after_the_real_one_was_kept():
    key = cookie({"access": {"7": {"host": "secret"}}})
    load(key)
    payload, stamp, sig = key.rsplit(":", 2)
    forged_payload = signing.b64_encode(b'{"access":{"8":{"host":"x"}}}').decode()
    for bad in (f"{forged_payload}:{stamp}:{sig}", f"{payload}:{stamp}:{sig[:-1]}A", key + "x", key[1:]):
        assert load(bad) == {}


def test_an_expired_cookie_is_refused_even_when_kept(settings):
    settings.SESSION_COOKIE_AGE = 100
    key = cookie({"lang": "en"}, at=time.time() - 90)
    assert load(key) == {"lang": "en"}
    real = time.time
    try:
        time.time = lambda: real() + 20  # the cookie is now 110 s old
        assert load(key) == {}
    finally:
        time.time = real
    assert key not in session._VERIFIED


def test_a_new_secret_key_refuses_the_kept_cookies(settings):
    key = cookie({"lang": "en"})
    assert load(key) == {"lang": "en"}
    settings.SECRET_KEY = "another secret key, long enough for the test " * 2
    assert load(key) == {}


def test_a_view_changing_its_session_does_not_change_the_kept_cookie():
    key = cookie({"access": {"7": {"seat": "abc"}}})
    first = load(key)
    first["access"]["7"]["seat"] = "changed"
    first["access"]["9"] = {}
    first["lang"] = "en"
    assert load(key) == {"access": {"7": {"seat": "abc"}}}


def test_a_page_reads_the_links_its_cookie_holds(client, db):
    from tracker.qmg.views import create_game  # a real request through the middleware, twice
    from gameplay.qmg.seating import DEFAULT_SEATING
    game = create_game("S", list(zip(["a", "b"], DEFAULT_SEATING[2])), {})
    client.get(f"/watch/{game.spectator_token}/")
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert client.get(f"/g/{game.pk}/").status_code == 200
    assert len(session._VERIFIED) >= 1

"""The per-client budget for creating games and board variants (tracker.core.limits)."""
import time
from types import SimpleNamespace

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from tests.tracker import test_fog_of_war_views as fow
from tests.tracker import test_generalissimus_views as gen
from tracker.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def budget(settings, tmp_path):
    settings.CACHES = {**settings.CACHES, "limits": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path / "limits")}}
    caches["limits"].clear()
    settings.CREATION_LIMIT = (3, 60)
    yield
    caches["limits"].clear()


def test_a_client_may_create_only_so_many_games_a_minute_of_any_kind(client, budget):
    gen.create(client, name="Один")
    fow.create(client)
    gen.create(client, name="Три")
    r = client.post(reverse("fog_of_war:new"), fow.form_data(name="Четыре"))
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "Nothing was created" in r.content.decode() or "ничего не создано" in r.content.decode().lower()
    r = client.post(reverse("generalissimus:new"), gen.setup_data(name="Пять"))
    assert r.status_code == 429
    assert Game.objects.count() == 3
    # another device on the network is not affected
    other = Client(REMOTE_ADDR="10.0.0.9")
    r = other.post(reverse("generalissimus:new"), gen.setup_data(name="Чужой"))
    assert r.status_code == 302


def test_a_refused_form_costs_nothing_and_reading_is_never_limited(client, budget):
    for _ in range(5):
        r = client.post(reverse("generalissimus:new"), gen.setup_data(name=""))
        assert r.status_code in (200, 400)
    for _ in range(5):
        assert client.get(reverse("home")).status_code == 200
    gen.create(client, name="Можно")


def test_board_variants_and_imports_count_too(client, budget):
    for i in range(2):
        r = client.post(reverse("boards"), {"name": f"Вариант {i}", "patch": "extends: standard\n"})
        assert r.status_code == 302
    gen.create(client, name="Раз")
    r = client.post(reverse("boards"), {"name": "Ещё", "patch": "extends: standard\n"})
    assert r.status_code == 429
    r = client.post(reverse("import_game"), {})
    assert r.status_code == 429


# ------------------------------------------------------------------------------------------
# The budget is taken before the view runs: creations that arrive together cannot all pass one check
# ------------------------------------------------------------------------------------------

def _middleware(get_response):
    from tracker.core.limits import CreationLimitMiddleware

    return CreationLimitMiddleware(get_response)


def _creation(address="10.0.0.7"):
    from django.test import RequestFactory

    return RequestFactory().post(reverse("generalissimus:new"), REMOTE_ADDR=address)


def test_a_creation_still_running_holds_its_place_in_the_budget(budget, settings):
    settings.CREATION_LIMIT = (1, 60)
    seen = []

    def create(request):  # while the first creation runs, the same client starts a second one
        if not seen:
            seen.append(None)
            seen.append(outer(_creation()).status_code)
        from django.http import HttpResponseRedirect

        return HttpResponseRedirect("/")

    outer = _middleware(create)
    assert outer(_creation()).status_code == 302
    assert seen[1] == 429  # checked and counted after the first finished, both would have passed


def test_a_creation_that_fails_or_is_refused_gives_its_place_back(budget, settings):
    from django.http import HttpResponse, HttpResponseRedirect

    settings.CREATION_LIMIT = (1, 60)

    def broken(request):
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        _middleware(broken)(_creation())
    assert _middleware(lambda r: HttpResponse(status=400))(_creation()).status_code == 400
    assert _middleware(lambda r: HttpResponseRedirect("/"))(_creation()).status_code == 302  # its place was free
    assert _middleware(lambda r: HttpResponseRedirect("/"))(_creation()).status_code == 429


def _redis_up() -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _redis_up(), reason="no Redis at 127.0.0.1:6379")
def test_in_redis_concurrent_creations_from_two_servers_share_one_budget(settings):
    """Twelve creations at once from one client, as two servers' request threads would send them, each server
    with its own cache connection to one Redis: exactly the budget is created, the rest get 429."""
    import threading
    import uuid

    from django.core.cache.backends.redis import RedisCache
    from django.http import HttpResponseRedirect

    import tracker.core.limits as limits

    prefix = f"test-limits-{uuid.uuid4().hex}"
    servers = [RedisCache("redis://127.0.0.1:6379/0", {"KEY_PREFIX": prefix}) for _ in range(2)]
    settings.CREATION_LIMIT = (5, 60)
    created, refused, start = [], [], threading.Barrier(12)

    def create(request):
        time.sleep(0.02)  # the creation takes a moment: the others arrive meanwhile
        return HttpResponseRedirect("/")

    local = threading.local()

    class Caches:  # each thread is a request on server 0 or 1
        def __getitem__(self, name):
            assert name == "limits"
            return servers[local.server]

    def request(i):
        local.server = i % 2
        start.wait()
        status = _middleware(create)(_creation("10.0.0.42")).status_code
        (created if status == 302 else refused).append(status)

    real = limits.caches
    limits.caches = Caches()
    try:
        threads = [threading.Thread(target=request, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        limits.caches = real  # the counter (under a prefix of its own) expires with its window
    assert len(created) == 5 and len(refused) == 7 and set(refused) == {429}


# --- the window slides ----------------------------------------------------------------------------

class Clock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


def test_the_window_slides_no_double_budget_across_a_slot_boundary(client, budget, monkeypatch):
    """Three games (the budget) a second before a fixed slot of 60 s ends, then a fourth right after it: a fixed
    slot alone would let it (and two more) through; the last 60 s already hold three."""
    from tracker.core import limits

    clock = Clock(1_000_000 * 60 - 1.0)  # one second before a slot ends
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=clock))  # the budget's clock only
    for name in ("Раз", "Два", "Три"):
        gen.create(client, name=name)
    clock.now += 2.0  # a second into the next slot
    r = client.post(reverse("generalissimus:new"), gen.setup_data(name="Четыре"))
    assert r.status_code == 429
    wait = int(r["Retry-After"])
    assert 0 < wait <= 60
    clock.now += wait - 1
    assert client.post(reverse("generalissimus:new"), gen.setup_data(name="Рано")).status_code == 429
    clock.now += 1  # as the page said: one more fits now
    r = client.post(reverse("generalissimus:new"), gen.setup_data(name="Четыре"))
    assert r.status_code == 302
    assert Game.objects.count() == 4


def test_the_budget_comes_back_as_the_window_slides(client, budget, monkeypatch):
    """The previous slot counts by the part of it still inside the window (its creations taken as spread over
    it): three games 10 s into a slot; 80 s later half of that slot is inside the window (1.5 games), so one
    more fits and the next does not; in the slot after, the three are out of the window."""
    from tracker.core import limits

    clock = Clock(2_000_000 * 60 + 10.0)
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=clock))  # the budget's clock only
    for name in ("Раз", "Два", "Три"):
        gen.create(client, name=name)
    clock.now += 80.0
    gen.create(client, name="Четыре")
    assert client.post(reverse("generalissimus:new"), gen.setup_data(name="Пять")).status_code == 429
    clock.now += 60.0  # two slots after the first three: only "Четыре" is inside the window
    for name in ("Пять", "Шесть"):
        gen.create(client, name=name)
    assert client.post(reverse("generalissimus:new"), gen.setup_data(name="Семь")).status_code == 429


@pytest.mark.parametrize("count", [1, 3, 10])
def test_the_wait_a_refusal_names_is_exactly_when_one_more_fits(count):
    from tracker.core.limits import _over, _wait

    window = 60
    for taken in range(0, count + 3):  # this slot's count before the refused one
        for before in range(0, 2 * count + 2):
            for into in (0.0, 0.5, 17.3, 59.9):
                if not _over(count, window, taken + 1, before, into):
                    continue  # not refused now
                wait = _wait(count, window, taken, before, into)
                later = into + wait
                # one more fits after ``wait`` seconds (in this slot, or in the next one, where this slot is the previous)
                fits = (not _over(count, window, taken + 1, before, later)) if later < window \
                    else not _over(count, window, 1, taken, later - window)
                assert fits, (count, taken, before, into, wait)
                earlier = later - 1  # and not a second earlier
                if wait > 1:
                    still = _over(count, window, taken + 1, before, earlier) if earlier < window \
                        else _over(count, window, 1, taken, earlier - window)
                    assert still, (count, taken, before, into, wait)

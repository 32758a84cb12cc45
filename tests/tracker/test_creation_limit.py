"""The per-client budget for creating games and board variants (tracker.core.limits)."""
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

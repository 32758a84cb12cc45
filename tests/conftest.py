import pytest
from django.core.cache import cache
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from django.core.management import call_command
from django.db import connections

# Property tests judge what the code does, never how long an example takes on a shared machine: no deadline and
# no health check on the time spent making examples (a test with its own list of checks names too_slow itself).
hypothesis_settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("project")


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Tests render templates without running collectstatic first."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _no_creation_budget(settings):
    """Tests create many games from one address; tests/tracker/test_creation_limit.py turns it on."""
    settings.CREATION_LIMIT = None


@pytest.fixture(autouse=True)
def _empty_render_cache():
    """Every test starts with an empty render cache (the states and fragments of earlier tests' game versions)."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def real_db(transactional_db, tmp_path):
    """A database every thread opens its own connection to, as in production.

    Django's SQLite test database lives in memory, and a live server would then share the test's one
    connection between all its request threads (a poll reading the log while a move is written fails
    now and then with "database table is locked"); on SQLite this moves the default database to a file
    for the test (WAL, ``BEGIN IMMEDIATE``). PostgreSQL is used as it is."""
    conn = connections["default"]
    if conn.vendor != "sqlite" or not conn.is_in_memory_db():
        yield
        return
    saved_name, saved_connection = conn.settings_dict["NAME"], conn.connection
    conn.connection = None  # keep the in-memory test database open and untouched
    conn.settings_dict["NAME"] = str(tmp_path / "concurrency.sqlite3")
    try:
        call_command("migrate", verbosity=0, interactive=False)
        assert not conn.is_in_memory_db()
        yield
    finally:
        conn.close()
        conn.settings_dict["NAME"] = saved_name
        conn.connection = saved_connection

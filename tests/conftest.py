import pytest


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Tests render templates without running collectstatic first."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }

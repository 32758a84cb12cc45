"""The production settings for servers the tests start with ``manage.py serve --no-prepare``
(``tests/serve_process.py``): static files served as they are in the checkout (WhiteNoise finds them
with Django's finders), without ``collectstatic`` and its manifest. Nothing else differs."""
from tracker.settings import *  # noqa: F401,F403
from tracker.settings import STORAGES

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
WHITENOISE_USE_FINDERS = True

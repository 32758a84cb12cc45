"""ASGI entry point: what ``manage.py serve`` runs (gunicorn with uvicorn workers).

Django's own ASGI handler: each request's synchronous views and middleware run in a worker thread, and
the game streams (``tracker.core.stream``) are async views served by the event loop."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")

application = get_asgi_application()

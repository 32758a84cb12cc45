"""ASGI entry point: what ``manage.py serve`` runs (gunicorn with uvicorn workers). Ordinary views
stay synchronous (Django runs them in its thread pool); the game streams are async views."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")
application = get_asgi_application()

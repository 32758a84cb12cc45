"""Django settings for the wargame companion.

Defaults are for a gaming club's LAN: the app is served by gunicorn on 0.0.0.0:8000,
phones open it by the machine's IP address, there is no internet. Production knobs
come from environment variables (see README, "Settings").
"""
import os
import secrets
from pathlib import Path

import dj_database_url
import django
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _secret_key():
    """DJANGO_SECRET_KEY, else a key generated once and kept in .secret_key (git-ignored)."""
    key = os.environ.get("DJANGO_SECRET_KEY")
    if key:
        return key
    path = BASE_DIR / ".secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        try:
            path.write_text(key)
            path.chmod(0o600)
        except OSError:
            pass
        return key


SECRET_KEY = _secret_key()
DEBUG = _env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "*").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "tracker",
]
# named template partials ({% partialdef %}, "template.html#name"): built into Django from 6.0, the
# django-template-partials package before it (its tags as builtins, so templates never load them)
PARTIALS_PACKAGE = django.VERSION < (6, 0)
if PARTIALS_PACKAGE:
    INSTALLED_APPS.append("template_partials.apps.SimpleAppConfig")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tracker.middleware.SecurityHeadersMiddleware",
    "tracker.core.limits.BodySizeMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tracker.middleware.HtmxFullPageErrorMiddleware",
    "tracker.core.limits.CreationLimitMiddleware",
    "tracker.core.limits.UnavailableGameMiddleware",
]

ROOT_URLCONF = "tracker.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
if PARTIALS_PACKAGE:
    del TEMPLATES[0]["APP_DIRS"]
    TEMPLATES[0]["OPTIONS"]["builtins"] = ["template_partials.templatetags.partials"]
    TEMPLATES[0]["OPTIONS"]["loaders"] = [("template_partials.loader.Loader", [
        ("django.template.loaders.cached.Loader", [
            "django.template.loaders.filesystem.Loader", "django.template.loaders.app_directories.Loader"])])]

WSGI_APPLICATION = "tracker.wsgi.application"
ASGI_APPLICATION = "tracker.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and _env_bool("DJANGO_DB_POOL"):
    # a pool per worker process, shared by its request threads and the live streams' link checks (manage.py serve)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2, "max_size": int(os.environ.get("DJANGO_DB_POOL_SIZE", "12")), "timeout": 20}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        # WAL with synchronous=NORMAL: a commit is not flushed to the disk at once (a checkpoint is). A crash or
        # restart of the app loses nothing committed; only a power cut or an OS crash may lose the last moves
        # (never corrupt the file). Saves a disk flush (~10 ms here) on every move.
        {"timeout": 20, "transaction_mode": "IMMEDIATE",
         "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CSRF_FAILURE_VIEW = "tracker.core.errors.csrf_failure"

def _caches():
    """Django's local-memory cache (the render cache: each version's state and the fragments every viewer of
    it shares) and a file cache (the creation budget, shared by the worker processes of one machine) by
    default; with DJANGO_CACHE_URL (e.g. redis://127.0.0.1:6379/0) both in Redis, so several servers share
    one budget and one render cache. ``{% cache %}`` uses the "template_fragments" alias: the same store."""
    url = os.environ.get("DJANGO_CACHE_URL", "").strip()
    if url:
        shared = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        render = {**shared, "KEY_PREFIX": "render"}
        return {"default": render, "template_fragments": render, "limits": {**shared, "KEY_PREFIX": "limits"}}
    # per game version a few entries per language: room for a club's evening of 200 tables
    render = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "render",
              "OPTIONS": {"MAX_ENTRIES": 20_000}}
    return {
        "default": render,
        "template_fragments": render,  # one LOCATION: one local-memory store
        "limits": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                   "LOCATION": os.environ.get("LIMITS_CACHE_DIR", str(BASE_DIR / ".cache" / "limits"))},
    }


CACHES = _caches()

# The live table (tracker.core.live, tracker.core.stream): which bus tells other processes and servers
# of a move (auto: PostgreSQL LISTEN/NOTIFY on PostgreSQL, else a per-process watcher of the versions)
LIVE_BUS = os.environ.get("DJANGO_LIVE_BUS", "auto")
if LIVE_BUS not in ("auto", "local", "postgres"):
    raise ValueError("DJANGO_LIVE_BUS must be auto, local or postgres")
LIVE_WATCH_SECONDS = float(os.environ.get("DJANGO_LIVE_WATCH_SECONDS", "0.1"))
LIVE_SAFETY_SECONDS = 10.0
LIVE_HEARTBEAT_SECONDS = 15.0
LIVE_STREAM_SECONDS = 300.0
LIVE_RETRY_MS = 1000
# threads per server process that run the synchronous requests (tracker.asgi): the rest wait in its event loop,
# not as threads (a burst of taps on SQLite would otherwise queue as threads on the write lock)
PAGE_THREADS = max(1, int(os.environ.get("DJANGO_PAGE_THREADS", "4")))
# open streams one client address may hold in one server process (0: no bound)
LIVE_STREAMS_PER_CLIENT = int(os.environ.get("DJANGO_STREAMS_PER_CLIENT", "24"))

# each client address may create this many games (any kind, imports included) and board variants per
# this many seconds (tracker.core.limits); DJANGO_CREATION_LIMIT=0 switches the budget off
CREATION_LIMIT = (int(os.environ.get("DJANGO_CREATION_LIMIT", "10")), 60)
if CREATION_LIMIT[0] <= 0:
    CREATION_LIMIT = None

SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no session table: a phone's links live in its cookie
SESSION_COOKIE_AGE = 60 * 60 * 24 * 60
SESSION_COOKIE_SECURE = _env_bool("DJANGO_SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = _env_bool("DJANGO_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if os.environ.get("DJANGO_BEHIND_HTTPS_PROXY"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}

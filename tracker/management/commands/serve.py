"""python manage.py serve [--bind 0.0.0.0:8000] [--workers N]

Prepares the app (migrations, static files) and replaces itself with gunicorn running uvicorn
workers (ASGI: the game pages' live streams are async views; everything else is Django as before),
listening on every interface so phones on the LAN can join.
"""
import os
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand

from tracker.lan import lan_addresses


class Command(BaseCommand):
    help = "Migrate, collect static files and start gunicorn on 0.0.0.0:8000."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default=os.environ.get("BIND", "0.0.0.0:8000"))
        parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_WORKERS", "2")))
        parser.add_argument("--no-prepare", action="store_true", help="skip migrate and collectstatic")

    def handle(self, *args, bind, workers, no_prepare, **options):
        if not no_prepare:
            call_command("migrate", interactive=False, verbosity=1)
            call_command("collectstatic", interactive=False, verbosity=0)
        port = bind.rsplit(":", 1)[-1]
        self.stdout.write(f"Serving on http://{bind}/")
        for addr in lan_addresses():
            self.stdout.write(f"  phones on this network: http://{addr}:{port}/")
        self.stdout.flush()
        access_log = os.environ.get("WEB_ACCESS_LOG", "")
        # without an access log: a worker that does not make a log record for every request (tracker.workers)
        worker = "uvicorn_worker.UvicornWorker" if access_log else "tracker.workers.QuietUvicornWorker"
        argv = [sys.executable, "-m", "gunicorn", "tracker.asgi:application", "--bind", bind,
                "--workers", str(workers), "--worker-class", worker, "--graceful-timeout", "10",
                "--keep-alive", "75"]  # phones keep their connections open between taps (as nginx does by default)
        if access_log:
            argv += ["--access-logfile", access_log]
        os.environ.setdefault("DJANGO_DB_POOL", "1")  # PostgreSQL: a connection pool per worker (tracker.settings)
        os.execv(sys.executable, argv)

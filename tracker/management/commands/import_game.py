"""python manage.py import_game game.json   ('-' reads standard input)

Rebuilds a game exported by ``export_game`` (new join, spectator and host links), checking that
its event log replays to its state. Bad input: a one-line error on stderr and exit status 2,
never a traceback; nothing is created then.
"""
import sys

from django.core.management.base import BaseCommand
from django.urls import reverse

from tracker.core import transfer


class Command(BaseCommand):
    help = "Import a game exported as JSON; prints the new game's number and its host link."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the exported JSON file ('-' for standard input)")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                stream = getattr(sys.stdin, "buffer", sys.stdin)
                data = stream.read(transfer.MAX_BYTES + 1)
            else:
                with open(path, "rb") as fh:
                    data = fh.read(transfer.MAX_BYTES + 1)
            game = transfer.import_game(transfer.loads(data))
        except FileNotFoundError:
            self._fail(f"file not found: {path}")
        except OSError as exc:
            self._fail(f"cannot read {path}: {exc.strerror or exc}")
        except transfer.ImportError_ as exc:
            self._fail(str(exc))
        self.stdout.write(f"Imported game {game.pk}: {game.name}")
        self.stdout.write(f"Host link: {reverse('host_link', args=[game.host_token])}")

    def _fail(self, message: str):
        lines = str(message).splitlines() or ["error"]
        self.stderr.write(f"import_game: {lines[0]}"[:500])
        sys.exit(2)

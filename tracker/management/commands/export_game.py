"""python manage.py export_game ID > game.json

Writes one game as the versioned JSON document of ``tracker.core.transfer`` (no tokens, no private
notes). Bad input: a one-line error on stderr and exit status 2, never a traceback.

A running game whose state holds hidden information (The Fog of War's hands and operations,
Generalissimus' face-down orders) is refused, as on the web page, unless ``--with-hidden`` is given
to move a running game night to another machine: that file shows every hand, so keep it from the
players.
"""
import sys

from django.core.management.base import BaseCommand

from tracker.core import transfer
from tracker.core.models import Game


class Command(BaseCommand):
    help = "Export a game (its seats, whole event log and state) as JSON on standard output."

    def add_arguments(self, parser):
        parser.add_argument("game_id", help="the number of the game (as in /g/<number>/)")
        parser.add_argument("--with-hidden", action="store_true",
                            help="export a running game with its hidden cards (to move it to another machine)")

    def handle(self, *args, **options):
        raw = options["game_id"]
        try:
            game = Game.objects.get(pk=int(raw))
        except (ValueError, OverflowError, Game.DoesNotExist):
            self.stderr.write(f"export_game: no game with the number {raw!r}"[:300])
            sys.exit(2)
        if transfer.holds_hidden_information(game) and not options["with_hidden"]:
            self.stderr.write("export_game: the game is running and its file would show hidden cards; "
                              "add --with-hidden to move it to another machine")
            sys.exit(2)
        self.stdout.write(transfer.dumps(transfer.export_game(game)))

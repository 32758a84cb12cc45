"""python manage.py qmg_play SCENARIO.json [--board BOARD.yaml] [--lang ru|en]
python manage.py qmg_play --check DIR [--board BOARD.yaml]

Runs a scenario (a table set up by hand and a list of commands) through the QMG engine — the same
code path as the web table — and prints, per command, whether it was applied, why, and the card
steps open after it, then the final table, as JSON (schema in docs/qmg-engine.md). Bad input: one line on
stderr and exit status 2, never a traceback. ``qmg_check`` stays the tool for static positions.

``--check DIR`` runs every rulings-corpus file under DIR (``gameplay/qmg/rulings/README.md``): one line
per file (agree / disagree with its first disagreement / bad input), a summary line; exit 1 on any
disagreement, 2 on any bad input.
"""
import json
import sys

from django.core.management.base import BaseCommand

from gameplay.common import corpus
from gameplay.qmg import BoardError, PositionError, load_board
from gameplay.qmg.rulings import check_dir, read_json
from gameplay.qmg.scenario import run_scenario

MAX_BYTES = 256 * 1024  # a scenario file larger than this is refused before it is parsed


class Command(BaseCommand):
    help = "Play a Quartermaster General scenario (setup + commands) through the engine: card rulings step by step."

    def add_arguments(self, parser):
        parser.add_argument("scenario", nargs="?", help="JSON file with the scenario ('-' for standard input)")
        parser.add_argument("--check", metavar="DIR",
                            help="check every rulings-corpus file (*.json) under DIR against the engine")
        parser.add_argument("--board", help="a board file or board patch file (YAML); default: the standard board")
        parser.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of the step texts")

    def handle(self, *args, **options):
        if options["check"]:
            return self.check_corpus(options)
        if not options["scenario"]:
            self.stderr.write("qmg_play: give a scenario file or --check DIR")
            sys.exit(2)
        try:
            board = load_board(options["board"])
            data = read_scenario(options["scenario"])
            result = run_scenario(data, board, lang=options["lang"])
        except (BoardError, PositionError, OSError, ValueError, RecursionError, KeyError, TypeError) as exc:
            self.stderr.write((f"qmg_play: {exc}".splitlines() or ["qmg_play: bad input"])[0])
            sys.exit(2)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))


    def check_corpus(self, options):
        if options["scenario"]:
            self.stderr.write("qmg_play: --check takes a directory, not a scenario file as well")
            sys.exit(2)
        try:
            verdicts = check_dir(options["check"], load_board(options["board"]))
        except (BoardError, PositionError, OSError, ValueError) as exc:
            self.stderr.write((f"qmg_play: {exc}".splitlines() or ["qmg_play: bad input"])[0])
            sys.exit(2)
        lines, status = corpus.report(verdicts)
        self.stdout.write("\n".join(lines))
        if status:
            sys.exit(status)

def read_scenario(path):
    """The scenario file (``-``: standard input), at most MAX_BYTES."""
    return read_json(path, MAX_BYTES, sys.stdin.buffer if path == "-" else None)

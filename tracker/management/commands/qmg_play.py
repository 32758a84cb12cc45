"""python manage.py qmg_play SCENARIO.json [--board BOARD.yaml] [--lang ru|en]

Runs a scenario (a table set up by hand and a list of commands) through the QMG engine — the same
code path as the web table — and prints, per command, whether it was applied, why, and the card
steps open after it, then the final table, as JSON (schema in README). Bad input: one line on
stderr and exit status 2, never a traceback. ``qmg_check`` stays the tool for static positions.
"""
import json
import sys

from django.core.management.base import BaseCommand

from gameplay.qmg import BoardError, PositionError, load_board
from gameplay.qmg.scenario import run_scenario

MAX_BYTES = 256 * 1024  # a scenario file larger than this is refused before it is parsed


class Command(BaseCommand):
    help = "Play a Quartermaster General scenario (setup + commands) through the engine: card rulings step by step."

    def add_arguments(self, parser):
        parser.add_argument("scenario", help="JSON file with the scenario ('-' for standard input)")
        parser.add_argument("--board", help="a board file or board patch file (YAML); default: the standard board")
        parser.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of the step texts")

    def handle(self, *args, **options):
        try:
            board = load_board(options["board"])
            data = read_scenario(options["scenario"])
            result = run_scenario(data, board, lang=options["lang"])
        except (BoardError, PositionError, OSError, ValueError, RecursionError, KeyError, TypeError) as exc:
            self.stderr.write((f"qmg_play: {exc}".splitlines() or ["qmg_play: bad input"])[0])
            sys.exit(2)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))


def read_scenario(path):
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError as exc:
        raise PositionError(f"file not found: {path}") from exc
    if len(raw) > MAX_BYTES:
        raise PositionError(f"the scenario is larger than {MAX_BYTES // 1024} KB")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise PositionError(f"the file is not UTF-8 text: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise PositionError(f"malformed JSON: {exc}") from exc

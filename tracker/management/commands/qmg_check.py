"""python manage.py qmg_check POSITION.json [--board BOARD.yaml] [--lang ru|en]

Prints the engine's view of a QMG position as JSON (schema in docs/qmg-engine.md). Bad input: a
one-line error on stderr and exit status 2, never a traceback.
"""
import json
import sys

from django.core.management.base import BaseCommand

from gameplay.qmg import BoardError, PositionError, check_position, load_board


class Command(BaseCommand):
    help = "Check a Quartermaster General position: supply, straits, victory steps, sudden victory, actions."

    def add_arguments(self, parser):
        parser.add_argument("position", help="JSON file with the position ('-' for standard input)")
        parser.add_argument("--board", help="a board file or board patch file (YAML); default: the standard board")
        parser.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of the reasons")

    def handle(self, *args, **options):
        try:
            board = load_board(options["board"])
            data = _read_json(options["position"])
            result = check_position(data, board, lang=options["lang"])
        except (BoardError, PositionError, OSError, ValueError, RecursionError) as exc:
            self.stderr.write(f"qmg_check: {exc}".splitlines()[0])
            sys.exit(2)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))


def _read_json(path):
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise PositionError(f"malformed JSON: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise PositionError(f"the file is not UTF-8 text: {exc}") from exc
    except FileNotFoundError as exc:
        raise PositionError(f"file not found: {path}") from exc

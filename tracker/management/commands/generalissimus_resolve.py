"""Resolve one Generalissimus JSON case file and print the result as JSON."""
import json
import sys

from django.core.management.base import BaseCommand

from gameplay.generalissimus import CaseError, resolve_case


class Command(BaseCommand):
    help = ("Resolve one Generalissimus case from a JSON file: a board, settings and one action (a card, a whole "
            "reveal step of both sides, a deployment check or a correction) with its dice and the owners' choices.")

    def add_arguments(self, parser):
        parser.add_argument("case_file", help="path to the case JSON file")

    def handle(self, *args, **options):
        path = options["case_file"]
        try:
            with open(path, encoding="utf-8") as fh:
                case = json.load(fh)
            result = resolve_case(case)
        except OSError as exc:
            self._fail(f"cannot read {path}: {exc.strerror or exc}")
        except json.JSONDecodeError as exc:
            self._fail(f"malformed JSON in {path}: {exc.msg} (line {exc.lineno}, column {exc.colno})")
        except CaseError as exc:
            self._fail(f"bad case: {exc}")
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

    def _fail(self, message: str):
        self.stderr.write("error: " + " ".join(message.split()))
        sys.exit(2)

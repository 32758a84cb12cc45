"""Compute one Fog of War battle from a JSON case file and print the result as JSON."""
import json

from django.core.management.base import BaseCommand, CommandError

from gameplay.fog_of_war.case import CaseError, battle_case


class Command(BaseCommand):
    help = "Fog of War: compute A, D, the outcome and the resulting piles of one battle (schema: docs/fog-of-war.md, 'Resolving one battle')."

    def add_arguments(self, parser):
        parser.add_argument("case_file", help="path to a JSON battle case")

    def handle(self, *args, **options):
        path = options["case_file"]
        try:
            with open(path, encoding="utf-8") as fh:
                case = json.load(fh)
            result = battle_case(case)
        except FileNotFoundError:
            raise CommandError(f"case file not found: {path}", returncode=2)
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}".splitlines()[0], returncode=2)
        except json.JSONDecodeError as exc:
            raise CommandError(f"malformed JSON in {path}: {exc}", returncode=2)
        except CaseError as exc:
            raise CommandError(f"bad battle case: {exc}", returncode=2)
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))

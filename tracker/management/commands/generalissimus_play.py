"""python manage.py generalissimus_play SCENARIO.json [--lang ru|en]
python manage.py generalissimus_play --check DIR

Plays a «Генералиссимус» scenario (a battle set up by hand and a list of the stepper's commands, each
with the answer it expects) through the engine — the same code path as the web table — and prints, per
command, whether it was applied, why (in the chosen language) and any disagreement with the scenario,
then the final state, as JSON. Bad input: one line on stderr and exit status 2, never a traceback.

``--check DIR`` runs every rulings-corpus file (``*.json``) under DIR: one line per file (agree /
disagree with its first disagreement / bad input), a summary line; exit 1 on any disagreement, 2 on any
bad input. Format and commands: docs/generalissimus.md («Сценарии и разборы»).
"""
import json
import sys

from django.core.management.base import BaseCommand

from gameplay.common import corpus
from gameplay.generalissimus.scenario import MAX_BYTES, ScenarioError, check_dir, read_json, run_scenario


class Command(BaseCommand):
    help = "Play a «Генералиссимус» scenario (set-up + commands with expected answers) through the engine."

    def add_arguments(self, parser):
        parser.add_argument("scenario", nargs="?", help="JSON file with the scenario ('-' for standard input)")
        parser.add_argument("--check", metavar="DIR", help="check every rulings file (*.json) under DIR")
        parser.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of the answers")

    def handle(self, *args, **options):
        if options["check"]:
            return self.check_corpus(options)
        if not options["scenario"]:
            self._fail("give a scenario file or --check DIR")
        try:
            if options["scenario"] == "-":
                raw = sys.stdin.read(MAX_BYTES + 1)
                if len(raw) > MAX_BYTES:
                    raise ScenarioError(f"larger than {MAX_BYTES} bytes")
                data = json.loads(raw)
            else:
                data = read_json(options["scenario"])
            result = run_scenario(data)
        except (ScenarioError, OSError, ValueError, RecursionError) as exc:
            self._fail(str(exc))
        lang = options["lang"]
        for step in result["commands"]:
            step["says"] = step.pop("reason")[lang]
            step["notes"] = [n[lang] for n in step["notes"]]
        self.stdout.write(json.dumps(result, ensure_ascii=False, indent=2))
        if result["disagreements"]:
            sys.exit(1)

    def check_corpus(self, options):
        if options["scenario"]:
            self._fail("--check takes a directory, not a scenario file as well")
        try:
            verdicts = check_dir(options["check"])
        except (ScenarioError, OSError) as exc:
            self._fail(str(exc))
        lines, status = corpus.report(verdicts)
        self.stdout.write("\n".join(lines))
        if status:
            sys.exit(status)

    def _fail(self, message: str):
        self.stderr.write("generalissimus_play: " + (" ".join(str(message).split()) or "bad input"))
        sys.exit(2)

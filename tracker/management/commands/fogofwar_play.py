"""python manage.py fogofwar_play SCENARIO.json [--lang ru|en] [--json]
python manage.py fogofwar_play --check DIR

Plays a Fog of War scenario (a set-up and a list of commands, each with its expected answer;
docs/fog-of-war.md, "Scenarios and rulings") through the engine's stepper — the same code path as the web
table — and prints each command's answer (accepted or refused, its code and its reason) and the final table.
``--check DIR`` runs every ``*.json`` under DIR: one line per file (agree / disagree with the first
disagreement / bad input) and a summary; exit status 1 on any disagreement, 2 on any bad input (also for a
bad single file), never a traceback.
"""
import json
import sys

from django.core.management.base import BaseCommand

from gameplay.common import corpus
from gameplay.fog_of_war.scenario import ScenarioError, check_dir, read, run


class Command(BaseCommand):
    help = "Play a Fog of War scenario (set-up + commands with their expected answers) through the engine."

    def add_arguments(self, parser):
        parser.add_argument("scenario", nargs="?", help="JSON file with the scenario ('-' for standard input)")
        parser.add_argument("--check", metavar="DIR", help="check every scenario (*.json) under DIR")
        parser.add_argument("--lang", choices=["ru", "en"], default="ru", help="language of the reasons")
        parser.add_argument("--json", action="store_true", help="print the whole report as JSON")

    def fail(self, message: str):
        self.stderr.write((f"fogofwar_play: {message}".splitlines() or ["fogofwar_play: bad input"])[0])
        sys.exit(2)

    def handle(self, *args, **options):
        if options["check"]:
            if options["scenario"]:
                self.fail("--check takes a directory, not a scenario file as well")
            try:
                verdicts = check_dir(options["check"])
            except ScenarioError as exc:
                self.fail(str(exc))
            lines, status = corpus.report(verdicts)
            self.stdout.write("\n".join(lines))
            if status:
                sys.exit(status)
            return
        if not options["scenario"]:
            self.fail("give a scenario file or --check DIR")
        try:
            report = run(read(options["scenario"], sys.stdin))
        except (ScenarioError, UnicodeDecodeError, RecursionError) as exc:
            self.fail(str(exc))
        en = options["lang"] == "en"
        if options["json"]:
            self.stdout.write(json.dumps({
                "kind": report.kind, "agrees": report.agrees, "problems": report.problems,
                "steps": [{"n": s.n, "command": s.command, "ok": s.ok, "code": s.code, "reason": s.en if en else s.ru,
                           "problems": s.problems} for s in report.steps],
                "final": report.final}, ensure_ascii=False, indent=2))
        else:
            for s in report.steps:
                mark = "accepted" if s.ok else "refused "
                flag = "" if not s.problems else "   ✗ " + "; ".join(s.problems)
                self.stdout.write(f"{s.n:3}. {s.command['type']:<18} {s.command.get('side') or '':<6} {mark} "
                                  f"[{s.code}] {s.en if en else s.ru}{flag}")
            self.stdout.write("final: " + json.dumps(report.final, ensure_ascii=False))
            for p in report.problems:
                self.stdout.write(f"✗ {p}")
        if not report.agrees:
            sys.exit(1)

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
from pathlib import Path

from django.core.management.base import BaseCommand

from gameplay.fog_of_war.scenario import ScenarioError, run

MAX_BYTES = 256 * 1024  # a scenario file larger than this is refused before it is parsed


def read(path: str):
    data = sys.stdin.read(MAX_BYTES + 1) if path == "-" else None
    if data is None:
        p = Path(path)
        if not p.is_file():
            raise ScenarioError(f"no scenario file {path}")
        if p.stat().st_size > MAX_BYTES:
            raise ScenarioError(f"{path}: larger than {MAX_BYTES} bytes")
        data = p.read_text(encoding="utf-8")
    if len(data) > MAX_BYTES:
        raise ScenarioError(f"{path}: larger than {MAX_BYTES} bytes")
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: malformed JSON ({exc})") from None


def check_dir(root: str) -> list[tuple[str, str, str]]:
    """(file, verdict, detail) for every ``*.json`` under ``root``: ``agree``, ``disagree`` or ``bad input``."""
    base = Path(root)
    if not base.is_dir():
        raise ScenarioError(f"no directory {root}")
    out = []
    for path in sorted(base.rglob("*.json")):
        name = str(path.relative_to(base))
        try:
            report = run(read(str(path)))
        except (ScenarioError, UnicodeDecodeError, RecursionError) as exc:
            out.append((name, "bad input", str(exc).splitlines()[0] if str(exc) else "bad input"))
            continue
        out.append((name, "agree", "") if report.agrees else (name, "disagree", report.problems[0]))
    return out


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
            counts = {"agree": 0, "disagree": 0, "bad input": 0}
            for name, verdict, detail in verdicts:
                counts[verdict] += 1
                self.stdout.write(f"{verdict:9} {name}" + (f": {detail}" if detail else ""))
            self.stdout.write(f"{len(verdicts)} scenarios: {counts['agree']} agree, {counts['disagree']} disagree, "
                              f"{counts['bad input']} bad input")
            if counts["bad input"]:
                sys.exit(2)
            if counts["disagree"]:
                sys.exit(1)
            return
        if not options["scenario"]:
            self.fail("give a scenario file or --check DIR")
        try:
            report = run(read(options["scenario"]))
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

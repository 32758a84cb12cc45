"""House rules that code review would otherwise have to remember."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_django_import_in_gameplay():
    offenders = []
    for path in (ROOT / "gameplay").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*(import django|from django)", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}")
    assert offenders == []


def test_no_remote_assets_in_templates_and_static():
    pattern = re.compile(r"https?://(?!www\.w3\.org)")
    offenders = []
    for folder in ("templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".html", ".css", ".js", ".svg"} and ".min." not in path.name:
                if pattern.search(path.read_text(encoding="utf-8", errors="replace")):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []

"""battle_case() and the fogofwar_battle management command."""
import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from gameplay.fog_of_war.case import CaseError, battle_case

ROOT = Path(__file__).resolve().parents[2]
F01 = {"attack": ["L3", "L2", "Z", "N2"], "defence": ["L2", "F1"], "neutral": ["L1"], "seed": 7}


def test_case_f01_quagmire():
    out = battle_case(F01)
    assert (out["A"], out["D"], out["outcome"], out["control"]) == (5, 4, "quagmire", "unchanged")
    assert out["piles"]["attacker"]["discard"] == ["a3:Z", "a4:N2"]
    assert len(out["piles"]["attacker"]["losses"]) == 1 and len(out["piles"]["defender"]["losses"]) == 1
    assert out["piles"]["defender"]["losses"][0].startswith("d")
    assert out["province_card"] == {"attacker": "quagmire", "defender": "front"}
    assert battle_case(F01) == out  # a seed makes the halving reproducible


def test_case_victory_with_chosen_wins_and_superiority():
    out = battle_case({"attack": ["L3", "L3", "L2", "L1"], "defence": ["L3"], "winter": True, "climate": "snow",
                       "wheel": "A+1", "wins_choice": ["a1:L3", "a3:L2"], "superiority": "attacker"})
    assert (out["A"], out["D"], out["outcome"]) == (11, 5, "victory")
    assert out["piles"]["attacker"]["stays"] == ["a2:L3", "a4:L1"]
    assert out["superiority_passes_to"] == "defender" and out["control"] == "attacker"


def test_case_illegal_choice_is_a_refusal_not_an_error():
    out = battle_case({"attack": ["L3", "L1"], "defence": ["L2"], "wins_choice": ["a2:L1"]})
    assert out["legal"] is False and out["reason_ru"] and out["reason_en"] and out["rule"]


@pytest.mark.parametrize("bad", [
    [], {"attack": []}, {"attack": ["Q9"]}, {"attack": ["L1"], "kind": "air"}, {"attack": ["L1"], "foo": 1},
    {"attack": ["L1"], "winter": "yes"}, {"attack": ["L1"], "quagmire_choice": {"x": []}},
    {"attack": [{"id": "x", "land": 1}, {"id": "x", "land": 2}]}, {"attack": [{"category": "unknown"}]},
    {"attack": ["L1"], "seed": True},
])
def test_case_errors(bad):
    with pytest.raises(CaseError) as exc:
        battle_case(bad)
    assert "\n" not in str(exc.value)


def _write(tmp_path, data):
    path = tmp_path / "case.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_command_prints_json(tmp_path):
    out = StringIO()
    call_command("fogofwar_battle", _write(tmp_path, F01), stdout=out)
    data = json.loads(out.getvalue())
    assert data == battle_case(F01)
    assert '\n  "A": 5' in out.getvalue()


@pytest.mark.parametrize("content", [None, "{not json", {"attack": "L3"}])
def test_command_errors_via_call_command(tmp_path, content):
    path = str(tmp_path / "missing.json") if content is None else _write(tmp_path, content)
    with pytest.raises(CommandError) as exc:
        call_command("fogofwar_battle", path)
    assert exc.value.returncode == 2


@pytest.mark.parametrize("content", [None, "{not json", {"attack": []}])
def test_command_exit_status_2_without_traceback(tmp_path, content):
    path = str(tmp_path / "missing.json") if content is None else _write(tmp_path, content)
    proc = subprocess.run([sys.executable, "manage.py", "fogofwar_battle", path], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_command_subprocess_success(tmp_path):
    proc = subprocess.run([sys.executable, "manage.py", "fogofwar_battle", _write(tmp_path, F01)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["outcome"] == "quagmire"


def test_schema_doc_example_matches_engine():
    readme = (ROOT / "docs" / "fog-of-war.md").read_text(encoding="utf-8")
    text = readme.split("<!-- fogofwar-schema -->")[1].split("<!-- /fogofwar-schema -->")[0]
    case, output = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]
    assert battle_case(case) == output


def test_victory_removes_unsuitable_neutral_and_quagmire_neutral_goes_to_defender_losses():
    win = battle_case({"attack": ["L4"], "defence": ["L1"], "neutral": ["N3", "Z"]})
    assert win["outcome"] == "victory" and sorted(win["piles"]["neutral"]["removed"]) == ["n1:N3", "n2:Z"]
    quag = battle_case({"attack": ["L2"], "neutral": ["L1", "L1"], "seed": 1})
    assert quag["outcome"] == "quagmire" and len(quag["piles"]["defender"]["losses"]) == 1
    assert quag["piles"]["neutral"]["removed"] == []
    old = battle_case({"attack": ["L2"], "neutral": ["L1", "L1"], "seed": 1, "quagmire_neutral_losses": "removed"})
    assert len(old["piles"]["neutral"]["removed"]) == 1 and old["piles"]["defender"]["losses"] == []


def test_fort_at_sea_field():
    assert battle_case({"kind": "sea", "attack": ["N3"], "defence": ["F2"]})["D"] == 2
    assert battle_case({"kind": "sea", "attack": ["N3"], "defence": ["F2"], "fort_at_sea": "card_values"})["D"] == 0

"""The Fog of War rulings corpus (gameplay/fog_of_war/rulings/): every file agrees with the engine, every rules
section has a case the rules allow and one they refuse, and ``manage.py fogofwar_play`` reports disagreements
(exit 1) and bad input (exit 2)."""
import json
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command

import gameplay.fog_of_war
from gameplay.fog_of_war.scenario import ScenarioError, run

HERE = Path(gameplay.fog_of_war.__file__).parent
CORPUS = HERE / "rulings"
FILES = sorted(CORPUS.rglob("*.json"))
SECTIONS = [s["id"] for s in yaml.safe_load((HERE / "data" / "rules.yaml").read_text(encoding="utf-8"))["sections"]]


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CORPUS)) for p in FILES])
def test_ruling_agrees_with_the_engine(path):
    data = load(path)
    for key in ("title", "summary"):
        assert data[key]["ru"].strip() and data[key]["en"].strip()
    assert data["rules_on"] and set(data["rules_on"]) <= set(SECTIONS), data["rules_on"]
    assert data["cites"] and all({"source", "ru", "en"} <= set(c) for c in data["cites"])
    report = run(data)
    assert report.agrees, report.problems


def refuses(data) -> bool:
    if "battle" in data:
        return data["expect"].get("legal") is False
    return any(c["expect"]["ok"] is False for c in data["commands"])


def test_every_rules_section_has_a_legal_and_a_refused_case():
    legal, refused = set(), set()
    for path in FILES:
        data = load(path)
        (refused if refuses(data) else legal).update(data["rules_on"])
    assert set(SECTIONS) - legal == set()
    assert set(SECTIONS) - refused == set()
    assert len(list((CORPUS / "examples").glob("*.json"))) >= 12


def test_check_exits_1_on_a_disagreement_and_2_on_bad_input(tmp_path, capsys):
    good = load(CORPUS / "rules" / "rotation_legal.json")
    wrong = {**good, "expect_table": {"sides.axis.wheel_pointer": "B"}}
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "wrong.json").write_text(json.dumps(wrong), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        call_command("fogofwar_play", check=str(tmp_path / "a"))
    assert exc.value.code == 1
    out = capsys.readouterr().out.splitlines()  # the same report as every game's --check
    assert out == ["DISAGREE  wrong.json: table sides.axis.wheel_pointer: expected 'B', got 'A'",
                   "1 scenario(s): 0 agree, 1 disagree, 0 bad input"]
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "bad.json").write_text('{"commands": [{"type": "fly"}]}', encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        call_command("fogofwar_play", check=str(tmp_path / "b"))
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        call_command("fogofwar_play", str(tmp_path / "missing.json"))
    assert exc.value.code == 2


def test_one_scenario_prints_each_answer_and_the_final_table(capsys):
    call_command("fogofwar_play", str(CORPUS / "rules" / "rotation_refused.json"))
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["1.", "defend", "axis", "refused"] and "(§2.2)" in out[0]
    assert out[1].split()[:4] == ["2.", "start_turn", "axis", "accepted"]
    assert out[-1].startswith("final: ") and json.loads(out[-1][7:])["sides"]["axis"]["pointer"] == "A"


@pytest.mark.parametrize("bad", [[], {"setup": {}, "commands": [{"type": "start_turn", "side": "axis"}]},
                                 {"setup": {}, "set": {"sides.nobody.hand": []}, "commands": []},
                                 {"battle": {"attack": []}}, {"setup": {}, "commands": [], "oops": 1}])
def test_malformed_scenarios_are_bad_input(bad):
    with pytest.raises(ScenarioError):
        run(bad)

"""The «Генералиссимус» rulings corpus (gameplay/generalissimus/rulings/) agrees with the engine, covers
every section of rules.yaml with an applied and a refused (or removed) answer, and
``manage.py generalissimus_play`` answers a scenario, exits 1 on a disagreement and 2 on bad input."""
import json

import pytest
from django.core.management import call_command

from gameplay.generalissimus.scenario import CORPUS, check_dir, read_json, rule_ids, run_scenario

FILES = sorted(CORPUS.rglob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CORPUS)) for p in FILES])
def test_every_ruling_agrees_with_the_engine(path):
    [verdict] = [v for v in check_dir(path.parent) if v.path == str(path)]
    assert not verdict.error, verdict.error
    assert not verdict.disagreements, verdict.disagreements


def test_every_rules_section_has_an_applied_and_a_refused_answer():
    applied, refused = set(), set()
    for path in FILES:
        data = read_json(path)
        oks = [c["expect"].get("ok") for c in data["commands"]]
        # a refused answer: a command refused, or a card removed as it cannot be carried out
        says = [c["expect"].get("says") for c in data["commands"] if c["expect"].get("ok") and c["expect"].get("says")]
        for section in data["rules_on"]:
            applied.add(section)
            if False in oks or says:
                refused.add(section)
    assert applied == rule_ids()
    assert refused == rule_ids()


def test_the_rules_example_of_three_cards_on_one_flank_is_in_the_corpus():
    data = read_json(CORPUS / "orders" / "three_cards_on_one_flank.json")
    placed = [c["card_type"] for c in data["commands"] if c["type"] == "place"]
    assert placed == ["artillery_volley", "form_up", "bayonets"]


def scenario():
    return read_json(CORPUS / "orders" / "manoeuvre_names_a_turn.json")


def test_a_scenario_prints_every_answer_and_the_final_state(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario(), ensure_ascii=False), encoding="utf-8")
    call_command("generalissimus_play", str(path))
    out = json.loads(capsys.readouterr().out)
    assert [c["ok"] for c in out["commands"]][-3:] == [False, True, True]
    assert "налево или направо" in out["commands"][-3]["says"]
    assert out["final"]["units"]["S-inf-1"]["facing"] == "W" and out["disagreements"] == []


def test_check_exits_1_on_a_disagreement_and_2_on_bad_input(tmp_path, capsys):
    wrong = scenario()
    wrong["commands"][-1]["expect"] = {"ok": False}
    (tmp_path / "wrong.json").write_text(json.dumps(wrong, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        call_command("generalissimus_play", "--check", str(tmp_path))
    assert exc.value.code == 1
    assert "DISAGREE" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text('{"units": [], "commands": [{"type": "fly"}]', encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        call_command("generalissimus_play", "--check", str(tmp_path))
    assert exc.value.code == 2


@pytest.mark.parametrize("data, words", [
    ({"units": "x"}, "'units'"),
    ({"units": [], "commands": [{"type": "fly"}]}, "unknown type"),
    ({"units": [], "extra": 1}, "unknown key"),
    ({"units": [{"id": "S-inf-1", "owner": "south", "kind": "infantry", "sector": "c5"}]}, "set-up is not possible"),
])
def test_bad_scenarios_are_one_line_and_exit_2(tmp_path, capsys, data, words):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        call_command("generalissimus_play", str(path))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") <= 1


def test_run_scenario_plays_the_commands_the_web_table_plays():
    out = run_scenario(scenario())
    assert [c["command"]["type"] for c in out["commands"]][:2] == ["place", "place"]

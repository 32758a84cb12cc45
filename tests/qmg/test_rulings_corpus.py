"""The rulings corpus (gameplay/qmg/rulings/): every built-in file agrees with the engine, and the runner
(``check_scenario``, ``manage.py qmg_play --check DIR``) reports disagreements (exit 1) and bad input (exit 2)."""
import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command

from gameplay.qmg.rulings import CORPUS_DIR, check_scenario, read_json, rulings_for, scenario_files
from gameplay.qmg.state import PositionError

FILES = scenario_files(CORPUS_DIR)
STALINGRAD = CORPUS_DIR / "cards" / "su_stalingrad.json"


@pytest.mark.parametrize("path", FILES, ids=[f.relative_to(CORPUS_DIR).as_posix() for f in FILES])
def test_the_built_in_ruling_agrees(path):
    assert check_scenario(read_json(path)) == []


def check(tmp_path, docs: dict):
    for name, doc in docs.items():
        (tmp_path / name).write_text(doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False),
                                     encoding="utf-8")
    out, err = StringIO(), StringIO()
    try:
        call_command("qmg_play", "--check", str(tmp_path), stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_a_disagreeing_file_is_reported_with_its_first_disagreement_and_exit_1(tmp_path):
    doc = read_json(STALINGRAD)
    wrong = copy.deepcopy(doc)
    wrong["commands"][1]["expect"] = {"ok": False, "code": "use.no_trigger"}
    wrong["expect_table"]["absent"] = [{"country": "soviet_union", "space": "ukraine"}]
    assert len(check_scenario(wrong)) == 3
    code, out, _ = check(tmp_path, {"a.json": doc, "b.json": wrong})
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith("AGREE") and lines[1].startswith("DISAGREE")
    assert "command #2 (use_card soviet_union su_stalingrad): expected refused, got applied" in lines[1]
    assert "(+2 more)" in lines[1]
    assert lines[-1] == "2 scenario(s): 1 agree, 1 disagree, 0 bad input"


@pytest.mark.parametrize("mutate", [
    lambda d: d.pop("title"),
    lambda d: d["commands"][0].pop("expect"),
    lambda d: d["commands"][0]["expect"].update(ok="yes"),
    lambda d: d.update(rules_on=["no_such_card"]),
    lambda d: d.update(cites=[]),
    lambda d: d["expect_table"].update(colour="red"),
    lambda d: d["expect_table"].update(cards={"atlantis": {"hand": 1}}),
    lambda d: d.update(pieces=[{"country": "germany", "kind": "army", "space": "atlantis"}]),
    lambda d: d.update(surprise=1),
])
def test_bad_input_exits_2(tmp_path, mutate):
    doc = read_json(STALINGRAD)
    mutate(doc)
    with pytest.raises(PositionError):
        check_scenario(doc)
    code, out, _ = check(tmp_path, {"a.json": doc, "ok.json": read_json(STALINGRAD)})
    assert code == 2 and out.splitlines()[-1].endswith("1 agree, 0 disagree, 1 bad input")


def test_malformed_json_a_missing_directory_and_an_empty_one(tmp_path):
    assert check(tmp_path, {"x.json": "{not json"})[0] == 2
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("qmg_play", "--check", str(tmp_path / "nope"), stdout=out, stderr=err)
    assert exc.value.code == 2 and err.getvalue().startswith("qmg_play: ")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit) as exc:
        call_command("qmg_play", "--check", str(tmp_path / "empty"), stdout=out, stderr=err)
    assert exc.value.code == 2


def test_a_ruling_file_is_also_a_plain_qmg_play_scenario(tmp_path):
    out = StringIO()
    call_command("qmg_play", str(STALINGRAD), "--lang", "en", stdout=out)
    result = json.loads(out.getvalue())
    assert [c["code"] for c in result["commands"]][:2] == ["play.ok", "use.response"]


def test_rulings_for_a_card_lists_the_files_with_their_summaries():
    found = rulings_for("su_stalingrad")
    assert any(r["file"] == "cards/su_stalingrad.json" and r["summary"]["en"].startswith("Germany battles Ukraine")
               for r in found)
    assert rulings_for("no_such_card") == []

"""resolve_case and the generalissimus_resolve management command."""
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from gameplay.generalissimus import CaseError, resolve_case

ROOT = Path(__file__).resolve().parents[2]

CASE = {
    "settings": {"fire_bonus_mode": "per_die"},
    "board": {"terrain": {"c2": "forest"}, "units": [
        {"id": "S-inf-1", "owner": "south", "kind": "infantry", "sector": "c3", "facing": "N",
         "formation": "line", "blocks": 3},
        {"id": "N-inf-1", "owner": "north", "kind": "infantry", "sector": "c4", "facing": "S",
         "formation": "column", "blocks": 3}]},
    "action": {"type": "musket_volley", "unit": "S-inf-1", "target": "N-inf-1", "dice": [4, 5, 2]},
}


def test_resolve_case_volley():
    out = resolve_case(CASE)
    assert out["legal"] and out["details"]["shots"][0]["hits"] == 2
    n = next(u for u in out["board"]["units"] if u["id"] == "N-inf-1")
    assert n["blocks"] == 1 and n["formation"] == "disordered"
    assert out["board"]["terrain"] == {"c2": "forest"}
    json.dumps(out)  # JSON-compatible


def test_resolve_case_illegal_returns_unchanged_board():
    case = json.loads(json.dumps(CASE))
    case["action"] = {"type": "move", "unit": "S-inf-1"}
    out = resolve_case(case)
    assert not out["legal"] and out["code"] == "occupied" and "occupancy rule" in out["reason"]["en"]
    assert out["board"]["units"][0]["sector"] == "c3"


@pytest.mark.parametrize("mutate,msg", [
    (lambda c: c.pop("board"), "board"),
    (lambda c: c["action"].update(type="teleport"), "unknown action type"),
    (lambda c: c["action"].update(target="ghost"), "unknown unit"),
    (lambda c: c["action"].update(dice=[4, 5]), "expected 3 dice"),
    (lambda c: c.update(settings={"nope": 1}), "unknown setting"),
    (lambda c: c["board"]["units"][0].update(sector="c4"), "two units"),
    (lambda c: c["action"].pop("dice"), "missing dice"),
    (lambda c: c["action"].update(speed=3), "unknown key"),
])
def test_bad_cases_raise_case_error(mutate, msg):
    case = json.loads(json.dumps(CASE))
    mutate(case)
    with pytest.raises(CaseError, match=msg) as info:
        resolve_case(case)
    assert "\n" not in str(info.value)


def test_case_error_for_non_object():
    with pytest.raises(CaseError):
        resolve_case([1, 2])


def test_schema_example_matches_the_engine():
    """The full example in the documented schema (docs/generalissimus.md) is what resolve_case really returns."""
    readme = (ROOT / "docs" / "generalissimus.md").read_text(encoding="utf-8")
    text = readme.split("<!-- generalissimus-schema -->")[1].split("<!-- /generalissimus-schema -->")[0]
    blocks = text.split("```json")[1:]
    case, expected = (json.loads(b.split("```")[0]) for b in blocks[:2])
    assert resolve_case(case) == expected


def test_command_prints_json(tmp_path):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(CASE), encoding="utf-8")
    out = io.StringIO()
    call_command("generalissimus_resolve", str(path), stdout=out)
    data = json.loads(out.getvalue())
    assert data == resolve_case(CASE)
    assert "правила стрельбы" in out.getvalue()  # ensure_ascii=False


def test_command_bad_input_exits_2(tmp_path):
    err = io.StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("generalissimus_resolve", str(tmp_path / "missing.json"), stderr=err)
    assert info.value.code == 2 and err.getvalue().startswith("error: cannot read")


@pytest.mark.parametrize("content,needle", [(None, "cannot read"), ("{not json", "malformed JSON"),
                                             ('{"board": {}}', "bad case")])
def test_command_subprocess_exit_status(tmp_path, content, needle):
    path = tmp_path / "case.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    proc = subprocess.run([sys.executable, "manage.py", "generalissimus_resolve", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert needle in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_command_subprocess_success(tmp_path):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(CASE), encoding="utf-8")
    proc = subprocess.run([sys.executable, "manage.py", "generalissimus_resolve", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["legal"] is True


# --- the owner and initiative keys -------------------------------------------------------------------

CONFLICT_BOARD = {"units": [
    {"id": "SX", "owner": "south", "kind": "infantry", "sector": "c3", "formation": "column"},
    {"id": "NZ", "owner": "north", "kind": "infantry", "sector": "c4", "formation": "line"},
    {"id": "NY", "owner": "north", "kind": "infantry", "sector": "d3", "facing": "W", "formation": "column"}]}


def _units(out):
    return {u["id"]: u for u in out["board"]["units"]}


def test_step_action_the_initiative_winner_goes_first_and_each_card_keeps_its_unit():
    case = {"board": CONFLICT_BOARD, "action": {"type": "step", "first": "south", "retreat_choices": {"NZ": "b5"},
                                                "cards": {"south": {"type": "bayonets", "unit": "SX", "target": "NZ"},
                                                          "north": {"type": "bayonets", "unit": "NY", "target": "SX"}}}}
    out = resolve_case(case)
    units = _units(out)
    assert out["legal"] and units["SX"]["sector"] == "c4" and units["NZ"]["sector"] == "b5"
    cards = out["details"]["cards"]
    assert cards["S-bayonets-1"]["code"] == "gives_way" and cards["N-bayonets-1"]["state"] == "void"
    case["action"]["first"] = "north"
    case["action"]["cards"]["north"]["dice"] = [5, 5, 5]
    case["action"]["cards"]["south"]["dice"] = [1, 1, 1]
    case["action"]["retreat_choices"] = {"SX": "b2"}
    units = _units(resolve_case(case))
    assert units["NY"]["sector"] == "c3" and units["SX"]["sector"] == "b2" and units["SX"]["flag"] == "routed"


def test_step_action_with_a_reaction():
    case = {"settings": {"counter_charge_timing": "reaction"}, "board": {"units": [
        {"id": "S1", "owner": "south", "kind": "infantry", "sector": "c3"},
        {"id": "N1", "owner": "north", "kind": "infantry", "sector": "c4"},
        {"id": "N2", "owner": "north", "kind": "infantry", "sector": "d5"}]},
        "action": {"type": "step", "cards": {"south": {"type": "bayonets", "unit": "S1", "target": "N1", "dice": [1, 1, 1]},
                                             "north": {"type": "move", "unit": "N2"}},
                   "reactions": {"N1": "meet"}, "reaction_dice": {"north": [6, 6, 6]}}}
    out = resolve_case(case)
    assert out["details"]["cards"]["S-bayonets-1"]["code"] == "melee_won" and _units(out)["S1"]["flag"] == "routed"
    case["action"]["reactions"] = {"N1": "none"}
    assert resolve_case(case)["details"]["cards"]["S-bayonets-1"]["code"] == "gives_way"
    case["action"]["reactions"] = {"N1": "maybe"}
    with pytest.raises(CaseError, match="reactions"):
        resolve_case(case)


def test_bayonets_advance_deployment_and_correction_actions():
    board = {"units": [{"id": "S1", "owner": "south", "kind": "infantry", "sector": "c3", "formation": "line"}]}
    out = resolve_case({"board": board, "action": {"type": "bayonets", "unit": "S1", "use": "advance"}})
    assert out["code"] == "advanced" and _units(out)["S1"]["sector"] == "c4" and _units(out)["S1"]["formation"] == "line"
    with pytest.raises(CaseError, match="advance"):
        resolve_case({"board": board, "action": {"type": "bayonets", "unit": "S1"}})
    out = resolve_case({"board": board, "action": {"type": "deployment"}})
    assert not out["legal"] and out["code"] == "deploy_row" and len(out["details"]["problems"]) == 1
    assert resolve_case({"board": board, "settings": {"deploy_rows": 3}, "action": {"type": "deployment"}})["legal"]
    out = resolve_case({"board": board, "action": {"type": "correct", "unit": "S1", "set": {"sector": "e2", "blocks": 2}}})
    assert out["code"] == "corrected" and _units(out)["S1"]["sector"] == "e2" and _units(out)["S1"]["blocks"] == 2


def test_removed_settings_are_accepted_and_ignored():
    out = resolve_case(dict(CASE, settings={"pile_composition_public": False, "commit_unit_at_placement": True}))
    assert out["legal"]

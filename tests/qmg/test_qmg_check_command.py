"""manage.py qmg_check: the output schema, board variants and clean errors on bad input."""
import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = {
    "pieces": [{"country": "germany", "kind": "army", "space": "germany"},
               {"country": "italy", "kind": "navy", "space": "mediterranean"}],
    "extra_sources": {"canada": "united_kingdom"},
    "actions": [{"country": "germany", "type": "build_army", "space": "eastern_europe"}],
}


def run(tmp_path, data, *args):
    path = tmp_path / "position.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    out, err = StringIO(), StringIO()
    try:
        call_command("qmg_check", str(path), *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, out.getvalue(), err.getvalue()
    return 0, json.loads(out.getvalue()), err.getvalue()


def test_issue_example_output_schema(tmp_path):
    code, out, _ = run(tmp_path, EXAMPLE)
    assert code == 0
    assert list(out) == ["pieces", "straits", "victory_phase", "sudden_victory", "actions"]
    assert [list(p) for p in out["pieces"]] == [["country", "kind", "space", "supplied", "reason"]] * 2
    assert out["pieces"][0]["supplied"] is True
    # the Italian navy has no Italian army to chain from, and no Axis army next to it
    assert out["pieces"][1]["supplied"] is False
    assert out["straits"] == {"gibraltar": "allies", "suez": "allies", "danish": "allies", "panama": "allies",
                              "malacca": "allies"}
    assert set(out["victory_phase"]) == {"germany", "united_kingdom", "japan", "soviet_union", "italy",
                                         "united_states"}
    assert out["victory_phase"]["germany"] == {"points": 2, "skipped": False, "detail": ["Германия 2"]}
    assert out["sudden_victory"] is None
    assert out["actions"][0]["legal"] is True and out["actions"][0]["reason"]


def test_piece_order_is_kept(tmp_path):
    data = {"pieces": list(reversed(EXAMPLE["pieces"]))}
    _, out, _ = run(tmp_path, data)
    assert [p["space"] for p in out["pieces"]] == ["mediterranean", "germany"]


def test_victory_phase_removes_the_countrys_unsupplied_pieces_first(tmp_path):
    data = {"pieces": [{"country": "germany", "kind": "army", "space": "germany"},
                       {"country": "germany", "kind": "army", "space": "western_europe"},
                       {"country": "germany", "kind": "army", "space": "italy"},
                       {"country": "italy", "kind": "army", "space": "italy"},
                       {"country": "soviet_union", "kind": "army", "space": "moscow"},
                       {"country": "japan", "kind": "army", "space": "eastern_us"},
                       {"country": "united_states", "kind": "army", "space": "western_us"}]}
    _, out, _ = run(tmp_path, data)
    assert out["victory_phase"]["germany"]["points"] == 5
    assert out["victory_phase"]["italy"]["points"] == 1
    assert out["victory_phase"]["united_states"]["skipped"] is True
    assert out["victory_phase"]["united_states"]["points"] == 0
    # the Japanese army in Eastern US is on a star: it supplies itself and scores
    assert out["victory_phase"]["japan"]["points"] == 2
    assert out["sudden_victory"] is None


def test_sudden_victory_reported(tmp_path):
    data = {"pieces": [{"country": "germany", "kind": "army", "space": "moscow"},
                       {"country": "japan", "kind": "army", "space": "eastern_us"}]}
    assert run(tmp_path, data)[1]["sudden_victory"] == "axis"


def test_english_reasons(tmp_path):
    _, out, _ = run(tmp_path, EXAMPLE, "--lang", "en")
    assert out["pieces"][0]["reason"] == "Supplied: it stands on the supply source Germany."


def test_board_patch_changes_the_answer(tmp_path):
    patch = tmp_path / "club.yaml"
    patch.write_text("extends: standard\nremove_stars: [germany]\n", encoding="utf-8")
    _, out, _ = run(tmp_path, EXAMPLE, "--board", str(patch))
    assert out["pieces"][0]["supplied"] is False


def _pieces(*triples):
    return {"pieces": [{"country": c, "kind": k, "space": s} for c, k, s in triples]}


BAD = {
    "unknown space": (_pieces(("germany", "army", "atlantis")), "unknown space 'atlantis' — nearest:"),
    "unknown country": (_pieces(("france", "army", "germany")), "unknown country 'france' — accepted:"),
    "unknown kind": (_pieces(("germany", "tank", "germany")), "unknown piece kind"),
    "army at sea": (_pieces(("germany", "army", "north_sea")), "army cannot stand at sea"),
    "navy on land": (_pieces(("germany", "navy", "germany")), "navy cannot stand on land"),
    "two armies of one country": (_pieces(("germany", "army", "germany"), ("germany", "army", "germany")),
                                  "two army pieces of germany"),
    "opposing armies share": (_pieces(("germany", "army", "balkans"), ("soviet_union", "army", "balkans")),
                              "opposing teams share balkans"),
    "opposing navies share": (_pieces(("germany", "navy", "north_sea"), ("united_kingdom", "navy", "north_sea")),
                              "opposing teams share north_sea"),
    "too many pieces": (_pieces(*[("soviet_union", "navy", s) for s in ("baltic_sea", "black_sea")]),
                        "owns only 1"),
    "malformed JSON": ('{"pieces": [', "malformed JSON"),
    "not an object": ("[1, 2]", "must be a JSON object"),
    "pieces not a list": ('{"pieces": 3}', "'pieces' must be a list"),
    "piece missing a field": ('{"pieces": [{"country": "germany"}]}', "piece #1 needs"),
    "unknown key": ('{"pieces": [], "piecez": []}', "unknown key"),
    "unknown action type": ({"pieces": [], "actions": [{"type": "nuke", "country": "germany", "space": "germany"}]},
                            "unknown action type"),
    "action unknown space": ({"actions": [{"type": "build_army", "country": "germany", "space": "mars"}]},
                             "unknown space 'mars'"),
    "extra source at sea": ({"pieces": [], "extra_sources": {"north_sea": "germany"}}, "must be a land space"),
    "extra source bad country": ({"pieces": [], "extra_sources": {"canada": "narnia"}}, "unknown country"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_exits_2_with_one_line(tmp_path, case):
    data, message = BAD[case]
    code, out, err = run(tmp_path, data)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") <= 1 and "Traceback" not in err


@pytest.mark.parametrize("args,message", [
    (["/no/such/file.json"], "file not found"),
    (["{pos}", "--board", "/no/such/board.yaml"], "board file not found"),
])
def test_subprocess_exit_status_and_no_traceback(tmp_path, args, message):
    pos = tmp_path / "p.json"
    pos.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    args = [a.format(pos=pos) for a in args]
    proc = subprocess.run([sys.executable, "manage.py", "qmg_check", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_subprocess_success_prints_json(tmp_path):
    pos = tmp_path / "p.json"
    pos.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    proc = subprocess.run([sys.executable, "manage.py", "qmg_check", str(pos)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["victory_phase"]["germany"]["points"] == 2


def test_deeply_nested_json_is_a_clean_error(tmp_path):
    code, _, err = run(tmp_path, "[" * 100000 + "]" * 100000)
    assert code == 2 and "Traceback" not in err

"""manage.py qmg_play: the output schema, the README example, and clean errors on bad input."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from tracker.management.commands.qmg_play import MAX_BYTES

EXAMPLE = {
    "options": {"early_victory": False},
    "pieces": [{"country": "germany", "kind": "army", "space": "germany"},
               {"country": "germany", "kind": "army", "space": "eastern_europe"},
               {"country": "soviet_union", "kind": "army", "space": "ukraine"},
               {"country": "soviet_union", "kind": "army", "space": "moscow"}],
    "cards": {"germany": {"deck": 25, "hand": 7, "discard": 5, "hand_ids": ["ger_land_battle"],
                          "statuses": ["ger_blitzkrieg"]},
              "soviet_union": {"responses": ["su_stalingrad"]}},
    "round": 3, "active": "germany", "phase": "play", "vp": {"axis": 10, "allies": 8},
    "commands": [
        {"type": "play_card", "card_type": "land_battle", "card_id": "ger_land_battle", "space": "ukraine"},
        {"type": "use_card", "country": "soviet_union", "card_id": "su_stalingrad"},
        {"type": "use_card", "country": "germany", "card_id": "ger_blitzkrieg"},
    ],
}


def run(tmp_path, data, *args):
    path = tmp_path / "scenario.json"
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    out, err = StringIO(), StringIO()
    try:
        call_command("qmg_play", str(path), *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, out.getvalue(), err.getvalue()
    return 0, json.loads(out.getvalue()), err.getvalue()


def test_readme_example(tmp_path):
    code, out, _ = run(tmp_path, EXAMPLE, "--lang", "en")
    assert code == 0
    assert list(out) == ["commands", "state", "choices"]
    assert [c["applied"] for c in out["commands"]] == [True, True, True]
    assert all(set(c) >= {"applied", "code", "reason", "pending"} for c in out["commands"])
    state = out["state"]
    assert {"country": "soviet_union", "kind": "army", "space": "ukraine"} in state["pieces"]  # Stalingrad
    assert state["protected"] == [{"country": "soviet_union", "kind": "army", "space": "ukraine"}]
    # Blitzkrieg: its cost paid, then a build in the space just battled — refused there (a Soviet army
    # stands in it), so the step closes by itself
    assert state["cards"]["germany"]["deck"] == 24
    assert state["cards"]["soviet_union"] == {"deck": 24, "hand": 7, "discard": 4, "responses": 0,
                                              "statuses": [], "responses_by_id": []}
    assert (state["round"], state["active"], state["phase"], state["winner"]) == (3, "germany", "play", None)


@pytest.mark.parametrize("data", [
    "{not json",
    {"pieces": [{"country": "germany", "kind": "army", "space": "atlantis"}]},
    {"commands": [{"type": "teleport"}]},
    {"commands": [{"type": "step", "action": "build_army", "space": 5}]},
    {"cards": {"italy": {"hand": -1}}},
    [1, 2, 3],
    b"\xff\xfe",
])
def test_bad_input_one_line_exit_2(tmp_path, data):
    code, out, err = run(tmp_path, data)
    assert code == 2 and out == ""
    assert err.startswith("qmg_play: ") and err.strip().count("\n") == 0


def test_a_file_over_the_size_limit_is_refused_before_parsing(tmp_path):
    code, _, err = run(tmp_path, " " * (MAX_BYTES + 1))
    assert code == 2 and "larger than" in err


def test_missing_file(tmp_path):
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("qmg_play", str(tmp_path / "nope.json"), stdout=out, stderr=err)
    assert exc.value.code == 2 and "file not found" in err.getvalue()


SIX = [{"country": c, "kind": "army", "space": s} for c, s in (
    ("germany", "germany"), ("united_kingdom", "united_kingdom"), ("japan", "japan"), ("soviet_union", "moscow"),
    ("italy", "italy"), ("united_states", "eastern_us"))]


def test_a_response_played_by_lend_lease_is_listed_privately_only(tmp_path):
    code, out, _ = run(tmp_path, {"pieces": SIX, "active": "united_states", "round": 2, "commands": [
        {"type": "play_card", "card_type": "event", "card_id": "us_lend_lease"},
        {"type": "step", "country": "united_kingdom", "action": "play_from", "card_type": "response",
         "card_id": "uk_loyal_to_the_crown"}]}, "--lang", "en")
    assert code == 0 and out["commands"][1]["applied"], out["commands"][1]["reason"]
    uk = out["state"]["cards"]["united_kingdom"]
    assert (uk["responses"], uk["responses_by_id"]) == (1, ["uk_loyal_to_the_crown"])
    assert "Loyal" not in json.dumps(out["commands"])


def test_a_reveal_not_face_down_and_a_blind_discard(tmp_path):
    code, out, _ = run(tmp_path, {"pieces": SIX, "active": "soviet_union",
                                  "cards": {"soviet_union": {"responses": ["su_rasputitsa"]}},
                                  "commands": [{"type": "use_card", "country": "soviet_union",
                                                "card_id": "su_stalingrad"}]})
    assert code == 0 and out["commands"][0]["code"] == "use.not_face_down"
    code, out, _ = run(tmp_path, {"pieces": SIX, "active": "united_states", "round": 2,
                                  "cards": {"japan": {"responses": ["jpn_banzai_charge"]}},
                                  "commands": [{"type": "play_card", "card_type": "event", "card_id": "us_magic"},
                                               {"type": "step", "country": "united_states",
                                                "action": "discard_response", "target_country": "japan"}]})
    assert code == 0 and all(c["applied"] for c in out["commands"]), out["commands"]
    assert out["state"]["cards"]["japan"]["responses_by_id"] == []

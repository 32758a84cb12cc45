"""``manage.py qmg_play`` for people who write rulings: grammatical reasons in both languages, the nearest known
ids for an unknown one, the accepted values as the file must spell them, a rules refusal answered ``applied:
false`` (exit 2 only for a file that is not a scenario), and a step the engine applies by itself accepted when it
is written out."""
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command

from gameplay.qmg.inputs import a_an, cards_ru, nearest, ru_plural
from gameplay.qmg.rulings import CORPUS_DIR, read_json, scenario_files
from gameplay.qmg.scenario import run_scenario
from gameplay.qmg.table import COMMAND_TYPES

from .helpers import BOARD


def run(tmp_path, data):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out, err = StringIO(), StringIO()
    try:
        call_command("qmg_play", str(path), "--lang", "en", stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, None, err.getvalue()
    return 0, json.loads(out.getvalue()), err.getvalue()


PIECES = [{"country": "germany", "kind": "army", "space": "germany"},
          {"country": "soviet_union", "kind": "army", "space": "moscow"}]


def scenario(*commands, **kw):
    return {"pieces": PIECES, "commands": list(commands), **kw}


# --- grammar -------------------------------------------------------------------------------------

def test_the_grammar_helpers():
    assert [a_an(w) for w in ("army", "navy", "economic_warfare", "Event", "US army")] == [
        "an army", "a navy", "an economic_warfare", "an Event", "a US army"]
    assert [cards_ru(n) for n in (1, 2, 5, 11, 21, 22, 25, 111)] == [
        "1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты", "25 карт", "111 карт"]
    assert ru_plural(3, "a", "b", "c") == "b"


# An article before a vowel sound, a number that does not agree with «карта», an internal id in a sentence
BAD_EN = re.compile(r"\ba (?:[aeio]\w|un(?!it)|economic|event)|\ban (?:[b-df-hj-np-tv-z])", re.IGNORECASE)
BAD_RU = re.compile(r"(?<![\d])(?:1|21|31) карт(?:ы|\b)|(?<![\d1])(?:[2-4]) карт\b|США (?:использует|сбрасывает|"
                    r"раскрывает|кладёт|играет)\b")
ID = re.compile(r"\b(?:build_army|build_navy|land_battle|sea_battle|economic_warfare|discard_unused)\b")


def _corpus_answers():
    for path in scenario_files(CORPUS_DIR):
        out = run_scenario(read_json(path), BOARD, lang="en")
        for entry in out["commands"]:
            yield path.name, entry["reason"]
            for note in entry.get("notes", []):
                yield path.name, note


def test_every_reason_and_note_of_the_corpus_is_grammatical_in_both_languages():
    seen = 0
    for name, r in _corpus_answers():
        seen += 1
        assert not BAD_EN.search(r["en"]), (name, r["en"])
        assert not BAD_RU.search(r["ru"]), (name, r["ru"])
        assert not ID.search(r["en"]) and not ID.search(r["ru"]), (name, r)
    assert seen > 800


def test_the_stacking_refusal_reads_well():
    out = run_scenario(scenario({"type": "play_card", "card_type": "build_army", "space": "germany"}), BOARD)
    en = out["commands"][0]["reason"]["en"]
    assert "Germany already holds Germany's army" in en and " a army" not in en


# --- unknown ids: the nearest known ones -----------------------------------------------------------

def test_nearest_ids():
    assert nearest("ger_blitzkreig", ["ger_blitzkrieg", "ger_dive_bombers"]) == ["ger_blitzkrieg"]
    assert nearest("ukrain", list(BOARD.spaces))[0] == "ukraine"
    assert nearest("", ["a"]) == [] and nearest(None, ["a"]) == []


@pytest.mark.parametrize("command, said", [
    ({"type": "play_card", "card_type": "status", "card_id": "ger_blitzkreig"}, "nearest: ger_blitzkrieg"),
    ({"type": "play_card", "card_type": "build_army", "space": "ukrain"}, "nearest: ukraine"),
    ({"type": "use_card", "country": "germani", "card_id": "ger_blitzkrieg"}, "nearest: germany"),
    ({"type": "step", "action": "biuld_army", "space": "ukraine"}, "accepted: build_army, build_navy"),
    ({"type": "play_cards", "card_type": "event"}, "accepted: " + ", ".join(COMMAND_TYPES[:3])),
    ({"type": "play_card", "card_type": "evnet"}, "accepted: build_army, build_navy, land_battle, sea_battle, status"),
])
def test_a_misspelt_id_or_value_names_what_the_file_must_say(tmp_path, command, said):
    code, _, err = run(tmp_path, scenario(command))
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1


def test_a_misspelt_setup_answers_with_the_nearest_ids(tmp_path):
    code, _, err = run(tmp_path, {"pieces": [{"country": "germany", "kind": "army", "space": "germny"}]})
    assert code == 2 and "nearest: germany" in err
    code, _, err = run(tmp_path, {"cards": {"germany": {"statuses": ["ger_blitzkreig"]}}})
    assert code == 2 and "nearest: ger_blitzkrieg" in err
    code, _, err = run(tmp_path, {"cards": {"germany": {"statuses": ["ger_plunder"]}}})
    assert code == 2 and "ger_plunder is an event card; statuses takes status cards only" in err
    code, _, err = run(tmp_path, {"cards": {"germany": {"statuses": ["uk_rationing"]}}})
    assert code == 2 and "uk_rationing is in united_kingdom's deck" in err
    code, _, err = run(tmp_path, {"phase": "victory_step"})
    assert code == 2 and "accepted: play, supply, victory, discard, draw" in err
    code, _, err = run(tmp_path, {"phase": "air"})
    assert code == 2 and "air_marshal" in err and "accepted here: play, supply" in err
    code, _, err = run(tmp_path, {"pieces": [{"country": "germany", "kind": "air", "space": "germany"}]})
    assert code == 2 and "air_marshal" in err


def test_a_card_type_that_does_not_match_the_card_says_what_to_write(tmp_path):
    code, _, err = run(tmp_path, scenario({"type": "play_card", "card_type": "event", "card_id": "ger_submarines_ussr"}))
    assert code == 2 and "is an economic_warfare card, not an event card" in err
    assert '"card_type": "economic_warfare"' in err


def test_reallocate_lists_the_card_types_as_the_file_spells_them(tmp_path):
    code, _, err = run(tmp_path, scenario({"type": "reallocate", "card_type": "Land Battle"},
                                          options={"reallocate": True}))
    assert code == 2 and "accepted: build_army, build_navy, land_battle, sea_battle" in err


# --- a rules refusal is an answer, not bad input ------------------------------------------------------

@pytest.mark.parametrize("command, code_", [
    ({"type": "deploy_air", "space": "germany"}, "air.off"),
    ({"type": "play_card", "card_type": "deploy_air"}, "air.off"),
    ({"type": "reallocate", "card_type": "deploy_air"}, "air.off"),
    ({"type": "play_card", "card_type": "status", "card_id": "uk_rationing"}, "card.other_deck"),
    ({"type": "use_card", "card_id": "ger_plunder"}, "use.not_status"),
])
def test_what_the_rules_refuse_is_applied_false_with_a_reason(tmp_path, command, code_):
    code, out, err = run(tmp_path, scenario(command, options={"reallocate": True}))
    assert code == 0 and err == ""
    answer = out["commands"][0]
    assert answer["applied"] is False and answer["code"] == code_
    assert answer["reason"]["ru"] and answer["reason"]["en"]


def test_deploy_air_in_the_play_step_with_air_marshal_says_when_it_is_played(tmp_path):
    code, out, _ = run(tmp_path, scenario({"type": "play_card", "card_type": "deploy_air"},
                                          options={"air_marshal": True}))
    assert code == 0 and out["commands"][0]["code"] == "air.deploy_in_air_step"


# --- a step the engine applied by itself, written out --------------------------------------------------

RAF = {"pieces": [{"country": "germany", "kind": "army", "space": "germany"},
                  {"country": "germany", "kind": "army", "space": "western_europe"},
                  {"country": "united_kingdom", "kind": "navy", "space": "north_sea"},
                  {"country": "united_kingdom", "kind": "army", "space": "united_kingdom"}],
       "cards": {"united_kingdom": {"responses": ["uk_raf"]}}, "active": "germany"}


def test_a_protection_the_engine_applied_is_accepted_when_written_out_once():
    out = run_scenario({**RAF, "commands": [
        {"type": "play_card", "card_type": "sea_battle", "card_id": "ger_sea_battle", "space": "north_sea"},
        {"type": "use_card", "country": "united_kingdom", "card_id": "uk_raf"},
        {"type": "step", "country": "united_kingdom", "action": "protect", "space": "north_sea",
         "target_country": "united_kingdom"},
        {"type": "step", "country": "united_kingdom", "action": "protect", "space": "north_sea"}]}, BOARD)
    codes = [(c["applied"], c["code"]) for c in out["commands"]]
    assert codes[2] == (True, "step.automatic") and codes[3][0] is False  # once, not twice
    assert "Королевские ВВС" in out["commands"][2]["reason"]["ru"]


def test_a_step_spelt_out_later_than_the_next_command_is_refused():
    out = run_scenario({**RAF, "commands": [
        {"type": "play_card", "card_type": "sea_battle", "card_id": "ger_sea_battle", "space": "north_sea"},
        {"type": "use_card", "country": "united_kingdom", "card_id": "uk_raf"},
        {"type": "step", "country": "germany", "action": "remove", "space": "western_europe"},
        {"type": "step", "country": "united_kingdom", "action": "protect", "space": "north_sea"}]}, BOARD)
    assert [c["applied"] for c in out["commands"]] == [True, True, True, False]


def test_fall_of_singapores_recruit_written_out_is_accepted():
    out = run_scenario({
        "pieces": [{"country": "japan", "kind": "army", "space": "japan"},
                   {"country": "japan", "kind": "army", "space": "china"},
                   {"country": "united_kingdom", "kind": "army", "space": "united_kingdom"},
                   {"country": "united_kingdom", "kind": "navy", "space": "south_china_sea"},
                   {"country": "united_kingdom", "kind": "army", "space": "philippines"}],
        "cards": {"japan": {"responses": ["jpn_fall_of_singapore"]}}, "active": "japan",
        "commands": [
            {"type": "play_card", "card_type": "land_battle", "card_id": "jpn_land_battle", "space": "southeast_asia"},
            {"type": "use_card", "country": "japan", "card_id": "jpn_fall_of_singapore"},
            {"type": "step", "country": "japan", "action": "eliminate", "space": "south_china_sea",
             "target_country": "united_kingdom"},
            {"type": "step", "country": "japan", "action": "recruit_navy", "space": "south_china_sea"}]}, BOARD)
    assert [(c["applied"], c["code"]) for c in out["commands"]][2:] == [(True, "card.eliminated"),
                                                                        (True, "step.automatic")]
    assert {"country": "japan", "kind": "navy", "space": "south_china_sea"} in out["state"]["pieces"]


def test_a_rulings_file_with_a_misspelt_id_in_its_expectations_is_bad_input(tmp_path):
    from gameplay.qmg.rulings import check_file
    doc = {"title": {"ru": "т", "en": "t"}, "summary": {"ru": "с", "en": "s"},
           "cites": [{"source": "notes", "ru": "р", "en": "r"}], "pieces": PIECES,
           "commands": [{"type": "play_card", "card_type": "build_army", "space": "eastern_europe",
                         "expect": {"ok": True}}],
           "expect_table": {"present": [{"country": "germany", "space": "eastern_europ"}]}}
    path = tmp_path / "ruling.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    verdict = check_file(path)
    assert "nearest: eastern_europe" in verdict.error
    doc["rules_on"] = ["ger_blitzkreig"]
    doc["expect_table"] = {}
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert "nearest: ger_blitzkrieg" in check_file(path).error

"""The rulings-corpus report every game's ``<game>_play --check`` prints: a line per file, a summary line, and
the exit status (0 all agree, 1 a disagreement, 2 bad input or no file at all)."""
from gameplay.common.corpus import Verdict, report


def test_all_agree_is_status_0_with_each_title():
    lines, status = report([Verdict("a.json", "Blitzkrieg"), Verdict("b.json")])
    assert lines == ["AGREE     a.json: Blitzkrieg", "AGREE     b.json", "2 scenario(s): 2 agree, 0 disagree, 0 bad input"]
    assert status == 0


def test_a_disagreement_names_its_first_and_counts_the_rest():
    lines, status = report([Verdict("a.json", "x", ("army expected", "vp 3, not 2", "phase")), Verdict("b.json", "y")])
    assert lines[0] == "DISAGREE  a.json: army expected (+2 more)"
    assert lines[-1] == "2 scenario(s): 1 agree, 1 disagree, 0 bad input" and status == 1


def test_bad_input_outweighs_a_disagreement_and_no_file_is_bad_input():
    lines, status = report([Verdict("a.json", disagreements=("x",)), Verdict("b.json", error="not JSON")])
    assert lines[1] == "BAD INPUT b.json: not JSON" and status == 2
    assert report([]) == (["0 scenario(s): 0 agree, 0 disagree, 0 bad input"], 2)


def test_a_verdict_says_its_word():
    assert [Verdict("a").word, Verdict("a", disagreements=("x",)).word, Verdict("a", error="e").word] == \
        ["agree", "disagree", "bad input"]
    assert Verdict("a").agrees and not Verdict("a", error="e").agrees

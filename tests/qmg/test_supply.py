"""Supply, straits, victory points and sudden victory: one test per rule, and the rulebook examples."""
from gameplay.qmg import compute_supply, remove_unsupplied, strait_status, sudden_victory, victory_step

from .helpers import BOARD, pos


def supplied(position):
    report = compute_supply(BOARD, position)
    return {f"{p.country} {p.kind} {p.space}": s.supplied for p, s in report.pieces.items()}


# --- sources ------------------------------------------------------------------------------

def test_army_on_its_home_star_is_supplied():
    report = compute_supply(BOARD, pos("ger army germany"))
    (s,) = report.pieces.values()
    assert s.supplied and s.chain == ("germany",)
    assert "источнике снабжения «Германия»" in s.reason.ru


def test_any_star_is_a_source_not_only_the_home():
    # a German army alone in Moscow (a star) supplies itself and its neighbours
    assert supplied(pos("ger army moscow", "ger army siberia")) == {
        "germany army moscow": True, "germany army siberia": True}


def test_army_with_no_chain_to_a_source_is_unsupplied():
    report = compute_supply(BOARD, pos("ger army balkans"))
    (s,) = report.pieces.values()
    assert not s.supplied
    assert "«Снабжение»" in s.reason.ru and "Supply" in s.reason.en


def test_chain_through_own_pieces_reaches_far():
    p = pos("ger army germany", "ger army eastern_europe", "ger army russia", "ger army siberia", "ger army vladivostok")
    assert all(supplied(p).values())
    chain = compute_supply(BOARD, p).pieces[p.pieces[-1]].chain
    assert chain == ("germany", "eastern_europe", "russia", "siberia", "vladivostok")


def test_chain_never_passes_through_an_allys_piece():
    # an Italian army in Eastern Europe does not carry German supply on to Russia
    assert supplied(pos("ger army germany", "ita army eastern_europe", "ger army russia"))["germany army russia"] is False
    # with its own army in Eastern Europe it does
    assert supplied(pos("ger army germany", "ger army eastern_europe", "ger army russia"))["germany army russia"] is True


def test_supply_does_not_come_from_an_allys_source():
    # a UK army next to a US army standing on Eastern US is not supplied by it
    assert supplied(pos("us army eastern_us", "uk army canada"))["united_kingdom army canada"] is False


# --- the navy condition --------------------------------------------------------------------

def test_navy_needs_an_army_of_its_team_on_adjacent_land():
    # Japanese army in Japan, navy in the Sea of Japan: the army is next to the navy
    assert supplied(pos("jpn army japan", "jpn navy sea_of_japan"))["japan navy sea_of_japan"] is True
    # a navy next to the supplied navy but with no team army on any adjacent land
    p = pos("us army western_us", "us navy eastern_pacific", "us navy central_pacific")
    s = supplied(p)
    assert s["united_states navy eastern_pacific"] is True
    assert s["united_states navy central_pacific"] is False
    report = compute_supply(BOARD, p)
    assert "условие для флотов" in report.pieces[p.pieces[2]].reason.ru


def test_navy_condition_is_met_by_an_unsupplied_allied_army():
    # the UK army in New Guinea is unsupplied itself, but it still satisfies the US navy's condition
    s = supplied(pos("us army western_us", "us navy eastern_pacific", "us navy central_pacific", "uk army new_guinea"))
    assert s["united_kingdom army new_guinea"] is False
    assert s["united_states navy central_pacific"] is True


def test_navy_failing_the_condition_breaks_the_chain_through_it():
    # US navy in the South China Sea has a team army next to it (UK in Australia), but its only
    # link to a source runs through the Central Pacific navy, which fails the navy condition.
    s = supplied(pos("us army western_us", "us navy eastern_pacific", "us navy central_pacific",
                     "us navy south_china_sea", "uk army australia"))
    assert s["united_states navy central_pacific"] is False
    assert s["united_states navy south_china_sea"] is False


def test_navy_condition_ignores_enemy_armies():
    s = supplied(pos("us army western_us", "us navy eastern_pacific", "us navy central_pacific", "jpn army hawaii"))
    assert s["united_states navy central_pacific"] is False


# --- straits -------------------------------------------------------------------------------

def test_strait_open_for_allies_unless_an_axis_army_holds_its_land():
    assert strait_status(BOARD, pos()) == {k: "allies" for k in BOARD.straits}
    assert strait_status(BOARD, pos("ger army north_africa"))["gibraltar"] == "axis"
    assert strait_status(BOARD, pos("uk army north_africa"))["gibraltar"] == "allies"
    assert strait_status(BOARD, pos("ita army middle_east"))["suez"] == "axis"


def test_supply_passes_a_strait_only_for_the_team_it_is_open_for():
    # UK: Britain → North Sea → (Gibraltar) → Mediterranean
    uk = ("uk army united_kingdom", "uk navy north_sea", "uk navy mediterranean", "uk army middle_east")
    assert supplied(pos(*uk))["united_kingdom navy mediterranean"] is True
    # an Axis army in North Africa closes Gibraltar to the Allies
    assert supplied(pos(*uk, "ita army north_africa"))["united_kingdom navy mediterranean"] is False


# --- supply step ---------------------------------------------------------------------------

def test_supply_step_removes_only_the_active_countrys_unsupplied_pieces():
    p = pos("ger army germany", "ger army russia", "ita army kazakhstan")
    after, gone = remove_unsupplied(BOARD, p, "germany")
    assert [g.space for g in gone] == ["russia"]
    assert after == pos("ger army germany", "ita army kazakhstan")


# --- victory -------------------------------------------------------------------------------

def test_rulebook_scoring_example_germany_scores_5():
    p = pos("ger army germany", "ger army western_europe", "ger army italy", "ita army italy")
    v = victory_step(BOARD, p, "germany")
    assert (v.points, v.skipped) == (5, False)
    assert v.detail("ru") == ["Германия 2", "Западная Европа 2", "Италия 1 (вместе с Италией)"]
    assert v.detail("en") == ["Germany 2", "Western Europe 2", "Italy 1 (shared with Italy)"]


def test_victory_skipped_when_an_enemy_army_is_in_the_home_space():
    p = pos("ger army western_europe", "ger army italy", "su army germany", "su army moscow")
    v = victory_step(BOARD, p, "germany")
    assert v.skipped and v.points == 0
    assert "Германия" in v.detail()[0] and "СССР" in v.detail()[0]


def test_rulebook_plunder_example_italy_still_scores_1_when_sharing_with_a_country_whose_home_is_lost():
    p = pos("ger army italy", "ita army italy", "su army germany", "su army moscow", "ger army western_europe")
    assert victory_step(BOARD, p, "germany").skipped
    v = victory_step(BOARD, p, "italy")
    assert (v.points, v.skipped) == (1, False)


def test_an_ally_in_the_home_space_does_not_skip_the_victory_step():
    assert victory_step(BOARD, pos("ger army germany", "ita army germany"), "germany").points == 1


def test_blocked_star_reached_by_a_chain_is_supplied_but_scores_nothing():
    p = pos("ger army germany", "ger army balkans", "ger army ukraine", blocked_sources={"ukraine": "axis"})
    assert supplied(p)["germany army ukraine"] is True
    v = victory_step(BOARD, p, "germany")
    assert v.points == 2 and [line.space for line in v.lines] == ["germany"]


def test_blocked_source_neither_supplies_nor_scores_for_that_team():
    p = pos("ger army ukraine", blocked_sources={"ukraine": "axis"})
    assert supplied(p)["germany army ukraine"] is False
    assert victory_step(BOARD, p, "germany").points == 0
    q = pos("su army ukraine", blocked_sources={"ukraine": "axis"})
    assert victory_step(BOARD, q, "soviet_union").points == 2


def test_card_only_source_supplies_and_scores_2_for_that_country_alone():
    card = {"canada": "united_kingdom"}
    p = pos("uk army canada", "us army canada", "us army eastern_us", extra_sources=card)
    s = supplied(p)
    assert s["united_kingdom army canada"] is True
    uk = victory_step(BOARD, p, "united_kingdom")
    assert uk.points == 2 and "Канада 2" in uk.detail()[0]
    # the US army there neither reduces the UK's points nor scores Canada itself
    us = victory_step(BOARD, p, "united_states")
    assert us.points == 2 and len(us.lines) == 1 and us.lines[0].space == "eastern_us"
    # without the card Canada is no source: the UK army is cut off and scores nothing
    q = pos("uk army canada", "us army canada", "us army eastern_us")
    assert supplied(q)["united_kingdom army canada"] is False
    assert victory_step(BOARD, q, "united_kingdom").points == 0


def test_szechuan_card_source_for_the_usa():
    p = pos("us army szechuan", extra_sources={"szechuan": "united_states"})
    assert victory_step(BOARD, p, "united_states").points == 2
    assert victory_step(BOARD, pos("us army szechuan"), "united_states").points == 0


def test_shared_star_with_two_allies_scores_1():
    p = pos("uk army middle_east", "uk army india", "us army india", "su army india")
    v = victory_step(BOARD, p, "united_kingdom")
    assert v.points == 1
    assert v.detail("ru") == ["Индия 1 (вместе с США и СССР)"] or v.detail("ru") == ["Индия 1 (вместе с СССР и США)"]


# --- sudden victory ------------------------------------------------------------------------

def test_sudden_victory_needs_two_enemy_home_spaces():
    assert sudden_victory(BOARD, pos("ger army moscow")) is None
    assert sudden_victory(BOARD, pos("ger army moscow", "jpn army eastern_us")) == "axis"
    assert sudden_victory(BOARD, pos("us army germany", "uk army italy")) == "allies"
    # own homes do not count
    assert sudden_victory(BOARD, pos("ger army germany", "ita army italy", "jpn army japan")) is None
    # a navy is not an army
    assert sudden_victory(BOARD, pos("ger army moscow", "ger navy north_sea")) is None

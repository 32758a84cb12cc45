"""Legality of every action type, with the reason naming the rule; the rulebook's examples."""
import pytest

from gameplay.qmg import apply_action, check_action

from .helpers import BOARD, act, pos


def check(position, spec, **kw):
    return check_action(BOARD, position, act(spec, **kw))


# --- build army ---------------------------------------------------------------------------

def test_build_army_in_home_space_needs_nothing_else():
    v = check(pos(), "ger build_army germany")
    assert v.legal and "домашний сектор" in v.reason.ru
    assert [p.space for p in v.places] == ["germany"]


def test_build_army_next_to_a_supplied_army():
    v = check(pos("ger army germany"), "ger build_army eastern_europe")
    assert v.legal and "«Создайте армию»" in v.reason.ru and "Build Army" in v.reason.en


def test_build_army_next_to_a_supplied_navy():
    # German navy in the Baltic (next to the German army in Germany) lets Germany build in Scandinavia
    v = check(pos("ger army germany", "ger navy baltic_sea"), "ger build_army scandinavia")
    assert v.legal and "флот" in v.reason.ru


def test_build_army_refused_next_to_an_unsupplied_army():
    v = check(pos("ger army russia"), "ger build_army siberia")
    assert not v.legal
    assert v.reason.ru == ("Создать армию можно только рядом с вашей снабжаемой армией или флотом, "
                           "или в домашнем секторе (правило «Создайте армию»).")


def test_build_army_refused_next_to_an_allys_army():
    assert not check(pos("ita army italy"), "ger build_army balkans").legal


def test_build_army_at_sea_refused():
    v = check(pos("ger army germany"), "ger build_army baltic_sea")
    assert not v.legal and "только на суше" in v.reason.ru


def test_build_army_stacking_own_and_enemy():
    v = check(pos("ger army germany"), "ger build_army germany")
    assert not v.legal and v.reason.code == "stacking.own"
    v = check(pos("ger army germany", "su army eastern_europe"), "ger build_army eastern_europe")
    assert not v.legal and v.reason.code == "stacking.enemy" and "СССР" in v.reason.ru
    # an ally's army may share the space
    assert check(pos("ger army germany", "ita army eastern_europe"), "ger build_army eastern_europe").legal


def test_build_army_refused_when_all_armies_are_on_the_board():
    ita = pos("ita army italy", "ita army balkans", "ita army western_europe", "ita army north_africa")
    v = check(ita, "ita build_army middle_east")
    assert not v.legal and v.reason.code == "limit" and "4" in v.reason.ru


def test_enemy_army_in_home_blocks_building_there():
    v = check(pos("su army germany"), "ger build_army germany")
    assert not v.legal and v.reason.code == "stacking.enemy"


# --- build navy ---------------------------------------------------------------------------

def test_build_navy_next_to_supplied_army_with_the_navy_condition():
    v = check(pos("ger army germany"), "ger build_navy baltic_sea")
    assert v.legal and "«Создайте флот»" in v.reason.ru


def test_build_navy_on_land_refused():
    v = check(pos("ger army germany"), "ger build_navy balkans")
    assert not v.legal and v.reason.code == "navy_at_sea"


def test_build_navy_not_adjacent_refused():
    v = check(pos("ger army germany"), "ger build_navy black_sea")
    assert not v.legal and v.reason.code == "build_navy.not_adjacent"


def test_soviet_union_has_a_single_navy():
    v = check(pos("su army moscow", "su army russia", "su navy baltic_sea", "su army ukraine"), "su build_navy black_sea")
    assert not v.legal and v.reason.code == "limit"


def test_rulebook_supply_example_us_central_pacific():
    """США: флот на востоке Тихого океана, армия на западе США; Великобритания: армия в Австралии,
    флот в Южно-Китайском море. США не могут создать флот в центре Тихого океана без базы на острове."""
    start = pos("us navy eastern_pacific", "us army western_us", "uk army australia", "uk navy south_china_sea")
    v = check(start, "us build_navy central_pacific")
    assert not v.legal and v.reason.code == "build_navy.unsupplied"
    assert "условие для флотов" in v.reason.ru
    # way 1: the US builds an army in Hawaii, then the navy
    v, hawaii = apply_action(BOARD, start, act("us build_army hawaii"))
    assert v.legal
    assert check(hawaii, "us build_navy central_pacific").legal
    # way 2: the UK builds an army in New Guinea or the Philippines; then the UK or the US may build
    for island in ("new_guinea", "philippines"):
        v, uk_island = apply_action(BOARD, start, act(f"uk build_army {island}"))
        assert v.legal, island
        assert check(uk_island, "us build_navy central_pacific").legal
        assert check(uk_island, "uk build_navy central_pacific").legal


def test_build_navy_through_a_closed_strait_is_refused_and_names_the_strait():
    p = pos("uk army united_kingdom", "uk navy north_sea", "ger army north_africa", "ger army western_europe",
            "ger army germany")
    v = check(p, "uk build_navy mediterranean")
    assert not v.legal and "Гибралтар" in v.reason.ru and "Gibraltar" in v.reason.en
    # without the Axis army in North Africa the strait is open for the UK
    q = pos("uk army united_kingdom", "uk navy north_sea", "uk army middle_east")
    assert check(q, "uk build_navy mediterranean").legal


# --- recruit -------------------------------------------------------------------------------

def test_recruit_ignores_supply_but_warns_that_the_piece_is_unsupplied():
    v = check(pos(), "su recruit_army balkans")
    assert v.legal and "снабжение не требуется" in v.reason.ru
    assert [w.code for w in v.warnings] == ["reminder.recruit_unsupplied"]
    v = check(pos("su army ukraine"), "su recruit_army balkans")
    assert v.legal and v.warnings == ()


def test_recruit_still_obeys_terrain_stacking_and_limits():
    assert check(pos(), "us recruit_navy hawaii").reason.code == "navy_at_sea"
    assert check(pos("ger army balkans"), "su recruit_army balkans").reason.code == "stacking.enemy"
    assert check(pos("su navy black_sea"), "su recruit_navy baltic_sea").reason.code == "limit"


# --- battles -------------------------------------------------------------------------------

def test_land_battle_removes_the_enemy_army():
    p = pos("ger army germany", "ger army balkans", "su army ukraine")
    v, after = apply_action(BOARD, p, act("ger land_battle ukraine"))
    assert v.legal and "Атака на суше" in v.reason.ru
    assert after == pos("ger army germany", "ger army balkans")


def test_land_battle_needs_an_adjacent_supplied_piece():
    v = check(pos("ger army russia", "su army moscow"), "ger land_battle moscow")
    assert not v.legal and v.reason.code == "battle.not_adjacent"


def test_battle_type_must_match_the_target():
    assert check(pos("ger army germany"), "ger land_battle baltic_sea").reason.code == "battle.wrong_domain_land"
    assert check(pos("ger army germany"), "ger sea_battle eastern_europe").reason.code == "battle.wrong_domain_sea"


def test_battle_on_an_empty_space_is_legal_and_removes_nothing():
    v = check(pos("ger army germany"), "ger land_battle eastern_europe")
    assert v.legal and v.removes == () and v.warnings[0].code == "reminder.empty_target"


def test_cannot_attack_a_space_holding_your_own_team():
    v = check(pos("ger army germany", "ita army balkans"), "ger land_battle balkans")
    assert not v.legal and v.reason.code == "battle.own_team" and "Италия" in v.reason.ru


def test_battle_with_two_enemy_armies_there_asks_which_one():
    p = pos("su army moscow", "su army ukraine", "ger army balkans", "ita army balkans")
    v = check(p, "su land_battle balkans")
    assert v.legal and v.removes == () and "Выберите" in v.reason.ru
    v = check(p, "su land_battle balkans", target_country="ita")
    assert v.legal and [r.country for r in v.removes] == ["italy"]
    v = check(p, "su land_battle balkans", target_country="jpn")
    assert not v.legal and v.reason.code == "battle.no_such_target"


def test_rulebook_gibraltar_example():
    """Германия: флот в Средиземном море и армия в Северной Африке; Италия: флот в Средиземном море;
    Великобритания: флот в Северном море. Британцы не могут атаковать Средиземное море, а Италия
    и Германия могут атаковать британский флот в Северном море."""
    p = pos("ger navy mediterranean", "ger army north_africa", "ita navy mediterranean", "uk navy north_sea",
            # the sources behind them (the example leaves them implicit)
            "ger army western_europe", "ger army germany", "ita army italy", "uk army united_kingdom")
    report_straits = check(p, "uk sea_battle mediterranean")
    assert not report_straits.legal and "Гибралтар" in report_straits.reason.ru
    assert check(p, "ita sea_battle north_sea").legal
    assert check(p, "ger sea_battle north_sea").legal
    v, after = apply_action(BOARD, p, act("ita sea_battle north_sea"))
    assert [r.country for r in v.removes] == ["united_kingdom"]
    # once the Axis army leaves North Africa the strait is the Allies' again
    q = pos("ita navy mediterranean", "ita army italy", "uk navy north_sea", "uk army united_kingdom")
    assert not check(q, "ita sea_battle north_sea").legal
    assert check(q, "uk sea_battle mediterranean").legal


# --- eliminate and remove ------------------------------------------------------------------

def test_eliminate_needs_no_adjacency_or_supply():
    v, after = apply_action(BOARD, pos("ger army balkans"), act("su eliminate balkans"))
    assert v.legal and "Атака или уничтожение" in v.reason.ru
    assert after.pieces == ()


def test_eliminate_refuses_when_no_enemy_piece_is_there():
    assert check(pos(), "su eliminate balkans").reason.code == "eliminate.nothing"
    assert check(pos("su army balkans"), "su eliminate balkans").reason.code == "eliminate.own_team"
    assert check(pos("ger navy baltic_sea"), "su eliminate baltic_sea", kind="army").reason.code == "eliminate.nothing"


def test_remove_own_piece_any_time_but_never_an_allys():
    v, after = apply_action(BOARD, pos("ger army russia", "ita army balkans"), act("ger remove russia"))
    assert v.legal and after == pos("ita army balkans")
    assert check(pos("ita army balkans"), "ger remove balkans").reason.code == "remove.not_own"
    assert check(pos(), "ger remove balkans").reason.code == "remove.nothing"


@pytest.mark.parametrize("spec", ["ger build_army russia", "ger land_battle moscow", "us build_navy indian_ocean"])
def test_refused_action_leaves_the_position_unchanged(spec):
    p = pos("ger army germany", "us army eastern_us")
    v, after = apply_action(BOARD, p, act(spec))
    assert not v.legal and after is p


def test_every_refusal_has_both_languages_and_names_a_rule():
    cases = [
        (pos(), "ger build_army russia"), (pos(), "ger build_navy north_sea"), (pos(), "ger build_army north_sea"),
        (pos("ger army germany"), "ger land_battle baltic_sea"), (pos(), "ger land_battle russia"),
        (pos(), "su eliminate balkans"), (pos("ita army balkans"), "ger remove balkans"),
    ]
    for position, spec in cases:
        v = check(position, spec)
        assert not v.legal
        assert "правил" in v.reason.ru and "rule" in v.reason.en, spec
        assert v.reason.ru != v.reason.en

"""Statuses in play change supply, building and scoring (gameplay/qmg/effects.py).

One test per status whose effect the engine applies, each with a position where the card matters
and one where it does not; the rulebook's examples that involve cards; property tests; qmg_check.
"""
import json
import random
from collections import deque
from dataclasses import replace
from io import StringIO

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.qmg import (
    EffectContext, Position, PositionError, automated_statuses, check_action, check_position, compute_supply,
    immediate_vp, instead_of_play_statuses, once_per_turn_statuses, remove_unsupplied, status_uses,
    validate_position, victory_phase_all, victory_step,
)
from gameplay.qmg.cards import load_catalogue
from gameplay.qmg.effects import NO_MODIFIERS, modifiers
from gameplay.qmg.sample import random_position

from .helpers import BOARD, act, pos

CATALOGUE = load_catalogue()


def with_statuses(position, *statuses):
    return replace(position, statuses=tuple(statuses))


def supplied(position, context=None):
    report = compute_supply(BOARD, position, context)
    return {f"{p.country} {p.kind} {p.space}": s.supplied for p, s in report.pieces.items()}


def vp(position, country, context=None):
    return victory_step(BOARD, position, country, context=context)


def card_lines(result):
    return [(line.card, line.points) for line in result.lines if line.card]


# --- which statuses are automated ------------------------------------------------------------

AUTOMATED = {
    "ger_swedish_iron_ore": "scoring", "ger_abundant_resources": "scoring",
    "uk_australia_directorate_of_manpower": "supply", "uk_lord_linlithgow": "supply", "uk_mackenzie_king": "supply",
    "jpn_forward_bases": "scoring", "jpn_co_prosperity_sphere": "scoring", "jpn_imperial_designs": "scoring",
    "su_scorched_earth": "supply", "su_shverniks_evacuation_council": "supply",
    "ita_anti_communist_sentiment": "scoring", "ita_balkan_resources": "scoring", "ita_impero_italiano": "scoring",
    "ita_mare_nostrum": "scoring", "us_avg_expands": "supply",
}


def test_the_automated_statuses_are_exactly_those_tested_below():
    assert automated_statuses() == AUTOMATED
    tested = {name[len("test_status_"):] for name in globals() if name.startswith("test_status_")}
    assert tested == set(AUTOMATED)


def test_no_statuses_cost_nothing():
    assert modifiers(pos("ger army germany")) is NO_MODIFIERS


# --- supply statuses ------------------------------------------------------------------------

def test_status_uk_mackenzie_king():
    # rulebook: Canada becomes a source for the UK alone; a UK army there scores 2, allies neither share nor earn
    p = pos("uk army canada", "uk navy north_atlantic", "us army eastern_us", "us army canada")
    assert supplied(p)["united_kingdom army canada"] is False
    assert vp(p, "united_kingdom").points == 0
    q = with_statuses(p, "uk_mackenzie_king")
    s = supplied(q)
    assert s["united_kingdom army canada"] and s["united_kingdom navy north_atlantic"]
    report = compute_supply(BOARD, q)
    canada = report.pieces[q.pieces[0]]
    assert canada.code == "supply.card_source" and canada.card == "uk_mackenzie_king"
    assert "Маккензи Кинг" in canada.reason.ru and "Mackenzie King" in canada.reason.en
    uk = vp(q, "united_kingdom")
    assert uk.points == 2 and uk.lines[0].card == "uk_mackenzie_king" and uk.lines[0].space == "canada"
    assert uk.detail()[0].startswith("Канада 2") and "Маккензи Кинг" in uk.detail()[0]
    # the US army in Canada is supplied by its own chain but earns nothing there; it does not cut the UK's 2
    assert s["united_states army canada"] is True
    assert vp(q, "united_states").points == 2  # Eastern US only
    # another country of the UK's team gets no source from the card
    assert supplied(with_statuses(pos("us army canada"), "uk_mackenzie_king"))["united_states army canada"] is False


def test_status_us_avg_expands():
    # rulebook: Szechuan (Западный Китай) becomes a source for the USA alone
    p = pos("us army szechuan", "uk army szechuan", "uk army india")
    assert supplied(p)["united_states army szechuan"] is False
    q = with_statuses(p, "us_avg_expands")
    s = supplied(q)
    assert s["united_states army szechuan"] is True
    assert s["united_kingdom army szechuan"] is True  # by its own chain from India, not by the card
    us = vp(q, "united_states")
    assert us.points == 2 and [line.card for line in us.lines] == ["us_avg_expands"]
    uk = vp(q, "united_kingdom")
    assert uk.points == 2 and [line.space for line in uk.lines] == ["india"]  # India alone, Szechuan nothing
    assert supplied(with_statuses(pos("uk army szechuan"), "us_avg_expands"))["united_kingdom army szechuan"] is False


def test_status_su_scorched_earth():
    p = pos("ger army ukraine", "su army moscow")
    assert supplied(p)["germany army ukraine"] is True and vp(p, "germany").points == 2
    q = with_statuses(p, "su_scorched_earth")
    assert supplied(q)["germany army ukraine"] is False
    assert vp(q, "germany").points == 0
    # Ukraine stays a source (and a VP space) for the Allies
    r = with_statuses(pos("su army ukraine", "uk army ukraine"), "su_scorched_earth")
    assert all(supplied(r).values())
    assert vp(r, "soviet_union").points == 1 and vp(r, "united_kingdom").points == 1
    # a German chain from Germany still supplies the army in Ukraine, which then scores nothing there
    c = with_statuses(pos("ger army germany", "ger army eastern_europe", "ger army ukraine"), "su_scorched_earth")
    assert all(supplied(c).values()) and vp(c, "germany").points == 2


def test_status_su_shverniks_evacuation_council():
    p = pos("su army siberia", "su army vladivostok", "su navy baltic_sea", "ger army germany")
    assert supplied(p) == {"soviet_union army siberia": False, "soviet_union army vladivostok": False,
                           "soviet_union navy baltic_sea": False, "germany army germany": True}
    q = with_statuses(p, "su_shverniks_evacuation_council")
    s = supplied(q)
    assert s["soviet_union army siberia"] and s["soviet_union army vladivostok"]
    assert s["soviet_union navy baltic_sea"] is False  # navies are not covered
    report = compute_supply(BOARD, q)
    kept = report.pieces[q.pieces[0]]
    assert kept.code == "supply.card_always" and kept.card == "su_shverniks_evacuation_council"
    assert "Шверника" in kept.reason.ru
    after, gone = remove_unsupplied(BOARD, q, "soviet_union")
    assert [g.kind for g in gone] == ["navy"] and len(after.pieces) == 3
    # the armies count as supplied for building: a new army next to Siberia is legal
    assert check_action(BOARD, q, act("su build_army kazakhstan")).legal
    assert not check_action(BOARD, p, act("su build_army kazakhstan")).legal
    # an always-supplied army is no source: it scores nothing and starts no chain for the navy
    assert vp(q, "soviet_union").points == 0


def test_status_uk_lord_linlithgow():
    p = pos("uk army united_kingdom")
    assert not check_action(BOARD, p, act("uk build_army india")).legal
    q = with_statuses(p, "uk_lord_linlithgow")
    verdict = check_action(BOARD, q, act("uk build_army india"))
    assert verdict.legal and "Лорд Линлитгоу" in verdict.reason.ru and "Lord Linlithgow" in verdict.reason.en
    # only India, only armies, only the UK
    assert not check_action(BOARD, q, act("uk build_army middle_east")).legal
    assert not check_action(BOARD, with_statuses(pos("us army eastern_us"), "uk_lord_linlithgow"),
                            act("us build_army india")).legal
    # stacking rules still hold
    assert not check_action(BOARD, with_statuses(pos("jpn army india"), "uk_lord_linlithgow"),
                            act("uk build_army india")).legal
    # it makes no source: India is a star anyway, and the card adds no VP line
    assert card_lines(vp(with_statuses(pos("uk army india"), "uk_lord_linlithgow"), "united_kingdom")) == []


def test_status_uk_australia_directorate_of_manpower():
    p = pos("uk army united_kingdom")
    assert not check_action(BOARD, p, act("uk build_army australia")).legal
    q = with_statuses(p, "uk_australia_directorate_of_manpower")
    assert check_action(BOARD, q, act("uk build_army australia")).legal
    assert not check_action(BOARD, q, act("uk build_army india")).legal
    assert not check_action(BOARD, q, act("uk build_navy indian_ocean")).legal


def test_per_turn_always_supplied_needs_the_context_flag():
    # «Трук» (a response): every Japanese navy is supplied for the rest of the turn it is used
    p = pos("jpn navy central_pacific", "jpn army japan")
    assert supplied(p)["japan navy central_pacific"] is False
    assert supplied(p, EffectContext.of({"jpn_truk"}))["japan navy central_pacific"] is True
    assert supplied(p, ["jpn_truk"])["japan navy central_pacific"] is True
    # lasting effects never come from the context, and a response cannot be a status in play
    assert supplied(pos("uk army canada"), ["uk_mackenzie_king"])["united_kingdom army canada"] is False
    with pytest.raises(PositionError, match="not a status card: jpn_truk"):
        validate_position(BOARD, with_statuses(p, "jpn_truk"))
    with pytest.raises(PositionError, match="unknown card id"):
        compute_supply(BOARD, p, ["no_such_card"])
    # the context given to compute_supply travels with the report
    report = compute_supply(BOARD, p, ["jpn_truk"])
    assert check_action(BOARD, p, act("jpn sea_battle eastern_pacific"), report).legal
    assert not check_action(BOARD, p, act("jpn sea_battle eastern_pacific")).legal


# --- scoring statuses -----------------------------------------------------------------------

def test_status_ger_swedish_iron_ore():
    base = pos("ger army germany", "ger navy baltic_sea")
    assert vp(base, "germany").points == 2
    q = with_statuses(base, "ger_swedish_iron_ore")
    assert card_lines(vp(q, "germany")) == [("ger_swedish_iron_ore", 1)]
    both = with_statuses(pos("ger army germany", "ger navy baltic_sea", "ger army scandinavia"),
                         "ger_swedish_iron_ore")
    result = vp(both, "germany")
    assert result.points == 4 and card_lines(result) == [("ger_swedish_iron_ore", 2)]
    assert result.detail()[-1] == "«Шведская железная руда» +2 (Балтийское море, Скандинавия)"
    assert result.detail("en")[-1] == "“Swedish Iron Ore” +2 (Baltic Sea, Scandinavia)"
    # the Scandinavian army alone is worth nothing: the Baltic navy is the condition
    alone = with_statuses(pos("ger army germany", "ger army scandinavia", "ger navy north_sea"), "ger_swedish_iron_ore")
    assert card_lines(vp(alone, "germany")) == []


def test_status_ger_abundant_resources():
    q = with_statuses(pos("ger army ukraine"), "ger_abundant_resources")
    result = vp(q, "germany")
    assert result.points == 3 and card_lines(result) == [("ger_abundant_resources", 1)]
    assert card_lines(vp(with_statuses(pos("ger army germany"), "ger_abundant_resources"), "germany")) == []
    # with «Выжженная земля» the star scores nothing, but a supplied army there still earns the card's point
    scorched = with_statuses(pos("ger army germany", "ger army eastern_europe", "ger army ukraine"),
                             "ger_abundant_resources", "su_scorched_earth")
    assert vp(scorched, "germany").points == 3
    # …and an unsupplied one is gone before the victory step
    cut = with_statuses(pos("ger army germany", "ger army ukraine"), "ger_abundant_resources", "su_scorched_earth")
    assert vp(cut, "germany").points == 2


def test_status_jpn_forward_bases():
    p = pos("jpn army hawaii", "jpn navy eastern_pacific", "jpn army new_zealand")
    assert all(supplied(p).values())
    q = with_statuses(p, "jpn_forward_bases")
    assert card_lines(vp(q, "japan")) == [("jpn_forward_bases", 2)]  # Hawaii and New Zealand
    assert vp(q, "japan").points == 4
    assert card_lines(vp(with_statuses(pos("jpn army japan"), "jpn_forward_bases"), "japan")) == []


def test_status_jpn_co_prosperity_sphere():
    p = pos("jpn army china", "jpn army southeast_asia", "jpn navy south_china_sea", "jpn army indonesia")
    assert all(supplied(p).values())
    q = with_statuses(p, "jpn_co_prosperity_sphere")
    assert card_lines(vp(q, "japan")) == [("jpn_co_prosperity_sphere", 2)]
    # an unsupplied army (no navy to carry the chain) is gone in the supply step and scores nothing
    r = with_statuses(pos("jpn army china", "jpn army southeast_asia", "jpn army indonesia"),
                      "jpn_co_prosperity_sphere")
    assert card_lines(vp(r, "japan")) == [("jpn_co_prosperity_sphere", 1)]
    assert card_lines(vp(with_statuses(pos("jpn army china"), "jpn_co_prosperity_sphere"), "japan")) == []


def test_status_jpn_imperial_designs():
    p = pos("jpn army japan", "jpn navy sea_of_japan", "jpn army philippines", "jpn army iwo_jima")
    q = with_statuses(p, "jpn_imperial_designs")
    assert card_lines(vp(q, "japan")) == [("jpn_imperial_designs", 1)]  # 1 at most
    assert card_lines(vp(with_statuses(pos("jpn army japan"), "jpn_imperial_designs"), "japan")) == []


def test_status_ita_anti_communist_sentiment():
    q = with_statuses(pos("ita army ukraine", "ita army russia"), "ita_anti_communist_sentiment")
    result = vp(q, "italy")
    assert card_lines(result) == [("ita_anti_communist_sentiment", 1)] and result.points == 3
    assert card_lines(vp(with_statuses(pos("ita army italy"), "ita_anti_communist_sentiment"), "italy")) == []


def test_status_ita_balkan_resources():
    q = with_statuses(pos("ita army italy", "ita army balkans"), "ita_balkan_resources")
    assert card_lines(vp(q, "italy")) == [("ita_balkan_resources", 1)]
    assert vp(q, "italy").points == 3
    # an unsupplied Italian army in the Balkans is removed first
    cut = with_statuses(pos("ita army balkans"), "ita_balkan_resources")
    assert card_lines(vp(cut, "italy")) == []


def test_status_ita_impero_italiano():
    # German armies count too, supplied or not (only Italy's own supply step has run)
    p = pos("ita army italy", "ita navy mediterranean", "ita army north_africa", "ger army north_africa",
            "ger army middle_east")
    q = with_statuses(p, "ita_impero_italiano")
    assert card_lines(vp(q, "italy")) == [("ita_impero_italiano", 2)]  # North Africa once, Middle East
    assert card_lines(vp(with_statuses(pos("ita army italy"), "ita_impero_italiano"), "italy")) == []


def test_status_ita_mare_nostrum():
    p = pos("ita army italy", "ita navy mediterranean", "ita navy black_sea")
    q = with_statuses(p, "ita_mare_nostrum")
    result = vp(q, "italy")
    # the Black Sea navy has no Axis army beside it: removed in the supply step, so only one counts
    assert card_lines(result) == [("ita_mare_nostrum", 1)]
    assert result.detail("en")[-1] == "“Mare Nostrum” +1 (navies on the board: 1)"
    assert card_lines(vp(with_statuses(pos("ita army italy"), "ita_mare_nostrum"), "italy")) == []


def test_scoring_lines_belong_to_the_owner_only():
    q = with_statuses(pos("jpn army philippines", "jpn army japan", "jpn navy sea_of_japan", "ita army italy"),
                      "jpn_imperial_designs")
    assert card_lines(vp(q, "italy")) == []
    assert card_lines(vp(q, "japan")) == [("jpn_imperial_designs", 1)]


def test_skipped_victory_step_scores_no_card_points():
    q = with_statuses(pos("jpn army philippines", "jpn navy sea_of_japan", "us army japan"), "jpn_imperial_designs")
    result = vp(q, "japan")
    assert result.skipped and result.points == 0 and result.lines == ()


# --- points gained on the spot --------------------------------------------------------------

def test_rulebook_plunder_example():
    # Germany plays «Разграбление» with two armies outside Germany and a Soviet army in Germany:
    # 2 VP at once, its victory step skipped; Italy later scores 1, sharing Italy with a German army
    p = pos("ger army western_europe", "ger army italy", "ita army italy", "su army germany")
    points, lines = immediate_vp(BOARD, p, "ger_plunder", "germany")
    assert points == 2 and [line.card for line in lines] == ["ger_plunder"]
    assert "Разграбление" in lines[0].reason.ru and "Plunder" in lines[0].reason.en
    assert vp(p, "germany").skipped and vp(p, "germany").points == 0
    assert vp(p, "italy").points == 1


def test_italian_plunder_counts_navies_too():
    p = pos("ita army italy", "ita army balkans", "ita navy mediterranean")
    assert immediate_vp(BOARD, p, "ita_plunder", "italy")[0] == 2


def test_immediate_vp_conditions_and_flat_amounts():
    assert immediate_vp(BOARD, pos(), "jpn_submarines_uk", "japan")[0] == 2
    points, lines = immediate_vp(BOARD, pos("ger army germany"), "ger_v_weapons", "germany")
    assert points == 0 and lines[0].points == 0 and "Северное море" in lines[0].reason.ru
    assert immediate_vp(BOARD, pos("ger army western_europe"), "ger_v_weapons", "germany")[0] == 2
    # the German Submarines against the UK: any German piece next to the North Sea
    assert immediate_vp(BOARD, pos("ger army scandinavia"), "ger_submarines_uk", "germany")[0] == 1
    assert immediate_vp(BOARD, pos("ger army germany"), "ger_blitzkrieg", "germany") == (0, ())
    with pytest.raises(PositionError):
        immediate_vp(BOARD, pos(), "no_such_card", "germany")


# --- how statuses are used -------------------------------------------------------------------

def test_how_statuses_are_used_for_the_ui():
    p = with_statuses(pos(), "ger_conscription", "ger_blitzkrieg", "su_guards", "uk_mackenzie_king")
    assert instead_of_play_statuses(p) == ("ger_conscription", "su_guards")
    assert instead_of_play_statuses(p, "soviet_union") == ("su_guards",)
    assert once_per_turn_statuses(p) == ("ger_blitzkrieg",)
    uses = {u.card: u for u in status_uses(p)}
    assert uses["uk_mackenzie_king"].automatic and not uses["ger_blitzkrieg"].automatic
    assert uses["ger_blitzkrieg"].timing == "when_you_battle_land"


# --- properties ------------------------------------------------------------------------------

def _reference_supply(board, position):
    """The engine before statuses existed (extra/blocked sources only): supplied flag, code, chain."""
    def source(space, country):
        if board.spaces[space].supply and position.blocked_source_map.get(space) != board.team_of(country):
            return "star"
        return "card" if position.extra_source_map.get(space) == country else None

    axis_armies = {p.space for p in position.pieces if p.kind == "army" and board.team_of(p.country) == "axis"}
    straits = {sid: ("axis" if s.land in axis_armies else "allies") for sid, s in board.straits.items()}
    team_armies = {"axis": set(), "allies": set()}
    by_country = {}
    for p in position.pieces:
        if p.kind == "army":
            team_armies[board.team_of(p.country)].add(p.space)
        by_country.setdefault(p.country, {})[p.space] = p
    out = {}
    for country, own in by_country.items():
        team = board.team_of(country)
        extra = {}
        for sid, t in straits.items():
            if t == team:
                a, b = board.straits[sid].seas
                extra.setdefault(a, set()).add(b)
                extra.setdefault(b, set()).add(a)
        eligible = {}
        for space, p in own.items():
            if p.kind == "navy" and not (board.static_neighbours(space) & team_armies[team]):
                out[p] = (False, "supply.navy_condition", ())
            else:
                eligible[space] = p
        parent, queue = {}, deque()
        for space, p in eligible.items():
            if p.kind == "army" and source(space, country):
                parent[space] = None
                queue.append(space)
        while queue:
            here = queue.popleft()
            for nxt in board.static_neighbours(here) | extra.get(here, set()):
                if nxt in eligible and nxt not in parent:
                    parent[nxt] = here
                    queue.append(nxt)
        for space, p in eligible.items():
            if space not in parent:
                out[p] = (False, "supply.no_chain", ())
                continue
            chain = [space]
            while parent[chain[-1]] is not None:
                chain.append(parent[chain[-1]])
            chain.reverse()
            code = ("supply.chain" if len(chain) > 1 else
                    "supply.source" if source(space, country) == "star" else "supply.card_source")
            out[p] = (True, code, tuple(chain))
    return straits, out, source


def _reference_points(board, position, country, supplied_map, source):
    home = board.countries[country].home
    team = board.team_of(country)
    if any(p.space == home and p.kind == "army" and board.team_of(p.country) != team for p in position.pieces):
        return None
    points = 0
    for p in position.pieces:
        if p.country != country or p.kind != "army" or not supplied_map[p][0]:
            continue
        kind = source(p.space, country)
        if kind == "star":
            shared = any(q.kind == "army" and q.space == p.space and q.country != country
                         and board.team_of(q.country) == team for q in position.pieces)
            points += 1 if shared else 2
        elif kind == "card":
            points += 2
    return points


seeds = st.integers(min_value=0, max_value=2**32 - 1)
fills = st.floats(min_value=0.05, max_value=1.0)
LAND = sorted(s.id for s in BOARD.spaces.values() if s.is_land)
STARS = sorted(BOARD.stars())
STATUS_IDS = sorted(c.id for c in CATALOGUE.by_type("status"))
SOURCE_ONLY = sorted(c.id for c in CATALOGUE.by_type("status")
                     if c.effects and all(e.kind in {"supply_source_for", "always_supplied", "build_as_home"}
                                          for e in c.effects))


@st.composite
def positions_with_card_sources(draw):
    rng = random.Random(draw(seeds))
    position = random_position(BOARD, rng, draw(fills))
    extra = {s: rng.choice(BOARD.turn_order) for s in rng.sample(LAND, rng.randint(0, 3))}
    blocked = {s: rng.choice(["axis", "allies"]) for s in rng.sample(STARS, rng.randint(0, 3))}
    return Position.of(position.pieces, extra, blocked)


@given(positions_with_card_sources())
def test_without_statuses_results_equal_the_engine_before_statuses(position):
    straits, expected, source = _reference_supply(BOARD, position)
    report = compute_supply(BOARD, position)
    assert report.straits == straits
    assert {p: (s.supplied, s.code, s.chain) for p, s in report.pieces.items()} == expected
    for country, result in victory_phase_all(BOARD, position, report).items():
        ref = _reference_points(BOARD, position, country, expected, source)
        assert result.skipped == (ref is None)
        assert result.points == (ref or 0)
        assert all(line.card is None for line in result.lines)


@given(positions_with_card_sources(), st.lists(st.sampled_from(SOURCE_ONLY), unique=True, min_size=1))
def test_a_status_that_only_adds_supply_never_unsupplies_a_piece(position, statuses):
    before = compute_supply(BOARD, position)
    after = compute_supply(BOARD, with_statuses(position, *statuses))
    for p, s in before.pieces.items():
        if s.supplied:
            assert after.supplied(p), p


@settings(max_examples=60)
@given(positions_with_card_sources(), st.lists(st.sampled_from(STATUS_IDS), unique=True, max_size=6))
def test_statuses_round_trip_and_scoring_statuses_only_add_points(position, statuses):
    with_cards = with_statuses(position, *statuses)
    validate_position(BOARD, with_cards)
    assert Position.from_dict(json.loads(json.dumps(with_cards.to_dict()))) == with_cards
    scoring_only = with_statuses(position, *[s for s in statuses if automated_statuses().get(s) == "scoring"])
    for country in BOARD.turn_order:
        plain, scored = vp(position, country), vp(scoring_only, country)
        assert scored.skipped == plain.skipped
        assert scored.points >= plain.points
        assert sum(line.points for line in scored.lines) == scored.points
        assert all(CATALOGUE[line.card].country == country for line in scored.lines if line.card)


# --- qmg_check ------------------------------------------------------------------------------

def run(tmp_path, data):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out, err = StringIO(), StringIO()
    try:
        call_command("qmg_check", str(path), stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, out.getvalue(), err.getvalue()
    return 0, json.loads(out.getvalue()), err.getvalue()


def _pieces(*specs):
    return [{"country": c, "kind": k, "space": s} for c, k, s in (spec.split() for spec in specs)]


def test_qmg_check_applies_statuses(tmp_path):
    data = {"pieces": _pieces("united_kingdom army canada", "japan army japan", "japan navy sea_of_japan",
                              "japan army philippines", "united_kingdom army united_kingdom"),
            "statuses": ["uk_mackenzie_king", "jpn_imperial_designs", "uk_lord_linlithgow"],
            "actions": [{"type": "build_army", "country": "united_kingdom", "space": "india"}]}
    code, out, _ = run(tmp_path, data)
    assert code == 0
    assert list(out) == ["pieces", "straits", "victory_phase", "sudden_victory", "actions"]
    assert out["pieces"][0]["supplied"] is True
    assert out["victory_phase"]["united_kingdom"]["points"] == 4
    assert out["victory_phase"]["japan"] == {"points": 3, "skipped": False,
                                             "detail": ["Япония 2", "«Имперские замыслы» +1 (Филиппины)"]}
    assert out["actions"][0]["legal"] is True
    assert out == check_position(data)
    # the same pieces without statuses
    _, plain, _ = run(tmp_path, {"pieces": data["pieces"]})
    assert plain["pieces"][0]["supplied"] is False and plain["victory_phase"]["japan"]["points"] == 2


@pytest.mark.parametrize("statuses,message", [
    (["no_such_card"], "unknown status card 'no_such_card'"),
    (["ger_plunder"], "not a status card: ger_plunder"),
    (["jpn_truk"], "not a status card: jpn_truk"),
    (["uk_mackenzie_king", "uk_mackenzie_king"], "in play 2 times"),
    ("uk_mackenzie_king", "'statuses' must be a list"),
    ([3], "'statuses' must be a list"),
])
def test_qmg_check_bad_status_exits_2(tmp_path, statuses, message):
    code, out, err = run(tmp_path, {"pieces": [], "statuses": statuses})
    assert code == 2 and out == ""
    assert message in err
    assert err.count("\n") <= 1 and "Traceback" not in err

"""Unit and property tests for the battle calculator, outcome table, wins pile and quagmire halving."""
import random
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from gameplay.fog_of_war.battle import (DEFEAT, OUTCOMES, QUAGMIRE, ROUT, VICTORY, BattleInput, card_flow,
                                        check_wins, compute, halving_count, outcome_for, quagmire_losses,
                                        smallest_sufficient)
from gameplay.fog_of_war.cards import Card, total

from .helpers import cards

strength = st.integers(min_value=0, max_value=60)
RANK = {ROUT: 0, DEFEAT: 1, QUAGMIRE: 2, VICTORY: 3}


@given(strength, strength)
def test_exactly_one_outcome_matching_thresholds(a, d):
    o = outcome_for(a, d)
    assert o in OUTCOMES
    matches = [a >= 2 * d, d <= a < 2 * d, a < d and d >= 2 * a, a < d < 2 * a]
    assert sum(matches) == 1
    assert o == [VICTORY, QUAGMIRE, ROUT, DEFEAT][matches.index(True)]


@given(strength, strength, st.integers(min_value=0, max_value=5))
def test_outcome_monotone(a, d, extra):
    assert RANK[outcome_for(a + extra, d)] >= RANK[outcome_for(a, d)]
    assert RANK[outcome_for(a, d + extra)] <= RANK[outcome_for(a, d)]


@given(st.integers(min_value=1, max_value=30))
def test_threshold_edges(d):
    assert outcome_for(2 * d, d) == VICTORY
    assert outcome_for(d, d) == QUAGMIRE
    assert outcome_for(d, 2 * d) == ROUT
    assert outcome_for(2 * d - 1, d) == (QUAGMIRE if d > 1 else QUAGMIRE)


def _cards(owner, n, tag):
    return [Card(f"{tag}{i}", owner, "land", land=1) for i in range(n)]


@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 2 ** 16))
def test_quagmire_halving_size_and_order(n_own, n_neutral, seed):
    own, neu = _cards("axis", n_own, "o"), _cards("neutral", n_neutral, "n")
    r = quagmire_losses(own, neu, rng=random.Random(seed))
    n = n_own + n_neutral
    lost_own, lost_neu = r.data["lost_own"], r.data["lost_neutral"]
    assert len(lost_own) + len(lost_neu) == (max(1, n // 2) if n else 0)
    if lost_neu:
        assert len(lost_own) == n_own  # neutral only after all own
    assert set(lost_own) <= set(own) and set(lost_neu) <= set(neu)
    assert len(r.data["kept_own"]) + len(lost_own) == n_own


def test_quagmire_table_choice_validated():
    own, neu = _cards("axis", 1, "o"), _cards("neutral", 4, "n")
    assert quagmire_losses(own, neu, chosen=["o0", "n2"]).ok
    assert quagmire_losses(own, neu, chosen=["n1", "n2"]).reason.code == "quag_own_first"
    assert quagmire_losses(own, neu, chosen=["o0"]).reason.code == "quag_wrong_count"
    assert quagmire_losses(own, neu, chosen=["zz", "o0"]).reason.code == "quag_unknown_card"


@given(st.lists(st.integers(1, 6), min_size=1, max_size=10), st.integers(0, 40))
def test_smallest_sufficient_is_optimal(values, need):
    pool = [Card(f"c{i}", "axis", "land", land=v) for i, v in enumerate(values)]
    pick = smallest_sufficient(pool, "land", need)
    if need <= 0:
        assert pick == []
    elif sum(values) < need:
        assert pick == pool
    else:
        got = total(pick, "land")
        assert got >= need
        best = min(sum(c) for r in range(1, len(values) + 1) for c in combinations(values, r) if sum(c) >= need)
        assert got == best
        assert check_wins(pool, [c.id for c in pick], "land", need, "minimal_only").ok


def test_wins_short_pool_must_send_everything():
    pool = cards("allies", "L1", "L1")
    assert check_wins(pool, ["al1:L1", "al2:L1"], "land", 5).ok
    assert check_wins(pool, ["al1:L1"], "land", 5).reason.code == "wins_too_small"


def test_minimal_only_setting_rejects_padding():
    pool = cards("axis", "L3", "L1")
    assert check_wins(pool, ["ax1:L3", "ax2:L1"], "land", 3).ok
    assert check_wins(pool, ["ax1:L3", "ax2:L1"], "land", 3, "minimal_only").reason.code == "wins_not_minimal"


def test_reasons_are_bilingual_and_name_a_rule():
    r = check_wins(cards("axis", "L1"), ["nope"], "land", 1)
    assert not r.ok and r.reason.rule and r.reason.ru and r.reason.en and r.reason.ru != r.reason.en


def test_forts_count_for_defender_not_attacker():
    br = compute(BattleInput(cards("axis", "F3", "L2"), cards("allies", "F3")))
    assert (br.a, br.d) == (2, 3)


def test_defending_fort_counts_at_sea_by_default_b24():
    """B-24: the seed names only ships on land and tanks at sea as unsuitable, so a defender's fort counts."""
    br = compute(BattleInput(cards("axis", "N4"), cards("allies", "F3", "N1"), kind="sea"))
    assert br.d == 4 and br.defence_discarded == []


def test_fort_without_sea_value_does_not_count_at_sea_with_card_values_setting():
    br = compute(BattleInput(cards("axis", "N4"), cards("allies", "F3", "N1"), kind="sea", fort_at_sea="card_values"))
    assert br.d == 1 and [c.id for c in br.defence_discarded] == ["al1:F3"]


def test_victory_removes_every_neutral_card_even_unsuitable_b23():
    br = compute(BattleInput(cards("axis", "L4"), cards("allies", "L1"), cards("neutral", "N3", "L1")))
    assert (br.d, br.outcome) == (2, VICTORY)
    flow = card_flow(br, "land").data["flow"]
    assert flow["neutral"]["stays"] == []
    assert sorted(c.id for c in flow["neutral"]["removed"]) == ["ne1:N3", "ne2:L1"]


def test_unsuitable_neutral_cards_stay_after_a_defeat():
    br = compute(BattleInput(cards("axis", "L1"), cards("allies", "L2"), cards("neutral", "N3", "L1")))
    assert br.outcome == ROUT
    flow = card_flow(br, "land").data["flow"]
    assert sorted(c.id for c in flow["neutral"]["stays"]) == ["ne1:N3", "ne2:L1"] and flow["neutral"]["removed"] == []


def test_amphibious_and_wheel_ignored_when_quagmire_resolved_again():
    br = compute(BattleInput(cards("axis", "L4"), cards("allies", "L2"), amphibious=True, wheel_modifier="D+1",
                             winter=True, climate="snow", superiority="defender", from_quagmire=True))
    assert br.d == 2 + 2 + 1


def test_compute_mode_uses_bonuses_without_cards():
    br = compute(BattleInput(cards("axis", "L5"), [], amphibious=True, no_card_rule="compute"))
    assert (br.a, br.d, br.outcome, br.instant) == (5, 4, QUAGMIRE, False)


@given(st.lists(st.integers(1, 5), min_size=1, max_size=6), st.lists(st.integers(1, 5), max_size=6),
       st.lists(st.integers(1, 5), max_size=4), st.integers(0, 1000))
def test_card_flow_conserves_cards(att, dfn, neu, seed):
    mk = lambda owner, vals, tag: [Card(f"{tag}{i}", owner, "land", land=v) for i, v in enumerate(vals)]
    br = compute(BattleInput(mk("axis", att, "a"), mk("allies", dfn, "d"), mk("neutral", neu, "n")))
    flow = card_flow(br, "land", rng=random.Random(seed)).data["flow"]
    a_out = sum((flow["attacker"][p] for p in ("discard", "losses", "wins", "stays")), [])
    d_out = sum((flow["defender"][p] for p in ("discard", "losses", "wins", "stays")), [])
    n_out = flow["neutral"]["removed"] + flow["neutral"]["stays"]
    n_in_losses = [c for c in d_out if c.id.startswith("n")]  # B-22: lost in a quagmire, into defender losses
    assert all(c in flow["defender"]["losses"] for c in n_in_losses)
    assert sorted(c.id for c in a_out) == sorted(f"a{i}" for i in range(len(att)))
    assert sorted(c.id for c in d_out if not c.id.startswith("n")) == sorted(f"d{i}" for i in range(len(dfn)))
    assert sorted(c.id for c in n_out + n_in_losses) == sorted(f"n{i}" for i in range(len(neu)))


def test_halving_count():
    assert [halving_count(n) for n in range(6)] == [0, 1, 1, 1, 2, 2]

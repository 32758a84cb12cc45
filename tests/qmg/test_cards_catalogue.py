"""The 216-card catalogue (gameplay/qmg/data/cards_1e.yaml) against the rulebook.

The composition table and the effects implied by the card texts quoted in the rulebook are
hard-coded here as the independent reference; the board is read straight from its YAML.
"""
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from gameplay.qmg.cards import (
    CARD_TYPES, COUNTRIES, EFFECT_KINDS, Card, Catalogue, Effect, fold, load_catalogue, validate,
)

ROOT = Path(__file__).resolve().parents[2]
CARDS_PATH = ROOT / "gameplay" / "qmg" / "data" / "cards_1e.yaml"
BOARD_PATH = ROOT / "gameplay" / "qmg" / "data" / "board_1e.yaml"
RULEBOOK = Path("/work/shared/seeds/000_0370646f9b8b6263.txt")

# Rulebook «Распределение компонентов»: deck, then build_army, build_navy, land_battle, sea_battle,
# status, response, event, economic_warfare.
TYPES = ("build_army", "build_navy", "land_battle", "sea_battle", "status", "response", "event",
         "economic_warfare")
COMPOSITION = {
    "germany": (40, (6, 2, 7, 2, 11, 0, 7, 5)),
    "japan": (33, (4, 6, 3, 4, 3, 11, 0, 2)),
    "italy": (30, (4, 3, 4, 2, 5, 3, 7, 2)),
    "united_kingdom": (39, (5, 5, 4, 5, 7, 4, 7, 2)),
    "soviet_union": (34, (8, 1, 6, 2, 7, 4, 6, 0)),
    "united_states": (40, (5, 5, 4, 4, 8, 0, 9, 5)),
}

DRAFT_IDS = [
    'ger_build_army', 'ger_build_navy', 'ger_land_battle', 'ger_sea_battle', 'ger_blitzkrieg',
    'ger_dive_bombers', 'ger_bias_for_action', 'ger_atlantic_wall', 'ger_swedish_iron_ore',
    'ger_abundant_resources', 'ger_volkssturm', 'ger_jet_fighters', 'ger_wolf_packs',
    'ger_superior_planning', 'ger_conscription', 'ger_broad_front', 'ger_forced_conscription',
    'ger_guns_and_butter', 'ger_plunder', 'ger_military_dictatorships_balkans', 'ger_production_initiative',
    'ger_autobahn', 'ger_submarines_uk', 'ger_submarines_ussr', 'ger_submarines_usa', 'ger_v_weapons',
    'uk_build_army', 'uk_build_navy', 'uk_land_battle', 'uk_sea_battle',
    'uk_australia_directorate_of_manpower', 'uk_lord_linlithgow', 'uk_mackenzie_king', 'uk_free_france',
    'uk_rationing', 'uk_resistance', 'uk_royal_navy', 'uk_defensive_posture', 'uk_destroyers',
    'uk_loyal_to_the_crown', 'uk_raf', 'uk_dutch_east_indies', 'uk_enigma', 'uk_general_smuts',
    'uk_increased_commonwealth_support', 'uk_ledo_and_burma_roads', 'uk_king_peter', 'uk_singapore',
    'uk_bomber_command', 'uk_malta_submarines',
    'jpn_build_army', 'jpn_build_navy', 'jpn_land_battle', 'jpn_sea_battle', 'jpn_forward_bases',
    'jpn_co_prosperity_sphere', 'jpn_imperial_designs', 'jpn_banzai_charge', 'jpn_battleship_repair',
    'jpn_china_offensive', 'jpn_destroyer_transport', 'jpn_fall_of_singapore', 'jpn_kamikaze',
    'jpn_kwantung_army', 'jpn_operation_ketsu_go', 'jpn_surprise_attack', 'jpn_special_naval_landing_forces',
    'jpn_truk', 'jpn_submarines_uk', 'jpn_submarines_us',
    'su_build_army', 'su_build_navy', 'su_land_battle', 'su_sea_battle', 'su_defense_of_the_motherland',
    'su_frontal_assault', 'su_guards', 'su_scorched_earth', 'su_shverniks_evacuation_council',
    'su_stavka_artillery_corps', 'su_women_conscripts', 'su_leningrad', 'su_moscow', 'su_rasputitsa',
    'su_stalingrad', 'su_general_winter', 'su_german_soviet_treaty', 'su_mao_tse_tung', 'su_titos_partisans',
    'su_trans_siberian_railroad', 'su_vasilevsky',
    'ita_build_army', 'ita_build_navy', 'ita_land_battle', 'ita_sea_battle', 'ita_anti_communist_sentiment',
    'ita_balkan_resources', 'ita_bravado', 'ita_impero_italiano', 'ita_mare_nostrum', 'ita_monte_cassino',
    'ita_romanian_reinforcements', 'ita_skilled_pilots', 'ita_afrika_korps', 'ita_division_azul',
    'ita_italian_east_africa', 'ita_italy_attacks_communists', 'ita_german_aid_in_greece',
    'ita_german_reinforcements_counterattack', 'ita_plunder', 'ita_decima_flottiglia_mas',
    'ita_regia_marina',
    'us_build_army', 'us_build_navy', 'us_land_battle', 'us_sea_battle', 'us_aircraft_carriers',
    'us_avg_expands', 'us_amphibious_landings', 'us_flying_fortress', 'us_radar', 'us_rosie_the_riveter',
    'us_superior_shipyards', 'us_wartime_production', 'us_arsenal_of_democracy', 'us_free_french_allies',
    'us_fleet_deployed_to_pearl_harbor', 'us_flexible_resources', 'us_guadalcanal', 'us_lend_lease',
    'us_magic', 'us_murmansk_convoy', 'us_theater_shift', 'us_bombers', 'us_heavy_bombers',
    'us_firestorm_bombers',
]


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="module")
def raw() -> dict:
    return yaml.safe_load(CARDS_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board() -> dict:
    return yaml.safe_load(BOARD_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def space_ids(board) -> set:
    return set(board["land"]) | set(board["sea"])


@pytest.fixture(scope="module")
def neighbours(board) -> dict:
    adj = {s: set() for s in list(board["land"]) + list(board["sea"])}
    for edge in board["edges"]:
        a, b = edge[0], edge[1]
        adj[a].add(b)
        adj[b].add(a)
    return adj


def only(card: Card, kind: str) -> Effect:
    effects = card.effects_of(kind)
    assert len(effects) == 1, f"{card.id}: expected one {kind} effect, got {card.effect_kinds}"
    return effects[0]


# ---------------------------------------------------------------- counts and ids

@pytest.mark.parametrize("country", COMPOSITION)
def test_country_counts_match_rulebook_composition(cat, country):
    deck, per_type = COMPOSITION[country]
    assert cat.count(country) == deck
    assert len(cat.expanded_deck(country)) == deck
    for card_type, expected in zip(TYPES, per_type):
        assert cat.count(country, card_type) == expected, (country, card_type)


@pytest.mark.parametrize("card_type", TYPES)
def test_type_counts_match_rulebook_composition(cat, card_type):
    i = TYPES.index(card_type)
    assert cat.count(card_type=card_type) == sum(row[i] for _, row in COMPOSITION.values())


def test_total_is_216_and_composition_in_file_matches_rulebook(cat):
    assert cat.count() == 216 == sum(deck for deck, _ in COMPOSITION.values())
    assert set(TYPES) == set(CARD_TYPES) and set(COMPOSITION) == set(COUNTRIES)
    for country, (deck, per_type) in COMPOSITION.items():
        row = cat.composition[country]
        assert row["deck"] == deck
        assert tuple(row[t] for t in TYPES) == per_type


def test_ids_unique_and_every_draft_id_kept(cat, raw):
    ids = [c["id"] for c in raw["cards"]]
    assert len(ids) == len(set(ids))
    assert len(DRAFT_IDS) == 136
    assert [i for i in DRAFT_IDS if i not in cat] == []


def test_expanded_deck_repeats_copies(cat):
    deck = cat.expanded_deck("germany")
    assert deck.count("ger_land_battle") == 7
    assert deck.count("ger_submarines_uk") == 2
    assert deck.count("ger_blitzkrieg") == 1
    assert Counter(cat[i].country for i in deck) == {"germany": 40}


def test_lookups_by_id_country_type(cat):
    assert cat["su_stalingrad"].country == "soviet_union"
    assert cat.get("no_such_card") is None
    assert {c.country for c in cat.by_country("italy")} == {"italy"}
    assert {c.type for c in cat.by_type("response")} == {"response"}
    assert {c.id for c in cat.by_type("response", country="japan")} >= {"jpn_surprise_attack"}
    assert sum(c.copies for c in cat.by_type("response", country="japan")) == 11


# ---------------------------------------------------------------- fields and vocabulary

def test_every_card_has_the_required_fields(cat, raw):
    for card in raw["cards"]:
        for key in ("id", "country", "type", "copies", "name_ru", "name_en", "summary_ru", "summary_en",
                    "once_per_turn", "effects", "confidence", "notes"):
            assert key in card and card[key] not in (None, "", []), (card.get("id"), key)
        if card["type"] in ("status", "response"):
            assert card.get("timing") in raw["timings"], card["id"]
    assert all(isinstance(c.once_per_turn, bool) for c in cat)


def test_every_effect_kind_in_the_closed_vocabulary(cat, raw):
    assert set(raw["effect_kinds"]) == EFFECT_KINDS
    used = {e.kind for c in cat for e in c.effects}
    assert used <= EFFECT_KINDS


def test_every_space_in_effects_exists_on_the_board(cat, space_ids):
    placeholders = {"@battled_space", "@protected_space"}
    bad = [(c.id, s) for c in cat for e in c.effects for s in e.space_refs()
           if s not in space_ids and s not in placeholders]
    bad += [(c.id, s) for c in cat for s in c.trigger_spaces if s not in space_ids]
    assert bad == []


def test_validate_clean_catalogue_has_no_problems(cat, space_ids):
    assert validate(cat, space_ids) == []


def test_validate_reports_broken_catalogues(tmp_path, raw, space_ids):
    broken = yaml.safe_load(yaml.safe_dump(raw, allow_unicode=True))
    cards = {c["id"]: c for c in broken["cards"]}
    cards["su_stalingrad"]["effects"][0]["spaces"] = ["stalingrad_city"]
    cards["uk_enigma"]["effects"][0]["kind"] = "teleport"
    del cards["ger_plunder"]["name_ru"]
    del cards["jpn_truk"]["timing"]
    cards["us_bombers"]["copies"] = 3
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(broken, allow_unicode=True), encoding="utf-8")
    problems = "\n".join(validate(load_catalogue(path), space_ids))
    assert "su_stalingrad: unknown space id 'stalingrad_city'" in problems
    assert "uk_enigma: unknown effect kind 'teleport'" in problems
    assert "ger_plunder: missing field name_ru" in problems
    assert "jpn_truk: missing field timing" in problems
    assert "united_states: 6 economic_warfare cards, composition says 5" in problems
    assert "united_states: deck has 41 cards" in problems


def test_duplicate_ids_rejected(tmp_path, raw):
    dup = dict(raw, cards=raw["cards"] + [raw["cards"][0]])
    path = tmp_path / "dup.yaml"
    path.write_text(yaml.safe_dump(dup, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ValueError, match="duplicate card id"):
        load_catalogue(path)


def test_corrections_list_names_cards(cat):
    assert len(cat.corrections) >= 5
    for line in cat.corrections:
        head = line.split(":", 1)[0]
        if head.startswith("("):
            continue
        ids = re.findall(r"[a-z]+_[a-z0-9_]+", head.split("(", 1)[-1])
        assert ids and all(i in cat for i in ids), line


def test_module_is_pure_python():
    code = ("import importlib.util, sys; "
            f"spec = importlib.util.spec_from_file_location('qmg_cards', {str(ROOT / 'gameplay/qmg/cards.py')!r}); "
            "m = importlib.util.module_from_spec(spec); sys.modules['qmg_cards'] = m; spec.loader.exec_module(m); "
            "assert m.load_catalogue().count() == 216; "
            "assert not any(n == 'django' or n.startswith('django.') for n in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.skipif(not RULEBOOK.exists(), reason="rulebook seed not available")
def test_summaries_do_not_copy_the_rulebook(cat):
    def words(text):
        return re.findall(r"\w+", fold(text))

    book = words(RULEBOOK.read_text(encoding="utf-8"))
    runs = {tuple(book[i:i + 6]) for i in range(len(book) - 5)}
    copied = [(c.id, " ".join(w[i:i + 6])) for c in cat for w in (words(c.summary_ru), words(c.summary_en))
              for i in range(len(w) - 5) if tuple(w[i:i + 6]) in runs]
    assert copied == []


# ---------------------------------------------------------------- search

def test_search_by_russian_name(cat):
    assert [c.id for c in cat.search("Сталинград")] == ["su_stalingrad"]
    assert [c.id for c in cat.search("верность КОРОНЕ")] == ["uk_loyal_to_the_crown"]
    assert {c.id for c in cat.search("разграбление")} == {"ger_plunder", "ita_plunder"}
    assert [c.id for c in cat.search("разграбление", country="italy")] == ["ita_plunder"]


def test_search_folds_yo(cat):
    assert [c.id for c in cat.search("Тяжелые бомбардировщики")] == ["us_heavy_bombers"]
    assert [c.id for c in cat.search("Тяжёлые")] == ["us_heavy_bombers"]
    assert [c.id for c in cat.search("король петр")] == ["uk_king_peter"]
    assert [c.id for c in cat.search("родина-мать зовет")] == ["su_defense_of_the_motherland"]


def test_search_by_english_name(cat):
    assert [c.id for c in cat.search("blitzkrieg")] == ["ger_blitzkrieg"]
    assert [c.id for c in cat.search("Destroyer Transport")] == ["jpn_destroyer_transport"]
    assert {c.id for c in cat.search("bombers", country="united_states")} == {
        "us_bombers", "us_heavy_bombers", "us_firestorm_bombers"}
    assert len(cat.search("build army")) == 6
    assert cat.search("   ") == []
    assert cat.search("no such card") == []


# ---------------------------------------------------------------- cards quoted in the rulebook

def test_stalingrad(cat):
    # «Используйте в любой момент. В этом ходу не убирайте советскую армию с юга СССР.»
    card = cat["su_stalingrad"]
    assert (card.type, card.timing, card.name_ru) == ("response", "any_time", "Сталинград")
    e = only(card, "protect")
    assert (list(e["country"]), e["piece"], list(e["spaces"]), e["duration"]) == (
        ["soviet_union"], "army", ["ukraine"], "turn")
    assert not e.get("requires_supplied")


def test_dive_bombers(cat):
    # once per turn on a land battle: discard the deck top, battle the same or an adjacent land space
    card = cat["ger_dive_bombers"]
    assert (card.type, card.timing, card.once_per_turn) == ("status", "when_you_battle_land", True)
    e = only(card, "battle")
    assert (e["domain"], e["where"], dict(e["cost"])) == ("land", "same_or_adjacent_to_battled", {"own_deck": 1})


def test_blitzkrieg(cat):
    # once per turn on a land battle: discard the deck top, build an army in the space just battled
    card = cat["ger_blitzkrieg"]
    assert (card.type, card.timing, card.once_per_turn) == ("status", "when_you_battle_land", True)
    e = only(card, "build")
    assert (e["country"], e["piece"], e["where"], dict(e["cost"])) == (
        "self", "army", "battled_space", {"own_deck": 1})


def test_rasputitsa_covers_moscow_and_its_neighbours(cat, neighbours):
    # eliminate an Axis army just built or recruited in Moscow or an adjacent space
    card = cat["su_rasputitsa"]
    assert (card.type, card.timing) == ("response", "when_axis_builds_or_recruits_army")
    e = only(card, "eliminate")
    assert (e["team"], e["piece"], e["where"]) == ("axis", "army", "just_built_or_recruited")
    covered = set(e["spaces"])
    if e.get("include_adjacent"):
        covered |= {n for s in e["spaces"] for n in neighbours[s]}
    assert "moscow" in covered
    assert "russia" in covered                      # rulebook example 1: Blitzkrieg army in «Север СССР»
    assert neighbours["moscow"] <= covered
    assert not e.get("optional")


def test_destroyers(cat):
    # any time: a supplied US or UK navy in a sea space adjacent to a supplied UK army is not removed this turn
    card = cat["uk_destroyers"]
    assert (card.type, card.timing) == ("response", "any_time")
    e = only(card, "protect")
    assert set(e["country"]) == {"united_kingdom", "united_states"}
    assert (e["piece"], e["duration"], e["requires_supplied"]) == ("navy", "turn", True)
    req = e["requires"]
    assert (req["kind"], req["country"], req["piece"], req["supplied"]) == (
        "piece_adjacent_to", "united_kingdom", "army", True)
    assert list(req["spaces"]) == ["@protected_space"]


def test_surprise_attack(cat):
    # on a sea battle: may battle another sea space, and then a land space
    card = cat["jpn_surprise_attack"]
    assert (card.type, card.timing) == ("response", "when_you_battle_sea")
    assert [(e.kind, e["domain"]) for e in card.effects] == [("battle", "sea"), ("battle", "land")]
    assert all(e.get("optional") for e in card.effects)


def test_destroyer_transport(cat):
    # on a sea battle: may build one or two armies in spaces adjacent to the battled sea space
    card = cat["jpn_destroyer_transport"]
    assert (card.type, card.timing) == ("response", "when_you_battle_sea")
    e = only(card, "build")
    assert (e["piece"], e["where"], e["max"], e["optional"]) == ("army", "adjacent_to_battled", 2, True)


def test_loyal_to_the_crown(cat):
    card = cat["uk_loyal_to_the_crown"]
    assert (card.type, card.timing) == ("response", "when_axis_builds_or_recruits_army")
    e = only(card, "eliminate")
    assert (e["team"], e["piece"], e["where"]) == ("axis", "army", "just_built_or_recruited")
    assert set(e["spaces"]) == {"india", "australia", "canada"}
    assert not e.get("include_adjacent")


def test_plunder(cat):
    # immediately 1 VP per German army outside Germany (scores even with the home occupied)
    card = cat["ger_plunder"]
    assert (card.type, card.name_ru) == ("event", "Разграбление")
    e = only(card, "vp_immediate")
    assert (e["amount"], e["per"], e["country"]) == (1, "army_outside_home", "germany")
    assert card.effect_kinds == ("vp_immediate",)


def test_german_submarines_score_immediately(cat):
    for card_id in ("ger_submarines_uk", "ger_submarines_ussr", "ger_submarines_usa"):
        card = cat[card_id]
        assert (card.type, card.name_ru) == ("economic_warfare", "Субмарины")
        assert "vp_immediate" in card.effect_kinds and "discard_from_deck" in card.effect_kinds


def test_mackenzie_king_canada_source_for_uk_only(cat):
    card = cat["uk_mackenzie_king"]
    assert card.type == "status" and card.name_ru.startswith("Маккензи Кинг")
    e = only(card, "supply_source_for")
    assert (e["space"], e["country"], e["scores_vp"], e["vp"]) == ("canada", "united_kingdom", True, 2)


def test_avg_szechuan_source_for_us_only(cat):
    card = cat["us_avg_expands"]
    assert (card.type, card.name_ru) == ("status", "Пополнение в Американской добровольческой группе")
    e = only(card, "supply_source_for")
    assert (e["space"], e["country"], e["scores_vp"], e["vp"]) == ("szechuan", "united_states", True, 2)


def test_titos_partisans_recruit_does_not_depend_on_the_elimination(cat):
    card = cat["su_titos_partisans"]
    assert (card.type, card.name_ru) == ("event", "Партизаны Тито")
    assert card.effect_kinds == ("eliminate", "recruit")
    eliminate, recruit = card.effects
    assert (eliminate["team"], list(eliminate["spaces"])) == ("axis", ["balkans"])
    assert list(recruit["spaces"]) == ["balkans"] and recruit["piece"] == "army"
    countries = recruit["country"]
    assert "soviet_union" in ([countries] if isinstance(countries, str) else list(countries))
    assert "requires" not in recruit.params


def test_women_conscripts_and_motherland_order(cat):
    # Women Conscripts reacts to the discard of the played card; Motherland to what the card does.
    women = cat["su_women_conscripts"]
    assert (women.type, women.timing, women.name_ru) == ("status", "when_you_play_build_army", "Женщины на службе")
    assert women.effect_kinds == ("manual",)
    motherland = cat["su_defense_of_the_motherland"]
    assert motherland.name_ru == "Родина-мать зовёт"
    assert motherland.timing == "when_you_build_army"     # triggered by the build, i.e. after the discard
    e = only(motherland, "build")
    assert (e["piece"], dict(e["cost"])) == ("army", {"own_hand": 2})


def test_skilled_pilots_ignores_every_bomber_card(cat):
    card = cat["ita_skilled_pilots"]
    assert (card.type, card.name_ru) == ("response", "Опытные пилоты")
    f = only(card, "cancel_card")["card_filter"]
    matched = {c.id for c in cat if c.type == f["type"]
               and (f["title_stem"] in c.name_en.lower() or f["title_stem_ru"] in fold(c.name_ru))}
    assert matched == {"uk_bomber_command", "us_bombers", "us_heavy_bombers", "us_firestorm_bombers"}
    assert cat["uk_bomber_command"].name_ru == "Командование бомбардировочной авиации"


def test_raf_saves_british_pieces_and_american_navies(cat):
    card = cat["uk_raf"]
    assert (card.type, card.name_ru) == ("response", "Королевские ВВС")
    protected = {(c, e["piece"]) for e in card.effects_of("protect") for c in e["country"]}
    assert {("united_kingdom", "navy"), ("united_kingdom", "army"), ("united_states", "navy")} <= protected


def test_lord_linlithgow_is_a_status(cat):
    card = cat["uk_lord_linlithgow"]
    assert card.type == "status"
    e = only(card, "build_as_home")
    assert (e["space"], e["country"], e["piece"]) == ("india", "united_kingdom", "army")


def test_us_bombers_measure_from_axis_home_spaces(cat, board):
    axis_homes = {board["countries"][c]["home"] for c in board["teams"]["axis"]}
    for card_id, distance in (("us_bombers", 3), ("us_heavy_bombers", 2), ("us_firestorm_bombers", 1)):
        req = only(cat[card_id], "discard_from_deck")["requires"]
        assert (req["kind"], req["distance"], set(req["spaces"])) == ("piece_within", distance, axis_homes)


def test_manual_effects_carry_a_note(cat):
    manual = [c.id for c in cat if "manual" in c.effect_kinds]
    assert manual, "some cards can only be tracked by hand"
    assert all(e.get("note") for c in cat for e in c.effects_of("manual"))

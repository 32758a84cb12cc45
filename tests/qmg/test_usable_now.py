"""``usable_now``: after any command, which of a country's face-up statuses — and, while an answer window is open
for its team, which response kinds — it may use right now, each with a one-line text and the command that uses it.
Walks every status and response card of the catalogue: offered where its trigger has just happened, not offered
where it has not."""

import pytest

from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.table import apply_command, face_down_refusal, usable_now, window_view
from gameplay.qmg.triggers import engine_applied

from .helpers import BOARD, SIX, apply, table_of

CAT = default_catalogue()


def cmd(kind, card_type=None, **kw):
    return {"type": kind, **({"card_type": card_type} if card_type else {}), **kw}


def land(space, **kw):
    return cmd("play_card", "land_battle", space=space, **kw)


def sea(space, **kw):
    return cmd("play_card", "sea_battle", space=space, **kw)


def army(space):
    return cmd("play_card", "build_army", space=space)


def navy(space):
    return cmd("play_card", "build_navy", space=space)


START = []  # nothing played yet


def sc(active, pieces=(), commands=(), phase="play", extra=None):
    """A scenario: the six home armies plus ``pieces`` ("country kind space"), ``commands`` applied in order."""
    return {"active": active, "pieces": list(pieces), "commands": list(commands), "phase": phase, "extra": extra or {}}


# card id -> (a table where its trigger has just happened, one where it has not)
SCENARIOS = {
    # --- statuses ---------------------------------------------------------------------------------
    "ger_blitzkrieg": (sc("germany", commands=[land("eastern_europe")]), sc("germany", commands=[army("eastern_europe")])),
    "ger_dive_bombers": (sc("germany", commands=[land("eastern_europe")]),
                         sc("germany", commands=[army("eastern_europe")])),
    "ger_bias_for_action": (sc("germany", commands=[army("eastern_europe")]),
                            sc("germany", commands=[land("eastern_europe")])),
    "ger_atlantic_wall": (sc("united_kingdom", ["germany army western_europe", "united_kingdom navy north_sea"],
                             [land("western_europe")]),
                          sc("united_kingdom", ["germany army western_europe", "united_kingdom navy north_sea"],
                             [land("scandinavia")])),
    "ger_swedish_iron_ore": (sc("germany", ["germany navy baltic_sea"], phase="victory"),
                             sc("germany", ["germany navy baltic_sea"], phase="discard")),
    "ger_abundant_resources": (sc("germany", ["germany army eastern_europe", "germany army ukraine"], phase="victory"),
                               sc("germany", ["germany army eastern_europe"], phase="victory")),
    "ger_jet_fighters": (sc("united_kingdom", commands=[cmd("play_card", "economic_warfare",
                                                              card_id="uk_bomber_command")]),
                         sc("united_kingdom", ["united_kingdom navy north_sea"], commands=[army("scandinavia")])),
    "ger_superior_planning": (sc("germany", commands=START), sc("germany", commands=[cmd("play_card", "discard_unused")])),
    "ger_conscription": (sc("germany", commands=START), sc("germany", commands=[cmd("play_card", "discard_unused")])),
    "uk_free_france": (sc("united_kingdom"), sc("united_kingdom", commands=[cmd("play_card", "discard_unused")])),
    "uk_rationing": (sc("united_kingdom", commands=[cmd("play_card", "status", card_id="uk_mackenzie_king")]),
                     sc("united_kingdom")),
    "uk_resistance": (sc("united_kingdom"), sc("united_kingdom", commands=[cmd("play_card", "discard_unused")])),
    "uk_royal_navy": (sc("united_kingdom", commands=[sea("north_sea")]),
                      sc("united_kingdom", commands=[cmd("play_card", "discard_unused")])),
    "jpn_forward_bases": (sc("japan", ["japan army hawaii"], phase="victory"),
                          sc("japan", ["japan army hawaii"], phase="draw")),
    "jpn_co_prosperity_sphere": (sc("japan", ["japan army china", "japan army southeast_asia"], phase="victory"),
                                 sc("japan", ["japan army china"], phase="victory")),
    "jpn_imperial_designs": (sc("japan", ["japan navy sea_of_japan", "japan army philippines"], phase="victory"),
                             sc("japan", ["japan navy sea_of_japan"], phase="victory")),
    "su_defense_of_the_motherland": (sc("soviet_union", commands=[army("russia")]),
                                     sc("soviet_union", commands=[land("russia")])),
    "su_frontal_assault": (sc("soviet_union", commands=[land("ukraine")]), sc("soviet_union", commands=[army("ukraine")])),
    "su_guards": (sc("soviet_union"), sc("soviet_union", commands=[cmd("play_card", "discard_unused")])),
    "su_stavka_artillery_corps": (sc("soviet_union", commands=[land("ukraine")]),
                                  sc("soviet_union", commands=[army("ukraine")])),
    "su_women_conscripts": (sc("soviet_union", commands=[army("russia")]), sc("soviet_union", commands=[land("russia")])),
    "ita_anti_communist_sentiment": (sc("italy", ["italy army balkans", "italy army ukraine"], phase="victory"),
                                     sc("italy", ["italy army balkans"], phase="victory")),
    "ita_balkan_resources": (sc("italy", ["italy army balkans"], phase="victory"),
                             sc("italy", ["italy army balkans"], phase="supply")),
    "ita_bravado": (sc("italy"), sc("italy", commands=[cmd("play_card", "discard_unused")])),
    "ita_impero_italiano": (sc("italy", ["italy navy mediterranean", "italy army north_africa"], phase="victory"),
                            sc("italy", ["italy navy mediterranean"], phase="victory")),
    "ita_mare_nostrum": (sc("italy", ["italy navy mediterranean"], phase="victory"), sc("italy", phase="victory")),
    "us_aircraft_carriers": (sc("united_states", commands=[sea("north_atlantic")]),
                             sc("united_states", commands=[navy("north_atlantic")])),
    "us_amphibious_landings": (sc("united_states", commands=[land("canada")]),
                               sc("united_states", commands=[army("canada")])),
    "us_radar": (sc("germany", ["germany army western_europe", "germany navy north_sea",
                                "united_states navy north_atlantic"], [sea("north_atlantic")]),
                 sc("germany", ["germany army western_europe", "germany navy north_sea",
                                "united_states navy north_atlantic"], [sea("south_atlantic")])),
    "us_rosie_the_riveter": (sc("united_states", phase="discard"), sc("united_states", phase="draw")),
    "us_superior_shipyards": (sc("united_states", commands=[navy("north_atlantic")]),
                              sc("united_states", commands=[sea("north_atlantic")])),
    "us_wartime_production": (sc("united_states", commands=[army("canada")]),
                              sc("united_states", commands=[land("canada")])),
    # --- responses (their owner holds one face down) ------------------------------------------------
    "uk_defensive_posture": (sc("germany", ["united_kingdom army western_europe"], [land("western_europe")]),
                             sc("germany", ["united_kingdom army western_europe"], [land("eastern_europe")])),
    "uk_destroyers": (sc("germany", ["germany army western_europe", "united_kingdom navy north_sea"],
                         [sea("north_sea")]),
                      sc("germany", ["germany army western_europe", "united_kingdom navy north_sea"],
                         [army("eastern_europe")])),
    "uk_loyal_to_the_crown": (sc("japan", ["japan army china", "japan army southeast_asia"], [army("india")]),
                              sc("japan", ["japan army china", "japan army southeast_asia"], [army("szechuan")])),
    "uk_raf": (sc("germany", ["germany army western_europe", "united_kingdom navy north_sea"], [sea("north_sea")]),
               sc("germany", ["germany army western_europe", "united_kingdom navy north_sea"],
                  [army("eastern_europe")])),
    "jpn_banzai_charge": (sc("japan", ["japan army china"], [land("szechuan")]),
                          sc("japan", ["japan army china"], [army("szechuan")])),
    "jpn_battleship_repair": (sc("united_kingdom", ["united_kingdom army china", "japan navy sea_of_japan"],
                                 [sea("sea_of_japan")]),
                              sc("united_kingdom", ["united_kingdom army china", "japan navy sea_of_japan"],
                                 [land("szechuan")])),
    "jpn_china_offensive": (sc("japan", ["japan army china"], [land("szechuan")]),
                            sc("japan", ["japan army china"], [land("vladivostok")])),
    "jpn_destroyer_transport": (sc("japan", commands=[sea("sea_of_japan")]), sc("japan", commands=[navy("sea_of_japan")])),
    "jpn_fall_of_singapore": (sc("japan", ["japan army china"], [land("southeast_asia")]),
                              sc("japan", ["japan army china"], [land("szechuan")])),
    "jpn_kamikaze": (sc("united_states", ["united_states army western_us", "japan army hawaii"],
                        [navy("eastern_pacific")]),
                     sc("united_states", ["united_states army western_us", "japan army hawaii"],
                        [navy("north_atlantic")])),
    "jpn_kwantung_army": (sc("soviet_union", ["soviet_union army siberia", "japan army china"], [land("china")]),
                          sc("soviet_union", ["soviet_union army siberia", "japan army china"],
                             [land("kazakhstan")])),
    "jpn_operation_ketsu_go": (sc("united_kingdom", ["united_kingdom army china", "japan navy sea_of_japan"],
                                  [sea("sea_of_japan")]),
                               sc("united_kingdom", ["united_kingdom army china", "japan navy sea_of_japan"],
                                  [land("szechuan")])),
    "jpn_surprise_attack": (sc("japan", commands=[sea("sea_of_japan")]), sc("japan", commands=[navy("sea_of_japan")])),
    "jpn_special_naval_landing_forces": (sc("japan", commands=[navy("sea_of_japan")]),
                                         sc("japan", commands=[sea("sea_of_japan")])),
    "jpn_truk": (sc("japan", ["japan navy south_pacific"], phase="supply"),
                 sc("japan", ["japan navy sea_of_japan"], phase="supply")),
    "su_leningrad": (sc("germany", ["germany army eastern_europe", "soviet_union army russia"], [land("russia")]),
                     sc("germany", ["germany army eastern_europe", "soviet_union army russia"], [land("ukraine")])),
    "su_moscow": (sc("germany", ["germany army eastern_europe", "germany army ukraine"], [land("moscow")]),
                  sc("germany", ["germany army eastern_europe", "germany army ukraine"], [land("russia")])),
    "su_rasputitsa": (sc("germany", ["germany army eastern_europe"], [army("ukraine")]),
                      sc("germany", ["germany army eastern_europe"], [army("balkans")])),
    "su_stalingrad": (sc("germany", ["germany army eastern_europe", "soviet_union army ukraine"], [land("ukraine")]),
                      sc("germany", ["germany army eastern_europe", "soviet_union army ukraine"], [land("russia")])),
    "ita_monte_cassino": (sc("united_kingdom", ["united_kingdom army western_europe", "germany army italy"],
                             [land("italy", target_country="germany")]),
                          sc("united_kingdom", ["united_kingdom army western_europe", "germany army italy"],
                             [land("italy", target_country="italy")])),
    "ita_romanian_reinforcements": (sc("soviet_union", ["germany army eastern_europe", "germany army ukraine"],
                                       [land("ukraine")]),
                                    sc("soviet_union", ["germany army eastern_europe", "germany army ukraine"],
                                       [land("kazakhstan")])),
    "ita_skilled_pilots": (sc("united_states", ["united_states army western_europe"],
                              [cmd("play_card", "economic_warfare", card_id="us_bombers"),
                               cmd("step", action="discard_from_deck", target_country="italy")]),
                           sc("united_states", ["united_states army western_europe"],
                              [cmd("play_card", "economic_warfare", card_id="us_bombers"),
                               cmd("step", action="discard_from_deck", target_country="germany")])),
}


def build(card, s, held=None):
    """The scenario's table: the card face up (a status) or one response face down (``held``: which one)."""
    own = {card.country: {"statuses": [card.id]} if card.type == "status" else {"responses": [held or card.id]}}
    t = table_of(SIX + s["pieces"], active=s["active"], phase=s["phase"], round=3, cards=own)
    for command in s["commands"]:
        t = apply(t, {"country": s["active"], **command})
    return t


def offered(t, card):
    return [u for u in usable_now(BOARD, t, card.country) if u.card_id == card.id]


def test_every_status_and_response_of_the_catalogue_has_its_scenarios():
    """Statuses the engine applies by itself (supply, building, the Economic Warfare modifiers, «Фольксштурм») are
    never "used"; every other status and every response is walked below."""
    cards = {c.id for c in CAT if c.type == "response" or (c.type == "status" and not engine_applied(c, table_of()))}
    assert set(SCENARIOS) == cards
    assert {c.id for c in CAT if c.type == "status" and engine_applied(c, table_of())} == {
        "ger_volkssturm", "ger_wolf_packs", "uk_australia_directorate_of_manpower", "uk_lord_linlithgow",
        "uk_mackenzie_king", "su_scorched_earth", "su_shverniks_evacuation_council", "us_avg_expands",
        "us_flying_fortress"}


@pytest.mark.parametrize("card_id", sorted(SCENARIOS))
def test_offered_when_its_trigger_has_just_happened(card_id):
    card = CAT[card_id]
    t = build(card, SCENARIOS[card_id][0])
    found = offered(t, card)
    assert len(found) == 1, (card_id, [u.card_id for u in usable_now(BOARD, t, card.country)], t.window)
    u = found[0]
    assert u.command == {"type": "use_card", "country": card.country, "card_id": card_id} and u.kind == card.type
    assert u.text.ru.startswith(f"«{card.name_ru}»: ") and u.text.en.startswith(f"“{card.name_en}”: ")
    assert len(u.text.ru) > len(card.name_ru) + 6 and len(u.text.en) > len(card.name_en) + 6
    out = apply_command(BOARD, t, u.command)  # the exact command uses it
    assert out.ok, (card_id, out.reason.en)
    if card.type == "response":  # the owner's private list holds it: its phone may reveal it
        assert face_down_refusal(t, card.country, card_id, [card_id]) is None


@pytest.mark.parametrize("card_id", sorted(SCENARIOS))
def test_not_offered_when_its_trigger_has_not_happened(card_id):
    card = CAT[card_id]
    assert offered(build(card, SCENARIOS[card_id][1]), card) == []


@pytest.mark.parametrize("card_id", sorted(c for c in SCENARIOS if CAT[c].type == "response"))
def test_which_response_is_held_changes_nothing_the_table_shows(card_id):
    """The same public table whichever response of the deck the owner holds: the same window, the same kinds."""
    card = CAT[card_id]
    others = [r.id for r in CAT.by_type("response", card.country) if r.id != card_id]
    a = build(card, SCENARIOS[card_id][0])
    b = build(card, SCENARIOS[card_id][0], held=others[0])
    assert a == b and window_view(BOARD, a) == window_view(BOARD, b)
    assert usable_now(BOARD, a, card.country) == usable_now(BOARD, b, card.country)


def test_a_status_used_for_an_event_is_not_offered_again_for_it():
    """«Королевский флот» (no per-turn limit): used for the sea battle, it is offered again only after its own
    extra battle — a new event — and refused for the same one."""
    card = CAT["uk_royal_navy"]
    t = build(card, SCENARIOS["uk_royal_navy"][0])
    t = apply(t, {"type": "use_card", "country": "united_kingdom", "card_id": "uk_royal_navy"})
    assert offered(t, card) == []
    out = apply_command(BOARD, t, {"type": "use_card", "country": "united_kingdom", "card_id": "uk_royal_navy"})
    assert not out.ok and out.reason.code == "use.spent"
    t = apply(t, {"type": "step", "country": "united_kingdom", "action": "sea_battle", "space": "north_sea"})
    assert len(offered(t, card)) == 1


def test_victory_step_statuses_are_offered_with_the_points_they_add():
    card = CAT["ita_mare_nostrum"]
    t = build(card, SCENARIOS["ita_mare_nostrum"][0])
    u = offered(t, card)[0]
    assert "+1 ПО" in u.text.ru and "+1 VP" in u.text.en


def test_a_protection_says_which_piece_it_saves():
    card = CAT["su_stalingrad"]
    u = offered(build(card, SCENARIOS["su_stalingrad"][0]), card)[0]
    assert u.text.ru == "«Сталинград»: спасти армию СССР в секторе «Юг СССР» от атаки — до конца хода её не убирают"


def test_a_status_whose_cost_is_paid_says_it():
    card = CAT["ger_blitzkrieg"]
    u = offered(build(card, SCENARIOS["ger_blitzkrieg"][0]), card)[0]
    assert u.text.ru.endswith("цена: сбросьте из колоды 1 карту")
    assert u.text.en.endswith("cost: discard 1 card from the top of your deck")


def test_declining_leaves_nothing_open():
    """«Закончить ход» and «Пас» decline an offered status cleanly: after either, no window, nothing offered."""
    card = CAT["ger_blitzkrieg"]
    t = build(card, SCENARIOS["ger_blitzkrieg"][0])
    assert window_view(BOARD, t).waiting == ("germany",)
    for decline in ({"type": "pass", "country": "germany"}, {"type": "end_play", "country": "germany"}):
        after = apply(t, decline)
        assert after.window is None and after.declined == () and after.hold is None and after.pending == ()
        assert usable_now(BOARD, after, "germany") == [] or after.phase != "play"

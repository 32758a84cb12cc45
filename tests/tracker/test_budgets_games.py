"""Bounded cost of the Fog of War and Generalissimus inputs, through the HTTP views.

Each over-limit request is answered with a 4xx or a form error, and nothing is created or changed. The
time each takes is printed (``pytest -s``); what is asserted is the work, by the peak of Python memory the
request allocated: a request refused before its input is read stays far below what reading it costs."""

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.fog_of_war.limits import MAX_CARDS, MAX_MAP_TEXT, MAX_NEIGHBOURS, MAX_PROVINCES
from gameplay.generalissimus.state import MAX_UNITS
from tests.tracker.helpers import initial_data, measured
from tracker.core import log
from tracker.fog_of_war.forms import NewFogGameForm
from tracker.generalissimus.forms import MAX_JSON_TEXT, NewBattleForm
from tracker.models import Event, Game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PEAK = 16e6  # bytes: far above what a refused request allocates (~4 MB), far below reading the input it refuses


def timed(label, fn, *args, **kwargs):
    """The response, with its status, time and peak of Python memory printed (``pytest -s``)."""
    r = measured(label, fn, *args, **kwargs)
    assert measured.peak < PEAK, (label, measured.peak)
    return r


# --- The Fog of War: new game -----------------------------------------------------------------------

def fog_data(**overrides):
    return initial_data(NewFogGameForm(), name="Туман", axis_player="Аня", allies_player="Боря", **overrides)


def fog_refused(client, label, **overrides):
    before = Game.objects.count()
    r = timed(label, client.post, reverse("fog_of_war:new"), fog_data(**overrides))
    assert r.status_code in (200, 400) and "errorlist" in r.content.decode()  # the form again, with the error
    assert Game.objects.count() == before
    return r.content.decode()


@pytest.mark.parametrize("field", ["axis_cards", "allies_cards", "neutral_cards"])
def test_fog_new_game_with_a_huge_card_list_is_a_form_error(client, field):
    html = fog_refused(client, f"{field}: 'L3 ' x 100,000", **{field: "L3 " * 100_000})
    assert f"{MAX_CARDS}" in html


def test_fog_new_game_with_every_list_huge_and_huge_counts(client):
    fog_refused(client, "three lists of 'L3 ' x 100,000 (a 900 kB POST)",
                axis_cards="L3 " * 100_000, allies_cards="L3 " * 100_000, neutral_cards="L3 " * 100_000)
    fog_refused(client, "a count of 10^26 cards", axis_cards="1" + "0" * 26)
    fog_refused(client, "a card value of 10^4000", axis_cards="L" + "9" * 4000)
    fog_refused(client, f"{MAX_CARDS + 1} cards", axis_cards="L3 " * (MAX_CARDS + 1))


def _map(n, neighbours=""):
    return "\n".join(f"p{i}; P{i}; land; 1; 1; none; {neighbours}" for i in range(n))


@pytest.mark.parametrize("label,text", [
    ("a map of 600 kB", "# " + "x" * 600_000),
    (f"a map of {MAX_MAP_TEXT + 1} characters", "#" * (MAX_MAP_TEXT + 1)),
    (f"a map of {MAX_PROVINCES + 1} provinces", _map(MAX_PROVINCES + 1)),
    ("a province with too many neighbours", _map(MAX_NEIGHBOURS + 2) + "\nhub; Hub; land; 1; 1; none; "
     + " ".join(f"p{i}" for i in range(MAX_NEIGHBOURS + 2))),
    ("a key of 41 characters", "k" * 41 + "; K; land; 1; 1; none;"),
    ("a VP of 10^30", "a; A; land; " + "1" * 31 + "; 1; none;"),
])
def test_fog_new_game_with_an_oversized_map_is_a_form_error(client, label, text):
    fog_refused(client, label, board_map=text)


# --- The Fog of War: moves ----------------------------------------------------------------------------

def fog_game(client, **overrides):
    r = client.post(reverse("fog_of_war:new"), fog_data(**overrides))
    assert r.status_code == 302, r.content.decode()[:2000]
    return Game.objects.latest("pk")


def fog_post(client, game, command, **fields):
    game.refresh_from_db()
    return client.post(reverse("command", args=[game.pk]), {"command": command, "version": game.version, **fields},
                       **HTMX)


def snapshot(game):
    game.refresh_from_db()
    return game.version, Event.objects.filter(game=game).count(), log.current_state(game)


def seated(game, number):
    c = Client()
    c.get(reverse("join", args=[game.seats.get(number=number).token]))
    return c


def test_fog_map_entry_beyond_the_bounds_is_400_and_changes_nothing(client):
    game = fog_game(client)
    axis = seated(game, 1)
    before = snapshot(game)
    for label, text in (("set_map of 600 kB", "x" * 600_000), ("set_map of 101 provinces", _map(MAX_PROVINCES + 1))):
        r = timed(label, fog_post, axis, game, "set_map", board_map=text)
        assert r.status_code == 400
        assert snapshot(game) == before


def test_fog_reinforcements_beyond_the_bounds_are_400_at_step_3_12_and_change_nothing(client):
    game = fog_game(client, axis_cards="4", allies_cards="4", set_reinforcement_timing="before_production",
                    set_exhausted_turn_mode="own_turns")  # B-4 within_turns would make the Axis play its hand first
    axis, allies = seated(game, 1), seated(game, 2)
    for c, side, province in ((axis, "axis", "berlin"), (allies, "allies", "britain")):
        assert fog_post(c, game, "start_turn").status_code == 200
        hand = [x["id"] for x in log.current_state(game)["engine"]["sides"][side]["hand"]]
        assert fog_post(c, game, "defend", province=province, cards=hand[:1]).status_code == 200
        assert fog_post(c, game, "end_turn").status_code == 200
    for command, fields in (("ye_score_vp", {"vp_gain": "0"}), ("ye_split_wins", {}), ("ye_refresh_intel", {})):
        assert fog_post(axis, game, command, **fields).status_code == 200
    before = snapshot(game)
    for label, fields in (("reinforcements of 10^26 cards", {"reinf_axis": "1" + "0" * 26}),
                          ("reinforcements of 10^6 cards", {"reinf_allies": str(10 ** 6)}),
                          ("reinforcements of 'L3 ' x 100,000", {"reinf_axis": "L3 " * 100_000}),
                          (f"reinforcements of {MAX_CARDS + 1} cards", {"reinf_allies": str(MAX_CARDS + 1)})):
        r = timed(label, fog_post, axis, game, "ye_reinforcements", **fields)
        assert r.status_code == 400 and f"{MAX_CARDS}" in r.content.decode()
        assert snapshot(game) == before
    r = fog_post(axis, game, "ye_reinforcements", reinf_axis="L100")
    assert r.status_code == 422 and snapshot(game) == before  # a card value beyond 99: the engine's refusal
    assert fog_post(axis, game, "ye_reinforcements", reinf_axis="2", reinf_allies="L3 N2").status_code == 200
    assert len(log.current_state(game)["engine"]["sides"]["allies"]["losses"]) == 2


def test_fog_reveal_codes_beyond_the_bounds_are_400(client):
    game = fog_game(client)
    axis = seated(game, 1)
    before = snapshot(game)
    r = timed("600 kB of reveal codes", fog_post, axis, game, "launch", slot="A", origin="italy",
              reveal_attack="L3 " * 200_000)
    assert r.status_code == 400 and snapshot(game) == before


# --- Generalissimus: new battle -------------------------------------------------------------------------

def battle_data(**overrides):
    return initial_data(NewBattleForm(), **{"name": "Бородино", "south_player": "Аня", "north_player": "Боря",
                                            "preset": "contact", "units": "", **overrides})


def battle_refused(client, label, **overrides):
    before = Game.objects.count()
    r = timed(label, client.post, reverse("generalissimus:new"), battle_data(**overrides))
    html = r.content.decode()
    assert r.status_code in (200, 400) and "errorlist" in html
    assert Game.objects.count() == before
    return html


@pytest.mark.parametrize("field", ["s_zone_columns", "s_terrain_effects"])
def test_generalissimus_deeply_nested_json_is_a_form_error_not_a_500(client, field):
    html = battle_refused(client, f"{field}: [ x 100,000", **{field: "[" * 100_000 + "]" * 100_000})
    assert f"{MAX_JSON_TEXT}" in html
    html = battle_refused(client, f"{field}: nested 900 deep in 1,800 characters", **{field: "[" * 900 + "]" * 900})
    assert "Вложенность глубже" in html  # the page speaks Russian by default
    battle_refused(client, f"{field}: nested 5 deep", **{field: '{"a": {"b": {"c": {"d": {}}}}}'})


@pytest.mark.parametrize("label,value", [
    ("terrain_effects with a list inside the flags", '{"infantry": {"forest": [["disorder"]]}}'),
    ("terrain_effects with a 600 kB text", '{"infantry": {"forest": ["' + "x" * 600_000 + '"]}}'),
    ("terrain_effects with a long flag", '{"infantry": {"forest": ["' + "x" * 1_000 + '"]}}'),
    ("terrain_effects with brackets inside strings", '{"infantry": {"forest": ["' + "[" * 500 + '"]}}'),
])
def test_generalissimus_malformed_terrain_effects_are_form_errors(client, label, value):
    battle_refused(client, label, s_terrain_effects=value)


def test_generalissimus_zone_columns_with_wrong_shapes_are_form_errors(client):
    battle_refused(client, "zone_columns as text", s_zone_columns='{"west": "ab", "center": ["c","d"], "east": ["e","f"]}')
    battle_refused(client, "zone_columns with lists inside", s_zone_columns='{"west": [["a"]], "center": [], "east": []}')


def test_generalissimus_unit_list_and_numbers_beyond_the_bounds_are_form_errors(client):
    html = battle_refused(client, "a unit list of 600 kB", units="south infantry c1\n" * 35_000)
    assert "4000" in html or "4 000" in html or "4,000" in html
    lines = "".join(f"south infantry {c}{r}\n" for r in range(1, 7) for c in "abcdef")
    battle_refused(client, f"{MAX_UNITS + 1} units", units=lines + lines)
    battle_refused(client, "a pile of 10^9 cards", pile_move=str(10 ** 9))
    battle_refused(client, "deploy_rows 10^9", s_deploy_rows=str(10 ** 9))
    battle_refused(client, "max_units_per_side 10^30", s_max_units_per_side="1" + "0" * 30)


def test_generalissimus_the_defaults_still_create_a_battle(client):
    r = client.post(reverse("generalissimus:new"), battle_data())
    assert r.status_code == 302

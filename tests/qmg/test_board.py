"""The board data: every fact stated in the rulebook, the shape of the graph, and variants."""
import textwrap

import pytest
import yaml

from gameplay.qmg import BoardError, load_board, seed_fact_problems
from gameplay.qmg.board import STANDARD_BOARD

BOARD = load_board()
FACTS = yaml.safe_load(STANDARD_BOARD.read_text(encoding="utf-8"))["seed_facts"]
REFERENCE = STANDARD_BOARD.parents[3].parent / "shared" / "reference" / "qmg_board_1e.yaml"


@pytest.mark.parametrize("a,b", FACTS["not_adjacent"])
def test_seed_fact_spaces_touching_at_a_point_are_not_adjacent(a, b):
    assert not BOARD.adjacent_static(a, b)
    assert not BOARD.adjacent_static(b, a)
    # not even through a strait
    assert not any({a, b} == set(s.seas) for s in BOARD.straits.values())


def test_seed_fact_russia_touches_the_baltic():
    assert BOARD.adjacent_static("russia", "baltic_sea")


def test_seed_fact_gibraltar_strait_on_north_africa_joins_north_sea_and_mediterranean():
    gib = BOARD.straits["gibraltar"]
    assert gib.land == "north_africa"
    assert set(gib.seas) == {"north_sea", "mediterranean"}
    assert not BOARD.adjacent_static("north_sea", "mediterranean")  # only through the strait


@pytest.mark.parametrize("country,home", FACTS["homes"].items())
def test_seed_fact_homes(country, home):
    assert BOARD.countries[country].home == home
    assert BOARD.spaces[home].home == country
    assert BOARD.spaces[home].supply, "every home space is a supply source"


@pytest.mark.parametrize("space", FACTS["scoring_example"]["supply_spaces"])
def test_seed_fact_scoring_example_spaces_are_stars(space):
    assert BOARD.spaces[space].supply


@pytest.mark.parametrize("space,country", FACTS["card_supply_sources"].items())
def test_seed_fact_card_only_sources_carry_no_printed_star(space, country):
    assert not BOARD.spaces[space].supply
    assert BOARD.spaces[space].is_land


def test_standard_board_has_no_seed_fact_problems():
    assert seed_fact_problems(BOARD) == []


def test_counts_teams_and_pieces_from_the_rulebook():
    assert sum(s.is_land for s in BOARD.spaces.values()) == 33
    assert sum(not s.is_land for s in BOARD.spaces.values()) == 14
    assert BOARD.turn_order == ("germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states")
    assert BOARD.team_countries("axis") == ("germany", "japan", "italy")
    assert BOARD.team_countries("allies") == ("united_kingdom", "soviet_union", "united_states")
    limits = {c.id: (c.armies, c.navies, c.deck) for c in BOARD.countries.values()}
    assert limits == {"germany": (7, 3, 40), "japan": (5, 5, 33), "italy": (4, 3, 30),
                      "united_kingdom": (5, 5, 39), "soviet_union": (7, 1, 34), "united_states": (5, 5, 40)}
    assert sum(a for a, _, _ in limits.values()) == 33  # 33 wooden armies in the box
    assert sum(n for _, n, _ in limits.values()) == 22  # 22 navies
    assert sum(d for _, _, d in limits.values()) == 216


def test_every_space_named_in_both_languages_and_connected():
    for s in BOARD.spaces.values():
        assert s.ru and s.en
        assert BOARD.static_neighbours(s.id), f"{s.id} has no neighbour"
    seen, todo = set(), ["germany"]
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        todo.extend(BOARD.static_neighbours(here))
    assert seen == set(BOARD.spaces)


def test_adjacency_is_symmetric_and_strait_seas_are_seas():
    for a in BOARD.spaces:
        for b in BOARD.static_neighbours(a):
            assert a in BOARD.static_neighbours(b)
    for s in BOARD.straits.values():
        assert BOARD.spaces[s.land].is_land
        assert all(not BOARD.spaces[x].is_land for x in s.seas)


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/ reference not beside the checkout")
def test_project_board_keeps_the_reference_ids_and_adjacency():
    ref = load_board(REFERENCE)
    assert set(ref.spaces) == set(BOARD.spaces)
    assert ref.edges == BOARD.edges
    assert {k: (s.land, s.seas) for k, s in ref.straits.items()} == {k: (s.land, s.seas) for k, s in BOARD.straits.items()}
    assert ref.stars() == BOARD.stars()


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_patch_file_adds_and_removes_adjacencies_stars_and_straits(tmp_path):
    path = _write(tmp_path, "club.yaml", """\
        extends: standard
        name: {ru: Поле клуба, en: Club board}
        add_edges: [[kazakhstan, india]]
        remove_edges: [[siberia, china]]
        add_stars: [balkans]
        remove_stars: [hawaii]
        remove_straits: [panama]
        add_straits:
          bosporus: {ru: Босфор, en: Bosporus, land: balkans, seas: [black_sea, mediterranean]}
        """)
    board = load_board(path)
    assert board.name["en"] == "Club board"
    assert board.adjacent_static("kazakhstan", "india")
    assert not board.adjacent_static("siberia", "china")
    assert board.spaces["balkans"].supply and not board.spaces["hawaii"].supply
    assert "panama" not in board.straits
    assert board.straits["bosporus"].seas == ("black_sea", "mediterranean")
    # the standard board is untouched
    assert BOARD.adjacent_static("siberia", "china") and "panama" in BOARD.straits


def test_patch_can_extend_another_patch(tmp_path):
    _write(tmp_path, "a.yaml", "extends: standard\nadd_edges: [[kazakhstan, india]]\n")
    b = _write(tmp_path, "b.yaml", "extends: a.yaml\nremove_edges: [[kazakhstan, india]]\nadd_stars: [africa]\n")
    board = load_board(b)
    assert not board.adjacent_static("kazakhstan", "india")
    assert board.spaces["africa"].supply


def test_a_variant_that_breaks_a_rulebook_fact_is_reported(tmp_path):
    board = load_board(_write(tmp_path, "bad.yaml", "extends: standard\nadd_edges: [[japan, vladivostok]]\nremove_edges: [[russia, baltic_sea]]\n"))
    problems = seed_fact_problems(board)
    assert any("japan and vladivostok" in p for p in problems)
    assert any("russia and baltic_sea" in p for p in problems)


def test_full_board_file_of_the_same_schema_loads(tmp_path):
    data = yaml.safe_load(STANDARD_BOARD.read_text(encoding="utf-8"))
    data["land"]["africa"]["supply"] = True
    path = tmp_path / "full.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert load_board(path).spaces["africa"].supply


@pytest.mark.parametrize("text,message", [
    ("extends: standard\nadd_edges: [[atlantis, india]]\n", "unknown space: atlantis"),
    ("extends: standard\nremove_edges: [[kazakhstan, india]]\n", "does not exist"),
    ("extends: standard\nwibble: 1\n", "unknown key"),
    ("extends: standard\nadd_stars: [north_sea]\n", "only a land space"),
    ("extends: standard\nremove_straits: [kiel]\n", "unknown strait"),
    ("extends: standard\nadd_straits: {x: {land: north_sea, seas: [black_sea, mediterranean]}}\n", "must be land"),
    ("extends: standard\nadd_edges: [[india]]\n", "pair of space ids"),
    ("- just a list\n", "must be a mapping"),
    ("extends: standard\nadd_edges: [[a, b\n", "not valid YAML"),
])
def test_bad_board_files_are_refused_with_a_message(tmp_path, text, message):
    with pytest.raises(BoardError, match=message):
        load_board(_write(tmp_path, "bad.yaml", text))


def test_missing_board_file(tmp_path):
    with pytest.raises(BoardError, match="not found"):
        load_board(tmp_path / "nope.yaml")

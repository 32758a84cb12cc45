"""The board fragment (templates/qmg/_board.html) drawn from the memo of tracker/templatetags/qmg_board.py gives
exactly what a fresh drawing gives: for random positions, both languages, and variants whose names hold
markup."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.template import engines
from django.utils import translation
from hypothesis import HealthCheck, given, settings, strategies as st

from gameplay.qmg import Piece, Position, compute_supply, load_board
from gameplay.qmg.board import build_board, standard_board_data
from gameplay.qmg.sample import full_board_position, random_position
from tracker.qmg.board_svg import BoardMap, space_rows
from tracker.templatetags import qmg_board as board_svg
from tracker.qmg.page import space_rows_html
from tracker.qmg.variants import check_patch

BOARD = load_board()
TEMPLATE = Path(__file__).resolve().parents[2] / "templates/qmg/_board.html"
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]


FAST = OLD = engines["django"].from_string(TEMPLATE.read_text(encoding="utf-8"))


def _forget():
    board_svg._GROUPS.clear()


def fragment(template, board, position, lang, supply=None, air=(), selected=None) -> str:
    supply = compute_supply(board, position) if supply is None else supply
    with translation.override(lang):
        return template.render({
            "board_map": BoardMap(board, position, supply, air=tuple(air), lang=lang, selected=selected),
            "space_rows": space_rows_html(space_rows(board, position, supply, lang=lang), lang)})


def cold(board, position, lang, **kw) -> str:
    """The fragment as before: the old loop, every space's group drawn afresh."""
    _forget()
    return fragment(OLD, board, position, lang, **kw)


def _one_move(rng: random.Random, board, position: Position) -> Position:
    """The next version: one piece added, removed or moved."""
    pieces = list(position.pieces)
    spaces = sorted(board.spaces)
    roll = rng.random()
    if pieces and roll < 0.3:
        pieces.pop(rng.randrange(len(pieces)))
    elif pieces and roll < 0.6:
        p = pieces.pop(rng.randrange(len(pieces)))
        pieces.append(Piece(p.country, p.kind, rng.choice(spaces)))
    else:
        sid = rng.choice(spaces)
        kind = "army" if board.spaces[sid].is_land else "navy"
        pieces.append(Piece(rng.choice(board.turn_order), kind, sid))
    ok = len({(p.country, p.space) for p in pieces}) == len(pieces)  # one piece of a country a space
    return Position.of(pieces) if ok else position


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_fast_fragment_equals_the_old_template_through_a_game(lang):
    rng = random.Random(21)
    positions = [Position.of(()), full_board_position(BOARD)]
    position = random_position(BOARD, rng, 0.3)
    for _ in range(12):  # versions one move apart: most groups and rows come from the memo
        positions.append(position)
        position = _one_move(rng, BOARD, position)
    _forget()
    for position in positions:
        air = [(p.country, p.space) for p in position.pieces[:2] if BOARD.spaces[p.space].is_land]
        want = cold(BOARD, position, lang, air=air)
        assert fragment(FAST, BOARD, position, lang, air=air) == want  # memo cold
        assert fragment(FAST, BOARD, position, lang, air=air) == want  # memo warm
    assert board_svg._GROUPS


def test_air_forces_selection_and_supply_each_redraw_their_space():
    """The same pieces with or without air forces, selected or not, in supply or not: never an old group."""
    pieces = [Piece("germany", "army", "germany"), Piece("germany", "navy", "north_sea")]
    position = Position.of(pieces)
    cut = Position.of([Piece("germany", "army", "germany"), Piece("germany", "navy", "north_sea"),
                       Piece("united_kingdom", "army", "western_europe")])
    cases = [dict(), dict(air=[("germany", "germany")]), dict(air=[("germany", "germany"), ("italy", "germany")]),
             dict(selected="germany"), dict(selected="north_sea", air=[("germany", "germany")]), dict()]
    supplies = [compute_supply(BOARD, position), compute_supply(BOARD, Position.of(pieces[:1]))]  # the navy unknown
    want = [cold(BOARD, position, "ru", supply=sup, **kw) for sup in supplies for kw in cases]
    _forget()
    got = [fragment(FAST, BOARD, position, "ru", supply=sup, **kw) for sup in supplies for kw in cases]
    assert got == want
    assert fragment(FAST, BOARD, cut, "en") == cold(BOARD, cut, "en")
    # a strait changes hands: its seas keep their pieces (none), their groups and rows still change
    gibraltar = BOARD.straits["gibraltar"]
    held = [Position.of([Piece(c, "army", gibraltar.land)]) for c in ("germany", "united_kingdom", "italy")]
    want = [cold(BOARD, h, "en") for h in held]
    _forget()
    assert [fragment(FAST, BOARD, h, "en") for h in held] == want
    assert want[0] != want[1]


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=HEALTH)
@given(seed=st.integers(0, 10**6), fill=st.floats(0, 1), lang=st.sampled_from(["ru", "en"]),
       selected=st.sampled_from([None, "germany", "north_sea", "nowhere"]))
def test_fast_fragment_equals_the_old_template_for_random_positions(seed, fill, lang, selected):
    position = random_position(BOARD, random.Random(seed), fill)
    supply = compute_supply(BOARD, position)
    want = cold(BOARD, position, lang, supply=supply, selected=selected)
    board_svg._GROUPS.clear()  # the rows' memo stays warm from other examples
    assert fragment(FAST, BOARD, position, lang, supply=supply, selected=selected) == want
    assert fragment(FAST, BOARD, position, lang, supply=supply, selected=selected) == want


def _hostile_board():
    data = standard_board_data()
    data["land"] = {k: dict(v) for k, v in data["land"].items()}
    data["land"]["germany"]["ru"] = data["land"]["germany"]["en"] = 'Рейх <script>alert("x")</script> & \'q\''
    data["countries"] = {k: dict(v) for k, v in data["countries"].items()}
    data["countries"]["italy"]["ru"] = data["countries"]["italy"]["en"] = 'It"a<l>y\' &amp;'
    return build_board(data)


def test_names_with_markup_stay_escaped_and_boards_never_mix():
    hostile = _hostile_board()
    variant = check_patch('extends: standard\nadd_straits:\n  evil: {ru: "<script>П</script>", en: "<script>S\'\\"</script>", '
                          "land: north_africa, seas: [north_sea, mediterranean]}\n").board
    pieces = [Piece("germany", "army", "germany"), Piece("italy", "army", "germany"),
              Piece("italy", "navy", "mediterranean"), Piece("germany", "navy", "north_sea")]
    position = Position.of(pieces)
    boards = [BOARD, hostile, variant]
    want = {(id(b), lang): cold(b, position, lang) for b in boards for lang in ("ru", "en")}
    _forget()
    for _ in range(2):  # the same spaces with the same pieces on three boards, in two languages
        for b in boards:
            for lang in ("ru", "en"):
                out = fragment(FAST, b, position, lang)
                assert out == want[id(b), lang]
                assert "<script" not in out.lower()
    hostile_ru = want[id(hostile), "ru"]
    assert "Рейх &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;q&#x27;" in hostile_ru
    assert "It&quot;a&lt;l&gt;y&#x27; &amp;amp;" in hostile_ru
    assert "&lt;script&gt;S&#x27;&quot;&lt;/script&gt;" in want[id(variant), "en"]
    assert "Рейх" not in want[id(BOARD), "ru"] and "evil" not in want[id(BOARD), "en"]


def test_the_memos_are_bounded(monkeypatch):
    monkeypatch.setattr(board_svg._GROUPS, "size", 30)
    _forget()
    rng = random.Random(3)
    position = random_position(BOARD, rng, 0.5)
    for lang in ("ru", "en"):
        for _ in range(5):
            position = _one_move(rng, BOARD, position)
            assert fragment(FAST, BOARD, position, lang) == cold(BOARD, position, lang)
            fragment(FAST, BOARD, position, lang)
            assert len(board_svg._GROUPS) <= 30

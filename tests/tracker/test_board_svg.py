"""The SVG board map and its list fallback (tracker/qmg/board_svg.py, tracker/templatetags/qmg_board.py,
templates/qmg/_board.html)."""
import html
import json
import re
import statistics
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gameplay.qmg import Piece, Position, compute_supply, load_board
from gameplay.qmg.board import build_board, standard_board_data
from gameplay.qmg.sample import full_board_position
from tracker.qmg.board_svg import PALETTE, TEAM_COLOURS, UNSUPPLIED, BoardMap, space_rows
from tracker.templatetags.qmg_board import _static, render_board_svg

NS = {"s": "http://www.w3.org/2000/svg"}
ROOT = Path(__file__).resolve().parents[2]
BOARD = load_board()


def render(board=BOARD, pieces=(), **kw):
    position = Position.of(pieces)
    return render_board_svg(board, position, compute_supply(board, position), **kw)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def spaces(root) -> dict:
    return {g.get("data-space"): g for g in root.iter("{%s}g" % NS["s"]) if "space" in (g.get("class") or "").split()}


def pieces_in(group):
    return [g for g in group.iter("{%s}g" % NS["s"]) if "piece" in (g.get("class") or "").split()]


def classes(el):
    return set((el.get("class") or "").split())


def test_svg_parses_and_has_one_tappable_group_per_space():
    root = parse(render())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    groups = spaces(root)
    assert set(groups) == set(BOARD.spaces)
    all_space_groups = [g for g in root.iter("{%s}g" % NS["s"]) if "space" in classes(g)]
    assert len(all_space_groups) == len(BOARD.spaces)
    for sid, g in groups.items():
        assert g.get("tabindex") == "0"
        assert g.get("role") == "button"
        assert g.get("aria-label") == BOARD.spaces[sid].ru
        assert g.get("data-name") == BOARD.spaces[sid].ru
        assert g.get("data-kind") == BOARD.spaces[sid].kind
        (shape,) = [e for e in g.iter() if "shape" in classes(e)]
        assert BOARD.spaces[sid].kind in classes(shape)


def test_land_and_sea_are_drawn_differently():
    groups = spaces(parse(render()))
    land = [r for r in groups["germany"].iter() if "shape" in classes(r)][0]
    sea = [r for r in groups["north_sea"].iter() if "shape" in classes(r)][0]
    assert land.get("fill") != sea.get("fill")
    assert "land" in classes(land) and "sea" in classes(sea)


def test_stars_and_homes_are_marked():
    groups = spaces(parse(render()))
    for sid, g in groups.items():
        stars = [e for e in g.iter() if "star" in classes(e)]
        assert len(stars) == (1 if BOARD.spaces[sid].supply else 0), sid
    homes = {c.home: cid for cid, c in BOARD.countries.items()}
    for sid, g in groups.items():
        marks = [e for e in g.iter() if "home" in classes(e)]
        if sid in homes:
            assert len(marks) == 1 and marks[0].get("data-home") == homes[sid]
            colour = PALETTE[homes[sid]]["fill"]
            assert any(e.get("fill") == colour or e.get("stroke") == colour for e in marks[0].iter())
        else:
            assert marks == [], sid
    facts = json.loads(groups["moscow"].get("data-facts"))
    assert any("СССР" in f for f in facts) and any("Источник снабжения" in f for f in facts)


def test_german_army_in_germany_is_a_supplied_token_in_german_colour():
    groups = spaces(parse(render(pieces=[Piece("germany", "army", "germany")])))
    (token,) = pieces_in(groups["germany"])
    assert token.get("data-country") == "germany" and token.get("data-kind") == "army"
    assert "supplied" in classes(token) and "unsupplied" not in classes(token)
    body = [e for e in token if "body" in classes(e)][0]
    assert body.tag.endswith("circle")
    assert body.get("fill") == PALETTE["germany"]["fill"]
    assert body.get("stroke") != UNSUPPLIED
    assert "Г" in "".join(token.itertext())
    assert "снабжается" in token.find("s:title", NS).text
    data = json.loads(groups["germany"].get("data-pieces"))
    assert data == [{"country": "germany", "kind": "army", "supplied": True, "colour": PALETTE["germany"]["fill"],
                     "text": "Германия — армия: снабжается"}]


def test_armies_and_navies_have_different_shapes():
    groups = spaces(parse(render(pieces=[Piece("germany", "army", "germany"), Piece("germany", "navy", "baltic_sea")])))
    army = [e for e in pieces_in(groups["germany"])[0] if "body" in classes(e)][0]
    navy = [e for e in pieces_in(groups["baltic_sea"])[0] if "body" in classes(e)][0]
    assert army.tag.endswith("circle") and navy.tag.endswith("path")


def test_unsupplied_piece_is_marked_and_supplied_one_is_not():
    # a German army in Russia has no chain to a German source; the one in Germany stands on it
    ps = [Piece("germany", "army", "germany"), Piece("germany", "army", "russia")]
    groups = spaces(parse(render(pieces=ps)))
    (bad,) = pieces_in(groups["russia"])
    (good,) = pieces_in(groups["germany"])
    assert "unsupplied" in classes(bad) and bad.get("data-supplied") == "false"
    assert "НЕТ СНАБЖЕНИЯ" in bad.find("s:title", NS).text
    bad_body = [e for e in bad if "body" in classes(e)][0]
    assert bad_body.get("stroke") == UNSUPPLIED and bad_body.get("stroke-dasharray")
    assert "!" in "".join(bad.itertext())
    assert "unsupplied" not in classes(good) and good.get("data-supplied") == "true"
    assert "!" not in "".join(good.itertext())
    assert json.loads(groups["russia"].get("data-pieces"))[0]["supplied"] is False


def _strait_marks(root, strait_id):
    return [e for e in root.iter() if e.get("data-strait") == strait_id]


def test_strait_markers_change_team_with_an_axis_army_on_the_land_space():
    root = parse(render())
    marks = _strait_marks(root, "gibraltar")
    assert {"strait", "strait-anchor", "strait-label"} <= set().union(*(classes(m) for m in marks))
    assert {m.get("data-team") for m in marks} == {"allies"}
    anchor = [m for m in marks if "strait-anchor" in classes(m)][0]
    assert anchor in list(spaces(root)["north_africa"].iter())  # the anchor sits on the controlling land space

    root = parse(render(pieces=[Piece("italy", "army", "italy"), Piece("italy", "army", "north_africa")]))
    marks = _strait_marks(root, "gibraltar")
    assert {m.get("data-team") for m in marks} == {"axis"}
    line = [m for m in marks if "strait" in classes(m)][0].find("s:line", NS)
    assert line.get("stroke") == TEAM_COLOURS["axis"]
    label = [m for m in marks if "strait-label" in classes(m)][0]
    assert "Ось" in "".join(label.itertext())  # the label's second line names the team
    # the other straits stay with the Allies, and the seas' info mentions the strait
    assert {m.get("data-team") for m in _strait_marks(root, "suez")} == {"allies"}
    facts = json.loads(spaces(root)["mediterranean"].get("data-facts"))
    assert any("Гибралтар" in f and "Оси" in f for f in facts)


def test_strait_is_drawn_between_its_two_seas():
    root = parse(render())
    groups = spaces(root)
    line = [m for m in _strait_marks(root, "suez") if "strait" in classes(m)][0].find("s:line", NS)

    def centre(sid):
        shape = [e for e in groups[sid].iter() if "shape" in classes(e)][0]
        return (float(shape.get("x")) + float(shape.get("width")) / 2, float(shape.get("y")) + float(shape.get("height")) / 2)

    ends = {(float(line.get("x1")), float(line.get("y1"))), (float(line.get("x2")), float(line.get("y2")))}
    expected = {centre("mediterranean"), centre("bay_of_bengal")}
    for (x, y) in ends:
        assert any(abs(x - ex) < 0.2 and abs(y - ey) < 0.2 for ex, ey in expected)


def test_names_are_escaped():
    data = standard_board_data()
    data["land"] = {k: dict(v) for k, v in data["land"].items()}
    data["land"]["germany"]["ru"] = 'Рейх <script>&"\'>'
    data["straits"] = {k: dict(v) for k, v in data["straits"].items()}
    data["straits"]["gibraltar"]["ru"] = "Гибр<&>"
    board = build_board(data)
    svg = render(board, pieces=[Piece("germany", "army", "germany")])
    root = parse(svg)  # would fail on a raw "<" or "&"
    assert "<script" not in svg
    assert "&lt;script&gt;&amp;" in svg and "Гибр&lt;&amp;&gt;" in svg
    g = spaces(root)["germany"]
    assert g.get("aria-label") == 'Рейх <script>&"\'>'  # the parser gives the original text back
    rows = space_rows(board, Position.of([Piece("germany", "army", "germany")]), lang="ru")
    assert [r["name"] for r in rows if r["id"] == "germany"] == ['Рейх <script>&"\'>']


def test_english_rendering_uses_english_names():
    svg = render(pieces=[Piece("germany", "army", "germany")], lang="en")
    root = parse(svg)
    groups = spaces(root)
    assert groups["germany"].get("aria-label") == "Germany"
    assert groups["eastern_us"].get("aria-label") == "Eastern United States"
    assert "G" in "".join(pieces_in(groups["germany"])[0].itertext())
    assert "Germany — army: supplied" in svg
    assert not re.search("[А-Яа-яЁё]", svg), "no Russian text in the English map"
    assert root.get("aria-label") == "Board map"


def test_selected_space_is_highlighted():
    root = parse(render(selected="ukraine"))
    selected = [g for g in spaces(root).values() if "selected" in classes(g)]
    assert [g.get("data-space") for g in selected] == ["ukraine"]
    assert selected[0].get("aria-pressed") == "true"
    ring = [e for e in selected[0].iter() if "sel-ring" in classes(e)][0]
    assert ring.get("visibility") == "visible"
    others = [g for sid, g in spaces(root).items() if sid != "ukraine"]
    assert all(g.get("aria-pressed") == "false" for g in others)


def test_air_forces_are_small_triangles():
    groups = spaces(parse(render(pieces=[Piece("germany", "army", "germany")], air=[("germany", "germany")])))
    kinds = sorted(p.get("data-kind") for p in pieces_in(groups["germany"]))
    assert kinds == ["air", "army"]
    assert {p["kind"] for p in json.loads(groups["germany"].get("data-pieces"))} == {"army", "air"}


def test_every_space_is_inside_the_viewbox_and_boxes_do_not_overlap():
    root = parse(render())
    x0, y0, w, h = map(float, root.get("viewBox").split())
    boxes = []
    for sid, g in spaces(root).items():
        shape = [e for e in g.iter() if "shape" in classes(e)][0]
        x, y = float(shape.get("x")), float(shape.get("y"))
        bw, bh = float(shape.get("width")), float(shape.get("height"))
        assert x0 <= x and x + bw <= x0 + w and y0 <= y and y + bh <= y0 + h, sid
        boxes.append((sid, x, y, bw, bh))
    for i, (a, ax, ay, aw, ah) in enumerate(boxes):
        for b, bx, by, bw, bh in boxes[i + 1:]:
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, (a, b)


def shape_x(group):
    shape = [e for e in group.iter() if "shape" in classes(e)][0]
    return float(shape.get("x")) + float(shape.get("width")) / 2


def test_the_board_wraps_in_the_pacific_as_the_printed_board_does():
    """A world map centred on Europe, cut where the antimeridian runs: the Americas, the Atlantic, Europe, Asia from
    left to right; the Pacific at both edges, each space with a link across the seam shown again, cut in half, at
    the opposite edge, and its link drawn to that half."""
    root = parse(render())
    groups = spaces(root)
    x = {sid: shape_x(g) for sid, g in groups.items()}
    assert x["western_us"] < x["eastern_us"] < x["north_atlantic"] < x["united_kingdom"] < x["germany"] \
        < x["moscow"] < x["china"] < x["japan"]  # the Atlantic whole, between the Americas and Europe
    assert x["eastern_pacific"] < x["western_us"] and x["japan"] < x["north_pacific"]  # the Pacific at both edges
    width = float(root.get("viewBox").split()[2])
    halves = {(g.get("data-half-of"), float([e for e in g.iter() if "shape" in classes(e)][0].get("x")) < 0)
              for g in root.iter("{%s}g" % NS["s"]) if "space-half" in classes(g)}
    # North Pacific (drawn at the right, beside Japan) again at the left edge, beside the Pacific Northwest;
    # the Eastern Pacific (at the left, beside the Western US) again at the right edge, beside the Central Pacific
    assert ("north_pacific", True) in halves and ("eastern_pacific", False) in halves
    assert not any(sid in ("north_atlantic", "south_atlantic", "north_sea") for sid, _left in halves)
    for g in root.iter("{%s}g" % NS["s"]):
        if "space-half" in classes(g):
            assert g.get("aria-hidden") == "true" and g.find("{%s}title" % NS["s"]).text  # tappable, named
    wrapped = [g for g in root.iter("{%s}g" % NS["s"]) if "wrapped" in classes(g)][0]
    ends = [(float(line.get("x2")), float(line.get("y2"))) for line in wrapped]
    assert any(x2 < width / 2 for x2, _ in ends) and any(x2 > width / 2 for x2, _ in ends)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_table_screens_board_is_denser_with_larger_names(lang):
    """The table screen's geometry: the same spaces, not overlapping, in less room, with larger names."""
    from tracker.qmg.board_svg import PHONE, SCREEN

    phone, screen = parse(render(lang=lang)), parse(render(lang=lang, geometry=SCREEN))
    pw, ph = map(float, phone.get("viewBox").split()[2:])
    sw, sh = map(float, screen.get("viewBox").split()[2:])
    assert sw < pw * 0.8 and sh <= ph
    assert SCREEN.font > PHONE.font
    boxes = []
    for sid, g in spaces(screen).items():
        shape = [e for e in g.iter() if "shape" in classes(e)][0]
        boxes.append((sid, float(shape.get("x")), float(shape.get("y")), float(shape.get("width")),
                      float(shape.get("height"))))
        name = [e for e in g.iter() if "name" in classes(e)][0]
        assert float(name.get("font-size")) >= 12, sid  # smaller only for a long single word
    for i, (a, ax, ay, aw, ah) in enumerate(boxes):
        for b, bx, by, bw, bh in boxes[i + 1:]:
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, (a, b)


def test_space_rows_list_pieces_with_their_supply():
    position = Position.of([Piece("germany", "army", "germany"), Piece("germany", "army", "russia"),
                            Piece("italy", "navy", "mediterranean")])
    rows = {r["id"]: r for r in space_rows(BOARD, position, compute_supply(BOARD, position), lang="en")}
    g = rows["germany"]
    assert g["name"] == "Germany" and g["kind"] == "land" and g["star"] is True and g["home"] == "germany"
    assert [(p["country"], p["kind"], p["supplied"]) for p in g["pieces"]] == [("germany", "army", True)]
    assert rows["russia"]["pieces"][0]["supplied"] is False
    assert rows["russia"]["star"] is False and rows["russia"]["home"] is None
    assert rows["mediterranean"]["pieces"][0]["colour"] == PALETTE["italy"]["fill"]
    straits = {s["id"]: s for s in rows["mediterranean"]["straits"]}
    assert set(straits) == {"gibraltar", "suez"} and straits["suez"]["team"] == "allies"
    assert [s["role"] for s in rows["north_africa"]["straits"]] == ["land"]
    # a space that matters for nothing and is empty is left out
    assert "kazakhstan" not in rows
    # every space with a piece, a star or a home is there
    for sid, s in BOARD.spaces.items():
        if s.supply:
            assert sid in rows


def test_space_rows_default_to_russian_and_sort_by_name():
    rows = space_rows(BOARD, Position.of([]))
    names = [r["name"] for r in rows]
    assert "Германия" in names and names == sorted(names, key=lambda n: n.casefold().replace("ё", "е"))


def test_pieces_data_attribute_is_json_after_unescaping():
    svg = render(pieces=[Piece("japan", "navy", "sea_of_japan")])
    raw = re.search(r'data-space="sea_of_japan"[^>]*data-pieces="([^"]*)"', svg).group(1)
    assert json.loads(html.unescape(raw))[0]["kind"] == "navy"


def test_variant_board_without_a_strait_renders():
    data = standard_board_data()
    data["straits"] = {k: v for k, v in data["straits"].items() if k != "panama"}
    board = build_board(data)
    root = parse(render(board))
    assert _strait_marks(root, "panama") == [] and _strait_marks(root, "suez")


def test_static_part_is_cached_per_board_and_a_full_board_renders_fast():
    position = full_board_position(BOARD)
    supply = compute_supply(BOARD, position)
    assert len(position.pieces) == 55
    assert _static(BOARD, "ru") is _static(BOARD, "ru")
    svg = render_board_svg(BOARD, position, supply)
    assert len(pieces_in(parse(svg))) == 55
    times = []
    for _ in range(15):
        start = time.perf_counter()
        render_board_svg(BOARD, position, supply)
        times.append(time.perf_counter() - start)
    print(f"\n  a full board rendered in {statistics.median(times) * 1000:.2f} ms (median of 15)")


def _render_partial(lang):
    from django.template.loader import render_to_string
    from django.utils import translation

    from tracker.qmg.page import space_rows_html

    position = full_board_position(BOARD)
    supply = compute_supply(BOARD, position)
    with translation.override(lang):
        return render_to_string("qmg/_board.html", {
            "board_map": BoardMap(BOARD, position, supply, lang=lang, selected="germany"),
            "space_rows": space_rows_html(space_rows(BOARD, position, supply, lang=lang), lang),
        })


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_partial_is_csp_clean_and_offline(lang):
    out = _render_partial(lang)
    assert "<script" not in out.lower()
    assert ' style="' not in out and " style='" not in out
    assert not re.search(r"\son[a-z]+=", out), "no inline event handlers"
    urls = set(re.findall(r"https?://[^\s\"'<>]+", out))
    assert urls <= {"http://www.w3.org/2000/svg"}
    assert len(re.findall(r'<g class="space[ "]', out)) == len(BOARD.spaces)
    for hook in ('data-board', 'id="space-info"', 'data-board-zoom="in"', 'data-board-zoom="out"',
                 'data-board-zoom="reset"', 'class="board-viewport"', 'data-board-show="germany"', "<details"):
        assert hook in out


def test_partial_in_english_uses_english_strings():
    out = _render_partial("en")
    assert "Zoom in" in out and "Spaces as a list" in out and "Show on map" in out
    assert "out of supply" in out and "Germany" in out


def test_vendored_assets_are_local_and_csp_friendly():
    js = (ROOT / "static/js/board.js").read_text(encoding="utf-8")
    css = (ROOT / "static/css/board.css").read_text(encoding="utf-8")
    assert set(re.findall(r"https?://[^\s\"')]+", js)) <= {"http://www.w3.org/2000/svg"}
    assert not re.search(r"https?://", css)
    assert "innerHTML" not in js and "eval(" not in js and "setAttribute(\"style\"" not in js
    for hook in ("htmx:afterSwap", "data-board-target", "space-info", "pointerdown", "wheel", "keydown"):
        assert hook in js

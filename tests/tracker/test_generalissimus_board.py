"""The «Генералиссимус» battlefield drawn by the tag {% generalissimus_board %} (templates/generalissimus/
_board_svg.html from tracker/generalissimus/svg.py): one <svg>, numbers with a dot in both languages, every text
escaped, the same drawing whether its parts come from the render cache or not."""
import xml.etree.ElementTree as ET

import pytest
from django.core.cache import cache
from django.template import engines
from django.utils import translation

from tracker.generalissimus.svg import board_view

NS = "{http://www.w3.org/2000/svg}"
STATE = {"terrain": {"a1": "forest", "c3": "river", "d4": "hill", "f6": "village"},
         "units": [
             {"id": "S-inf-1", "kind": "infantry", "owner": "south", "sector": "b2", "formation": "line", "blocks": 3},
             {"id": "N-cav-1", "kind": "cavalry", "owner": "north", "sector": "c5", "blocks": 2, "facing": "S",
              "flag": "routed"},
             {"id": "N-art-1", "kind": "artillery", "owner": "north", "sector": "e5", "crew": 2, "gun": True,
              "gun_sector": "e6", "location": "board", "facing": "E"},
             {"id": 'S-<b>"&', "kind": "infantry", "owner": "south", "sector": "d1", "formation": "square", "blocks": 1},
             {"id": "S-res", "kind": "infantry", "owner": "south", "location": "reserve", "sector": "a1"}]}


def draw(lang, viewer=None, selected=None, hints=None):
    template = engines["django"].from_string("{% load generalissimus_board %}{% generalissimus_board board %}")
    with translation.override(lang):
        return template.render({"board": board_view(STATE, viewer, selected, hints)})


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_one_svg_with_every_sector_and_unit_on_the_board(lang):
    out = draw(lang, "north", "N-cav-1", {"retreat": {"d5", "c4"}})
    root = ET.fromstring(out)  # one element, well formed: every text escaped
    assert root.tag == NS + "svg" and "g-flipped" in root.get("class")
    sectors = [g for g in root.iter(NS + "g") if "g-sector" in g.get("class", "")]
    assert len(sectors) == 36
    assert {g.get("data-sector") for g in sectors if "hint-retreat" in g.get("class")} == {"d5", "c4"}
    units = {g.get("data-unit"): g for g in root.iter(NS + "g") if "g-unit" in g.get("class", "").split()}
    assert set(units) == {"S-inf-1", "N-cav-1", "N-art-1", 'S-<b>"&'}  # the reserve is not on the board
    assert "selected" in units["N-cav-1"].get("class") and "routed" in units["N-cav-1"].get("class")
    assert [g for g in root.iter(NS + "g") if "g-gun-left" in g.get("class", "")]
    for element in root.iter():
        for attr in ("x", "y", "cx", "cy", "width", "height", "r", "points", "d", "transform"):
            assert "," not in (element.get(attr) or "") or attr == "points", (element.tag, attr, element.get(attr))
    assert "<b>" not in out


def test_parts_from_the_render_cache_draw_the_same_board():
    cache.clear()
    cold = draw("ru", "south", "S-inf-1")
    assert draw("ru", "south", "S-inf-1") == cold
    assert draw("en", "south", "S-inf-1") != cold  # the other language is drawn afresh
    cache.clear()
    assert draw("ru", "south", "S-inf-1") == cold

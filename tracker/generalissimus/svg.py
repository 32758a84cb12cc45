"""The 6×6 battlefield's drawing, oriented for the viewer (own side at the bottom): where each sector, zone,
label, abandoned gun and unit goes and what it says. No markup here: the ``<svg>`` is the template
``templates/generalissimus/_board_svg.html``, drawn by the tag ``{% generalissimus_board board %}``
(``tracker/templatetags/generalissimus_board.py``) from ``board_view(...)``.

Only public information is drawn (terrain, units, facings, formations, blocks, flags). Colours come from CSS
classes (no style attributes); every text is escaped by the template.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from gameplay.generalissimus.geometry import COLS

from .forms import formation_label, kind_label, side_label, terrain_label, zone_label

CELL = 56
LEFT = 18
TOP = 20
BOTTOM = 18
ANGLE = {"N": 0, "E": 90, "S": 180, "W": 270}
TERRAIN_MARK = {"forest": "♣", "river": "≈", "hill": "▲", "village": "⌂"}
SHAPES = {"column": (24, 36), "line": (42, 20), "square": (30, 30), "disordered": (34, 28)}


def _pos(sector: str, flip: bool) -> tuple[int, int]:
    """Top-left corner of a sector's cell on screen."""
    col, row = COLS.index(sector[0]), int(sector[1])
    if flip:
        return LEFT + (5 - col) * CELL, TOP + (row - 1) * CELL
    return LEFT + col * CELL, TOP + (6 - row) * CELL


def board_view(state: dict, viewer: str | None = None, selected: str | None = None,
               hints: dict | None = None, link: str = "?unit=") -> dict:
    """What the board shows: ``field`` (zones, sectors, borders, axes, abandoned guns) and ``units``, plain values
    (a part is drawn once per what it shows). ``state`` is the engine dict; ``viewer`` 'north' turns the board
    (North's home row at the bottom); ``hints``: {name: sectors} lit with the class ``hint-<name>``; ``link``: a
    unit's link is ``link`` followed by its id. Coordinates are SVG user units."""
    flip = viewer == "north"
    hints = hints or {}
    terrain = state.get("terrain", {})
    zones = state.get("settings", {}).get("zone_columns") or {"west": ["a", "b"], "center": ["c", "d"], "east": ["e", "f"]}
    field = {"cell": CELL, "zones": [], "sectors": [], "borders": [], "cols": [], "rows": [], "guns": []}
    view = {"flip": flip, "width": LEFT + 6 * CELL + 4, "height": TOP + 6 * CELL + BOTTOM, "field": field, "units": []}
    # zone labels (relative to the viewer) over their columns
    for zone, cols in zones.items():
        xs = [_pos(f"{c}1", flip)[0] for c in cols]
        field["zones"].append({"x": round((min(xs) + max(xs) + CELL) / 2), "y": TOP - 6,
                              "label": zone_label(zone, viewer)})
    labels = {}  # a terrain's name, asked once per board
    for row in range(1, 7):
        for col in COLS:
            s = f"{col}{row}"
            x, y = _pos(s, flip)
            t = terrain.get(s, "field")
            if t not in labels:
                labels[t] = terrain_label(t)
            field["sectors"].append({
                "id": s, "x": x, "y": y, "terrain": t, "terrain_label": labels[t],
                "hints": [name for name, sectors in sorted(hints.items()) if s in sectors],
                "mark": TERRAIN_MARK.get(t, ""), "mark_x": x + CELL - 4, "mark_y": y + 13,
                "name_x": x + 3, "name_y": y + CELL - 3})
    # zone borders
    order = sorted(zones.values(), key=lambda cols: COLS.index(cols[0]))
    for cols in order[:-1]:
        edge = COLS.index(max(cols)) + 1
        field["borders"].append({"x": LEFT + (6 - edge if flip else edge) * CELL, "y1": TOP, "y2": TOP + 6 * CELL})
    # axis labels
    for col in COLS:
        field["cols"].append({"label": col, "x": round(_pos(f"{col}1", flip)[0] + CELL / 2), "y": TOP + 6 * CELL + 13})
    for row in range(1, 7):
        field["rows"].append({"label": row, "x": round(LEFT / 2), "y": round(_pos(f"a{row}", flip)[1] + CELL / 2 + 4)})
    # abandoned guns (a battery's gun left without its crew)
    for u in state.get("units", []):
        if u["kind"] == "artillery" and u.get("gun") and u.get("gun_sector") and u.get("location") == "board" \
                and u.get("gun_sector") != u.get("sector"):
            x, y = _pos(u["gun_sector"], flip)
            field["guns"].append({"side": u["owner"], "cx": x + 12, "cy": y + 12,
                                 "title": _("Abandoned gun of %(unit)s") % {"unit": u["id"]}})
    for u in state.get("units", []):
        if u.get("location", "board") == "board" and u.get("sector"):
            view["units"].append(_unit(u, flip, selected, link))
    return view


def _unit(u: dict, flip: bool, selected: str | None, link: str) -> dict:
    x, y = _pos(u["sector"], flip)
    cx, cy = x + CELL // 2, y + CELL // 2 - 2
    formation = u.get("formation", "column")
    fw, fh = SHAPES.get(formation, SHAPES["column"])
    routed = u.get("flag") == "routed"
    if u["kind"] == "artillery":
        blocks = f"{u.get('crew', 0)}+{'G' if u.get('gun') else '-'}"
    else:
        blocks = str(u.get("blocks", 0))
    angle = (ANGLE.get(u.get("facing", "N"), 0) + (180 if flip else 0)) % 360
    title = _("%(side)s %(kind)s %(unit)s: %(formation)s, facing %(facing)s, blocks %(blocks)s") % {
        "side": side_label(u["owner"]), "kind": kind_label(u["kind"]), "unit": u["id"],
        "formation": formation_label(formation), "facing": u.get("facing", "N"), "blocks": blocks}
    if routed:
        title += " — " + _("routed (flag down)")
    left, top = cx - fw / 2, cy - fh / 2
    return {
        "id": u["id"], "href": link + u["id"], "title": title, "owner": u["owner"], "kind": u["kind"],
        "formation": formation, "routed": routed, "selected": u["id"] == selected, "blocks": blocks,
        "x": x, "y": y, "cx": cx, "cy": cy, "left": left, "top": top, "w": fw, "h": fh, "right": left + fw,
        "bottom": top + fh, "angle": angle, "hit": {"x": x + 1, "y": y + 1, "size": CELL - 2},
        # facing: a triangle on the front edge, turned with the unit
        "facing": f"{cx - 6},{top - 1} {cx + 6},{top - 1} {cx},{top - 9}",
        "dot_r": min(fw, fh) / 4, "blocks_x": x + CELL - 4, "blocks_y": y + CELL - 4,
        # the flag lies down
        "flag": {"x1": x + 5, "y": y + 9, "x2": x + 21, "points": f"{x + 21},{y + 9} {x + 15},{y + 3} {x + 11},{y + 9}"},
    }

"""The 6×6 battlefield as inline SVG, oriented for the viewer (own side at the bottom).

Only public information is drawn (terrain, units, facings, formations, blocks, flags). Every
string inserted is escaped; colours come from CSS classes (no style attributes).
"""
from __future__ import annotations

from django.utils.html import escape
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


def render_board(state: dict, viewer: str | None = None, selected: str | None = None,
                 hints: dict | None = None, link: str = "?unit=") -> str:
    """`state` is the engine dict; `viewer` 'north' turns the board (North's home row at the bottom)."""
    flip = viewer == "north"
    hints = hints or {}
    terrain = state.get("terrain", {})
    zones = state.get("settings", {}).get("zone_columns") or {"west": ["a", "b"], "center": ["c", "d"], "east": ["e", "f"]}
    w, h = LEFT + 6 * CELL + 4, TOP + 6 * CELL + BOTTOM
    out = [f'<svg class="g-board{" g-flipped" if flip else ""}" viewBox="0 0 {w} {h}" xmlns="http://www.w3.org/2000/svg" '
           f'role="group" aria-label="{escape(_("Battlefield, 6 by 6 sectors"))}">']
    # zone labels (relative to the viewer) over their columns
    for zone, cols in zones.items():
        xs = [_pos(f"{c}1", flip)[0] for c in cols]
        cx = (min(xs) + max(xs) + CELL) / 2
        out.append(f'<text class="g-zone-label" x="{cx:.0f}" y="{TOP - 6}" text-anchor="middle">'
                   f'{escape(zone_label(zone, viewer))}</text>')
    # sectors
    for row in range(1, 7):
        for col in COLS:
            s = f"{col}{row}"
            x, y = _pos(s, flip)
            t = terrain.get(s, "field")
            cls = f"g-sector terrain-{t}"
            for name, sectors in hints.items():
                if s in sectors:
                    cls += f" hint-{name}"
            out.append(f'<g class="{cls}" data-sector="{s}"><title>{s}: {escape(terrain_label(t))}</title>'
                       f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}"/>')
            if t in TERRAIN_MARK:
                out.append(f'<text class="g-terrain-mark" x="{x + CELL - 4}" y="{y + 13}" text-anchor="end">{TERRAIN_MARK[t]}</text>')
            out.append(f'<text class="g-sector-name" x="{x + 3}" y="{y + CELL - 3}">{s}</text></g>')
    # zone borders
    order = sorted(zones.values(), key=lambda cols: COLS.index(cols[0]))
    for cols in order[:-1]:
        edge = COLS.index(max(cols)) + 1
        x = LEFT + (6 - edge if flip else edge) * CELL
        out.append(f'<line class="g-zone-border" x1="{x}" y1="{TOP}" x2="{x}" y2="{TOP + 6 * CELL}"/>')
    # axis labels
    for i, col in enumerate(COLS):
        x = _pos(f"{col}1", flip)[0] + CELL / 2
        out.append(f'<text class="g-axis" x="{x:.0f}" y="{TOP + 6 * CELL + 13}" text-anchor="middle">{col}</text>')
    for row in range(1, 7):
        y = _pos(f"a{row}", flip)[1] + CELL / 2 + 4
        out.append(f'<text class="g-axis" x="{LEFT / 2:.0f}" y="{y:.0f}" text-anchor="middle">{row}</text>')
    # abandoned guns (a battery's gun left without its crew)
    for u in state.get("units", []):
        if u["kind"] == "artillery" and u.get("gun") and u.get("gun_sector") and u.get("location") == "board" \
                and u.get("gun_sector") != u.get("sector"):
            x, y = _pos(u["gun_sector"], flip)
            out.append(f'<g class="g-gun-left side-{u["owner"]}"><title>{escape(_("Abandoned gun of %(unit)s") % {"unit": u["id"]})}</title>'
                       f'<circle cx="{x + 12}" cy="{y + 12}" r="7"/></g>')
    for u in state.get("units", []):
        if u.get("location", "board") == "board" and u.get("sector"):
            out.append(_unit(u, flip, selected, link))
    out.append("</svg>")
    return "".join(out)


def _unit(u: dict, flip: bool, selected: str | None, link: str) -> str:
    x, y = _pos(u["sector"], flip)
    cx, cy = x + CELL / 2, y + CELL / 2 - 2
    formation = u.get("formation", "column")
    fw, fh = SHAPES.get(formation, SHAPES["column"])
    routed = u.get("flag") == "routed"
    cls = f"g-unit side-{u['owner']} kind-{u['kind']} formation-{formation}"
    if routed:
        cls += " routed"
    if u["id"] == selected:
        cls += " selected"
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
    parts = [f'<a href="{escape(link + u["id"])}" class="g-unit-link" aria-label="{escape(title)}">',
             f'<g class="{cls}" data-unit="{escape(u["id"])}"><title>{escape(title)}</title>',
             f'<rect class="g-hit" x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}"/>',
             # facing: a triangle on the front edge, turned with the unit
             f'<polygon class="g-facing" points="{cx - 6},{top - 1} {cx + 6},{top - 1} {cx},{top - 9}" '
             f'transform="rotate({angle} {cx} {cy})"/>',
             f'<rect class="g-body" x="{left}" y="{top}" width="{fw}" height="{fh}" rx="2"/>']
    if u["kind"] == "infantry":
        parts.append(f'<path class="g-sym" d="M{left} {top}L{left + fw} {top + fh}M{left + fw} {top}L{left} {top + fh}"/>')
    elif u["kind"] == "cavalry":
        parts.append(f'<path class="g-sym" d="M{left} {top + fh}L{left + fw} {top}"/>')
    else:
        parts.append(f'<circle class="g-sym-dot" cx="{cx}" cy="{cy}" r="{min(fw, fh) / 4}"/>')
    parts.append(f'<text class="g-blocks" x="{x + CELL - 4}" y="{y + CELL - 4}" text-anchor="end">{escape(blocks)}</text>')
    if routed:
        # the flag lies down
        parts.append(f'<g class="g-flag-down"><line x1="{x + 5}" y1="{y + 9}" x2="{x + 21}" y2="{y + 9}"/>'
                     f'<polygon points="{x + 21},{y + 9} {x + 15},{y + 3} {x + 11},{y + 9}"/></g>')
    parts.append("</g></a>")
    return "".join(parts)

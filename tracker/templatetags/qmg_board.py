"""``{% qmg_board map %}``: the QMG board as one ``<svg>`` element, drawn from a ``tracker.qmg.board_svg.BoardMap``
(the geometry and the facts are that module's; the markup is made here only). Every inserted name is escaped.

Used by ``templates/qmg/_board.html`` (the game page, ``PHONE``) and ``templates/qmg/screen.html`` (the table
screen, ``SCREEN``); both draw it inside a part kept per game version and language, so it is drawn once per
version. The static part (background, adjacency lines, the spaces' shapes, names, stars, home marks, legend) is
drawn once per board and language and kept; a call only adds pieces, straits, supply marks and the selection.
Each space's group is also kept (bounded, per process) by what it is drawn from, so a new game version re-draws
only the spaces that changed; the output is the same. The DOM contract used by ``static/js/board.js``:

* ``svg.board-svg`` with ``data-focus="x y"`` (where a phone's first view is centred) and
  ``data-label-empty`` (the info-box text for a space without pieces);
* ``g.space-half[data-half-of]`` – the other half of a space where the board wraps (not focusable:
  the space itself is);
* ``g.space[data-space][data-name][data-kind][data-facts][data-pieces]`` – one per space,
  ``tabindex="0" role="button" aria-label=NAME``; ``data-facts`` and ``data-pieces`` are JSON
  lists (facts: strings; pieces: ``{country, kind, supplied, colour, text}``); the selected
  space has the class ``selected`` and ``aria-pressed="true"``.
"""
from __future__ import annotations

import json
import weakref
from dataclasses import dataclass
from html import escape

from django import template
from django.utils.safestring import mark_safe

from gameplay.qmg.board import ALLIES, AXIS, LAND, Board
from gameplay.qmg.rules import SupplyReport, compute_supply
from gameplay.qmg.state import ARMY, NAVY, Position

from tracker.core.memo import Memo
from tracker.qmg.board_svg import (
    BACKGROUND, LABEL_H, LAND_FILL, LAND_STROKE, LETTERS, PALETTE, PHONE, SEA_FILL, SEA_STROKE, TEAM_COLOURS, TEXT,
    TOKEN_R, UNKNOWN_COUNTRY, UNSUPPLIED, BoardMap, Geometry, crosses_seam, focus_of, fmt, home_owners, lang_code, Layout,
    layout_of, local_name, name_lines, navy_path, piece_text, star_path, strait_facts_of, straits_of, wrap_lines,
    piece_supplied, strait_label_spots,
)

register = template.Library()

SVG_NS = "http://www.w3.org/2000/svg"


@register.simple_tag
def qmg_board(board_map: BoardMap):
    """The map as one ``<svg>`` element (every inserted name escaped)."""
    m = board_map
    return mark_safe(render_board_svg(m.board, m.position, m.supply, lang=m.lang, selected=m.selected, air=m.air,
                                      geometry=m.geometry))


# ==========================================================================================
# Static part (cached per board object and language)
# ==========================================================================================


@dataclass(frozen=True)
class _SpaceStatic:
    id: str
    x: float
    y: float
    open_attrs: str  # attributes of <g class="space"> that never change
    inner: str  # shape, name, star, home mark
    name: str
    facts: tuple[str, ...]


@dataclass(frozen=True)
class _Static:
    head: str  # <svg ...> with background and adjacency lines
    spaces: tuple[_SpaceStatic, ...]
    legend: str
    layout: Layout


_STATIC_CACHE: "weakref.WeakKeyDictionary[Board, dict[tuple, _Static]]" = weakref.WeakKeyDictionary()


def _static(board: Board, lang: str, g: Geometry = PHONE) -> _Static:
    per_board = _STATIC_CACHE.get(board)
    if per_board is None:
        per_board = _STATIC_CACHE[board] = {}
    static = per_board.get((lang, g))
    if static is None:
        static = per_board[(lang, g)] = _build_static(board, lang, g)
    return static


def _build_static(board: Board, lang: str, g: Geometry) -> _Static:
    lay = layout_of(board, g)
    homes = home_owners(board)
    c = lay.centre
    spaces = tuple(_space_static(board, sid, lang, c[sid], homes.get(sid), g)
                   for sid in sorted(board.spaces, key=lambda s: (c[s][1], c[s][0])))
    return _Static(head=_head(board, lang, lay), spaces=spaces, legend=_legend(board, lang, lay.width, lay.height, g),
                   layout=lay)


def _head(board: Board, lang: str, lay: Layout) -> str:
    """The opening ``<svg …{focus}>`` tag (data-focus is added per call), background, seam and adjacency lines."""
    t = TEXT[lang]
    W, H = lay.width, lay.height
    total_h = H + lay.g.legend_h
    open_tag = (
        f'<svg xmlns="{SVG_NS}" class="board-svg" viewBox="0 0 {fmt(W)} {fmt(total_h)}" '
        f'preserveAspectRatio="xMidYMid meet" role="group" aria-label="{escape(t["map"])}" '
        f'font-family="system-ui, -apple-system, Roboto, sans-serif" data-label-empty="{escape(t["empty"])}" '
        f'data-width="{fmt(W)}" data-height="{fmt(total_h)}"'
    )
    parts = [
        f'<defs><pattern id="qmg-hatch" width="5" height="5" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="2" height="5" fill="{UNSUPPLIED}" fill-opacity="0.55"/>'
        f'</pattern></defs>',
        f'<rect class="board-bg" x="0" y="0" width="{fmt(W)}" height="{fmt(total_h)}" fill="{BACKGROUND}"/>',
        # the halves across the seam are cut by the map's edges
        f'<clipPath id="qmg-map-edge"><rect x="0" y="0" width="{fmt(W)}" height="{fmt(H)}"/></clipPath>',
        # the seam: both vertical edges of the map are the same line of the cylinder
        f'<g class="seam" stroke="#9aa7b1" stroke-width="2" stroke-dasharray="10 8">'
        f'<line x1="6" y1="0" x2="6" y2="{fmt(H)}"/><line x1="{fmt(W - 6)}" y1="0" x2="{fmt(W - 6)}" '
        f'y2="{fmt(H)}"/></g>',
    ]
    return open_tag + "{focus}>" + "".join(parts + _edge_groups(board, lang, lay) + [_halves_group(board, lang, lay)])


def _edge_groups(board: Board, lang: str, lay: Layout) -> list[str]:
    """Adjacency lines; a link across the seam is two stubs, each labelled with where it leads."""
    lines, wraps = [], []
    c = lay.centre
    lons = {sid: float(s.at[0]) for sid, s in board.spaces.items()}
    for a, b in sorted(tuple(sorted(e)) for e in board.edges):
        (xa, ya), (xb, yb) = c[a], c[b]
        kinds = {board.spaces[a].kind, board.spaces[b].kind}
        colour = "#8a6d3b" if kinds == {LAND} else ("#2f6496" if LAND not in kinds else "#6b7780")
        if crosses_seam(lons[a], lons[b], lay.seam):
            wraps.append(_wrapped_edge(lay, a, b, colour))
        else:
            lines.append(f'<line x1="{fmt(xa)}" y1="{fmt(ya)}" x2="{fmt(xb)}" y2="{fmt(yb)}" stroke="{colour}"/>')
    parts = ['<g class="edges" stroke-width="2.5" stroke-opacity="0.45" stroke-linecap="round">'
             + "".join(lines) + "</g>"]
    if wraps:
        parts.append('<g class="edges wrapped" stroke-width="2.5" stroke-opacity="0.45" stroke-dasharray="7 5">'
                     + "".join(wraps) + "</g>")
    return parts


def _wrapped_edge(lay: Layout, a: str, b: str, colour: str) -> str:
    """A link across the seam: from each of its spaces to the other's half at the nearer edge."""
    halves = {(sid, x < lay.width / 2): (x, y) for sid, x, y in lay.halves}
    out = []
    for one, other in ((a, b), (b, a)):
        x1, y1 = lay.centre[one]
        near_left = x1 < lay.width / 2
        y2 = halves.get((other, near_left), (None, y1))[1]
        x2 = lay.g.box_w / 4 if near_left else lay.width - lay.g.box_w / 4  # the middle of the half that shows
        out.append(f'<line x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}" stroke="{colour}"/>')
    return "".join(out)


def _halves_group(board: Board, lang: str, lay: Layout) -> str:
    """The other half of each space across the seam, at the opposite edge: its shape cut by the edge, its name
    in the half that shows; tapped, it is its space (static/js/board.js)."""
    if not lay.halves:
        return ""
    g = lay.g
    out = []
    for sid, x, y in lay.halves:
        s = board.spaces[sid]
        name = local_name(s, lang)
        left, top = x - g.box_w / 2, y - g.box_h / 2
        tx = x + (g.box_w / 4 if x < lay.width / 2 else -g.box_w / 4)
        lines = wrap_lines(name, max(6, int(g.line_chars * 0.6)))
        size = g.font * 0.85
        ty = y - (len(lines) - 1) * (size + 1) / 2 + size / 3
        text = (f'<text class="name" x="{fmt(tx)}" y="{fmt(ty)}" text-anchor="middle" font-size="{fmt(size)}" '
                f'font-weight="600" fill="{"#3a2c10" if s.is_land else "#0d2f52"}">'
                + "".join(f'<tspan x="{fmt(tx)}" dy="{0 if i == 0 else fmt(size + 1)}">{escape(line)}</tspan>'
                          for i, line in enumerate(lines)) + "</text>")
        out.append(f'<g class="space-half" data-half-of="{escape(sid)}" aria-hidden="true">'
                   f'<title>{escape(name)}</title>{_shape(s.is_land, left, top, g)}{text}</g>')
    return '<g class="halves" clip-path="url(#qmg-map-edge)">' + "".join(out) + "</g>"


def _space_static(board: Board, sid: str, lang: str, centre: tuple[float, float], owner: str | None,
                  g: Geometry = PHONE) -> _SpaceStatic:
    """One space's fixed drawing: shape, home mark, star and name, with the facts they state."""
    t = TEXT[lang]
    s = board.spaces[sid]
    x, y = centre
    left, top = x - g.box_w / 2, y - g.box_h / 2
    name = local_name(s, lang)
    inner = [_shape(s.is_land, left, top, g)]
    facts = [t["land"] if s.is_land else t["sea"]]
    if owner:
        cname = local_name(board.countries[owner], lang) if owner in board.countries else owner
        inner.append(_home_mark(owner, left, top, t["home"].format(country=cname), g))
        facts.append(t["home"].format(country=cname))
    if s.supply:
        inner.append(f'<path class="star" d="{star_path(left + 12, top + 2, 11)}" fill="#ffd400" '
                     f'stroke="#5a4500" stroke-width="1.5"><title>{escape(t["star"])}</title></path>')
        facts.append(t["star"])
    inner.append(_name_text(name, x, top, s.is_land, g))
    open_attrs = (f'data-space="{escape(sid)}" tabindex="0" role="button" aria-label="{escape(name)}" '
                  f'data-name="{escape(name)}" data-kind="{escape(s.kind)}"')
    return _SpaceStatic(sid, x, y, open_attrs, "".join(inner), name, tuple(facts))


def _shape(is_land: bool, left: float, top: float, g: Geometry = PHONE) -> str:
    w, h = fmt(g.box_w), fmt(g.box_h)
    if is_land:
        return (f'<rect class="shape land" x="{fmt(left)}" y="{fmt(top)}" width="{w}" height="{h}" '
                f'rx="12" fill="{LAND_FILL}" stroke="{LAND_STROKE}" stroke-width="1.5"/>')
    return (f'<rect class="shape sea" x="{fmt(left)}" y="{fmt(top)}" width="{w}" height="{h}" '
            f'rx="{fmt(g.box_h / 2)}" fill="{SEA_FILL}" stroke="{SEA_STROKE}" stroke-width="1.5" '
            f'stroke-dasharray="6 3"/>')


def _home_mark(owner: str, left: float, top: float, title: str, g: Geometry = PHONE) -> str:
    """A frame in the owner's colour and a small house on the box's top edge."""
    col = PALETTE.get(owner, UNKNOWN_COUNTRY)
    return (f'<g class="home" data-home="{escape(owner)}"><rect x="{fmt(left + 3)}" y="{fmt(top + 3)}" '
            f'width="{fmt(g.box_w - 6)}" height="{fmt(g.box_h - 6)}" rx="10" fill="none" stroke="{col["fill"]}" '
            f'stroke-width="4"/>'
            f'<rect x="{fmt(left + g.box_w - 30)}" y="{fmt(top - 9)}" width="26" height="17" rx="4" '
            f'fill="{col["fill"]}" stroke="#1a1a1a" stroke-width="1"/>'
            f'<path d="M{fmt(left + g.box_w - 23)},{fmt(top + 4)} v-6 l6,-5 l6,5 v6 z" fill="{col["ink"]}"/>'
            f'<title>{escape(title)}</title></g>')



def _name_text(name: str, x: float, top: float, is_land: bool, g: Geometry = PHONE) -> str:
    """The space's name on one or two lines near the top of its box."""
    lines_, size = name_lines(name, g)
    ty = top + size * (22 / 12 if len(lines_) == 1 else 17 / 12 if len(lines_) == 2 else 14 / 12)
    ink = "#3a2c10" if is_land else "#0d2f52"
    stretch = ' font-stretch="condensed"' if g.condensed else ""
    return (f'<text class="name" x="{fmt(x)}" y="{fmt(ty)}" text-anchor="middle" font-size="{fmt(size)}" '
            f'font-weight="600"{stretch} fill="{ink}">'
            + "".join(f'<tspan x="{fmt(x)}" dy="{0 if i == 0 else fmt(size + 1)}">{escape(line)}</tspan>'
                      for i, line in enumerate(lines_))
            + "</text>")


def _legend(board: Board, lang: str, W: float, H: float, g: Geometry = PHONE) -> str:
    """The legend band under the map, drawn at 13 units and scaled to the geometry's ``legend_font``."""
    t = TEXT[lang]
    k = g.legend_font / 13
    band = W / k  # the band's width in the legend's own units
    items, x, y = [], 24.0, 22.0
    row_h = 26

    def room(width):
        nonlocal x, y
        if x + width > band - 16:
            x, y = 24.0, y + row_h

    for cid in board.turn_order:
        label = local_name(board.countries[cid], lang)
        w = 30 + len(label) * 8.2
        room(w)
        items.append(_token(cid, ARMY, x + 10, y, lang, True, None) + f'<text x="{fmt(x + 25)}" y="{fmt(y + 4)}">'
                     f'{escape(label)}</text>')
        x += w
    for kind in (ARMY, NAVY):
        label = t[kind]
        w = 42 + len(label) * 8.2
        room(w)
        shape = (f'<circle cx="{fmt(x + 13)}" cy="{fmt(y)}" r="{TOKEN_R}" fill="#ffffff" stroke="#1a1a1a"/>'
                 if kind == ARMY else
                 f'<path d="{navy_path(x + 13, y)}" fill="#ffffff" stroke="#1a1a1a"/>')
        items.append(shape + f'<text x="{fmt(x + 31)}" y="{fmt(y + 4)}">{escape(label)}</text>')
        x += w
    label = t["legend_unsupplied"]
    w = 34 + len(label) * 8.2
    room(w)
    items.append(f'<circle cx="{fmt(x + 10)}" cy="{fmt(y)}" r="{TOKEN_R}" fill="url(#qmg-hatch)" stroke="{UNSUPPLIED}" '
                 f'stroke-width="2.5" stroke-dasharray="4 2.5"/>'
                 f'<text x="{fmt(x + 10)}" y="{fmt(y + 4)}" text-anchor="middle" font-weight="700" '
                 f'fill="{UNSUPPLIED}">!</text><text x="{fmt(x + 27)}" y="{fmt(y + 4)}">{escape(label)}</text>')
    x += w
    label = t["legend_star"]
    w = 30 + len(label) * 8.2
    room(w)
    items.append(f'<path d="{star_path(x + 10, y, 10)}" fill="#ffd400" stroke="#5a4500" stroke-width="1.5"/>'
                 f'<text x="{fmt(x + 25)}" y="{fmt(y + 4)}">{escape(label)}</text>')
    x += w
    label = t["legend_home"]
    w = 36 + len(label) * 8.2
    room(w)
    items.append(f'<rect x="{fmt(x)}" y="{fmt(y - 8)}" width="26" height="17" rx="4" fill="#ffffff" stroke="#1a1a1a"/>'
                 f'<path d="M{fmt(x + 7)},{fmt(y + 5)} v-6 l6,-5 l6,5 v6 z" fill="#1a1a1a"/>'
                 f'<text x="{fmt(x + 32)}" y="{fmt(y + 4)}">{escape(label)}</text>')
    x += w
    label = t["legend_strait"]
    w = 20 + len(label) * 8.2 + 2 * 110
    room(w)
    items.append(f'<text x="{fmt(x)}" y="{fmt(y + 4)}">{escape(label)}</text>')
    x += 10 + len(label) * 8.2
    for team in (AXIS, ALLIES):
        items.append(f'<line x1="{fmt(x)}" y1="{fmt(y)}" x2="{fmt(x + 26)}" y2="{fmt(y)}" stroke="{TEAM_COLOURS[team]}" '
                     f'stroke-width="6" stroke-linecap="round"/>'
                     f'<text x="{fmt(x + 32)}" y="{fmt(y + 4)}">{escape(t["team"][team])}</text>')
        x += 110
    scale = "" if k == 1 else f" scale({fmt(k)})"
    return (f'<g class="legend" font-size="13" fill="#1d2327" aria-hidden="true" transform="translate(0 {fmt(H)}){scale}">'
            f'<line x1="0" y1="0" x2="{fmt(band)}" y2="0" stroke="#c9d2d8"/>' + "".join(items) + "</g>")



def _token(country: str, kind: str, cx: float, cy: float, lang: str, supplied: bool | None, title: str | None,
           r: float = TOKEN_R) -> str:
    """One piece: an army a disc, a navy a hull, an air force a triangle, with its country's letter; ``r``: its size
    (the phone's 10.5 units: the other sizes scale with it)."""
    if r != TOKEN_R:
        k = r / TOKEN_R
        inner = _token(country, kind, 0, 0, lang, supplied, title)
        return f'<g transform="translate({fmt(cx)} {fmt(cy)}) scale({fmt(k)})">{inner}</g>'
    col = PALETTE.get(country, UNKNOWN_COUNTRY)
    letter = LETTERS[lang].get(country) or (country[:1].upper() or "?")
    bad = supplied is False
    stroke = (f'stroke="{UNSUPPLIED}" stroke-width="2.8" stroke-dasharray="4 2.5"' if bad
              else 'stroke="#1a1a1a" stroke-width="1.3"')
    if kind == NAVY:
        geometry = f'path d="{navy_path(cx, cy)}"'
        ty = cy + 5
    elif kind == ARMY:
        geometry = f'circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{TOKEN_R}"'
        ty = cy + 4
    else:  # air force: a small triangle
        geometry = (f'path d="M{fmt(cx)},{fmt(cy - 10)} L{fmt(cx + 10)},{fmt(cy + 8)} '
                    f'L{fmt(cx - 10)},{fmt(cy + 8)} Z"')
        ty = cy + 6
    size = 11 if kind != "air" else 9
    out = [f'<{geometry} class="body" fill="{col["fill"]}" {stroke}/>']
    if bad:  # red hatching over the token
        out.append(f'<{geometry} class="hatch" fill="url(#qmg-hatch)"/>')
    out.append(f'<text x="{fmt(cx)}" y="{fmt(ty)}" text-anchor="middle" font-size="{size}" font-weight="700" '
               f'fill="{col["ink"]}">{escape(letter)}</text>')
    if bad:
        out.append(f'<circle cx="{fmt(cx + 10)}" cy="{fmt(cy - 10)}" r="6.5" fill="{UNSUPPLIED}" stroke="#ffffff" '
                   f'stroke-width="1.2"/><text x="{fmt(cx + 10)}" y="{fmt(cy - 6)}" text-anchor="middle" '
                   f'font-size="10" font-weight="800" fill="#ffffff">!</text>')
    if title is None:
        return "".join(out)
    cls = "piece " + ("unsupplied" if bad else ("supplied" if supplied else "unknown"))
    return (f'<g class="{cls}" data-country="{escape(country)}" data-kind="{escape(kind)}" '
            f'data-supplied="{"" if supplied is None else ("true" if supplied else "false")}">'
            f'<title>{escape(title)}</title>' + "".join(out) + "</g>")



def render_board_svg(board: Board, position: Position, supply: SupplyReport | None = None, *, lang: str = "ru",
                     selected: str | None = None, air=(), geometry: Geometry = PHONE) -> str:
    """The whole map as one ``<svg>`` string; every inserted name is HTML-escaped. ``geometry``: ``PHONE`` (the
    game page) or ``SCREEN`` (the table screen)."""
    lang = lang_code(lang)
    if supply is None:
        supply = compute_supply(board, position)
    st = _static(board, lang, geometry)
    straits = straits_of(board, position, supply)
    strait_facts = strait_facts_of(board, straits, lang)
    fx, fy = focus_of(board, st.layout, selected)
    strait_lines, strait_labels = _strait_marks(board, st.layout, straits, strait_facts, lang)
    out = [st.head.replace("{focus}", f' data-focus="{fmt(fx)} {fmt(fy)}"', 1),
           '<g class="straits">' + "".join(strait_lines) + "</g>", '<g class="spaces">']
    order = {c: i for i, c in enumerate(board.turn_order)}
    by_space: dict[str, list] = {}
    for p in position.pieces:
        by_space.setdefault(p.space, []).append(p)
    air_by_space: dict[str, list[str]] = {}
    for country, space in air or ():
        air_by_space.setdefault(space, []).append(country)
    groups = _GROUPS
    for sp in st.spaces:
        pieces = sorted(by_space.get(sp.id, ()), key=lambda p: (order.get(p.country, 99), p.kind))
        airs = sorted(air_by_space.get(sp.id, ()), key=lambda cc: order.get(cc, 99))
        facts = strait_facts.get(sp.id, ())
        # what the group is drawn from, beyond its board and language (fixed by ``st``, kept by identity)
        key = (id(st), sp.id, tuple((p.country, p.kind, piece_supplied(supply, p)) for p in pieces), tuple(airs),
               tuple((f["id"], f["team"], f["role"]) for f in facts), sp.id == selected)
        hit = groups.get(key)
        if hit is None or hit[0] is not st:
            hit = groups.keep(key, (st, _space_group(board, sp, pieces, airs, supply, facts, lang, selected, geometry)))
        out.append(hit[1])
    out.append("</g>")
    out.append(f'<g class="strait-labels" font-size="{fmt(geometry.label_font)}" font-weight="700" paint-order="stroke" '
               'stroke="#ffffff" stroke-width="3.5" pointer-events="none">' + "".join(strait_labels) + "</g>")
    out.append(st.legend)
    out.append("</svg>")
    return "".join(out)


# One space's ``<g>`` per (static part, space, its pieces with their supply, air forces, straits'
# teams, selected): a new game version re-draws only the spaces that changed. Shared by every game
# of the process on the same board; an entry holds its ``_Static`` so that ``id(st)`` cannot be
# reused by another board or language while the entry lives. Bounded: cleared when full.
_GROUPS = Memo(4096)  # key -> (_Static, the group's markup)



def _strait_marks(board: Board, lay: Layout, straits: dict[str, str], strait_facts: dict[str, list[dict]],
                  lang: str) -> tuple[list[str], list[str]]:
    """Each strait as a thick line between its two seas in the colour of the team it is open for,
    tied to its land space by a thin line; and its label (drawn last, above the spaces)."""
    t = TEXT[lang]
    c = lay.centre
    strait_lines, strait_labels = [], []
    spots = strait_label_spots(board, lay, straits, lang)
    for sid, s in board.straits.items():
        team = straits.get(sid, ALLIES)
        col = TEAM_COLOURS[team]
        (xa, ya), (xb, yb) = c[s.seas[0]], c[s.seas[1]]
        label = f"{local_name(s, lang)}: {t['team'][team]}"
        title = escape(strait_facts[s.land][0]["text"] if s.land in strait_facts else label)
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        lx, ly = c[s.land]
        strait_lines.append(
            f'<g class="strait" data-strait="{escape(sid)}" data-team="{team}"><title>{title}</title>'
            f'<line x1="{fmt(xa)}" y1="{fmt(ya)}" x2="{fmt(xb)}" y2="{fmt(yb)}" stroke="{col}" stroke-width="7" '
            f'stroke-opacity="0.8" stroke-linecap="round"/>'
            f'<line x1="{fmt(mx)}" y1="{fmt(my)}" x2="{fmt(lx)}" y2="{fmt(ly)}" stroke="{col}" stroke-width="2" '
            f'stroke-dasharray="3 4" stroke-opacity="0.9"/></g>')
        lines, lx_, ly_ = spots[sid]
        strait_labels.append(
            f'<text class="strait-label" data-strait="{escape(sid)}" data-team="{team}" x="{fmt(lx_)}" y="{fmt(ly_)}" '
            f'text-anchor="middle" fill="{col}">{escape(lines[0])}'
            f'<tspan x="{fmt(lx_)}" dy="{fmt(LABEL_H * lay.g.label_font / 12)}">{escape(lines[1])}</tspan></text>')
    return strait_lines, strait_labels



def _space_group(board: Board, sp: _SpaceStatic, pieces: list, airs: list[str], supply: SupplyReport,
                 strait_facts: list[dict], lang: str, selected: str | None, g: Geometry = PHONE) -> str:
    """One ``<g class="space">``: selection ring, the static drawing, strait anchors and tokens."""
    facts = list(sp.facts) + [f["text"] for f in strait_facts]
    tokens, info_pieces = _space_tokens(board, sp, pieces, airs, supply, lang, g)
    anchors = [_strait_anchor(sp, f, g) for f in strait_facts if f["role"] == "land"]
    is_sel = sp.id == selected
    ring = (f'<rect class="sel-ring" x="{fmt(sp.x - g.box_w / 2 - 5)}" y="{fmt(sp.y - g.box_h / 2 - 5)}" '
            f'width="{fmt(g.box_w + 10)}" height="{fmt(g.box_h + 10)}" rx="16" fill="none" stroke="#111111" '
            f'stroke-width="4" visibility="{"visible" if is_sel else "hidden"}"/>')
    data_facts = escape(json.dumps(facts, ensure_ascii=False))
    data_pieces = escape(json.dumps(info_pieces, ensure_ascii=False))
    return (f'<g class="space{" selected" if is_sel else ""}" {sp.open_attrs} aria-pressed="{"true" if is_sel else "false"}" '
            f'data-facts="{data_facts}" data-pieces="{data_pieces}">'
            + ring + sp.inner + "".join(anchors) + "".join(tokens) + "</g>")


def _space_tokens(board: Board, sp: _SpaceStatic, pieces: list, airs: list[str], supply: SupplyReport,
                  lang: str, g: Geometry = PHONE) -> tuple[list[str], list[dict]]:
    """The tokens in a row along the bottom of the box (armies and navies, then air forces), and
    the same pieces as data for the info box."""
    tokens, info_pieces = [], []
    n = len(pieces) + len(airs)
    if not n:
        return tokens, info_pieces
    k = g.token_r / TOKEN_R
    step = 26 * k if n <= 4 else max(14.0 * k, (g.box_w - 24 * k) / (n - 1))
    x0 = sp.x - step * (n - 1) / 2
    ty = sp.y + g.box_h / 2 - 17 * k
    row = [(p.country, p.kind, piece_supplied(supply, p)) for p in pieces] + [(c, "air", None) for c in airs]
    for i, (country, kind, sup) in enumerate(row):
        text = piece_text(board, country, kind, sup, lang)
        tokens.append(_token(country, kind, x0 + i * step, ty, lang, sup, text, g.token_r))
        info_pieces.append({"country": country, "kind": kind, "supplied": sup,
                            "colour": PALETTE.get(country, UNKNOWN_COUNTRY)["fill"], "text": text})
    return tokens, info_pieces


def _strait_anchor(sp: _SpaceStatic, fact: dict, g: Geometry = PHONE) -> str:
    """The marker on a land space that controls a strait, in the colour of the team it is open for."""
    ax, ay = sp.x + g.box_w / 2 - 4, sp.y + g.box_h / 2 - 4
    return (f'<g class="strait-anchor" data-strait="{escape(fact["id"])}" data-team="{fact["team"]}">'
            f'<title>{escape(fact["text"])}</title>'
            f'<circle cx="{fmt(ax)}" cy="{fmt(ay)}" r="11" fill="{fact["colour"]}" stroke="#ffffff" stroke-width="1.5"/>'
            f'<path d="M{fmt(ax)},{fmt(ay - 7)} v12 M{fmt(ax - 4)},{fmt(ay - 3)} h8 '
            f'M{fmt(ax - 6)},{fmt(ay + 1)} q6,8 12,0" fill="none" stroke="#ffffff" stroke-width="1.8" '
            f'stroke-linecap="round"/></g>')

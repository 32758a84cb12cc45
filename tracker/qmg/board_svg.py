"""The QMG board as an SVG map (and as a list) for phones and tablets beside the real board.

Pure functions of a ``Board``, a ``Position`` and its ``SupplyReport``: no database, no Django.

* ``render_board_svg(board, position, supply, lang=..., selected=..., air=...)`` returns one
  ``<svg>`` element (every inserted name is escaped, so the string is safe for ``mark_safe``).
* ``space_rows(board, position, supply, lang=...)`` returns the same facts as plain dicts for the
  list fallback under the map.

Layout: each space is placed at its ``at: [lon, lat]`` (equirectangular), the seam of the
cylinder is put where the printed board has it: in the Pacific (a world map centred on Europe; of the
gaps between spaces near the antimeridian, the one the fewest adjacencies cross), then overlapping
boxes are pushed apart. Where the board wraps, each space with a link across the seam shows its other
half at the opposite edge (as a sea cut by the printed board's edge is printed on both sides): a tap
on that half is a tap on the space, and the link is drawn to it.

Two geometries: ``PHONE`` (the game page, panned and zoomed on a phone) and ``SCREEN`` (the table
screen, the whole board at once on a tablet or a TV: a denser layout, larger names and pieces).

The static part (background, adjacency lines, the spaces' shapes, names, stars, home marks,
legend) is computed once per board and language and cached; a call only adds pieces, straits,
supply marks and the selection. Each space's group is also kept (bounded, per process) by what it
is drawn from, so a new game version re-draws only the spaces that changed; the output is the
same. The DOM contract used by ``static/js/board.js``:

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
import math
import weakref
from dataclasses import dataclass, field
from html import escape

from gameplay.qmg.board import ALLIES, AXIS, LAND, Board
from gameplay.qmg.rules import SupplyReport, compute_supply, strait_status
from gameplay.qmg.state import ARMY, NAVY, Position

from tracker.core.memo import Memo

SVG_NS = "http://www.w3.org/2000/svg"

# --- palette ---------------------------------------------------------------------------------
# Okabe–Ito colours (distinct for the common kinds of colour blindness), chosen near the colours
# of the printed pieces. ``ink`` is the colour of the letter on the token.
PALETTE: dict[str, dict[str, str]] = {
    "germany": {"fill": "#2b2b2b", "ink": "#ffffff"},
    "japan": {"fill": "#f0e442", "ink": "#1a1a1a"},
    "italy": {"fill": "#cc79a7", "ink": "#1a1a1a"},
    "united_kingdom": {"fill": "#e69f00", "ink": "#1a1a1a"},
    "soviet_union": {"fill": "#d55e00", "ink": "#ffffff"},
    "united_states": {"fill": "#009e73", "ink": "#ffffff"},
}
UNKNOWN_COUNTRY = {"fill": "#9e9e9e", "ink": "#1a1a1a"}
TEAM_COLOURS = {AXIS: "#5e3c99", ALLIES: "#0072b2"}
UNSUPPLIED = "#d7191c"

LAND_FILL, LAND_STROKE = "#ecdcb0", "#8a6d3b"
SEA_FILL, SEA_STROKE = "#a9cdee", "#2f6496"
BACKGROUND = "#f4f7f9"

LETTERS = {
    "ru": {"germany": "Г", "japan": "Я", "italy": "И", "united_kingdom": "Б", "soviet_union": "С",
           "united_states": "А"},
    "en": {"germany": "G", "japan": "J", "italy": "I", "united_kingdom": "B", "soviet_union": "S",
           "united_states": "A"},
}

TEXT = {
    "ru": {
        "map": "Карта поля", "land": "Суша", "sea": "Море", "star": "★ Источник снабжения",
        "home": "Родной сектор: {country}", "army": "армия", "navy": "флот", "air": "авиация",
        "supplied": "снабжается", "unsupplied": "НЕТ СНАБЖЕНИЯ",
        "strait": "{strait} ({a} — {b}): открыт для {team}",
        "team_for": {AXIS: "Оси", ALLIES: "коалиции"}, "team": {AXIS: "Ось", ALLIES: "Коалиция"},
        "empty": "Фишек нет", "legend_unsupplied": "без снабжения", "legend_home": "родной сектор",
        "legend_star": "источник", "legend_strait": "пролив открыт для:",
    },
    "en": {
        "map": "Board map", "land": "Land", "sea": "Sea", "star": "★ Supply source",
        "home": "Home space of {country}", "army": "army", "navy": "navy", "air": "air force",
        "supplied": "supplied", "unsupplied": "OUT OF SUPPLY",
        "strait": "{strait} ({a} — {b}): open for the {team}",
        "team_for": {AXIS: "Axis", ALLIES: "Allies"}, "team": {AXIS: "Axis", ALLIES: "Allies"},
        "empty": "No pieces", "legend_unsupplied": "out of supply", "legend_home": "home space",
        "legend_star": "supply source", "legend_strait": "strait open for:",
    },
}

# --- geometry (SVG user units) ------------------------------------------------------------
@dataclass(frozen=True)
class Geometry:
    """The drawing's sizes. ``kx``/``ky``: units per degree of longitude / latitude before overlapping boxes
    are pushed apart (smaller: a denser board, the spaces a little less where the globe has them); ``margin``:
    around the spaces (it holds the halves of the spaces across the seam); ``font``/``line_chars``: a space's name
    and its line length; ``token_r``: a piece."""

    box_w: float = 116
    box_h: float = 66
    gap_x: float = 16
    gap_y: float = 14
    kx: float = 6.0
    ky: float = 8.5
    margin: float = 70
    font: float = 12
    line_chars: int = 15
    token_r: float = 10.5
    legend_h: float = 64
    legend_font: float = 13
    label_font: float = 12  # a strait's label
    condensed: bool = False  # names in the font's condensed face where it has one
    name_em: float = 0.7  # the widest a name's character is likely to be, in em (a wide sans such as DejaVu: 0.69)


PHONE = Geometry()
# the whole board on a 1024×768 tablet (scale ~0.59: names ~9–10.5 px) and a 1920×1080 screen (~0.88: ~14–16 px)
SCREEN = Geometry(box_w=124, box_h=76, kx=4.2, ky=6.2, font=18, line_chars=12, token_r=12.5, legend_h=84,
                  legend_font=17, label_font=15, condensed=True, name_em=0.64)
BOX_W, BOX_H = PHONE.box_w, PHONE.box_h
TOKEN_R = PHONE.token_r


def _lang(lang: str) -> str:
    return "en" if (lang or "").lower().startswith("en") else "ru"


def _name(obj, lang: str) -> str:
    return obj.en if lang == "en" else obj.ru


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


# ==========================================================================================
# Layout (cached per set of coordinates)
# ==========================================================================================


@dataclass(frozen=True)
class _Layout:
    width: float
    height: float  # of the map without the legend band
    centre: dict  # space id -> (x, y) centre of its box
    seam: float  # longitude of the left/right edge
    g: Geometry = PHONE
    # where the board wraps: (space id, its half's centre x, y): at the left edge for a space drawn at the right
    halves: tuple = field(default=())


def _short_delta(a: float, b: float) -> float:
    """Signed shortest longitude difference from a to b, in (-180, 180]."""
    d = (b - a) % 360.0
    return d - 360.0 if d > 180.0 else d


def _crosses(lon_a: float, lon_b: float, seam: float) -> bool:
    d = _short_delta(lon_a, lon_b)
    if d >= 0:
        return 0 < (seam - lon_a) % 360.0 < d
    return 0 < (lon_a - seam) % 360.0 < -d


def _links(board: Board) -> list[tuple[str, str]]:
    links = [tuple(sorted(e)) for e in board.edges]
    links += [tuple(s.seas) for s in board.straits.values()]
    return sorted(links)


SEAM_AT = 180.0  # the printed board is a world map centred on Europe: its edges run through the Pacific


def _choose_seam(lons: dict[str, float], links) -> float:
    """The seam's longitude: the middle of the empty band between spaces where the antimeridian runs (a world
    map cut at 180°, no space cut), so the Atlantic and Europe stay whole and the Pacific wraps, as on the
    printed board; a space exactly at 180° takes the band east of it."""
    ordered = sorted(set(lons.values()))
    if len(ordered) < 2:
        return -180.0
    for i, lo in enumerate(ordered):
        hi = ordered[(i + 1) % len(ordered)]
        gap = (hi - lo) % 360.0 or 360.0
        if 0 <= (SEAM_AT - lo) % 360.0 < gap:
            seam = (lo + gap / 2) % 360.0
            return seam - 360.0 if seam > 180 else seam
    return -180.0


_LAYOUT_CACHE = Memo(32)  # key -> _Layout


def _layout(board: Board, g: Geometry = PHONE) -> _Layout:
    key = (tuple(sorted((s.id, tuple(s.at)) for s in board.spaces.values())), tuple(_links(board)), g)
    cached = _LAYOUT_CACHE.get(key)
    if cached is not None:
        return cached
    lons = {sid: float(s.at[0]) for sid, s in board.spaces.items()}
    lats = {sid: float(s.at[1]) for sid, s in board.spaces.items()}
    seam = _choose_seam(lons, _links(board))
    ids = sorted(board.spaces)
    need_x, need_y = g.box_w + g.gap_x, g.box_h + g.gap_y
    n = len(ids)
    xs = [((lons[s] - seam) % 360.0) * g.kx for s in ids]
    ys = [-lats[s] * g.ky for s in ids]
    for _ in range(400):  # push overlapping boxes apart along the axis of the smaller overlap
        moved = False
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = xs[j] - xs[i], ys[j] - ys[i]
                ox, oy = need_x - abs(dx), need_y - abs(dy)
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                if ox / need_x < oy / need_y:
                    step = (ox / 2 + 0.5) * (1 if dx > 0 or (dx == 0 and ids[i] < ids[j]) else -1)
                    xs[i] -= step
                    xs[j] += step
                else:
                    step = (oy / 2 + 0.5) * (1 if dy > 0 or (dy == 0 and ids[i] < ids[j]) else -1)
                    ys[i] -= step
                    ys[j] += step
        if not moved:
            break
    min_x, min_y = min(xs), min(ys)
    centre = {sid: (round(x - min_x + g.margin + g.box_w / 2, 1), round(y - min_y + g.margin + g.box_h / 2, 1))
              for sid, x, y in zip(ids, xs, ys)}
    width = round(max(x for x, _ in centre.values()) + g.box_w / 2 + g.margin, 1)
    height = round(max(y for _, y in centre.values()) + g.box_h / 2 + g.margin, 1)
    halves = _halves(board, lons, seam, centre, width, height, g)
    layout = _Layout(width=width, height=height, centre=centre, seam=seam, g=g, halves=halves)
    return _LAYOUT_CACHE.keep(key, layout)


def _halves(board: Board, lons, seam, centre, width, height, g: Geometry) -> tuple:
    """Where the board wraps, the other half of each space with a link across the seam, at the opposite edge
    and at its own height (pushed apart where two would overlap): (space id, x, y) of the half's box centre,
    a box cut by the edge (its inner half shows)."""
    left, right = [], []  # halves drawn at the left edge (of spaces on the right) and at the right edge
    for a, b in _links(board):
        if not _crosses(lons[a], lons[b], seam):
            continue
        for sid in (a, b):
            (right if centre[sid][0] < width / 2 else left).append(sid)
    out = []
    for side, x in ((sorted(set(left), key=lambda s: centre[s][1]), 0.0),
                    (sorted(set(right), key=lambda s: centre[s][1]), width)):
        last = None
        for sid in side:
            y = centre[sid][1]
            if last is not None:
                y = max(y, last + g.box_h + 6)
            y = min(y, height - g.box_h / 2)
            out.append((sid, x, round(y, 1)))
            last = y
    return tuple(out)


def _wrap_lines(text: str, max_chars: int) -> list[str]:
    """As many lines as needed, each at most ``max_chars`` where a word allows, split at a space or after a hyphen."""
    words = [w for w in text.replace("-", "- ").split(" ") if w]
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + (0 if lines[-1].endswith("-") else 1) + len(w) <= max_chars:
            lines[-1] += w if lines[-1].endswith("-") else " " + w
        else:
            lines.append(w)
    return lines or [text]


def _wrap_label(text: str, max_chars: int = 15) -> list[str]:
    """One or two lines, split at a space or after a hyphen, as balanced as possible."""
    if len(text) <= max_chars:
        return [text]
    best = None
    for i, ch in enumerate(text):
        if ch == " ":
            a, b = text[:i], text[i + 1:]
        elif ch == "-":
            a, b = text[: i + 1], text[i + 1:]
        else:
            continue
        score = max(len(a), len(b))
        if a and b and (best is None or score < best[0]):
            best = (score, [a, b])
    return best[1] if best else [text]


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
    layout: _Layout


_STATIC_CACHE: "weakref.WeakKeyDictionary[Board, dict[tuple, _Static]]" = weakref.WeakKeyDictionary()


def _static(board: Board, lang: str, g: Geometry = PHONE) -> _Static:
    per_board = _STATIC_CACHE.get(board)
    if per_board is None:
        per_board = _STATIC_CACHE[board] = {}
    static = per_board.get((lang, g))
    if static is None:
        static = per_board[(lang, g)] = _build_static(board, lang, g)
    return static


def _star_path(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append(f"{_fmt(cx + rr * math.cos(a))},{_fmt(cy + rr * math.sin(a))}")
    return "M" + " L".join(pts) + " Z"


def _home_owner(board: Board) -> dict[str, str]:
    owners = {}
    for cid in board.turn_order:
        owners.setdefault(board.countries[cid].home, cid)
    for sid, s in board.spaces.items():
        if s.home and sid not in owners:
            owners[sid] = s.home
    return owners


def _build_static(board: Board, lang: str, g: Geometry) -> _Static:
    lay = _layout(board, g)
    homes = _home_owner(board)
    c = lay.centre
    spaces = tuple(_space_static(board, sid, lang, c[sid], homes.get(sid), g)
                   for sid in sorted(board.spaces, key=lambda s: (c[s][1], c[s][0])))
    return _Static(head=_head(board, lang, lay), spaces=spaces, legend=_legend(board, lang, lay.width, lay.height, g),
                   layout=lay)


def _head(board: Board, lang: str, lay: _Layout) -> str:
    """The opening ``<svg …{focus}>`` tag (data-focus is added per call), background, seam and adjacency lines."""
    t = TEXT[lang]
    W, H = lay.width, lay.height
    total_h = H + lay.g.legend_h
    open_tag = (
        f'<svg xmlns="{SVG_NS}" class="board-svg" viewBox="0 0 {_fmt(W)} {_fmt(total_h)}" '
        f'preserveAspectRatio="xMidYMid meet" role="group" aria-label="{escape(t["map"])}" '
        f'font-family="system-ui, -apple-system, Roboto, sans-serif" data-label-empty="{escape(t["empty"])}" '
        f'data-width="{_fmt(W)}" data-height="{_fmt(total_h)}"'
    )
    parts = [
        f'<defs><pattern id="qmg-hatch" width="5" height="5" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="2" height="5" fill="{UNSUPPLIED}" fill-opacity="0.55"/>'
        f'</pattern></defs>',
        f'<rect class="board-bg" x="0" y="0" width="{_fmt(W)}" height="{_fmt(total_h)}" fill="{BACKGROUND}"/>',
        # the halves across the seam are cut by the map's edges
        f'<clipPath id="qmg-map-edge"><rect x="0" y="0" width="{_fmt(W)}" height="{_fmt(H)}"/></clipPath>',
        # the seam: both vertical edges of the map are the same line of the cylinder
        f'<g class="seam" stroke="#9aa7b1" stroke-width="2" stroke-dasharray="10 8">'
        f'<line x1="6" y1="0" x2="6" y2="{_fmt(H)}"/><line x1="{_fmt(W - 6)}" y1="0" x2="{_fmt(W - 6)}" '
        f'y2="{_fmt(H)}"/></g>',
    ]
    return open_tag + "{focus}>" + "".join(parts + _edge_groups(board, lang, lay) + [_halves_group(board, lang, lay)])


def _edge_groups(board: Board, lang: str, lay: _Layout) -> list[str]:
    """Adjacency lines; a link across the seam is two stubs, each labelled with where it leads."""
    lines, wraps = [], []
    c = lay.centre
    lons = {sid: float(s.at[0]) for sid, s in board.spaces.items()}
    for a, b in sorted(tuple(sorted(e)) for e in board.edges):
        (xa, ya), (xb, yb) = c[a], c[b]
        kinds = {board.spaces[a].kind, board.spaces[b].kind}
        colour = "#8a6d3b" if kinds == {LAND} else ("#2f6496" if LAND not in kinds else "#6b7780")
        if _crosses(lons[a], lons[b], lay.seam):
            wraps.append(_wrapped_edge(lay, a, b, colour))
        else:
            lines.append(f'<line x1="{_fmt(xa)}" y1="{_fmt(ya)}" x2="{_fmt(xb)}" y2="{_fmt(yb)}" stroke="{colour}"/>')
    parts = ['<g class="edges" stroke-width="2.5" stroke-opacity="0.45" stroke-linecap="round">'
             + "".join(lines) + "</g>"]
    if wraps:
        parts.append('<g class="edges wrapped" stroke-width="2.5" stroke-opacity="0.45" stroke-dasharray="7 5">'
                     + "".join(wraps) + "</g>")
    return parts


def _wrapped_edge(lay: _Layout, a: str, b: str, colour: str) -> str:
    """A link across the seam: from each of its spaces to the other's half at the nearer edge."""
    halves = {(sid, x < lay.width / 2): (x, y) for sid, x, y in lay.halves}
    out = []
    for one, other in ((a, b), (b, a)):
        x1, y1 = lay.centre[one]
        near_left = x1 < lay.width / 2
        y2 = halves.get((other, near_left), (None, y1))[1]
        x2 = lay.g.box_w / 4 if near_left else lay.width - lay.g.box_w / 4  # the middle of the half that shows
        out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" stroke="{colour}"/>')
    return "".join(out)


def _halves_group(board: Board, lang: str, lay: _Layout) -> str:
    """The other half of each space across the seam, at the opposite edge: its shape cut by the edge, its name
    in the half that shows; tapped, it is its space (static/js/board.js)."""
    if not lay.halves:
        return ""
    g = lay.g
    out = []
    for sid, x, y in lay.halves:
        s = board.spaces[sid]
        name = _name(s, lang)
        left, top = x - g.box_w / 2, y - g.box_h / 2
        tx = x + (g.box_w / 4 if x < lay.width / 2 else -g.box_w / 4)
        lines = _wrap_lines(name, max(6, int(g.line_chars * 0.6)))
        size = g.font * 0.85
        ty = y - (len(lines) - 1) * (size + 1) / 2 + size / 3
        text = (f'<text class="name" x="{_fmt(tx)}" y="{_fmt(ty)}" text-anchor="middle" font-size="{_fmt(size)}" '
                f'font-weight="600" fill="{"#3a2c10" if s.is_land else "#0d2f52"}">'
                + "".join(f'<tspan x="{_fmt(tx)}" dy="{0 if i == 0 else _fmt(size + 1)}">{escape(line)}</tspan>'
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
    name = _name(s, lang)
    inner = [_shape(s.is_land, left, top, g)]
    facts = [t["land"] if s.is_land else t["sea"]]
    if owner:
        cname = _name(board.countries[owner], lang) if owner in board.countries else owner
        inner.append(_home_mark(owner, left, top, t["home"].format(country=cname), g))
        facts.append(t["home"].format(country=cname))
    if s.supply:
        inner.append(f'<path class="star" d="{_star_path(left + 12, top + 2, 11)}" fill="#ffd400" '
                     f'stroke="#5a4500" stroke-width="1.5"><title>{escape(t["star"])}</title></path>')
        facts.append(t["star"])
    inner.append(_name_text(name, x, top, s.is_land, g))
    open_attrs = (f'data-space="{escape(sid)}" tabindex="0" role="button" aria-label="{escape(name)}" '
                  f'data-name="{escape(name)}" data-kind="{escape(s.kind)}"')
    return _SpaceStatic(sid, x, y, open_attrs, "".join(inner), name, tuple(facts))


def _shape(is_land: bool, left: float, top: float, g: Geometry = PHONE) -> str:
    w, h = _fmt(g.box_w), _fmt(g.box_h)
    if is_land:
        return (f'<rect class="shape land" x="{_fmt(left)}" y="{_fmt(top)}" width="{w}" height="{h}" '
                f'rx="12" fill="{LAND_FILL}" stroke="{LAND_STROKE}" stroke-width="1.5"/>')
    return (f'<rect class="shape sea" x="{_fmt(left)}" y="{_fmt(top)}" width="{w}" height="{h}" '
            f'rx="{_fmt(g.box_h / 2)}" fill="{SEA_FILL}" stroke="{SEA_STROKE}" stroke-width="1.5" '
            f'stroke-dasharray="6 3"/>')


def _home_mark(owner: str, left: float, top: float, title: str, g: Geometry = PHONE) -> str:
    """A frame in the owner's colour and a small house on the box's top edge."""
    col = PALETTE.get(owner, UNKNOWN_COUNTRY)
    return (f'<g class="home" data-home="{escape(owner)}"><rect x="{_fmt(left + 3)}" y="{_fmt(top + 3)}" '
            f'width="{_fmt(g.box_w - 6)}" height="{_fmt(g.box_h - 6)}" rx="10" fill="none" stroke="{col["fill"]}" '
            f'stroke-width="4"/>'
            f'<rect x="{_fmt(left + g.box_w - 30)}" y="{_fmt(top - 9)}" width="26" height="17" rx="4" '
            f'fill="{col["fill"]}" stroke="#1a1a1a" stroke-width="1"/>'
            f'<path d="M{_fmt(left + g.box_w - 23)},{_fmt(top + 4)} v-6 l6,-5 l6,5 v6 z" fill="{col["ink"]}"/>'
            f'<title>{escape(title)}</title></g>')


def _name_lines(name: str, g: Geometry) -> tuple[list[str], float]:
    """The name's lines and size: one line, two (split at a space or a hyphen) or three, whichever lets it be drawn
    largest (at most ``g.font``) inside the box above its row of pieces; on a tie, fewer lines. A word too long
    for the box at full size (e.g. «Великобритания» on the table screen) is drawn smaller."""
    room_w = g.box_w - 8
    room_h = g.box_h - 2 * g.token_r - 16  # above the pieces' row
    best = None
    for lines in ([name], _wrap_label(name, g.line_chars), _wrap_label(name, 0),
                  _wrap_lines(name, max(6, (len(name) + 2) // 3))):
        if len(lines) > 3:
            continue
        longest = max(len(line) for line in lines)
        size = min(g.font, room_w / (longest * g.name_em), room_h / (len(lines) * 1.1))
        size = round(size, 1)
        if best is None or size > best[1] + 0.05:
            best = (lines, size)
    return best


def _name_text(name: str, x: float, top: float, is_land: bool, g: Geometry = PHONE) -> str:
    """The space's name on one or two lines near the top of its box."""
    lines_, size = _name_lines(name, g)
    ty = top + size * (22 / 12 if len(lines_) == 1 else 17 / 12 if len(lines_) == 2 else 14 / 12)
    ink = "#3a2c10" if is_land else "#0d2f52"
    stretch = ' font-stretch="condensed"' if g.condensed else ""
    return (f'<text class="name" x="{_fmt(x)}" y="{_fmt(ty)}" text-anchor="middle" font-size="{_fmt(size)}" '
            f'font-weight="600"{stretch} fill="{ink}">'
            + "".join(f'<tspan x="{_fmt(x)}" dy="{0 if i == 0 else _fmt(size + 1)}">{escape(line)}</tspan>'
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
        label = _name(board.countries[cid], lang)
        w = 30 + len(label) * 8.2
        room(w)
        items.append(_token(cid, ARMY, x + 10, y, lang, True, None) + f'<text x="{_fmt(x + 25)}" y="{_fmt(y + 4)}">'
                     f'{escape(label)}</text>')
        x += w
    for kind in (ARMY, NAVY):
        label = t[kind]
        w = 42 + len(label) * 8.2
        room(w)
        shape = (f'<circle cx="{_fmt(x + 13)}" cy="{_fmt(y)}" r="{TOKEN_R}" fill="#ffffff" stroke="#1a1a1a"/>'
                 if kind == ARMY else
                 f'<path d="{_navy_path(x + 13, y)}" fill="#ffffff" stroke="#1a1a1a"/>')
        items.append(shape + f'<text x="{_fmt(x + 31)}" y="{_fmt(y + 4)}">{escape(label)}</text>')
        x += w
    label = t["legend_unsupplied"]
    w = 34 + len(label) * 8.2
    room(w)
    items.append(f'<circle cx="{_fmt(x + 10)}" cy="{_fmt(y)}" r="{TOKEN_R}" fill="url(#qmg-hatch)" stroke="{UNSUPPLIED}" '
                 f'stroke-width="2.5" stroke-dasharray="4 2.5"/>'
                 f'<text x="{_fmt(x + 10)}" y="{_fmt(y + 4)}" text-anchor="middle" font-weight="700" '
                 f'fill="{UNSUPPLIED}">!</text><text x="{_fmt(x + 27)}" y="{_fmt(y + 4)}">{escape(label)}</text>')
    x += w
    label = t["legend_star"]
    w = 30 + len(label) * 8.2
    room(w)
    items.append(f'<path d="{_star_path(x + 10, y, 10)}" fill="#ffd400" stroke="#5a4500" stroke-width="1.5"/>'
                 f'<text x="{_fmt(x + 25)}" y="{_fmt(y + 4)}">{escape(label)}</text>')
    x += w
    label = t["legend_home"]
    w = 36 + len(label) * 8.2
    room(w)
    items.append(f'<rect x="{_fmt(x)}" y="{_fmt(y - 8)}" width="26" height="17" rx="4" fill="#ffffff" stroke="#1a1a1a"/>'
                 f'<path d="M{_fmt(x + 7)},{_fmt(y + 5)} v-6 l6,-5 l6,5 v6 z" fill="#1a1a1a"/>'
                 f'<text x="{_fmt(x + 32)}" y="{_fmt(y + 4)}">{escape(label)}</text>')
    x += w
    label = t["legend_strait"]
    w = 20 + len(label) * 8.2 + 2 * 110
    room(w)
    items.append(f'<text x="{_fmt(x)}" y="{_fmt(y + 4)}">{escape(label)}</text>')
    x += 10 + len(label) * 8.2
    for team in (AXIS, ALLIES):
        items.append(f'<line x1="{_fmt(x)}" y1="{_fmt(y)}" x2="{_fmt(x + 26)}" y2="{_fmt(y)}" stroke="{TEAM_COLOURS[team]}" '
                     f'stroke-width="6" stroke-linecap="round"/>'
                     f'<text x="{_fmt(x + 32)}" y="{_fmt(y + 4)}">{escape(t["team"][team])}</text>')
        x += 110
    scale = "" if k == 1 else f" scale({_fmt(k)})"
    return (f'<g class="legend" font-size="13" fill="#1d2327" aria-hidden="true" transform="translate(0 {_fmt(H)}){scale}">'
            f'<line x1="0" y1="0" x2="{_fmt(band)}" y2="0" stroke="#c9d2d8"/>' + "".join(items) + "</g>")


# ==========================================================================================
# Pieces
# ==========================================================================================


def _navy_path(cx: float, cy: float) -> str:
    # a hull: wide deck, narrow keel, a small bridge on top
    return (f"M{_fmt(cx - 13)},{_fmt(cy - 4)} H{_fmt(cx - 4)} V{_fmt(cy - 9)} H{_fmt(cx + 4)} V{_fmt(cy - 4)} "
            f"H{_fmt(cx + 13)} L{_fmt(cx + 8)},{_fmt(cy + 8)} H{_fmt(cx - 8)} Z")


def _piece_text(board: Board, country: str, kind: str, supplied: bool | None, lang: str) -> str:
    t = TEXT[lang]
    cname = _name(board.countries[country], lang) if country in board.countries else country
    text = f"{cname} — {t.get(kind, kind)}"
    if supplied is not None:
        text += ": " + (t["supplied"] if supplied else t["unsupplied"])
    return text


def _token(country: str, kind: str, cx: float, cy: float, lang: str, supplied: bool | None, title: str | None,
           r: float = TOKEN_R) -> str:
    """One piece: an army a disc, a navy a hull, an air force a triangle, with its country's letter; ``r``: its size
    (the phone's 10.5 units: the other sizes scale with it)."""
    if r != TOKEN_R:
        k = r / TOKEN_R
        inner = _token(country, kind, 0, 0, lang, supplied, title)
        return f'<g transform="translate({_fmt(cx)} {_fmt(cy)}) scale({_fmt(k)})">{inner}</g>'
    col = PALETTE.get(country, UNKNOWN_COUNTRY)
    letter = LETTERS[lang].get(country) or (country[:1].upper() or "?")
    bad = supplied is False
    stroke = (f'stroke="{UNSUPPLIED}" stroke-width="2.8" stroke-dasharray="4 2.5"' if bad
              else 'stroke="#1a1a1a" stroke-width="1.3"')
    if kind == NAVY:
        geometry = f'path d="{_navy_path(cx, cy)}"'
        ty = cy + 5
    elif kind == ARMY:
        geometry = f'circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{TOKEN_R}"'
        ty = cy + 4
    else:  # air force: a small triangle
        geometry = (f'path d="M{_fmt(cx)},{_fmt(cy - 10)} L{_fmt(cx + 10)},{_fmt(cy + 8)} '
                    f'L{_fmt(cx - 10)},{_fmt(cy + 8)} Z"')
        ty = cy + 6
    size = 11 if kind != "air" else 9
    out = [f'<{geometry} class="body" fill="{col["fill"]}" {stroke}/>']
    if bad:  # red hatching over the token
        out.append(f'<{geometry} class="hatch" fill="url(#qmg-hatch)"/>')
    out.append(f'<text x="{_fmt(cx)}" y="{_fmt(ty)}" text-anchor="middle" font-size="{size}" font-weight="700" '
               f'fill="{col["ink"]}">{escape(letter)}</text>')
    if bad:
        out.append(f'<circle cx="{_fmt(cx + 10)}" cy="{_fmt(cy - 10)}" r="6.5" fill="{UNSUPPLIED}" stroke="#ffffff" '
                   f'stroke-width="1.2"/><text x="{_fmt(cx + 10)}" y="{_fmt(cy - 6)}" text-anchor="middle" '
                   f'font-size="10" font-weight="800" fill="#ffffff">!</text>')
    if title is None:
        return "".join(out)
    cls = "piece " + ("unsupplied" if bad else ("supplied" if supplied else "unknown"))
    return (f'<g class="{cls}" data-country="{escape(country)}" data-kind="{escape(kind)}" '
            f'data-supplied="{"" if supplied is None else ("true" if supplied else "false")}">'
            f'<title>{escape(title)}</title>' + "".join(out) + "</g>")


# ==========================================================================================
# Public API
# ==========================================================================================


def _straits(board: Board, position: Position, supply: SupplyReport | None) -> dict[str, str]:
    if supply is not None:
        return dict(supply.straits)
    return strait_status(board, position)


def piece_supplied(supply: SupplyReport | None, piece) -> bool | None:
    """Is the piece in supply (None: no report, or the piece is not in it)?"""
    if supply is None:
        return None
    ps = supply.pieces.get(piece)
    return None if ps is None else bool(ps.supplied)


def _strait_facts(board: Board, straits: dict[str, str], lang: str) -> dict[str, list[dict]]:
    t = TEXT[lang]
    per_space: dict[str, list[dict]] = {}
    for sid, st in board.straits.items():
        team = straits.get(sid, ALLIES)
        a, b = (_name(board.spaces[s], lang) for s in st.seas)
        text = t["strait"].format(strait=_name(st, lang), a=a, b=b, team=t["team_for"][team])
        for space, role in ((st.land, "land"), (st.seas[0], "sea"), (st.seas[1], "sea")):
            per_space.setdefault(space, []).append(
                {"id": sid, "name": _name(st, lang), "team": team, "team_label": t["team"][team],
                 "role": role, "text": text, "seas": [a, b], "colour": TEAM_COLOURS[team]})
    return per_space


def render_board_svg(board: Board, position: Position, supply: SupplyReport | None = None, *, lang: str = "ru",
                     selected: str | None = None, air=(), geometry: Geometry = PHONE) -> str:
    """The whole map as one ``<svg>`` string; every inserted name is HTML-escaped. ``geometry``: ``PHONE`` (the
    game page) or ``SCREEN`` (the table screen)."""
    lang = _lang(lang)
    if supply is None:
        supply = compute_supply(board, position)
    st = _static(board, lang, geometry)
    straits = _straits(board, position, supply)
    strait_facts = _strait_facts(board, straits, lang)
    fx, fy = _focus(board, st.layout, selected)
    strait_lines, strait_labels = _strait_marks(board, st.layout, straits, strait_facts, lang)
    out = [st.head.replace("{focus}", f' data-focus="{_fmt(fx)} {_fmt(fy)}"', 1),
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
    out.append(f'<g class="strait-labels" font-size="{_fmt(geometry.label_font)}" font-weight="700" paint-order="stroke" '
               'stroke="#ffffff" stroke-width="3.5" pointer-events="none">' + "".join(strait_labels) + "</g>")
    out.append(st.legend)
    out.append("</svg>")
    return "".join(out)


# One space's ``<g>`` per (static part, space, its pieces with their supply, air forces, straits'
# teams, selected): a new game version re-draws only the spaces that changed. Shared by every game
# of the process on the same board; an entry holds its ``_Static`` so that ``id(st)`` cannot be
# reused by another board or language while the entry lives. Bounded: cleared when full.
_GROUPS = Memo(4096)  # key -> (_Static, the group's markup)


def _focus(board: Board, lay: _Layout, selected: str | None) -> tuple[float, float]:
    """Where a phone's first view is centred: the selected space, else the first country's home."""
    if selected in lay.centre:
        return lay.centre[selected]
    first_home = board.countries[board.turn_order[0]].home if board.turn_order else None
    return lay.centre.get(first_home, (lay.width / 2, lay.height / 2))


def _strait_marks(board: Board, lay: _Layout, straits: dict[str, str], strait_facts: dict[str, list[dict]],
                  lang: str) -> tuple[list[str], list[str]]:
    """Each strait as a thick line between its two seas in the colour of the team it is open for,
    tied to its land space by a thin line; and its label (drawn last, above the spaces)."""
    t = TEXT[lang]
    c = lay.centre
    strait_lines, strait_labels, placed = [], [], []
    spots_key = (id(lay), lang, tuple(sorted(straits.items())))
    spots = _SPOTS.get(spots_key)
    if spots is None or spots[0] is not lay:
        spots = _SPOTS.keep(spots_key, (lay, {}))
    for sid, s in board.straits.items():
        team = straits.get(sid, ALLIES)
        col = TEAM_COLOURS[team]
        (xa, ya), (xb, yb) = c[s.seas[0]], c[s.seas[1]]
        label = f"{_name(s, lang)}: {t['team'][team]}"
        title = escape(strait_facts[s.land][0]["text"] if s.land in strait_facts else label)
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        lx, ly = c[s.land]
        strait_lines.append(
            f'<g class="strait" data-strait="{escape(sid)}" data-team="{team}"><title>{title}</title>'
            f'<line x1="{_fmt(xa)}" y1="{_fmt(ya)}" x2="{_fmt(xb)}" y2="{_fmt(yb)}" stroke="{col}" stroke-width="7" '
            f'stroke-opacity="0.8" stroke-linecap="round"/>'
            f'<line x1="{_fmt(mx)}" y1="{_fmt(my)}" x2="{_fmt(lx)}" y2="{_fmt(ly)}" stroke="{col}" stroke-width="2" '
            f'stroke-dasharray="3 4" stroke-opacity="0.9"/></g>')
        lines = (_name(s, lang), t["team"][team])  # two short lines fit between the boxes where one long did not
        if sid not in spots[1]:  # the same straits open for the same teams: the same spots (placed in order)
            spots[1][sid] = _label_spot(lines, mx, my, c, placed, lay.g)
        else:
            placed.append(label_rect(lines, *spots[1][sid], lay.g))
        lx_, ly_ = spots[1][sid]
        strait_labels.append(
            f'<text class="strait-label" data-strait="{escape(sid)}" data-team="{team}" x="{_fmt(lx_)}" y="{_fmt(ly_)}" '
            f'text-anchor="middle" fill="{col}">{escape(lines[0])}'
            f'<tspan x="{_fmt(lx_)}" dy="{_fmt(LABEL_H * lay.g.label_font / 12)}">{escape(lines[1])}</tspan></text>')
    return strait_lines, strait_labels


_SPOTS = Memo(256)  # (layout, language, straits' teams) -> (layout, {strait: label spot})
LABEL_CHAR_W, LABEL_H = 7.2, 15  # a 12-unit bold label: width per character, height (SVG units)
LABEL_OFFSETS = sorted(((dx, dy) for dx in range(-150, 151, 15) for dy in range(-97, 98, 9)),
                       key=lambda o: abs(o[0]) + abs(o[1] + 7))  # nearest to the line's middle first


def label_rect(lines, x: float, y: float, g: Geometry = PHONE) -> tuple[float, float, float, float]:
    """The box a label of these lines covers, its first baseline at (x, y), centred on x."""
    k = g.label_font / 12
    w = max(len(line) for line in lines) * LABEL_CHAR_W * k
    return x - w / 2, y - (LABEL_H - 3) * k, x + w / 2, y + 3 * k + LABEL_H * k * (len(lines) - 1)


def _label_spot(lines, mx: float, my: float, centres: dict, placed: list, g: Geometry = PHONE) -> tuple[float, float]:
    """Where a strait's label goes: the spot near the middle of its line that covers the least of the
    spaces' boxes (their names, home marks and pieces) and of the labels placed before it."""
    near = 400  # only boxes that a candidate spot can reach
    boxes = [(x - g.box_w / 2, y - g.box_h / 2, x + g.box_w / 2, y + g.box_h / 2) for x, y in centres.values()
             if abs(x - mx) < near and abs(y - my) < near] + placed

    def covered(x, y):
        l, t, r, b = label_rect(lines, x, y, g)
        return sum(max(0.0, min(r, R) - max(l, L)) * max(0.0, min(b, B) - max(t, T)) for L, T, R, B in boxes)

    best, least = LABEL_OFFSETS[0], None
    for dx, dy in LABEL_OFFSETS:  # nearest first: the first spot that covers nothing wins
        c = covered(mx + dx, my + dy)
        if least is None or c < least:
            best, least = (dx, dy), c
            if c == 0:
                break
    x, y = mx + best[0], my + best[1]
    placed.append(label_rect(lines, x, y))
    return x, y


def _space_group(board: Board, sp: _SpaceStatic, pieces: list, airs: list[str], supply: SupplyReport,
                 strait_facts: list[dict], lang: str, selected: str | None, g: Geometry = PHONE) -> str:
    """One ``<g class="space">``: selection ring, the static drawing, strait anchors and tokens."""
    facts = list(sp.facts) + [f["text"] for f in strait_facts]
    tokens, info_pieces = _space_tokens(board, sp, pieces, airs, supply, lang, g)
    anchors = [_strait_anchor(sp, f, g) for f in strait_facts if f["role"] == "land"]
    is_sel = sp.id == selected
    ring = (f'<rect class="sel-ring" x="{_fmt(sp.x - g.box_w / 2 - 5)}" y="{_fmt(sp.y - g.box_h / 2 - 5)}" '
            f'width="{_fmt(g.box_w + 10)}" height="{_fmt(g.box_h + 10)}" rx="16" fill="none" stroke="#111111" '
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
        text = _piece_text(board, country, kind, sup, lang)
        tokens.append(_token(country, kind, x0 + i * step, ty, lang, sup, text, g.token_r))
        info_pieces.append({"country": country, "kind": kind, "supplied": sup,
                            "colour": PALETTE.get(country, UNKNOWN_COUNTRY)["fill"], "text": text})
    return tokens, info_pieces


def _strait_anchor(sp: _SpaceStatic, fact: dict, g: Geometry = PHONE) -> str:
    """The marker on a land space that controls a strait, in the colour of the team it is open for."""
    ax, ay = sp.x + g.box_w / 2 - 4, sp.y + g.box_h / 2 - 4
    return (f'<g class="strait-anchor" data-strait="{escape(fact["id"])}" data-team="{fact["team"]}">'
            f'<title>{escape(fact["text"])}</title>'
            f'<circle cx="{_fmt(ax)}" cy="{_fmt(ay)}" r="11" fill="{fact["colour"]}" stroke="#ffffff" stroke-width="1.5"/>'
            f'<path d="M{_fmt(ax)},{_fmt(ay - 7)} v12 M{_fmt(ax - 4)},{_fmt(ay - 3)} h8 '
            f'M{_fmt(ax - 6)},{_fmt(ay + 1)} q6,8 12,0" fill="none" stroke="#ffffff" stroke-width="1.8" '
            f'stroke-linecap="round"/></g>')


def space_rows(board: Board, position: Position, supply: SupplyReport | None = None, lang: str = "ru") -> list[dict]:
    """One dict per space that has pieces, a star, is a home space or takes part in a strait.

    Keys: ``id, name, kind, star, home`` (country id or None), ``home_name``, ``home_colour``,
    ``pieces`` (``country, country_name, kind, kind_label, supplied, colour, letter, text``) and
    ``straits`` (``id, name, team, team_label, role`` land|sea, ``seas``, ``colour``, ``text``).
    Sorted by the space's name.
    """
    lang = _lang(lang)
    if supply is None:
        supply = compute_supply(board, position)
    t = TEXT[lang]
    straits = _straits(board, position, supply)
    strait_facts = _strait_facts(board, straits, lang)
    homes = _home_owner(board)
    order = {c: i for i, c in enumerate(board.turn_order)}
    by_space: dict[str, list] = {}
    for p in position.pieces:
        by_space.setdefault(p.space, []).append(p)
    rows = []
    for sid, s in board.spaces.items():
        pieces = sorted(by_space.get(sid, ()), key=lambda p: (order.get(p.country, 99), p.kind))
        home = homes.get(sid)
        if not (pieces or s.supply or home or sid in strait_facts):
            continue
        rows.append({
            "id": sid, "name": _name(s, lang), "kind": s.kind, "kind_label": t["land"] if s.is_land else t["sea"],
            "star": s.supply, "home": home,
            "home_name": (_name(board.countries[home], lang) if home in board.countries else home) if home else None,
            "home_colour": PALETTE.get(home, UNKNOWN_COUNTRY)["fill"] if home else None,
            "pieces": [{
                "country": p.country,
                "country_name": _name(board.countries[p.country], lang) if p.country in board.countries else p.country,
                "kind": p.kind, "kind_label": t.get(p.kind, p.kind), "supplied": piece_supplied(supply, p),
                "colour": PALETTE.get(p.country, UNKNOWN_COUNTRY)["fill"],
                "letter": LETTERS[lang].get(p.country, p.country[:1].upper()),
                "text": _piece_text(board, p.country, p.kind, piece_supplied(supply, p), lang),
            } for p in pieces],
            "straits": [dict(f) for f in strait_facts.get(sid, ())],
        })
    rows.sort(key=lambda r: (r["name"].casefold().replace("ё", "е"), r["id"]))
    return rows

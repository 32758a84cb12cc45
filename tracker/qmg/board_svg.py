"""The QMG board map's geometry and facts, for the SVG map (and the list) on phones and tablets beside the real
board. No markup here: the ``<svg>`` is drawn by the template tag ``{% qmg_board %}``
(``tracker/templatetags/qmg_board.py``) from what this module computes.

Pure functions of a ``Board``, a ``Position`` and its ``SupplyReport``: no database, no Django.

* ``BoardMap``: what one drawing of the map is of (board, position, supply, air forces, language, selected space,
  geometry), the tag's one argument; a view hands it to its template, which draws it only when it is shown.
* ``space_rows(board, position, supply, lang=...)`` returns the same facts as plain dicts for the list fallback
  under the map.

Layout: each space is placed at its ``at: [lon, lat]`` (equirectangular), the seam of the
cylinder is put where the printed board has it: in the Pacific (a world map centred on Europe; of the
gaps between spaces near the antimeridian, the one the fewest adjacencies cross), then overlapping
boxes are pushed apart. Where the board wraps, each space with a link across the seam shows its other
half at the opposite edge (as a sea cut by the printed board's edge is printed on both sides): a tap
on that half is a tap on the space, and the link is drawn to it.

Two geometries: ``PHONE`` (the game page, panned and zoomed on a phone) and ``SCREEN`` (the table
screen, the whole board at once on a tablet or a TV: a denser layout, larger names and pieces).
The DOM contract of the drawing (used by ``static/js/board.js``) is described in the tag's module.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from gameplay.qmg.board import ALLIES, AXIS, Board
from gameplay.qmg.rules import SupplyReport, compute_supply, strait_status
from gameplay.qmg.state import Position

from tracker.core.memo import Memo

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


@dataclass(frozen=True)
class BoardMap:
    """One drawing of the map: the tag ``{% qmg_board map %}`` draws it. ``position``: the armies and navies
    (air forces are ``air``, ``(country, space)`` pairs, drawn as triangles); ``supply``: its report (computed from
    the position when None); ``selected``: the space a phone's first view is centred on."""

    board: Board
    position: Position
    supply: SupplyReport | None = None
    air: tuple = ()
    lang: str = "ru"
    selected: str | None = None
    geometry: Geometry = PHONE


def lang_code(lang: str) -> str:
    return "en" if (lang or "").lower().startswith("en") else "ru"


def local_name(obj, lang: str) -> str:
    return obj.en if lang == "en" else obj.ru


def fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


# ==========================================================================================
# Layout (cached per set of coordinates)
# ==========================================================================================


@dataclass(frozen=True)
class Layout:
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


def crosses_seam(lon_a: float, lon_b: float, seam: float) -> bool:
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


_LAYOUT_CACHE = Memo(32)  # key -> Layout


def layout_of(board: Board, g: Geometry = PHONE) -> Layout:
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
    layout = Layout(width=width, height=height, centre=centre, seam=seam, g=g, halves=halves)
    return _LAYOUT_CACHE.keep(key, layout)


def _halves(board: Board, lons, seam, centre, width, height, g: Geometry) -> tuple:
    """Where the board wraps, the other half of each space with a link across the seam, at the opposite edge
    and at its own height (pushed apart where two would overlap): (space id, x, y) of the half's box centre,
    a box cut by the edge (its inner half shows)."""
    left, right = [], []  # halves drawn at the left edge (of spaces on the right) and at the right edge
    for a, b in _links(board):
        if not crosses_seam(lons[a], lons[b], seam):
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


def wrap_lines(text: str, max_chars: int) -> list[str]:
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



def star_path(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = -math.pi / 2 + k * math.pi / 5
        pts.append(f"{fmt(cx + rr * math.cos(a))},{fmt(cy + rr * math.sin(a))}")
    return "M" + " L".join(pts) + " Z"


def home_owners(board: Board) -> dict[str, str]:
    owners = {}
    for cid in board.turn_order:
        owners.setdefault(board.countries[cid].home, cid)
    for sid, s in board.spaces.items():
        if s.home and sid not in owners:
            owners[sid] = s.home
    return owners


def name_lines(name: str, g: Geometry) -> tuple[list[str], float]:
    """The name's lines and size: one line, two (split at a space or a hyphen) or three, whichever lets it be drawn
    largest (at most ``g.font``) inside the box above its row of pieces; on a tie, fewer lines. A word too long
    for the box at full size (e.g. «Великобритания» on the table screen) is drawn smaller."""
    room_w = g.box_w - 8
    room_h = g.box_h - 2 * g.token_r - 16  # above the pieces' row
    best = None
    for lines in ([name], _wrap_label(name, g.line_chars), _wrap_label(name, 0),
                  wrap_lines(name, max(6, (len(name) + 2) // 3))):
        if len(lines) > 3:
            continue
        longest = max(len(line) for line in lines)
        size = min(g.font, room_w / (longest * g.name_em), room_h / (len(lines) * 1.1))
        size = round(size, 1)
        if best is None or size > best[1] + 0.05:
            best = (lines, size)
    return best


# ==========================================================================================
# Pieces
# ==========================================================================================


def navy_path(cx: float, cy: float) -> str:
    # a hull: wide deck, narrow keel, a small bridge on top
    return (f"M{fmt(cx - 13)},{fmt(cy - 4)} H{fmt(cx - 4)} V{fmt(cy - 9)} H{fmt(cx + 4)} V{fmt(cy - 4)} "
            f"H{fmt(cx + 13)} L{fmt(cx + 8)},{fmt(cy + 8)} H{fmt(cx - 8)} Z")


def piece_text(board: Board, country: str, kind: str, supplied: bool | None, lang: str) -> str:
    t = TEXT[lang]
    cname = local_name(board.countries[country], lang) if country in board.countries else country
    text = f"{cname} — {t.get(kind, kind)}"
    if supplied is not None:
        text += ": " + (t["supplied"] if supplied else t["unsupplied"])
    return text


# ==========================================================================================
# Public API
# ==========================================================================================


def straits_of(board: Board, position: Position, supply: SupplyReport | None) -> dict[str, str]:
    if supply is not None:
        return dict(supply.straits)
    return strait_status(board, position)


def piece_supplied(supply: SupplyReport | None, piece) -> bool | None:
    """Is the piece in supply (None: no report, or the piece is not in it)?"""
    if supply is None:
        return None
    ps = supply.pieces.get(piece)
    return None if ps is None else bool(ps.supplied)


def strait_facts_of(board: Board, straits: dict[str, str], lang: str) -> dict[str, list[dict]]:
    t = TEXT[lang]
    per_space: dict[str, list[dict]] = {}
    for sid, st in board.straits.items():
        team = straits.get(sid, ALLIES)
        a, b = (local_name(board.spaces[s], lang) for s in st.seas)
        text = t["strait"].format(strait=local_name(st, lang), a=a, b=b, team=t["team_for"][team])
        for space, role in ((st.land, "land"), (st.seas[0], "sea"), (st.seas[1], "sea")):
            per_space.setdefault(space, []).append(
                {"id": sid, "name": local_name(st, lang), "team": team, "team_label": t["team"][team],
                 "role": role, "text": text, "seas": [a, b], "colour": TEAM_COLOURS[team]})
    return per_space


def focus_of(board: Board, lay: Layout, selected: str | None) -> tuple[float, float]:
    """Where a phone's first view is centred: the selected space, else the first country's home."""
    if selected in lay.centre:
        return lay.centre[selected]
    first_home = board.countries[board.turn_order[0]].home if board.turn_order else None
    return lay.centre.get(first_home, (lay.width / 2, lay.height / 2))


def strait_label_spots(board: Board, lay: Layout, straits: dict[str, str], lang: str) -> dict[str, tuple]:
    """Each strait's label: ``{strait id: (its two lines, x, y)}``, its first baseline at (x, y); a label goes near
    the middle of the strait's line, where it covers the least of the spaces and of the labels placed before it.
    The same straits open for the same teams: the same spots (kept per layout and language)."""
    t = TEXT[lang]
    c = lay.centre
    placed, out = [], {}
    spots_key = (id(lay), lang, tuple(sorted(straits.items())))
    spots = _SPOTS.get(spots_key)
    if spots is None or spots[0] is not lay:
        spots = _SPOTS.keep(spots_key, (lay, {}))
    for sid, s in board.straits.items():
        team = straits.get(sid, ALLIES)
        (xa, ya), (xb, yb) = c[s.seas[0]], c[s.seas[1]]
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        lines = (local_name(s, lang), t["team"][team])  # two short lines fit between the boxes where one long did not
        if sid not in spots[1]:  # placed in order
            spots[1][sid] = _label_spot(lines, mx, my, c, placed, lay.g)
        else:
            placed.append(label_rect(lines, *spots[1][sid], lay.g))
        out[sid] = (lines, *spots[1][sid])
    return out


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


def space_rows(board: Board, position: Position, supply: SupplyReport | None = None, lang: str = "ru") -> list[dict]:
    """One dict per space that has pieces, a star, is a home space or takes part in a strait.

    Keys: ``id, name, kind, star, home`` (country id or None), ``home_name``, ``home_colour``,
    ``pieces`` (``country, country_name, kind, kind_label, supplied, colour, letter, text``) and
    ``straits`` (``id, name, team, team_label, role`` land|sea, ``seas``, ``colour``, ``text``).
    Sorted by the space's name.
    """
    lang = lang_code(lang)
    if supply is None:
        supply = compute_supply(board, position)
    t = TEXT[lang]
    straits = straits_of(board, position, supply)
    strait_facts = strait_facts_of(board, straits, lang)
    homes = home_owners(board)
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
            "id": sid, "name": local_name(s, lang), "kind": s.kind, "kind_label": t["land"] if s.is_land else t["sea"],
            "star": s.supply, "home": home,
            "home_name": (local_name(board.countries[home], lang) if home in board.countries else home) if home else None,
            "home_colour": PALETTE.get(home, UNKNOWN_COUNTRY)["fill"] if home else None,
            "pieces": [{
                "country": p.country,
                "country_name": local_name(board.countries[p.country], lang) if p.country in board.countries else p.country,
                "kind": p.kind, "kind_label": t.get(p.kind, p.kind), "supplied": piece_supplied(supply, p),
                "colour": PALETTE.get(p.country, UNKNOWN_COUNTRY)["fill"],
                "letter": LETTERS[lang].get(p.country, p.country[:1].upper()),
                "text": piece_text(board, p.country, p.kind, piece_supplied(supply, p), lang),
            } for p in pieces],
            "straits": [dict(f) for f in strait_facts.get(sid, ())],
        })
    rows.sort(key=lambda r: (r["name"].casefold().replace("ё", "е"), r["id"]))
    return rows

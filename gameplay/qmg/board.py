"""The QMG board as data: spaces, adjacency, straits, stars, homes.

The standard 1st-edition board lives in ``data/board_1e.yaml``. A group whose printed
board differs keeps a *patch file* (``extends: standard`` plus add/remove lists) or a
full board file of the same schema; neither needs code. See the header of the YAML file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import yaml

DATA_DIR = Path(__file__).parent / "data"
STANDARD_BOARD = DATA_DIR / "board_1e.yaml"

AXIS = "axis"
ALLIES = "allies"
TEAMS = (AXIS, ALLIES)
LAND = "land"
SEA = "sea"


class BoardError(ValueError):
    """A board or patch file that cannot be used; the message says what is wrong."""


class BoardLimitError(BoardError):
    """A patch or board larger than any printed board needs: ``what`` (a key of ``LIMITS``) is over ``limit``."""

    def __init__(self, what: str, limit: int):
        super().__init__(f"a board may have at most {limit} {what.replace('_', ' ')}")
        self.what, self.limit = what, limit


# What a patch (or a board built from one) may hold at most. A board is read on every page view of
# its games, so its size is bounded; the maxima are small multiples of the standard 1st-edition board
# (33 land and 14 sea spaces, 112 adjacencies, 5 straits, 13 stars), far above any printed correction.
LIMITS = MappingProxyType({
    "straits": 20,           # 4 × the standard 5: a group adds a canal or two, never dozens
    "adjacencies": 224,      # 2 × the standard 112 (47 spaces could make 1,081)
    "added_adjacencies": 112,    # entries of add_edges: as many as the standard board has
    "removed_adjacencies": 112,  # entries of remove_edges: the standard board has no more to remove
    "added_stars": 33,       # entries of add_stars / remove_stars: one per land space
    "removed_stars": 33,
    "added_straits": 20,     # entries of add_straits / remove_straits: the total's bound
    "removed_straits": 20,
    "characters_in_a_name": 100,  # a board's or a strait's name, a strait's id
})


@dataclass(frozen=True)
class Space:
    id: str
    kind: str  # LAND or SEA
    ru: str
    en: str
    at: tuple[float, float] = (0.0, 0.0)
    supply: bool = False  # a printed star: a supply source that scores VP
    home: str | None = None  # the country whose home space this is
    src: str = "recon"

    @property
    def is_land(self) -> bool:
        return self.kind == LAND


@dataclass(frozen=True)
class Strait:
    id: str
    ru: str
    en: str
    land: str
    seas: tuple[str, str]


@dataclass(frozen=True)
class Country:
    id: str
    ru: str
    en: str
    ru_with: str  # Russian instrumental case: «вместе с Италией»
    team: str
    home: str
    armies: int
    navies: int
    deck: int
    ru_of: str = ""  # Russian genitive case: «флот Великобритании» (default: «страны …»)
    ru_plural: bool = False  # the Russian name takes a plural verb («США используют»)

    def of_ru(self) -> str:
        """The country's name after a noun: «флот Великобритании», «армия страны Нарния» for a board without it."""
        return self.ru_of or f"страны {self.ru}"

    def verb_ru(self, one: str, many: str) -> str:
        """The Russian verb agreeing with the country's name: «СССР использует», «США используют»."""
        return many if self.ru_plural else one


@dataclass(frozen=True, eq=False)
class Board:
    """An immutable board. Adjacency that depends on straits is asked per team."""

    name: Mapping[str, str]
    spaces: Mapping[str, Space]
    countries: Mapping[str, Country]
    turn_order: tuple[str, ...]
    rounds: int
    edges: frozenset[frozenset[str]]
    straits: Mapping[str, Strait]
    seed_facts: Mapping = field(default_factory=dict)
    air_forces_default: Mapping[str, int] = field(default_factory=dict)
    # derived
    _static: Mapping[str, frozenset[str]] = field(default_factory=dict, repr=False)

    # --- queries ---------------------------------------------------------------------------
    def space(self, space_id: str) -> Space:
        return self.spaces[space_id]

    def team_of(self, country: str) -> str:
        return self.countries[country].team

    def team_countries(self, team: str) -> tuple[str, ...]:
        return tuple(c for c in self.turn_order if self.countries[c].team == team)

    def static_neighbours(self, space_id: str) -> frozenset[str]:
        """Neighbours that do not depend on any strait."""
        return self._static[space_id]

    def adjacent_static(self, a: str, b: str) -> bool:
        return b in self._static[a]

    def stars(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces.values() if s.supply)

    def homes(self) -> dict[str, str]:
        return {c.id: c.home for c in self.countries.values()}


def _pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def _read_yaml(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except FileNotFoundError as exc:
        raise BoardError(f"board file not found: {path}") from exc
    except yaml.YAMLError as exc:
        raise BoardError(f"board file is not valid YAML: {path}: {exc}".splitlines()[0]) from exc
    if not isinstance(data, dict):
        raise BoardError(f"board file must be a mapping: {path}")
    return data


def load_board(path: str | Path | None = None) -> Board:
    """Load the standard board, another full board file, or a patch file (``extends:``)."""
    if path is None:
        return _standard_board()
    path = Path(path)
    raw = _read_yaml(path)
    if "extends" in raw:
        return build_board(resolve_patch(raw, base_dir=path.parent))
    return build_board(raw)


_STANDARD_CACHE: list[Board] = []


def _standard_board() -> Board:
    if not _STANDARD_CACHE:
        _STANDARD_CACHE.append(build_board(_read_yaml(STANDARD_BOARD)))
    return _STANDARD_CACHE[0]


def standard_board_data() -> dict:
    return _read_yaml(STANDARD_BOARD)


def resolve_patch(patch: dict, base_dir: Path | None = None) -> dict:
    """Apply a patch mapping to its base board data and return full board data."""
    base_ref = patch.get("extends")
    if base_ref in ("standard", "qmg-1e", None):
        base = standard_board_data()
    else:
        base_path = Path(base_ref)
        if not base_path.is_absolute() and base_dir is not None:
            base_path = base_dir / base_path
        base = _read_yaml(base_path)
        if "extends" in base:
            base = resolve_patch(base, base_dir=base_path.parent)
    return apply_patch(base, patch)


_PATCH_KEYS = {"extends", "name", "add_edges", "remove_edges", "add_stars", "remove_stars",
               "add_straits", "remove_straits"}


def apply_patch(base: dict, patch: dict) -> dict:
    try:
        return _apply_patch(base, patch)
    except BoardLimitError:
        raise
    except (TypeError, AttributeError, ValueError) as exc:  # a value of the wrong type somewhere
        raise BoardError(f"malformed board patch: {exc}".splitlines()[0]) from exc


def _list(patch: dict, key: str, limit: str) -> list:
    value = patch.get(key) or []
    if not isinstance(value, list):
        raise BoardError(f"'{key}' in a board patch must be a list")
    _bounded(len(value), limit)
    return value


def _bounded(n: int, limit: str) -> None:
    if n > LIMITS[limit]:
        raise BoardLimitError(limit, LIMITS[limit])


def _short_text(value) -> None:
    """A name of a board or a strait: a text, or {ru: …, en: …} of texts, none of them too long."""
    for text in (value.values() if isinstance(value, dict) else [value]):
        if isinstance(text, str):
            _bounded(len(text), "characters_in_a_name")


def _apply_patch(base: dict, patch: dict) -> dict:
    unknown = set(patch) - _PATCH_KEYS
    if unknown:
        raise BoardError(f"unknown key(s) in board patch: {', '.join(sorted(unknown))}")
    data = {k: v for k, v in base.items()}
    land = {k: dict(v) for k, v in base.get("land", {}).items()}
    sea = {k: dict(v) for k, v in base.get("sea", {}).items()}
    known = set(land) | set(sea)

    def check_space(sid):
        if sid not in known:
            raise BoardError(f"board patch names an unknown space: {sid}")

    edges = [list(e) for e in base.get("edges", [])]
    pairs = {_pair(e[0], e[1]) for e in edges}
    for e in _list(patch, "remove_edges", "removed_adjacencies"):
        a, b = _edge_ends(e)
        check_space(a), check_space(b)
        if _pair(a, b) not in pairs:
            raise BoardError(f"board patch removes an adjacency that does not exist: {a}–{b}")
        edges = [x for x in edges if _pair(x[0], x[1]) != _pair(a, b)]
        pairs.discard(_pair(a, b))
    for e in _list(patch, "add_edges", "added_adjacencies"):
        a, b = _edge_ends(e)
        check_space(a), check_space(b)
        if _pair(a, b) not in pairs:
            edges.append([a, b, "patch"])
            pairs.add(_pair(a, b))
    for sid in _list(patch, "add_stars", "added_stars"):
        check_space(sid)
        if sid not in land:
            raise BoardError(f"only a land space can be a supply source: {sid}")
        land[sid]["supply"] = True
    for sid in _list(patch, "remove_stars", "removed_stars"):
        check_space(sid)
        if sid in land:
            land[sid]["supply"] = False
    straits = {k: dict(v) for k, v in (base.get("straits") or {}).items()}
    for sid in _list(patch, "remove_straits", "removed_straits"):
        if sid not in straits:
            raise BoardError(f"board patch removes an unknown strait: {sid}")
        del straits[sid]
    added = patch.get("add_straits") or {}
    if not isinstance(added, dict) or not all(isinstance(v, dict) for v in added.values()):
        raise BoardError("'add_straits' in a board patch maps strait ids to {ru, en, land, seas}")
    _bounded(len(added), "added_straits")
    for sid, spec in added.items():
        _short_text(str(sid))
        _short_text(spec.get("ru")), _short_text(spec.get("en"))
        straits[str(sid)] = dict(spec)
    _bounded(len(straits), "straits")
    _bounded(len(edges), "adjacencies")
    data.update(land=land, sea=sea, edges=edges, straits=straits)
    if "name" in patch:
        _short_text(patch["name"])
        data["name"] = patch["name"]
    return data


def _edge_ends(e) -> tuple[str, str]:
    if not isinstance(e, (list, tuple)) or len(e) < 2:
        raise BoardError(f"an adjacency must be a pair of space ids, got: {e!r}")
    return str(e[0]), str(e[1])


def build_board(data: dict) -> Board:
    """Validate board data (the YAML schema) and build an immutable Board."""
    try:
        return _build_board(data)
    except (TypeError, AttributeError, ValueError) as exc:  # a value of the wrong type somewhere
        if isinstance(exc, BoardError):
            raise
        raise BoardError(f"malformed board data: {exc}".splitlines()[0]) from exc


def _build_board(data: dict) -> Board:
    try:
        teams = data["teams"]
        team_of = {c: t for t in TEAMS for c in teams[t]}
        countries_raw = data["countries"]
        spaces: dict[str, Space] = {}
        for kind in (LAND, SEA):
            for sid, spec in (data.get(kind) or {}).items():
                if sid in spaces:
                    raise BoardError(f"space id used twice: {sid}")
                spaces[sid] = Space(
                    id=sid, kind=kind, ru=spec["ru"], en=spec["en"],
                    at=tuple(spec.get("at") or (0.0, 0.0)),
                    supply=bool(spec.get("supply", False)) and kind == LAND,
                    home=spec.get("home"), src=spec.get("src", "recon"),
                )
        countries = {}
        for cid, spec in countries_raw.items():
            if cid not in team_of:
                raise BoardError(f"country {cid} is in no team")
            if spec["home"] not in spaces or spaces[spec["home"]].kind != LAND:
                raise BoardError(f"home of {cid} is not a land space: {spec['home']}")
            countries[cid] = Country(
                id=cid, ru=spec["ru"], en=spec.get("en", cid), ru_with=spec.get("ru_with", spec["ru"]),
                team=team_of[cid], home=spec["home"], armies=int(spec["armies"]),
                navies=int(spec["navies"]), deck=int(spec.get("deck", 0)), ru_of=str(spec.get("ru_of") or ""),
                ru_plural=bool(spec.get("ru_plural", False)),
            )
        turn_order = tuple(data["turn_order"])
        if set(turn_order) != set(countries):
            raise BoardError("turn_order must list every country once")
        _bounded(len(data.get("edges") or []), "adjacencies")
        _bounded(len(data.get("straits") or {}), "straits")
        edges = set()
        for e in data.get("edges") or []:
            a, b = _edge_ends(e)
            for s in (a, b):
                if s not in spaces:
                    raise BoardError(f"adjacency names an unknown space: {s}")
            if a == b:
                raise BoardError(f"a space cannot be adjacent to itself: {a}")
            edges.add(_pair(a, b))
        straits = {}
        for sid, spec in (data.get("straits") or {}).items():
            seas = tuple(spec["seas"])
            if spec["land"] not in spaces or spaces[spec["land"]].kind != LAND:
                raise BoardError(f"strait {sid}: its controlling space must be land")
            if len(seas) != 2 or any(s not in spaces or spaces[s].kind != SEA for s in seas):
                raise BoardError(f"strait {sid}: must join exactly two sea spaces")
            straits[sid] = Strait(id=sid, ru=spec.get("ru", sid), en=spec.get("en", sid),
                                  land=spec["land"], seas=seas)
    except KeyError as exc:
        raise BoardError(f"board data misses the field {exc}") from exc
    static = {sid: set() for sid in spaces}
    for e in edges:
        a, b = tuple(e)
        static[a].add(b)
        static[b].add(a)
    name = data.get("name") or {"ru": "Стандартное поле (1-е издание)", "en": "Standard board (1st edition)"}
    if isinstance(name, str):
        name = {"ru": name, "en": name}
    if not isinstance(name, dict) or not all(isinstance(v, str) for v in name.values()):
        raise BoardError("a board's name is a text or {ru: …, en: …}")
    return Board(
        name=MappingProxyType(dict(name)),
        spaces=MappingProxyType(spaces),
        countries=MappingProxyType(countries),
        turn_order=turn_order,
        rounds=int(data.get("rounds", 20)),
        edges=frozenset(edges),
        straits=MappingProxyType(straits),
        seed_facts=MappingProxyType(dict(data.get("seed_facts") or {})),
        air_forces_default=MappingProxyType(dict(data.get("air_forces_default") or {})),
        _static=MappingProxyType({k: frozenset(v) for k, v in static.items()}),
    )


def seed_fact_problems(board: Board, facts: Mapping | None = None) -> list[str]:
    """Which facts stated in the rulebook a board violates (empty list: none).

    ``facts`` defaults to the standard board's ``seed_facts``, so a group's variant is
    checked against the rulebook, not against its own claims.
    """
    if facts is None:
        facts = _standard_board().seed_facts
    problems = []
    for a, b in facts.get("not_adjacent", []):
        if board.adjacent_static(a, b):
            problems.append(f"{a} and {b} must not be adjacent (they touch only at a point)")
    for a, b in facts.get("adjacent", []):
        if not board.adjacent_static(a, b):
            problems.append(f"{a} and {b} must be adjacent")
    ex = facts.get("strait_example")
    if ex:
        seas = set(ex["seas"])
        if not any(s.land == ex["land"] and set(s.seas) == seas for s in board.straits.values()):
            problems.append(f"a strait on {ex['land']} must join {' and '.join(sorted(seas))}")
    for sid in (facts.get("scoring_example") or {}).get("supply_spaces", []):
        if not board.spaces[sid].supply:
            problems.append(f"{sid} must be a supply source (star)")
    for country, home in (facts.get("homes") or {}).items():
        if board.countries[country].home != home:
            problems.append(f"the home space of {country} must be {home}")
    for sid in (facts.get("card_supply_sources") or {}):
        if board.spaces[sid].supply:
            problems.append(f"{sid} is a source only through a card, it must not carry a printed star")
    return problems

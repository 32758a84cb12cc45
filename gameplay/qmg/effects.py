"""Card effects in play: statuses on the table change supply, building and scoring.

Pure Python (no Django). Everything here is driven by the structured ``effects`` of the card
catalogue (``data/cards_1e.yaml``), never by card ids.

What is applied automatically
-----------------------------
``Position.statuses`` lists the status cards face up on the table; a status belongs to the country
printed on it. While a status is in play:

- ``supply_source_for {space, country, scores_vp, vp}``: ``space`` is a supply source for that one
  country (like ``Position.extra_sources``); its army there scores ``vp`` alone, allies neither
  share nor earn it.
- ``not_supply_source_for {space, team}``: the star is no source (and no VP space) for ``team``
  (like ``Position.blocked_sources``).
- ``always_supplied {country, piece, duration: permanent}``: those pieces are supplied whatever
  their chain (the navy condition included). Reading adopted: such a piece is not a supply
  source, so no chain *starts* from it, but it may carry a chain that comes from a real source.
- ``build_as_home {space, country, piece}``: that country may build that kind of piece in
  ``space`` as if it were its home space.
- ``vp_per_army_in``, ``vp_if_army_in``, ``vp_if_navy_in``, ``vp_per_navy_on_board`` (with their
  ``requires``): extra lines in the owner's victory step, unless the step is skipped.

Per-turn effects: the ``context`` parameter
-------------------------------------------
Effects with a ``duration`` other than ``permanent`` (e.g. the response «Трук»: every Japanese
navy is supplied for the rest of the turn) only apply while the turn that used them lasts. The
engine cannot know that from the table, so the caller says it: every rules function that computes
supply (``compute_supply``, ``victory_step``, ``victory_phase_all``, ``check_action``, …) takes
``context=``, either an ``EffectContext(used_this_turn=frozenset({...}))`` or simply an iterable
of card ids used this turn. Only the per-turn (``duration`` ≠ ``permanent``) effects of those
cards are applied; a card's lasting effects come from ``Position.statuses`` alone.

Cards played from the hand whose points are gained at once (``vp_immediate``: «Разграбление»,
«Субмарины», …) are scored by ``rules.immediate_vp``; they count even while the home space is occupied.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Iterable, Mapping

from .adjacency import Adjacency, strait_status
from .board import Board
from .cards import Card, Catalogue, default_catalogue
from .reasons import KIND_NAMES, ScoreLine, reason
from .state import ARMY, NAVY, Piece, Position, PositionError

SUPPLY_KINDS = frozenset({"supply_source_for", "not_supply_source_for", "always_supplied", "build_as_home"})
SCORING_KINDS = frozenset({"vp_per_army_in", "vp_if_army_in", "vp_if_navy_in", "vp_per_navy_on_board"})
AUTOMATED_KINDS = SUPPLY_KINDS | SCORING_KINDS
PERMANENT = "permanent"
INSTEAD_OF_PLAY = "instead_of_play_step"
_PERSISTENT_DURATIONS = (None, PERMANENT)


# ------------------------------------------------------------------------------------------
# Catalogue access
# ------------------------------------------------------------------------------------------


def card(card_id: str, catalogue: Catalogue | None = None) -> Card:
    """The catalogue card ``card_id``; PositionError if there is none."""
    found = (catalogue or default_catalogue()).get(card_id)
    if found is None:
        raise PositionError(f"unknown card id: {card_id}")
    return found


def card_names(card_id: str, catalogue: Catalogue | None = None) -> tuple[str, str]:
    c = card(card_id, catalogue)
    return c.name_ru, c.name_en


# ------------------------------------------------------------------------------------------
# Context and the effective modifier set
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectContext:
    """Turn state the table does not show: cards whose per-turn effects are in force this turn."""

    used_this_turn: frozenset[str] = frozenset()

    @classmethod
    def of(cls, used: Iterable[str] = ()) -> "EffectContext":
        return cls(frozenset(used))


def as_context(context) -> EffectContext | None:
    """Normalise ``context`` (None, an EffectContext or an iterable of card ids); empty → None."""
    if context is None:
        return None
    if not isinstance(context, EffectContext):
        if isinstance(context, str):
            context = (context,)
        context = EffectContext.of(context)
    return context if context.used_this_turn else None


@dataclass(frozen=True, eq=False)
class Modifiers:
    """What the cards in play (and the explicit extra/blocked sources) change, computed once."""

    # space -> country -> (VP its army scores there, card id or None for an explicit extra source)
    card_sources: Mapping[str, Mapping[str, tuple[int, str | None]]]
    # space -> teams for which that star is not a source
    blocked: Mapping[str, frozenset[str]]
    # (country, kind) -> card id that keeps those pieces supplied
    always_supplied: Mapping[tuple[str, str], str]
    # (country, kind, space) -> card id that lets the country build there as at home
    build_as_home: Mapping[tuple[str, str, str], str]
    # owner country -> status cards that score in its victory step
    scoring: Mapping[str, tuple[Card, ...]]

    @property
    def empty(self) -> bool:
        return not (self.card_sources or self.blocked or self.always_supplied or self.build_as_home or self.scoring)

    def source_kind(self, board: Board, space: str, country: str, team: str) -> str | None:
        """'star' or 'card' if ``space`` is a supply source for ``country`` (of ``team``)."""
        if board.spaces[space].supply:
            teams = self.blocked.get(space)  # team ids, or country ids for a card naming countries
            if not teams or (team not in teams and country not in teams):
                return "star"
        sources = self.card_sources.get(space)
        if sources and country in sources:
            return "card"
        return None


_EMPTY = MappingProxyType({})
NO_MODIFIERS = Modifiers(_EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY)


def modifiers(position: Position, context=None, catalogue: Catalogue | None = None) -> Modifiers:
    """The effective modifier set of ``position`` (statuses + explicit extra/blocked sources)."""
    ctx = as_context(context)
    if not (position.statuses or position.extra_sources or position.blocked_sources or ctx):
        return NO_MODIFIERS
    if catalogue is not None:
        return _build_modifiers(position.statuses, position.extra_sources, position.blocked_sources, ctx, catalogue)
    return _cached_modifiers(position.statuses, position.extra_sources, position.blocked_sources, ctx)


@lru_cache(maxsize=512)
def _cached_modifiers(statuses, extra_sources, blocked_sources, ctx) -> Modifiers:
    return _build_modifiers(statuses, extra_sources, blocked_sources, ctx, default_catalogue())


def countries_of(value, owner: str) -> tuple[str, ...]:
    """'self' | a country id | a list of ids (read as "any of them") → country ids."""
    if value is None or value == "self":
        return (owner,)
    if isinstance(value, str):
        return (value,)
    return tuple(owner if v == "self" else v for v in value)


def _kinds(value) -> tuple[str, ...]:
    if value in (None, "any"):
        return (ARMY, NAVY)
    return (value,)


def _build_modifiers(statuses, extra_sources, blocked_sources, ctx, cat: Catalogue) -> Modifiers:
    card_sources: dict[str, dict[str, tuple[int, str | None]]] = {}
    blocked: dict[str, set[str]] = {}
    always: dict[tuple[str, str], str] = {}
    as_home: dict[tuple[str, str, str], str] = {}
    scoring: dict[str, list[Card]] = {}
    for space, country in extra_sources:
        card_sources.setdefault(space, {})[country] = (2, None)
    for space, team in blocked_sources:
        blocked.setdefault(space, set()).add(team)

    def lasting(c: Card, scores: bool) -> None:
        owner = c.country
        for e in c.effects:
            if e.kind in SUPPLY_KINDS and e.get("requires") is not None:
                continue  # a conditional supply effect is not in the vocabulary's automated set
            if e.kind == "supply_source_for":
                vp = int(e.get("vp", 2)) if e.get("scores_vp", True) else 0
                for country in countries_of(e.get("country"), owner):
                    card_sources.setdefault(e["space"], {})[country] = (vp, c.id)
            elif e.kind == "not_supply_source_for":
                blocked.setdefault(e["space"], set()).update(e.get("countries") or (e["team"],))
            elif e.kind == "always_supplied" and e.get("duration") in _PERSISTENT_DURATIONS:
                for country in countries_of(e.get("country"), owner):
                    for kind in _kinds(e.get("piece")):
                        always.setdefault((country, kind), c.id)
            elif e.kind == "build_as_home":
                for country in countries_of(e.get("country"), owner):
                    for kind in _kinds(e.get("piece", ARMY)):
                        as_home.setdefault((country, kind, e["space"]), c.id)
        if scores and any(e.kind in SCORING_KINDS for e in c.effects):
            scoring.setdefault(owner, []).append(c)

    seen = set()
    for card_id in statuses:
        c = cat.get(card_id)
        if c is None:
            raise PositionError(f"unknown status card: {card_id}")
        if card_id in seen:
            continue  # a second copy in play changes nothing the first does not
        seen.add(card_id)
        lasting(c, scores=True)
    for card_id in sorted(ctx.used_this_turn) if ctx else ():
        c = cat.get(card_id)
        if c is None:
            raise PositionError(f"unknown card id in context: {card_id}")
        for e in c.effects_of("always_supplied"):
            if e.get("duration") not in _PERSISTENT_DURATIONS:
                for country in countries_of(e.get("country"), c.country):
                    for kind in _kinds(e.get("piece")):
                        always.setdefault((country, kind), c.id)

    return Modifiers(
        card_sources=MappingProxyType({s: MappingProxyType(m) for s, m in card_sources.items()}),
        blocked=MappingProxyType({s: frozenset(t) for s, t in blocked.items()}),
        always_supplied=MappingProxyType(always),
        build_as_home=MappingProxyType(as_home),
        scoring=MappingProxyType({k: tuple(v) for k, v in scoring.items()}),
    )


# ------------------------------------------------------------------------------------------
# Conditions (`requires`)
# ------------------------------------------------------------------------------------------


def _is_space_list(spaces) -> bool:
    return all(not s.startswith("@") for s in spaces)


def condition_holds(board: Board, pieces: Iterable[Piece], cond: Mapping, owner: str,
                    supply=None, straits: Mapping[str, str] | None = None) -> bool:
    """Does a ``requires`` condition hold among ``pieces``? (``supply`` needed for ``supplied: true``.)"""
    countries = countries_of(cond.get("country"), owner)
    kinds = _kinds(cond.get("piece"))
    spaces = tuple(cond.get("spaces") or ())
    if not spaces or not _is_space_list(spaces):
        return False  # a placeholder (@battled_space) cannot be judged from the table alone
    want_supplied = bool(cond.get("supplied"))
    candidates = [p for p in pieces if p.country in countries and p.kind in kinds
                  and (not want_supplied or (supply is not None and p in supply.pieces and supply.supplied(p)))]
    if not candidates:
        return False
    kind = cond.get("kind")
    if kind == "piece_in":
        return any(p.space in spaces for p in candidates)
    if kind in ("piece_adjacent_to", "piece_within"):
        distance = 1 if kind == "piece_adjacent_to" else int(cond.get("distance", 1))
        if straits is None:
            straits = strait_status(board, Position(tuple(pieces)))
        for team in {board.team_of(p.country) for p in candidates}:
            adj = Adjacency(board, straits, team)
            near = _within(adj, spaces, distance)
            if kind == "piece_adjacent_to":
                near = near - set(spaces)
            if any(p.space in near for p in candidates if board.team_of(p.country) == team):
                return True
        return False
    return False


def _within(adj, spaces, distance: int) -> set[str]:
    reached = set(spaces)
    frontier = set(spaces)
    for _ in range(distance):
        frontier = {n for s in frontier for n in adj.neighbours(s)} - reached
        reached |= frontier
    return reached


def describe_condition(board: Board, cond: Mapping, owner: str) -> tuple[str, str]:
    """A ``requires`` condition in words (ru, en): what a card that scores nothing was missing."""
    countries = countries_of(cond.get("country"), owner)
    kinds = _kinds(cond.get("piece"))
    supplied = bool(cond.get("supplied"))
    adjective = {ARMY: "снабжаемая ", NAVY: "снабжаемый "} if supplied else {ARMY: "", NAVY: ""}
    piece_ru = " или ".join(adjective[k] + KIND_NAMES[k][0] for k in kinds)
    piece_en = ("supplied " if supplied else "") + " or ".join(KIND_NAMES[k][3] for k in kinds)
    need_ru = "нужен" if kinds == (NAVY,) else "нужна"
    who_ru = " или ".join(board.countries[c].ru for c in countries if c in board.countries)
    who_en = " or ".join(board.countries[c].en for c in countries if c in board.countries)
    spaces = [s for s in cond.get("spaces") or () if s in board.spaces]
    where_ru = ", ".join(f"«{board.spaces[s].ru}»" for s in spaces)
    where_en = ", ".join(board.spaces[s].en for s in spaces)
    rel_ru, rel_en = {"piece_in": ("в", "in"), "piece_adjacent_to": ("рядом с", "next to"),
                      "piece_within": (f"не дальше {cond.get('distance', 1)} сект. от",
                                       f"within {cond.get('distance', 1)} spaces of")}.get(
        cond.get("kind"), ("при", "at"))
    return (f"{need_ru} {piece_ru} страны {who_ru} {rel_ru} {where_ru}",
            f"needs {'an' if piece_en[0] in 'aeiou' else 'a'} {piece_en} of {who_en} {rel_en} {where_en}")


# ------------------------------------------------------------------------------------------
# Victory step: lines of the statuses in play
# ------------------------------------------------------------------------------------------


def status_score_lines(board: Board, view: Position, country: str, mods: Modifiers, supply=None) -> list:
    """Victory-step lines of ``country``'s scoring statuses.

    ``view`` is the position after ``country``'s own supply step (its unsupplied pieces gone);
    the caller has already checked that the victory step is not skipped.
    """
    cards = mods.scoring.get(country)
    if not cards:
        return []
    pieces = view.pieces
    straits = None
    lines = []
    for c in cards:
        points = 0
        where: list[str] = []
        navies = 0
        for e in c.effects:
            if e.kind not in SCORING_KINDS:
                continue
            cond = e.get("requires")
            if cond is not None:
                if straits is None:
                    straits = strait_status(board, view)
                if not condition_holds(board, pieces, cond, country, supply, straits):
                    continue
            countries = countries_of(e.get("country"), country)
            amount = int(e.get("amount", 1))
            spaces = tuple(e.get("spaces") or ())
            if e.kind == "vp_per_army_in":
                held = [s for s in spaces if any(p.space == s and p.kind == ARMY and p.country in countries
                                                 for p in pieces)]
                points += amount * len(held)
                where += held
            elif e.kind in ("vp_if_army_in", "vp_if_navy_in"):
                kind = ARMY if e.kind == "vp_if_army_in" else NAVY
                held = [s for s in spaces if any(p.space == s and p.kind == kind and p.country in countries
                                                 for p in pieces)]
                if held:
                    points += amount
                    where += held
            elif e.kind == "vp_per_navy_on_board":
                n = sum(1 for p in pieces if p.kind == NAVY and p.country in countries)
                points += amount * n
                navies += n
        if points <= 0:
            continue
        detail_ru = [board.spaces[s].ru for s in dict.fromkeys(where) if s in board.spaces]
        detail_en = [board.spaces[s].en for s in dict.fromkeys(where) if s in board.spaces]
        if navies:
            detail_ru.append(f"флотов на поле: {navies}")
            detail_en.append(f"navies on the board: {navies}")
        lines.append(ScoreLine(points, reason("victory.status", card_ru=c.name_ru, card_en=c.name_en, points=points,
                                              detail_ru=", ".join(detail_ru), detail_en=", ".join(detail_en)),
                               card=c.id))
    return lines


# ------------------------------------------------------------------------------------------
# Which statuses are automated, and how the others are used (for the UI)
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatusUse:
    card: str
    country: str
    timing: str | None
    once_per_turn: bool
    instead_of_play: bool  # using it replaces the play step («вместо того чтобы играть карту…»)
    automatic: bool  # its effect is applied by the engine (supply/building/scoring)


def is_automated(c: Card) -> bool:
    """Every effect of the card is one the engine applies on its own (supply, building, scoring)."""
    return bool(c.effects) and all(
        e.kind in AUTOMATED_KINDS and not (e.kind in SUPPLY_KINDS and e.get("requires") is not None)
        for e in c.effects)


def status_uses(position: Position, country: str | None = None,
                catalogue: Catalogue | None = None) -> tuple[StatusUse, ...]:
    """How each status in play (of ``country``, or all) is used, in table order, once per card id."""
    cat = catalogue or default_catalogue()
    found = []
    for card_id in dict.fromkeys(position.statuses):
        c = card(card_id, cat)
        if country is not None and c.country != country:
            continue
        found.append(StatusUse(c.id, c.country, c.timing, c.once_per_turn, c.timing == INSTEAD_OF_PLAY,
                               is_automated(c)))
    return tuple(found)


def instead_of_play_statuses(position: Position, country: str | None = None,
                             catalogue: Catalogue | None = None) -> tuple[str, ...]:
    """Statuses in play whose use replaces playing a card from the hand."""
    return tuple(u.card for u in status_uses(position, country, catalogue) if u.instead_of_play)


def once_per_turn_statuses(position: Position, country: str | None = None,
                           catalogue: Catalogue | None = None) -> tuple[str, ...]:
    """Statuses in play that may be used at most once each turn."""
    return tuple(u.card for u in status_uses(position, country, catalogue) if u.once_per_turn)


def automated_statuses(catalogue: Catalogue | None = None) -> dict[str, str]:
    """Status card id → 'supply' or 'scoring', for every status the engine applies on its own."""
    cat = catalogue or default_catalogue()
    out = {}
    for c in cat.by_type("status"):
        if is_automated(c):
            out[c.id] = "scoring" if any(e.kind in SCORING_KINDS for e in c.effects) else "supply"
    return out

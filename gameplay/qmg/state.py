"""A QMG position: the pieces on the board and the card effects that change supply.

A ``Position`` is an immutable value: copy it with ``dataclasses.replace``, compare it
with ``==``, serialise it with ``to_dict``/``from_dict`` (JSON-compatible, round-trip identity).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from .board import Board
from .cards import Catalogue, default_catalogue
from .inputs import a_an, unknown

ARMY = "army"
NAVY = "navy"
AIR = "air"  # Air Marshal expansion
KINDS = (ARMY, NAVY, AIR)


class PositionError(ValueError):
    """Input that does not describe a possible table (unknown space, army at sea, …)."""


@dataclass(frozen=True, order=True)
class Piece:
    country: str
    kind: str
    space: str

    def to_dict(self) -> dict:
        return {"country": self.country, "kind": self.kind, "space": self.space}


@dataclass(frozen=True)
class Position:
    pieces: tuple[Piece, ...] = ()
    # space -> country: a space that a card makes a supply source for one country only
    extra_sources: tuple[tuple[str, str], ...] = ()
    # space -> team: a printed star that a card stops being a source for one team
    blocked_sources: tuple[tuple[str, str], ...] = ()
    # status card ids face up on the table (owner = the card's country); applied by effects.py
    statuses: tuple[str, ...] = field(default=())

    # --- building ----------------------------------------------------------------------------
    @classmethod
    def of(cls, pieces=(), extra_sources=None, blocked_sources=None, statuses=()) -> "Position":
        return cls(
            pieces=tuple(p if isinstance(p, Piece) else Piece(*p) for p in pieces),
            extra_sources=tuple(sorted((extra_sources or {}).items())),
            blocked_sources=tuple(sorted((blocked_sources or {}).items())),
            statuses=tuple(statuses),
        )

    def with_piece(self, piece: Piece) -> "Position":
        return replace(self, pieces=self.pieces + (piece,))

    def without_piece(self, piece: Piece) -> "Position":
        pieces = list(self.pieces)
        pieces.remove(piece)
        return replace(self, pieces=tuple(pieces))

    def without_pieces(self, gone) -> "Position":
        gone = set(gone)
        return replace(self, pieces=tuple(p for p in self.pieces if p not in gone))

    # --- queries -----------------------------------------------------------------------------
    def at(self, space: str) -> list[Piece]:
        return [p for p in self.pieces if p.space == space]

    def of_country(self, country: str, kind: str | None = None) -> list[Piece]:
        return [p for p in self.pieces if p.country == country and (kind is None or p.kind == kind)]

    def count(self, country: str, kind: str) -> int:
        return sum(1 for p in self.pieces if p.country == country and p.kind == kind)

    @property
    def extra_source_map(self) -> dict[str, str]:
        return dict(self.extra_sources)

    @property
    def blocked_source_map(self) -> dict[str, str]:
        return dict(self.blocked_sources)

    # --- serialisation -----------------------------------------------------------------------
    def to_dict(self) -> dict:
        data = {"pieces": [p.to_dict() for p in self.pieces]}
        if self.extra_sources:
            data["extra_sources"] = dict(self.extra_sources)
        if self.blocked_sources:
            data["blocked_sources"] = dict(self.blocked_sources)
        if self.statuses:
            data["statuses"] = list(self.statuses)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Position":
        """Parse without board checks (use ``validate_position`` for that)."""
        if not isinstance(data, dict):
            raise PositionError("a position must be a JSON object")
        raw_pieces = data.get("pieces", [])
        if not isinstance(raw_pieces, list):
            raise PositionError("'pieces' must be a list")
        pieces = []
        for i, p in enumerate(raw_pieces):
            if not isinstance(p, dict) or not all(isinstance(p.get(k), str) for k in ("country", "kind", "space")):
                raise PositionError(f"piece #{i + 1} needs string fields country, kind and space")
            pieces.append(Piece(p["country"], p["kind"], p["space"]))
        for key in ("extra_sources", "blocked_sources"):
            value = data.get(key, {})
            if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
                raise PositionError(f"'{key}' must map space ids to strings")
        statuses = data.get("statuses", [])
        if not isinstance(statuses, list) or not all(isinstance(s, str) for s in statuses):
            raise PositionError("'statuses' must be a list of card ids")
        return cls.of(pieces, data.get("extra_sources"), data.get("blocked_sources"), statuses)


def validate_position(board: Board, position: Position, air_limits: dict | None = None) -> None:
    """Raise PositionError with a one-line message if the position cannot be on a table.

    ``air_limits`` (Air Marshal): air forces per country; default the board's ``air_forces_default``.
    """
    for p in position.pieces:
        if p.country not in board.countries:
            raise PositionError(unknown("country", p.country, board.countries))
        if p.kind not in KINDS:
            raise PositionError(f"unknown piece kind {p.kind!r} — accepted: army, navy, air (air with Air Marshal)")
        if p.space not in board.spaces:
            raise PositionError(unknown("space", p.space, board.spaces))
        land = board.spaces[p.space].is_land
        if p.kind == ARMY and not land:
            raise PositionError(f"an army cannot stand at sea: {p.country} in {p.space}")
        if p.kind == NAVY and land:
            raise PositionError(f"a navy cannot stand on land: {p.country} in {p.space}")
    dupes = [k for k, n in Counter(position.pieces).items() if n > 1]
    if dupes:
        d = dupes[0]
        raise PositionError(f"two {d.kind} pieces of {d.country} in {d.space}: one of each kind per country per space")
    by_space: dict[str, set[str]] = {}
    for p in position.pieces:
        by_space.setdefault(p.space, set()).add(board.team_of(p.country))
    for space, teams in by_space.items():
        if len(teams) > 1:
            raise PositionError(f"pieces of opposing teams share {space}")
    air_limits = board.air_forces_default if air_limits is None else air_limits
    for cid, c in board.countries.items():
        for kind, limit in ((ARMY, c.armies), (NAVY, c.navies), (AIR, int(air_limits.get(cid, 0)))):
            n = position.count(cid, kind)
            if n > limit:
                raise PositionError(f"{cid} has {n} {kind} pieces on the board but owns only {limit}")
    for space, country in position.extra_sources:
        if space not in board.spaces or not board.spaces[space].is_land:
            raise PositionError(f"extra source must be a land space: {space}")
        if country not in board.countries:
            raise PositionError(unknown("country in extra_sources", country, board.countries))
    for space, team in position.blocked_sources:
        if space not in board.spaces:
            raise PositionError(unknown("space in blocked_sources", space, board.spaces))
        if team not in ("axis", "allies"):
            raise PositionError(f"blocked_sources takes a team (axis or allies), got: {team}")
    if position.statuses:
        validate_statuses(position)


def validate_statuses(position: Position, catalogue: Catalogue | None = None) -> None:
    """PositionError (one line) for a status id that is unknown, not a status, or in play too often."""
    cat = catalogue or default_catalogue()
    for card_id, n in Counter(position.statuses).items():
        c = cat.get(card_id)
        if c is None:
            raise PositionError(unknown("status card", card_id, cat.ids))
        if c.type != "status":
            raise PositionError(f"not a status card: {card_id} (it is {a_an(c.type)} card)")
        if n > c.copies:
            raise PositionError(f"status card {card_id} is in play {n} times but the deck holds {c.copies}")

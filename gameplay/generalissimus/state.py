"""Game state as plain dataclasses with JSON-compatible (de)serialisation."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .geometry import FACINGS, SIDES, is_sector
from .settings import CARD_TYPES, TERRAINS, Settings, SettingsError

KINDS = ("infantry", "cavalry", "artillery")
FORMATIONS = ("column", "line", "square", "disordered")
LOCATIONS = ("board", "reserve", "destroyed", "deserted")
FULL_BLOCKS = {"infantry": 3, "cavalry": 2, "artillery": 2}  # artillery: crew blocks
ATTACKS = ("musket", "artillery", "bayonet")
CARD_STATES = ("in_pile", "placed", "revealed", "executed", "void", "spent")
PHASES = ("orders", "initiative", "actions", "end_of_turn", "finished")
ZONES = ("west", "center", "east")
# Bounds of a state read from outside (a setup, an import), checked before anything is built from it:
# the box holds 60 blocks and a unit at least one of them; a pile at most 20 cards of each of the 7 types.
MAX_UNITS = 60
MAX_CARDS = 2 * 7 * 20
MAX_ID = 40  # a unit's or a card's id
MAX_LABEL = 60  # a unit's label


def check_units_size(units) -> None:
    """A unit list within the bounds (a list of at most ``MAX_UNITS``). Raises StateError (RU/EN)."""
    if not isinstance(units, list):
        raise StateError("units must be a list")
    if len(units) > MAX_UNITS:
        raise StateError(f"at most {MAX_UNITS} units in a battle (the box holds 60 blocks), got {len(units)}",
                         f"не больше {MAX_UNITS} отрядов в битве (в коробке 60 фишек), а не {len(units)}")


class StateError(ValueError):
    """A state dict cannot be turned into a valid state. ``ru``: the Russian text when there is one
    (the bounds), else ``None``."""

    def __init__(self, message: str, ru: str | None = None):
        super().__init__(message)
        self.ru = ru


def enemy_of(side: str) -> str:
    return "north" if side == "south" else "south"


@dataclass
class Unit:
    id: str
    owner: str
    kind: str
    sector: str | None = None
    facing: str = "N"
    formation: str = "column"
    blocks: int = 0            # infantry / cavalry
    crew: int = 0              # artillery
    gun: bool = False          # artillery: gun block still in play
    gun_sector: str | None = None  # artillery: where the gun stands
    location: str = "board"
    flag: str = "up"           # "up" | "routed"
    routed_since: int | None = None
    attacks_used: list[str] = field(default_factory=list)
    label: str = ""

    @property
    def routed(self) -> bool:
        return self.flag == "routed"

    @property
    def on_board(self) -> bool:
        return self.location == "board"

    @property
    def gun_with_crew(self) -> bool:
        return self.kind == "artillery" and self.gun and self.gun_sector == self.sector

    @property
    def strength(self) -> int:
        """Blocks left: infantry/cavalry blocks, or crew + gun for a battery."""
        return self.crew + int(self.gun) if self.kind == "artillery" else self.blocks

    def use_attack(self, attack: str) -> None:
        if attack not in self.attacks_used:
            self.attacks_used = sorted(self.attacks_used + [attack])

    def to_dict(self) -> dict:
        d = {"id": self.id, "owner": self.owner, "kind": self.kind, "location": self.location,
             "sector": self.sector, "facing": self.facing, "formation": self.formation,
             "flag": self.flag, "routed_since": self.routed_since,
             "attacks_used": list(self.attacks_used)}
        if self.kind == "artillery":
            d.update(crew=self.crew, gun=self.gun, gun_sector=self.gun_sector)
        else:
            d["blocks"] = self.blocks
        if self.label:
            d["label"] = self.label
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Unit":
        if not isinstance(d, dict):
            raise StateError("a unit must be an object")
        try:
            uid, owner, kind = d["id"], d["owner"], d["kind"]
        except KeyError as exc:
            raise StateError(f"unit is missing key {exc.args[0]!r}") from None
        if not isinstance(uid, str) or not uid or len(uid) > MAX_ID:
            raise StateError(f"unit id must be a non-empty string of at most {MAX_ID} characters")
        _in(owner, SIDES, f"unit {uid}: owner")
        _in(kind, KINDS, f"unit {uid}: kind")
        allowed = {"id", "owner", "kind", "location", "sector", "facing", "formation", "flag",
                   "routed_since", "attacks_used", "label"}
        allowed |= {"crew", "gun", "gun_sector"} if kind == "artillery" else {"blocks"}
        extra = sorted(set(d) - allowed)
        if extra:
            raise StateError(f"unit {uid}: unknown key(s) {', '.join(extra)}")
        location = d.get("location", "board")
        _in(location, LOCATIONS, f"unit {uid}: location")
        sector = d.get("sector")
        if location == "board" and not is_sector(sector):
            raise StateError(f"unit {uid}: sector must be a6-style name (a-f, 1-6), got {sector!r}")
        if location != "board" and sector is not None and not is_sector(sector):
            raise StateError(f"unit {uid}: bad sector {sector!r}")
        facing = d.get("facing", "N" if owner == "south" else "S")
        _in(facing, FACINGS, f"unit {uid}: facing")
        formation = d.get("formation", "column")
        _in(formation, FORMATIONS, f"unit {uid}: formation")
        flag = d.get("flag", "up")
        _in(flag, ("up", "routed"), f"unit {uid}: flag")
        attacks = d.get("attacks_used", [])
        if not isinstance(attacks, list) or not all(isinstance(a, str) for a in attacks) or not set(attacks) <= set(ATTACKS):
            raise StateError(f"unit {uid}: attacks_used must be a list of {list(ATTACKS)}")
        label = d.get("label", "")
        if not isinstance(label, str) or len(label) > MAX_LABEL:
            raise StateError(f"unit {uid}: label must be a string of at most {MAX_LABEL} characters")
        routed_since = d.get("routed_since")
        if routed_since is not None and not _is_int(routed_since):
            raise StateError(f"unit {uid}: routed_since must be an integer or null")
        u = cls(id=uid, owner=owner, kind=kind, sector=sector, facing=facing, formation=formation,
                location=location, flag=flag, routed_since=routed_since,
                attacks_used=sorted(set(attacks)), label=label)
        if kind == "artillery":
            u.crew = _count(d.get("crew", 2), 2, f"unit {uid}: crew")
            u.gun = d.get("gun", True)
            if not isinstance(u.gun, bool):
                raise StateError(f"unit {uid}: gun must be true or false")
            u.gun_sector = d.get("gun_sector", sector if u.gun else None)
            if u.gun and not is_sector(u.gun_sector) and (location == "board" or u.gun_sector is not None):
                raise StateError(f"unit {uid}: bad gun_sector {u.gun_sector!r}")
            if not u.gun:
                u.gun_sector = None
        else:
            u.blocks = _count(d.get("blocks", FULL_BLOCKS[kind]), FULL_BLOCKS[kind], f"unit {uid}: blocks")
        return u


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _count(v, top: int, what: str) -> int:
    if not _is_int(v) or not 0 <= v <= top:
        raise StateError(f"{what} must be an integer 0..{top}, got {v!r}")
    return v


def _in(value, allowed, what: str) -> None:
    if value not in allowed:
        raise StateError(f"{what} must be one of {list(allowed)}, got {value!r}")


@dataclass
class OrderCard:
    id: str
    owner: str
    type: str
    state: str = "in_pile"
    zone: str | None = None
    placed_turn: int | None = None

    def to_dict(self) -> dict:
        return {"id": self.id, "owner": self.owner, "type": self.type, "state": self.state,
                "zone": self.zone, "placed_turn": self.placed_turn}

    @classmethod
    def from_dict(cls, d: dict) -> "OrderCard":
        try:
            c = cls(**d)
        except TypeError as exc:
            raise StateError(f"bad order card: {exc}") from None
        if not isinstance(c.id, str) or len(c.id) > MAX_ID:
            raise StateError(f"card id must be a string of at most {MAX_ID} characters")
        _in(c.owner, SIDES, f"card {c.id}: owner")
        _in(c.type, CARD_TYPES, f"card {c.id}: type")
        _in(c.state, CARD_STATES, f"card {c.id}: state")
        if c.zone is not None:
            _in(c.zone, ZONES, f"card {c.id}: zone")
        return c


@dataclass
class GameState:
    """Everything on the table plus the turn state machine."""
    units: list[Unit] = field(default_factory=list)
    terrain: dict[str, str] = field(default_factory=dict)  # only non-field sectors
    cards: list[OrderCard] = field(default_factory=list)
    settings: Settings = field(default_factory=Settings)
    turn: int = 1
    phase: str = "actions"
    confirmed: list[str] = field(default_factory=list)
    initiative_rolls: dict[str, list[int]] = field(default_factory=lambda: {"south": [], "north": []})
    initiative_winner: str | None = None
    zone_sequence: list[str] = field(default_factory=list)
    zone_index: int = 0
    step: int = 0
    winner: str | None = None
    win_reason: str | None = None

    def __post_init__(self) -> None:
        self.terrain = {k: v for k, v in self.terrain.items() if v != "field"}

    # --- queries -------------------------------------------------------
    def copy(self) -> "GameState":
        return copy.deepcopy(self)

    def unit(self, uid: str) -> Unit | None:
        return next((u for u in self.units if u.id == uid), None)

    def unit_at(self, sector: str | None) -> Unit | None:
        return next((u for u in self.units if u.on_board and u.sector == sector), None)

    def terrain_at(self, sector: str) -> str:
        return self.terrain.get(sector, "field")

    def abandoned_gun_at(self, sector: str) -> Unit | None:
        """Artillery unit whose gun stands here without its crew."""
        return next((u for u in self.units if u.kind == "artillery" and u.gun and u.gun_sector == sector
                     and u.location in ("board", "deserted", "destroyed") and not (u.on_board and u.sector == sector)),
                    None)

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units if u.owner == side]

    @property
    def current_zone(self) -> str | None:
        if self.phase == "actions" and self.zone_index < len(self.zone_sequence):
            return self.zone_sequence[self.zone_index]
        return None

    # --- serialisation -------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "terrain": dict(sorted(self.terrain.items())),
            "units": [u.to_dict() for u in self.units],
            "cards": [c.to_dict() for c in self.cards],
            "settings": self.settings.to_dict(),
            "turn": self.turn, "phase": self.phase, "confirmed": list(self.confirmed),
            "initiative_rolls": {k: list(v) for k, v in self.initiative_rolls.items()},
            "initiative_winner": self.initiative_winner,
            "zone_sequence": list(self.zone_sequence), "zone_index": self.zone_index,
            "step": self.step, "winner": self.winner, "win_reason": self.win_reason,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "GameState":
        if not isinstance(d, dict):
            raise StateError("state must be an object")
        known = {"terrain", "units", "cards", "settings", "turn", "phase", "confirmed",
                 "initiative_rolls", "initiative_winner", "zone_sequence", "zone_index", "step",
                 "winner", "win_reason"}
        extra = sorted(set(d) - known)
        if extra:
            raise StateError(f"unknown state key(s): {', '.join(extra)}")
        try:
            settings = Settings.from_dict(d.get("settings"))
        except SettingsError as exc:
            raise StateError(str(exc), exc.ru) from None
        terrain = d.get("terrain", {})
        if not isinstance(terrain, dict):
            raise StateError("terrain must map sector names to terrain types")
        for sector, kind in terrain.items():
            if not is_sector(sector):
                raise StateError(f"terrain: bad sector name {sector!r}")
            _in(kind, TERRAINS, f"terrain of {sector}")
        units_raw = d.get("units", [])
        check_units_size(units_raw)
        cards_raw = d.get("cards", [])
        if not isinstance(cards_raw, list) or len(cards_raw) > MAX_CARDS:
            raise StateError(f"cards must be a list of at most {MAX_CARDS} order cards")
        if len(terrain) > 36:
            raise StateError("terrain: at most 36 sectors")
        units = [Unit.from_dict(u) for u in units_raw]
        cards = [OrderCard.from_dict(c) for c in cards_raw]
        st = cls(units=units, terrain=dict(terrain), cards=cards, settings=settings,
                 turn=d.get("turn", 1), phase=d.get("phase", "actions"),
                 confirmed=list(d.get("confirmed", [])),
                 initiative_rolls={k: list(v) for k, v in d.get("initiative_rolls", {"south": [], "north": []}).items()},
                 initiative_winner=d.get("initiative_winner"),
                 zone_sequence=list(d.get("zone_sequence", [])), zone_index=d.get("zone_index", 0),
                 step=d.get("step", 0), winner=d.get("winner"), win_reason=d.get("win_reason"))
        _in(st.phase, PHASES, "phase")
        if not _is_int(st.turn) or st.turn < 1:
            raise StateError("turn must be a positive integer")
        problems = invariant_problems(st)
        if problems:
            raise StateError(problems[0])
        return st


def invariant_problems(st: GameState) -> list[str]:
    """Invariants that must hold for any state (empty list when all is well)."""
    out: list[str] = []
    ids = [u.id for u in st.units]
    if len(ids) != len(set(ids)):
        out.append("unit ids must be unique")
    seen: dict[str, str] = {}
    for u in st.units:
        if u.blocks < 0 or u.crew < 0:
            out.append(f"unit {u.id}: negative block count")
        if u.kind != "artillery" and u.blocks > FULL_BLOCKS[u.kind]:
            out.append(f"unit {u.id}: too many blocks")
        if u.on_board:
            if u.sector in seen:
                out.append(f"sector {u.sector} holds two units ({seen[u.sector]}, {u.id})")
            seen[u.sector] = u.id
            if u.kind != "artillery" and u.blocks == 0:
                out.append(f"unit {u.id}: on the board with 0 blocks")
            if u.kind == "artillery" and u.crew == 0 and not u.gun_with_crew:
                out.append(f"unit {u.id}: a battery without crew must stand with its gun")
            if u.formation == "square" and (u.kind != "infantry" or u.blocks < 3):
                out.append(f"unit {u.id}: square needs an infantry unit with 3 blocks")
            if u.formation == "line" and u.kind != "infantry":
                out.append(f"unit {u.id}: only infantry forms a line")
            if u.kind != "artillery" and u.blocks == 1 and u.formation != "disordered":
                out.append(f"unit {u.id}: a single block is always disordered")
    return out

"""The mirrored table state (spec §1) as plain dataclasses, with setup (§1.4) and JSON round-trip."""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from .board import KNOWN_PROVINCES, SIDES, BoardMap, ProvinceDef, active_supply_points, known_def, supplied_set
from .cards import Card
from .config import NEW_SETTINGS, FowSettings
from .serial import from_dict, to_dict

SLOTS = "ABCDEF"  # Alpha ... Foxtrot
START = {
    "axis": {"production_level": 8, "intel": 5,
             "provinces": ["berlin", "ruhr", "poland", "italy", "libya", "western_mediterranean"]},
    "allies": {"production_level": 6, "intel": 7,
               "provinces": ["britain", "paris", "vichy", "morocco", "egypt", "lebanon", "north_sea",
                             "north_atlantic", "eastern_mediterranean"]},
}
HAND_SIZE = 3


def _side_lists():
    return {"axis": [], "allies": []}


@dataclass
class Operation:
    """An operation on the wheel: its slot letter, target province and face-down battle cards."""

    slot: str
    target: str
    cards: list[Card] = field(default_factory=list)
    created_turn: int = 0


@dataclass
class Quagmire:
    attacker: str
    started_turn: int = 0


@dataclass
class ProvinceState:
    key: str
    control: str = "neutral"
    defence: dict[str, list[Card]] = field(default_factory=_side_lists)
    neutral_cards: list[Card] = field(default_factory=list)
    quagmire: Quagmire | None = None
    quagmire_cards: dict[str, list[Card]] = field(default_factory=_side_lists)
    neutrality_token: bool = False
    no_supply: bool | None = None  # None: unknown (no map)


@dataclass
class SideState:
    side: str
    production_level: int = 0
    vp: int = 0
    intel_available: int = 0
    intel_used: int = 0
    deck: list[Card] = field(default_factory=list)  # index 0 is the top
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    wins: list[Card] = field(default_factory=list)
    losses: list[Card] = field(default_factory=list)
    province_deck: list[str] = field(default_factory=list)
    in_front: list[str] = field(default_factory=list)
    wheel_pointer: str = "F"
    operations: list[Operation] = field(default_factory=list)
    special_sets: dict[str, list[Card]] = field(default_factory=dict)  # allies: "ussr" (Ural), "usa"
    cards_played_this_turn: int = 0
    hand_at_turn_start: int = 0
    end_of_turn_intel: bool = False

    def position(self, op: Operation) -> int:
        """Wheel position of an op: 0 is NEW OP (§2.3)."""
        return (SLOTS.index(self.wheel_pointer) - SLOTS.index(op.slot)) % 6

    def op(self, slot: str) -> Operation | None:
        return next((o for o in self.operations if o.slot == slot), None)

    @property
    def deck_exhausted(self) -> bool:
        return not self.deck


@dataclass
class Objective:
    province: str | None = None  # None until entered (ledger mode)
    location: str = "near_morocco"  # axis_kept | box | near_morocco


@dataclass
class GameState:
    year: int = 1940
    winter: bool = False
    turn_no: int = 0
    active_side: str = "axis"
    first_side_of_year: str = "axis"
    phase: str = "turn"  # turn | year_end | finished
    turn_started: bool = False
    superiority: str = "axis"
    flags: dict[str, bool] = field(default_factory=lambda: {
        "ussr_at_war": False, "usa_at_war": False, "paris_cascade_done": False,
        "britain_cascade_done": False, "axis_attacked_balkans_1940": False})
    winner: str | None = None
    win_reason: str = ""
    settings: FowSettings = field(default_factory=FowSettings)
    board: BoardMap | None = None
    sides: dict[str, SideState] = field(default_factory=dict)
    provinces: dict[str, ProvinceState] = field(default_factory=dict)
    objectives: list[Objective] = field(default_factory=list)
    removed: list[Card] = field(default_factory=list)
    unplaced_neutral: list[Card] = field(default_factory=list)
    neutrality_tokens_unplaced: int = 0
    pending_quagmires: list[str] = field(default_factory=list)
    # B-4 ``within_turns``: the side whose deck has run out acts inside this turn and has confirmed it is done
    partner_done: bool = False
    year_end: dict[str, Any] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)

    # --- value semantics -------------------------------------------------------------
    def copy(self) -> "GameState":
        return copy.deepcopy(self)

    def to_dict(self) -> dict:
        """Plain JSON. Fields at their default that a state stored before them did not have are left out,
        so a stored state reads and writes back unchanged (an old game's JSON stays byte-for-byte its own)."""
        data = to_dict(self)
        if not data.get("partner_done"):
            data.pop("partner_done", None)
        if self.settings.rules_edition < 2:
            for key in NEW_SETTINGS:
                data["settings"].pop(key, None)
        if data.get("board"):
            if data["board"].get("adjacency_known", True):
                data["board"].pop("adjacency_known", None)
            for row in data["board"]["provinces"].values():
                if not row.get("unknown"):
                    row.pop("unknown", None)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "GameState":
        """The state from its JSON; a game stored before the seed corrections keeps its readings
        (``FowSettings.from_stored``)."""
        if not isinstance(data, dict):
            raise ValueError("GameState: expected an object")
        raw = data.get("settings")
        st = from_dict(cls, {k: v for k, v in data.items() if k != "settings"})
        if raw is not None:
            if not isinstance(raw, dict):
                raise ValueError("GameState: settings must be an object")
            try:
                st.settings = FowSettings.from_stored(raw)
            except TypeError as exc:
                raise ValueError(f"FowSettings: {exc}") from None
        return st

    # --- lookups -----------------------------------------------------------------------
    def pdef(self, key: str) -> ProvinceDef:
        if self.board is not None:
            return self.board.provinces[key]
        return known_def(key) if key in KNOWN_PROVINCES else ProvinceDef(key)

    def controlled_by(self, side: str) -> list[str]:
        return [k for k, p in self.provinces.items() if p.control == side]

    def wheel(self, position: int) -> dict:
        return self.settings.wheel_positions[position]

    def is_ussr(self, key: str) -> bool:
        """B-43: the map's mark where it sets one, else the ``ussr_provinces`` setting."""
        mark = self.pdef(key).is_ussr
        return mark if mark is not None else key in self.settings.ussr_provinces

    def exhausted(self, side: str) -> bool:
        return not self.sides[side].deck

    def computes_supply(self) -> bool:
        """Adjacency and supply are computed only on a map whose adjacency is known (connected)."""
        return self.board is not None and self.board.adjacency_known

    def supplied(self, side: str) -> set[str] | None:
        """Provinces supplying/supplied for ``side``; ``None`` without a map of known adjacency (ask the players)."""
        if not self.computes_supply():
            return None
        rules = self.settings.supply_rules
        return supplied_set(self.board, side, {k: p.control for k, p in self.provinces.items()},
                            {k for k, p in self.provinces.items() if p.quagmire}, self.flags,
                            rules.get("seas_pass", True), rules.get("captured_points_supply_captor", False),
                            quagmire_supply=self.settings.quagmire_supply)

    def reaches(self, side: str, target: str) -> bool | None:
        """§2.9 / B-17: the supply line reaches ``target``: it borders an own active supply point or an own
        supplied province not in quagmire. ``None`` when supply is not computed (ask the players)."""
        sup = self.supplied(side)
        if sup is None:
            return None
        points = active_supply_points(self.board, side, {k: p.control for k, p in self.provinces.items()}, self.flags,
                                      self.settings.supply_rules.get("captured_points_supply_captor", False))
        if self.settings.quagmire_supply == "blocks_fully":
            points = {k for k in points if not self.provinces[k].quagmire}
        for n in self.board.provinces[target].neighbours:
            if n in points or (n in sup and not self.provinces[n].quagmire):
                return True
        return False

    def refresh_supply(self) -> None:
        """Recompute every no-supply marker (unknown without a map)."""
        sets = {s: self.supplied(s) for s in SIDES}
        for p in self.provinces.values():
            if p.control in SIDES and sets[p.control] is not None:
                p.no_supply = p.key not in sets[p.control]
            else:
                p.no_supply = None


def draw_up_to(side: SideState, n: int = HAND_SIZE) -> int:
    """Draw from the top of the deck until the hand holds ``n``; returns the number drawn."""
    k = max(0, min(n - len(side.hand), len(side.deck)))
    side.hand.extend(side.deck[:k])
    del side.deck[:k]
    return k


def new_game(axis_deck: list[Card], allies_deck: list[Card], neutral_cards: list[Card] | None = None,
             *, settings: FowSettings | None = None, board: BoardMap | None = None,
             objectives: list[str | None] | None = None, axis_keeps: tuple[int, int] = (0, 1),
             preplace: dict[str, str] | None = None, special_sets: dict[str, list[Card]] | None = None,
             rng: random.Random | None = None, shuffle: bool = True) -> GameState:
    """Run the setup wizard (spec §1.4) and return the state before the Axis's first rotation.

    ``preplace`` maps province -> Allied card id for step 1.9 (checked by ``preplace_ok``).
    With ``shuffle=False`` the given orders are kept ("done on the table").
    """
    rng = rng or random.Random()
    st = GameState(settings=settings or FowSettings(), board=board)
    keys = list(board.provinces) if board else list(KNOWN_PROVINCES)
    for k in keys:
        st.provinces[k] = ProvinceState(k, control=st.pdef(k).start_control)
    # 1.2 neutral cards: one removed unseen, 14 dealt onto the marked areas
    neutrals = list(neutral_cards or [])
    if shuffle:
        rng.shuffle(neutrals)
    if neutrals:
        st.removed.append(neutrals.pop())
    areas = [k for k in keys if st.pdef(k).neutral_area]
    for area, card in zip(areas, neutrals):
        st.provinces[area].neutral_cards.append(card)
    st.unplaced_neutral = neutrals[len(areas):]
    # 1.3 neutrality tokens on the orange regions
    orange = [k for k in keys if st.pdef(k).orange][:6]
    for k in orange:
        st.provinces[k].neutrality_token = True
    st.neutrality_tokens_unplaced = 6 - len(orange)
    # 1.4 objectives: Axis is dealt 3 and keeps 2, the 3rd goes to the box, 3 lie by Morocco
    objs = list(objectives or [None] * 6)
    if shuffle:
        rng.shuffle(objs)
    dealt = objs[:3]
    st.objectives = [Objective(p, "axis_kept" if i in axis_keeps else "box") for i, p in enumerate(dealt)]
    st.objectives += [Objective(p, "near_morocco") for p in objs[3:]]
    # 1.6-1.8 province cards, control, production, intel
    for side in SIDES:
        own = [k for k in START[side]["provinces"] if k in st.provinces]
        st.sides[side] = SideState(side, START[side]["production_level"], intel_available=START[side]["intel"],
                                   in_front=own, province_deck=[k for k in keys if k not in own])
        for k in own:
            st.provinces[k].control = side
    st.sides["axis"].deck = list(axis_deck)
    st.sides["allies"].deck = list(allies_deck)
    st.sides["allies"].special_sets = {k: list(v) for k, v in (special_sets or {}).items()}
    # 1.9 Allied pre-placement from the unshuffled deck
    allies = st.sides["allies"]
    if preplace and not preplace_ok(st, preplace):
        raise ValueError("step 1.9: up to 3 Allied cards, each in a different Allied or neutral province")
    for prov, cid in (preplace or {}).items():
        card = next((c for c in allies.deck if c.id == cid), None)
        if card is None:
            raise ValueError(f"step 1.9: card {cid!r} is not in the Allied deck")
        allies.deck.remove(card)
        st.provinces[prov].defence["allies"].append(card)
    # 1.10 shuffle and draw 3; 1.11 wheels at Foxtrot; 1.12 superiority to the Axis
    for side in SIDES:
        if shuffle:
            rng.shuffle(st.sides[side].deck)
        draw_up_to(st.sides[side])
    st.refresh_supply()
    return st


def preplace_ok(state: GameState, preplace: dict[str, str]) -> bool:
    """Step 1.9: at most 3 cards, different provinces (dict keys), each Allied or neutral."""
    return len(preplace) <= 3 and all(
        p in state.provinces and state.provinces[p].control in ("allies", "neutral") for p in preplace)

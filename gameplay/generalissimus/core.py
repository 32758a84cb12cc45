"""Shared mutating helpers (on a working copy): terrain entry, losses, retreat procedure, victory."""
from __future__ import annotations

from .geometry import HOME_ROW, OFF, rear_candidates
from .state import GameState, Unit, enemy_of


class InputError(ValueError):
    """Malformed action parameters (wrong dice count, unknown option...)."""


class ChoiceError(Exception):
    """A retreat choice names a sector that is not an option."""

    def __init__(self, unit: str, sector: str, options: list[str]):
        super().__init__(unit, sector, options)
        self.unit, self.sector, self.options = unit, sector, options


def terrain_flags(s: GameState, kind: str, sector: str) -> list[str]:
    return s.settings.terrain_effects.get(kind, {}).get(s.terrain_at(sector), [])


def can_enter(s: GameState, unit: Unit, sector: str) -> bool:
    return "no_entry" not in terrain_flags(s, unit.kind, sector)


def disorder(unit: Unit) -> None:
    unit.formation = "disordered"


def check_formation(s: GameState, unit: Unit) -> None:
    """After losses: one block disorders; a broken square becomes `square_break_to`."""
    if unit.kind != "artillery" and unit.blocks == 1:
        disorder(unit)
    elif unit.formation == "square" and unit.blocks < 3:
        unit.formation = s.settings.square_break_to


def remove(unit: Unit, ev: list, how: str = "destroyed", keep_gun: bool = False) -> None:
    """Take a unit off the board. ``keep_gun``: a crew that leaves without its gun leaves the gun
    standing on its sector as an abandoned gun (§2.10.1)."""
    ev.append({"type": how, "unit": unit.id, "sector": unit.sector})
    unit.location, unit.sector = how, None
    if unit.kind != "artillery":
        return
    if keep_gun and unit.gun and unit.gun_sector:
        ev.append({"type": "gun_left", "unit": unit.id, "sector": unit.gun_sector})
    else:
        unit.gun_sector = None


def place(s: GameState, unit: Unit, sector: str, ev: list, carry_gun: bool = True) -> None:
    """Put a unit on `sector`: gun handling, capture of an enemy gun left there, terrain disorder."""
    old = unit.sector
    if unit.kind == "artillery" and unit.gun and carry_gun and unit.gun_sector == old:
        unit.gun_sector = sector
    unit.sector = sector
    ev.append({"type": "moved", "unit": unit.id, "from": old, "to": sector})
    left = s.abandoned_gun_at(sector)
    if left is not None and left.owner != unit.owner:
        left.gun, left.gun_sector = False, None
        ev.append({"type": "gun_captured", "unit": left.id, "by": unit.id, "sector": sector})
    if "disorder" in terrain_flags(s, unit.kind, sector):
        disorder(unit)


def apply_hits(s: GameState, unit: Unit, hits: int, ev: list) -> int:
    """Remove up to `hits` blocks; extra hits are lost. Returns blocks removed."""
    taken = 0
    for _ in range(hits):
        if unit.kind != "artillery":
            if unit.blocks == 0:
                break
            unit.blocks -= 1
        else:
            gun_here = unit.gun_with_crew
            gun_first = s.settings.artillery_hit_order == "gun_first"
            if gun_here and (gun_first or unit.crew == 0):
                unit.gun, unit.gun_sector = False, None
            elif unit.crew > 0:
                unit.crew -= 1
            else:
                break
        taken += 1
    if taken:
        ev.append({"type": "losses", "unit": unit.id, "blocks": taken})
    alive = unit.blocks > 0 if unit.kind != "artillery" else (unit.crew > 0 or unit.gun_with_crew)
    if not alive:
        remove(unit, ev)
    else:
        check_formation(s, unit)
    return taken


def rout(s: GameState, unit: Unit) -> None:
    if not unit.routed:
        unit.flag, unit.routed_since = "routed", s.turn
    disorder(unit)


class ChoiceNeeded(Exception):
    """The owner of ``unit`` must choose where it falls back (raised only for :class:`AskChoices`)."""

    def __init__(self, unit: Unit, options: list[str]):
        super().__init__(unit.id, options)
        self.unit, self.owner, self.options = unit.id, unit.owner, list(options)


class AskChoices(dict):
    """Retreat choices that ask the owner (raise :class:`ChoiceNeeded`) instead of taking the
    engine's proposal when a unit has more than one option and no choice was given."""


def retreat_options(s: GameState, unit: Unit, chain: frozenset = frozenset(),
                    fleeing: bool | None = None) -> tuple[list[str], str]:
    """Options of §2.10.1, the engine's proposal first, and their class: 'free', 'forced' (chain /
    edge / enemy) or 'none'. Only a fleeing unit (routed as it moves) may leave the board."""
    fleeing = unit.routed if fleeing is None else fleeing
    cands = rear_candidates(unit.sector, unit.owner, unit.facing, s.settings.rear_reference)
    free = [c for c in cands if c != OFF and s.unit_at(c) is None and can_enter(s, unit, c)]
    if free:
        return free, "free"
    forced = []
    for c in cands:
        occ = None if c == OFF else s.unit_at(c)
        if c == OFF:
            if fleeing:
                forced.append(c)
        elif occ is not None and occ.owner != unit.owner:
            forced.append(c)
        elif occ is not None and occ.id not in chain and can_enter(s, unit, c) and _can_vacate(s, occ, chain | {unit.id}):
            forced.append(c)

    def rank(c: str) -> int:  # the proposal: own unit (chain) first, then the edge, then an enemy
        occ = None if c == OFF else s.unit_at(c)
        return 0 if occ is not None and occ.owner == unit.owner else (1 if c == OFF else 2)
    forced.sort(key=rank)
    return forced, ("forced" if forced else "none")


def _can_vacate(s: GameState, occ: Unit, chain: frozenset) -> bool:
    """Would an own unit pushed in a chain panic leave its sector? A pushed unit that routs (A-26) is
    fleeing: it always leaves (to a sector, the edge, or destroyed). One that only steps back leaves
    when it has somewhere to go, or when a blocked retreat destroys it (A-36)."""
    if s.settings.chain_push_routs:
        return True
    _, kind = retreat_options(s, occ, chain | {occ.id}, fleeing=False)
    return kind != "none" or s.settings.blocked_retreat == "destroyed"


def fall_back(s: GameState, unit: Unit, choices: dict, ev: list, carry_gun: bool = True,
              chain: frozenset = frozenset(), moved: set | None = None) -> bool:
    """§2.10.1 retreat procedure with chain panic; terminates because a unit joins a chain once.

    The unit is fleeing when its flag is down as it moves. Answers whether its sector was vacated
    (False: a unit that is not fleeing had nowhere to go and stays, A-36)."""
    chain = chain | {unit.id}
    if moved is not None:
        moved.add(unit.id)
    fleeing = unit.routed
    keep = not carry_gun or (unit.kind == "artillery" and not unit.gun_with_crew)  # a gun left behind stays
    options, kind = retreat_options(s, unit, chain, fleeing)
    if kind == "none":
        ev.append({"type": "no_way_back", "unit": unit.id})
        if fleeing or s.settings.blocked_retreat == "destroyed":
            remove(unit, ev, keep_gun=keep)
            return True
        return False
    pick = choices.get(unit.id)
    if pick is None:
        if isinstance(choices, AskChoices) and len(options) > 1:
            raise ChoiceNeeded(unit, options)
        pick = options[0]
    if pick not in options:
        raise ChoiceError(unit.id, pick, options)
    if pick == OFF:
        remove(unit, ev, "deserted", keep_gun=keep)
        return True
    occ = s.unit_at(pick)
    if occ is not None and occ.owner != unit.owner:
        ev.append({"type": "fled_into_enemy", "unit": unit.id, "enemy": occ.id})
        remove(unit, ev, keep_gun=keep)
        return True
    if occ is not None:
        ev.append({"type": "chain_panic", "unit": occ.id, "pushed_by": unit.id})
        if s.settings.chain_push_routs:
            rout(s, occ)
        else:
            disorder(occ)
        if not fall_back(s, occ, choices, ev, True, chain, moved):
            return False  # cannot happen: such a sector is no option (_can_vacate)
    if unit.kind == "artillery" and not carry_gun and unit.crew == 0:
        remove(unit, ev)
        return True
    place(s, unit, pick, ev, carry_gun=carry_gun)
    return True


def advance(s: GameState, unit: Unit, sector: str, ev: list) -> bool:
    """Winner's / attacker's advance into a vacated sector, if empty and enterable."""
    if unit.on_board and s.unit_at(sector) is None and can_enter(s, unit, sector):
        place(s, unit, sector, ev)
        return True
    return False


def beaten(s: GameState, unit: Unit) -> bool:
    """End-of-turn victory test for one unit (§2.11)."""
    if unit.location in ("destroyed", "deserted"):
        return True
    if unit.location == "reserve":
        return not s.settings.reserves_count
    if unit.routed:
        return True
    return unit.kind == "artillery" and unit.crew == 0


def victory(s: GameState, end_of_turn: bool) -> tuple[str | None, str | None]:
    """Winner ('south'/'north'/'draw') and a short reason, or (None, None)."""
    out = {}
    for side in ("south", "north"):
        units = s.side_units(side)
        if end_of_turn:
            out[side] = bool(units) and all(beaten(s, u) for u in units)
        else:
            out[side] = bool(units) and all(u.location in ("destroyed", "deserted") for u in units)
    if out["south"] and out["north"]:
        return "draw", "both sides beaten"
    for side in ("south", "north"):
        if out[side]:
            why = "every enemy unit destroyed, deserted or routed" if end_of_turn else "every enemy unit destroyed or deserted"
            return enemy_of(side), why
    return None, None


def home_rows(s: GameState, side: str) -> list[int]:
    home = HOME_ROW[side]
    step = 1 if side == "south" else -1
    return [home + i * step for i in range(s.settings.deploy_rows)]

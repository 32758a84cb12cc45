"""Card actions with legality checks. Each answers with an Outcome (``gameplay.common``); the input
state is never mutated. The ``check_*`` functions answer None when the action is legal."""
from __future__ import annotations

from gameplay.common import Outcome

from .core import (ChoiceError, InputError, advance, apply_hits, can_enter, disorder, fall_back,
                   home_rows, place, remove, rout, terrain_flags)
from .geometry import (FACINGS, OFF, TOWARDS_ENEMY, VEC, adjacent, front_sectors, front_vectors, is_flank,
                       is_sector, left_of, right_of, shift, straight_rear, turn, xy, zone_of)
from .reasons import no, ok
from .state import FORMATIONS, GameState, Unit

FIRE_TYPES = {"musket_volley": "musket", "artillery_volley": "artillery"}


# --- shared checks -----------------------------------------------------------
def _unit(s: GameState, uid: str, side: str | None, zone: str | None, allow_reserve: bool = False):
    """(unit, None) if the unit can take an order, else (None, refused Outcome)."""
    u = s.unit(uid)
    if u is None or not (u.on_board or (allow_reserve and u.location == "reserve")):
        return None, no("no_unit", unit=uid)
    if side is not None and u.owner != side:
        return None, no("not_own", unit=uid)
    if zone is not None and u.on_board and zone_of(u.sector, s.settings.zone_columns) != zone:
        return None, no("wrong_zone", unit=uid, zone=zone)
    if u.routed:
        return None, no("routed_no_orders", unit=uid)
    return u, None


def unit_problem(s: GameState, uid: str, side: str | None, zone: str | None) -> Outcome | None:
    """Why an order cannot go to this unit at all (not on the board, not own, outside the card's
    zone, routed), or None."""
    return _unit(s, uid, side, zone)[1]


def _dice(dice, n: int, what: str) -> list[int]:
    if not isinstance(dice, list) or len(dice) != n:
        raise InputError(f"{what}: expected {n} dice, got {dice!r}")
    if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
        raise InputError(f"{what}: every die must be an integer 1..6, got {dice!r}")
    return list(dice)


def formation_problem(u: Unit, formation: str) -> Outcome | None:
    if formation not in FORMATIONS:
        raise InputError(f"unknown formation {formation!r}")
    if u.kind != "infantry" and formation in ("line", "square"):
        return no("kind_formation", kind=u.kind)
    if u.kind != "artillery" and u.blocks == 1 and formation != "disordered":
        return no("single_block")
    if formation == "square" and u.blocks < 3:
        return no("square_blocks")
    return None


# --- movement ------------------------------------------------------------------
def check_move(s, uid, *, side=None, zone=None, to=None, path=None, facing=None, formation=None):
    u, bad = _unit(s, uid, side, zone, allow_reserve=True)
    if bad:
        return bad
    if u.location == "reserve":
        return _check_reserve(s, u, to, zone, formation)
    if u.kind == "cavalry":
        return _check_cavalry(s, u, path or ([to] if to else None), facing)
    if u.kind == "artillery" and u.crew == 0:
        return no("no_crew_move")
    dest = front_sectors(u.sector, u.facing)["F"]
    if dest is None:
        return no("off_board")
    if to is not None and to != dest:
        return no("not_forward")
    return _check_entry(s, u, dest)


def _check_entry(s, u, dest):
    if s.unit_at(dest) is not None:
        return no("occupied", sector=dest)
    if not can_enter(s, u, dest):
        return no("no_entry", kind=u.kind, terrain=s.terrain_at(dest))
    return None


def _check_reserve(s, u, to, zone, formation):
    if not is_sector(to):
        raise InputError("a reserve entry needs 'to': a home-row sector")
    zone_ok = zone is None or zone_of(to, s.settings.zone_columns) == zone
    if int(to[1]) not in home_rows(s, u.owner) or not zone_ok:
        return no("reserve_sector")
    if formation is not None:
        bad = formation_problem(u, formation)
        if bad:
            return bad
    return _check_entry(s, u, to)


def _cavalry_path(s, u, path):
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise InputError("cavalry move needs 'path': a list of 1-2 sector names")
    if not 1 <= len(path) <= 2:
        return no("cav_path_len")
    allowed = set(front_vectors(u.facing).values())
    prev = u.sector
    for i, step in enumerate(path):
        last = i == len(path) - 1
        if not is_sector(step):
            return no("off_board")
        dx, dy = xy(step)[0] - xy(prev)[0], xy(step)[1] - xy(prev)[1]
        legal_dir = (dx, dy) in allowed if s.settings.cavalry_step_dirs == "forward3" else adjacent(prev, step)
        if not legal_dir:
            return no("cav_step_dir", sector=step)
        occ = s.unit_at(step)
        if not can_enter(s, u, step):
            return no("no_entry", kind="cavalry", terrain=s.terrain_at(step))
        if occ is not None and occ.owner != u.owner:
            return no("cav_enemy", sector=step)
        if occ is not None and last:
            return no("occupied", sector=step)
        if not last and s.terrain_at(step) in s.settings.cavalry_stop_terrain:
            return no("cav_stop_terrain", terrain=s.terrain_at(step), sector=step)
        prev = step
    return None


def cavalry_paths(s: GameState, uid: str) -> dict[str, list[str]]:
    """Every sector the cavalry unit can reach with a Move card now, with one legal path to it
    (shortest first), under the current settings (``cavalry_step_dirs``, ``cavalry_stop_terrain``)."""
    u = s.unit(uid)
    if u is None or not u.on_board or u.kind != "cavalry":
        return {}
    out: dict[str, list[str]] = {}

    def steps(frm):
        if s.settings.cavalry_step_dirs == "forward3":
            return [shift(frm, *v) for v in front_vectors(u.facing).values()]
        return [shift(frm, dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    for a in filter(None, steps(u.sector)):
        if a not in out and _cavalry_path(s, u, [a]) is None:
            out[a] = [a]
    for a in filter(None, steps(u.sector)):
        for b in filter(None, steps(a)):
            if b != u.sector and b not in out and _cavalry_path(s, u, [a, b]) is None:
                out[b] = [a, b]
    return out


def _check_cavalry(s, u, path, facing):
    if path is None:
        dest = front_sectors(u.sector, u.facing)["F"]
        if dest is None:
            return no("off_board")
        path = [dest]
    bad = _cavalry_path(s, u, path)
    if bad:
        return bad
    if facing is not None:
        if facing not in FACINGS:
            raise InputError(f"unknown facing {facing!r}")
        if s.settings.cavalry_free_turn == "quarter" and facing not in (u.facing, turn(u.facing, "left"), turn(u.facing, "right")):
            return no("cav_facing")
    return None


def move(s: GameState, uid: str, *, side=None, zone=None, to=None, path=None, facing=None, formation=None) -> Outcome:
    """Move card: one sector forward, a 1-2 step cavalry path, or a reserve entry (§2.6)."""
    bad = check_move(s, uid, side=side, zone=zone, to=to, path=path, facing=facing, formation=formation)
    if bad:
        return bad
    s = s.copy()
    u, ev = s.unit(uid), []
    if u.location == "reserve":
        u.location, u.facing = "board", TOWARDS_ENEMY[u.owner]
        u.formation = formation or "column"
        if u.kind == "artillery":
            u.gun_sector = to if u.gun else None
        u.sector = None
        place(s, u, to, ev)
        return ok("reserve_in", s, events=ev, unit=uid, sector=to)
    if u.kind == "cavalry":
        path = path or ([to] if to else [front_sectors(u.sector, u.facing)["F"]])
        for step in path[:-1]:
            if "disorder" in terrain_flags(s, "cavalry", step):
                disorder(u)
            own = s.unit_at(step)
            if own is not None:
                disorder(u)
                disorder(own)
                ev.append({"type": "passed_through", "unit": uid, "other": own.id})
        place(s, u, path[-1], ev)
        if facing is not None:
            u.facing = facing
    else:
        place(s, u, front_sectors(u.sector, u.facing)["F"], ev)
    return ok("moved", s, events=ev, unit=uid, sector=u.sector)


def manoeuvre(s: GameState, uid: str, direction: str, *, side=None, zone=None) -> Outcome:
    """Manoeuvre card: turn 90° left or right."""
    if direction not in ("left", "right"):
        raise InputError("manoeuvre needs 'direction': 'left' or 'right'")
    u, bad = _unit(s, uid, side, zone)
    if bad:
        return bad
    s = s.copy()
    u = s.unit(uid)
    u.facing = turn(u.facing, direction)
    return ok("turned", s, events=[{"type": "turned", "unit": uid, "facing": u.facing}], unit=uid, facing=u.facing)


def form_up(s: GameState, uid: str, formation: str, *, side=None, zone=None) -> Outcome:
    """Form up card: set a formation allowed by the unit's type and blocks (§2.3)."""
    u = s.unit(uid)
    if u is not None and u.on_board and u.routed:
        return no("rally_needs_two")
    u, bad = _unit(s, uid, side, zone)
    if bad:
        return bad
    bad = formation_problem(u, formation)
    if bad:
        return bad
    s = s.copy()
    s.unit(uid).formation = formation
    return ok("formed", s, events=[{"type": "formed", "unit": uid, "formation": formation}],
              unit=uid, formation=formation)


def rally(s: GameState, uid: str, *, side=None, zone=None) -> Outcome:
    """Two Form up cards at once on a routed unit: the flag goes up (§2.10.4)."""
    u = s.unit(uid)
    if u is None or not u.on_board:
        return no("no_unit", unit=uid)
    if not u.routed:
        return no("not_routed", unit=uid)
    if side is not None and u.owner != side:
        return no("not_own", unit=uid)
    if zone is not None and zone_of(u.sector, s.settings.zone_columns) != zone:
        return no("wrong_zone", unit=uid, zone=zone)
    s = s.copy()
    u = s.unit(uid)
    u.flag, u.routed_since, u.formation = "up", None, s.settings.rally_formation
    return ok("rallied", s, events=[{"type": "rallied", "unit": uid}], unit=uid)


def check_retreat(s, uid, *, side=None, zone=None):
    u, bad = _unit(s, uid, side, zone)
    if bad:
        return bad
    if u.kind == "artillery" and u.crew == 0:
        return no("no_crew_move")
    here = u.sector
    for _ in range(s.settings.retreat_distance):
        nxt = straight_rear(here, u.owner, u.facing, s.settings.rear_reference)
        if nxt is None or s.unit_at(nxt) is not None or not can_enter(s, u, nxt):
            return no("retreat_blocked", sector=nxt or OFF)
        here = nxt
    return None


def retreat(s: GameState, uid: str, *, side=None, zone=None) -> Outcome:
    """Retreat card: straight back towards the home edge, keeping formation and facing (§2.6.5)."""
    bad = check_retreat(s, uid, side=side, zone=zone)
    if bad:
        return bad
    s = s.copy()
    u, ev = s.unit(uid), []
    for _ in range(s.settings.retreat_distance):
        place(s, u, straight_rear(u.sector, u.owner, u.facing, s.settings.rear_reference), ev)
    return ok("retreated", s, events=ev, unit=uid, sector=u.sector)


# --- fire --------------------------------------------------------------------------
def _enemy_target(s, u, tid):
    t = s.unit(tid)
    if t is None or not t.on_board or t.owner == u.owner:
        return None, no("not_enemy", target=tid)
    return t, None


def check_fire(s, kind, uid, tid, *, side=None, zone=None):
    """Legality of a musket or artillery volley (§2.8)."""
    u, bad = _unit(s, uid, side, zone)
    if bad:
        return bad
    attack = FIRE_TYPES[kind]
    if kind == "musket_volley":
        if u.kind != "infantry":
            return no("musket_kind")
    else:
        if u.kind != "artillery":
            return no("art_kind")
        if u.crew == 0:
            return no("art_no_crew")
        if not u.gun_with_crew:
            return no("art_no_gun")
        if u.formation != "column":
            return no("art_disordered")
        if "no_fire_from" in terrain_flags(s, "artillery", u.sector):
            return no("art_river")
    if attack in u.attacks_used:
        return no("attack_used", unit=uid)
    t, bad = _enemy_target(s, u, tid)
    if bad:
        return bad
    if kind == "musket_volley":
        if t.sector not in musket_sectors(s, u):
            return no("musket_arc", target=tid)
        return None
    return _artillery_line(s, u, t)


def musket_sectors(s: GameState, u: Unit) -> list[str]:
    """Where a musket volley reaches (§2.8.1): F, FL, FR; with ``musket_arc = any_diagonal`` also the
    two rear diagonals."""
    out = [x for x in front_sectors(u.sector, u.facing).values() if x]
    if s.settings.musket_arc == "any_diagonal":
        fx, fy = VEC[u.facing]
        for lx, ly in (left_of(u.facing), right_of(u.facing)):
            back = shift(u.sector, -fx + lx, -fy + ly)
            if back:
                out.append(back)
    return out


def _artillery_line(s, u, t):
    platform = "fire_platform" in terrain_flags(s, "artillery", u.sector)
    straight, diag = (3, s.settings.artillery_hill_diag_range) if platform else (2, 1)
    vecs = front_vectors(u.facing)
    for key, (vx, vy) in vecs.items():
        limit = straight if key == "F" else diag
        for dist in range(1, 7):
            if shift(u.sector, vx * dist, vy * dist) == t.sector:
                if dist > limit:
                    return no("art_range", target=t.id, n=straight, d=diag)
                for k in range(1, dist):
                    mid = shift(u.sector, vx * k, vy * k)
                    flags = terrain_flags(s, "artillery", mid)
                    if "blocks_fire" in flags and not (platform and s.terrain_at(mid) in ("forest", "village")):
                        return no("art_blocked_terrain", terrain=s.terrain_at(mid), sector=mid)
                    occ = s.unit_at(mid)
                    if occ is not None and (occ.owner == u.owner or s.settings.artillery_blockers == "any"):
                        return no("art_blocked_unit", sector=mid)
                return None
    return no("art_arc", target=t.id)


def fire_bonus(s: GameState, shooter: Unit, target: Unit) -> int:
    bonus = int(is_flank(shooter.sector, target.sector, target.facing))
    if shooter.kind == "infantry" and shooter.formation == "line":
        bonus += 1
    return bonus


def fire_dice_count(s: GameState, shooter: Unit, target: Unit) -> int:
    n = shooter.blocks if shooter.kind == "infantry" else shooter.crew
    return n + fire_bonus(s, shooter, target) if s.settings.fire_bonus_mode == "extra_die" else n


def count_hits(dice: list[int], bonus: int, mode: str) -> int:
    """Hits on 5-6; per_die mode adds the bonus to every die, extra_die mode adds none."""
    add = bonus if mode == "per_die" else 0
    return sum(1 for d in dice if d + add >= 5)


def fire(s: GameState, shots: list[dict], *, side=None, zone=None) -> Outcome:
    """Resolve volleys simultaneously: dice from the start state, casualties applied together.

    Each shot: {"type": "musket_volley"|"artillery_volley", "unit", "target", "dice"}.
    """
    for shot in shots:
        bad = check_fire(s, shot["type"], shot["unit"], shot["target"], side=shot.get("side", side), zone=zone)
        if bad:
            return bad
    hits = []
    for shot in shots:
        u, t = s.unit(shot["unit"]), s.unit(shot["target"])
        dice = _dice(shot.get("dice"), fire_dice_count(s, u, t), f"{shot['type']} by {u.id}")
        bonus = fire_bonus(s, u, t)
        hits.append({"unit": u.id, "target": t.id, "dice": dice, "bonus": bonus,
                     "flank": is_flank(u.sector, t.sector, t.facing),
                     "hits": count_hits(dice, bonus, s.settings.fire_bonus_mode)})
    s = s.copy()
    ev: list = []
    for shot, h in zip(shots, hits):
        s.unit(h["unit"]).use_attack(FIRE_TYPES[shot["type"]])
        ev.append({"type": "volley", "unit": h["unit"], "target": h["target"], "hits": h["hits"]})
    for h in hits:
        t = s.unit(h["target"])
        h["removed"] = apply_hits(s, t, h["hits"], ev) if t.on_board else 0
    first = hits[0]
    return ok("fired", s, details={"shots": hits}, events=ev, unit=first["unit"], target=first["target"],
              n=first["hits"] if len(hits) == 1 else "/".join(str(h["hits"]) for h in hits))


def volley(s: GameState, kind: str, uid: str, tid: str, dice: list[int], *, side=None, zone=None) -> Outcome:
    return fire(s, [{"type": kind, "unit": uid, "target": tid, "dice": dice}], side=side, zone=zone)


# --- melee -------------------------------------------------------------------------
def check_charge(s, uid, tid, *, side=None, zone=None):
    u, bad = _unit(s, uid, side, zone)
    if bad:
        return bad
    if u.kind not in ("infantry", "cavalry"):
        return no("charge_kind")
    if "bayonet" in u.attacks_used:
        return no("attack_used", unit=uid)
    t, bad = _enemy_target(s, u, tid)
    if bad:
        return bad
    if front_sectors(u.sector, u.facing)["F"] != t.sector:
        return no("charge_target", target=tid)
    return None


def can_counter(t: Unit) -> bool:
    return t.on_board and t.kind in ("infantry", "cavalry") and not t.routed


def melee_totals(s: GameState, a: Unit, d: Unit, a_dice: list[int], d_dice: list[int]) -> dict:
    """Sums plus modifiers added once to the total (§2.9.3)."""
    a_mods, d_mods = {}, {}
    if a.kind == "infantry" and a.formation == "column":
        a_mods["column"] = 1
    if d.kind == "infantry" and d.formation == "column" and s.settings.column_bonus_defender:
        d_mods["column"] = 1
    if d.kind == "infantry" and d.formation == "square" and a.kind == "cavalry":
        d_mods["square_vs_cavalry"] = 2
    if is_flank(a.sector, d.sector, d.facing):
        a_mods["flank"] = 1
    if is_flank(d.sector, a.sector, a.facing):
        d_mods["flank"] = 1
    return {"attacker": {"dice": a_dice, "mods": a_mods, "total": sum(a_dice) + sum(a_mods.values())},
            "defender": {"dice": d_dice, "mods": d_mods, "total": sum(d_dice) + sum(d_mods.values())}}


def charge(s: GameState, uid: str, tid: str, *, attacker_dice=None, defender_dice=None, counter: bool = False,
           retreat_choices: dict | None = None, side=None, zone=None) -> Outcome:
    """Bayonets! charge on the unit in front (§2.9); `counter` = the target met it with Bayonets!."""
    bad = check_charge(s, uid, tid, side=side, zone=zone)
    if bad:
        return bad
    try:
        return _charge(s.copy(), uid, tid, attacker_dice, defender_dice, counter,
                       retreat_choices if retreat_choices is not None else {})
    except ChoiceError as exc:
        return no("bad_choice", unit=exc.unit, sector=exc.sector, n=", ".join(exc.options))


def _charge(s, uid, tid, a_dice, d_dice, counter, choices) -> Outcome:
    a, t, ev = s.unit(uid), s.unit(tid), []
    target_sector = t.sector
    a.use_attack("bayonet")
    cfg = s.settings
    if t.routed and a.kind == "cavalry":
        remove(t, ev)
        if cfg.cav_vs_routed_advance:
            advance(s, a, target_sector, ev)
        return ok("cav_vs_routed", s, events=ev, details={"case": "cavalry_vs_routed"}, target=tid)
    if t.kind == "artillery" or not (counter and can_counter(t)):
        code, case = ("art_gives_way", "artillery") if t.kind == "artillery" else ("gives_way", "give_way")
        stayed = False
        if t.kind == "artillery" and t.crew == 0:
            ev.append({"type": "gun_captured", "unit": t.id, "by": a.id, "sector": target_sector})
            t.gun, t.gun_sector = False, None
            remove(t, ev)
        else:
            if cfg.give_way_flag == "down":
                rout(s, t)
            disorder(t)
            stayed = not fall_back(s, t, choices, ev, carry_gun=t.kind != "artillery")
        if cfg.give_way_advance:
            advance(s, a, target_sector, ev)
        if cfg.give_way_disorder_attacker:
            disorder(a)
        return ok(code, s, events=ev, details={"case": case, "counter_ignored": counter, "target_stayed": stayed},
                  target=tid)
    a_dice = _dice(a_dice, a.blocks, f"attacker {uid}")
    d_dice = _dice(d_dice, t.blocks, f"defender {tid}")
    totals = melee_totals(s, a, t, a_dice, d_dice)
    at, dt = totals["attacker"]["total"], totals["defender"]["total"]
    disorder(a)
    disorder(t)
    if cfg.counter_charge_counts_as_attack:
        t.use_attack("bayonet")
    details = {"case": "melee", **totals}
    if at == dt:
        details["winner"] = None
        return ok("melee_tie", s, details=details, events=ev, a=at, d=dt)
    winner, loser = (a, t) if at > dt else (t, a)
    vacated = loser.sector
    rout(s, loser)
    fall_back(s, loser, choices, ev)
    if cfg.winner_advance == "mandatory":
        advance(s, winner, vacated, ev)
    details["winner"] = winner.id
    return ok("melee_won", s, details=details, events=ev, winner=winner.id, a=at, d=dt)


# --- Bayonets! as an advance --------------------------------------------------------------
def check_bayonet_advance(s, uid, *, path=None, facing=None, side=None, zone=None):
    """Bayonets! with no enemy in front: «наступать», advance (A-38, ``bayonets_advance``)."""
    mode = s.settings.bayonets_advance
    if mode == "none":
        return no("advance_off")
    u, bad = _unit(s, uid, side, zone)
    if bad:
        return bad
    if u.kind not in ("infantry", "cavalry"):
        return no("charge_kind")
    front = front_sectors(u.sector, u.facing)["F"]
    occ = s.unit_at(front) if front else None
    if occ is not None and occ.owner != u.owner:
        return no("advance_enemy", target=occ.id)
    if mode == "as_move" and u.kind == "cavalry":
        return _check_cavalry(s, u, path, facing)
    if front is None:
        return no("off_board")
    if path and path != [front]:
        return no("not_forward")
    return _check_entry(s, u, front)


def bayonet_advance(s: GameState, uid: str, *, path=None, facing=None, side=None, zone=None) -> Outcome:
    """Advance one sector to an empty, enterable F keeping the formation (terrain entry applies);
    under ``as_move`` a cavalry unit moves as with a Move card. Not an attack (§2.7)."""
    bad = check_bayonet_advance(s, uid, path=path, facing=facing, side=side, zone=zone)
    if bad:
        return bad
    if s.settings.bayonets_advance == "as_move" and s.unit(uid).kind == "cavalry":
        res = move(s, uid, path=path, facing=facing)
        return ok("advanced", res.state, events=list(res.changes), unit=uid, sector=res.state.unit(uid).sector)
    s = s.copy()
    u, ev = s.unit(uid), []
    place(s, u, front_sectors(u.sector, u.facing)["F"], ev)
    return ok("advanced", s, events=ev, unit=uid, sector=u.sector)


# --- end of turn --------------------------------------------------------------------
def forced_flight(s: GameState, choices: dict | None = None, first: str | None = None) -> Outcome:
    """Every unit routed before this turn falls back once; `first` side goes first (§2.10.3)."""
    s = s.copy()
    ev: list = []
    moved: set = set()
    order = ("south", "north") if first != "north" else ("north", "south")
    def rear_first(u):  # nearest to its own edge first
        return xy(u.sector)[1] if u.owner == "south" else -xy(u.sector)[1]
    try:
        for side in order:
            fleeing = sorted((u for u in s.side_units(side) if u.on_board and u.routed
                              and (u.routed_since is None or u.routed_since < s.turn)), key=rear_first)
            for u in fleeing:
                if u.on_board and u.routed and u.id not in moved:
                    fall_back(s, u, choices if choices is not None else {}, ev, moved=moved)
    except ChoiceError as exc:
        return no("bad_choice", unit=exc.unit, sector=exc.sector, n=", ".join(exc.options))
    return ok("flight_done", s, events=ev)

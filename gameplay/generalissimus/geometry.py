"""Board geometry: sector names, facings, front/rear sectors, flank test."""
from __future__ import annotations

COLS = "abcdef"
ROWS = range(1, 7)
SIDES = ("south", "north")
HOME_ROW = {"south": 1, "north": 6}
FACINGS = ("N", "E", "S", "W")
VEC = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
TOWARDS_ENEMY = {"south": "N", "north": "S"}
OFF = "off"  # pseudo-sector: leaving the board

Coord = tuple[int, int]


def all_sectors() -> list[str]:
    return [f"{c}{r}" for r in ROWS for c in COLS]


def is_sector(name: object) -> bool:
    return isinstance(name, str) and len(name) == 2 and name[0] in COLS and name[1] in "123456"


def xy(name: str) -> Coord:
    return COLS.index(name[0]), int(name[1])


def name_of(c: Coord) -> str | None:
    x, y = c
    if 0 <= x < 6 and 1 <= y <= 6:
        return f"{COLS[x]}{y}"
    return None


def shift(name: str, dx: int, dy: int) -> str | None:
    x, y = xy(name)
    return name_of((x + dx, y + dy))


def left_of(facing: str) -> tuple[int, int]:
    dx, dy = VEC[facing]
    return -dy, dx


def right_of(facing: str) -> tuple[int, int]:
    dx, dy = VEC[facing]
    return dy, -dx


def turn(facing: str, direction: str) -> str:
    """Facing after a 90° turn to the 'left' or 'right'."""
    vec = left_of(facing) if direction == "left" else right_of(facing)
    return next(f for f, v in VEC.items() if v == vec)


def front_vectors(facing: str) -> dict[str, tuple[int, int]]:
    fx, fy = VEC[facing]
    lx, ly = left_of(facing)
    rx, ry = right_of(facing)
    return {"F": (fx, fy), "FL": (fx + lx, fy + ly), "FR": (fx + rx, fy + ry)}


def front_sectors(sector: str, facing: str) -> dict[str, str | None]:
    """F, FL, FR of a unit (None when off the board)."""
    return {k: shift(sector, *v) for k, v in front_vectors(facing).items()}


def rear_vectors(owner: str, facing: str, reference: str) -> list[tuple[int, int]]:
    """R, RL, RR as vectors, towards the home edge or opposite the facing."""
    if reference == "home_edge":
        dy = -1 if owner == "south" else 1
        return [(0, dy), (-1, dy), (1, dy)]
    fx, fy = VEC[facing]
    lx, ly = left_of(facing)
    return [(-fx, -fy), (-fx + lx, -fy + ly), (-fx - lx, -fy - ly)]


def rear_candidates(sector: str, owner: str, facing: str, reference: str) -> list[str]:
    """R, RL, RR sector names; OFF for a candidate beyond the board edge (listed once)."""
    out: list[str] = []
    for v in rear_vectors(owner, facing, reference):
        n = shift(sector, *v)
        n = OFF if n is None else n
        if n not in out:
            out.append(n)
    return out


def straight_rear(sector: str, owner: str, facing: str, reference: str) -> str | None:
    return shift(sector, *rear_vectors(owner, facing, reference)[0])


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def is_flank(attacker: str, target: str, target_facing: str) -> bool:
    """True when the attacker is not in the target's front row (§2.8.4)."""
    ax, ay = xy(attacker)
    tx, ty = xy(target)
    dx, dy = sign(ax - tx), sign(ay - ty)
    fx, fy = VEC[target_facing]
    return dx * fx + dy * fy <= 0


def adjacent(a: str, b: str) -> bool:
    ax, ay = xy(a)
    bx, by = xy(b)
    return a != b and abs(ax - bx) <= 1 and abs(ay - by) <= 1


def zone_of(sector: str, zone_columns: dict[str, list[str]]) -> str:
    for zone, cols in zone_columns.items():
        if sector[0] in cols:
            return zone
    raise ValueError(f"sector {sector} is in no zone")

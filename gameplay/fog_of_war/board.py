"""Provinces: what the source names (ledger mode) and a group-entered map (full mode), plus supply."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .limits import (MAX_KEY, MAX_NAME, MAX_NEIGHBOURS, MAX_PROVINCE_NUMBER, MAX_PROVINCES, LimitError)

SIDES = ("axis", "allies")


def other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


# key: (ru, en, kind, start control, supply point of, activation, USSR (None: the setting), Allied free look)
KNOWN_PROVINCES: dict[str, tuple] = {
    "berlin": ("Берлин", "Berlin", "land", "axis", "axis", "always", False, False),
    "ruhr": ("Рур", "Ruhr", "land", "axis", "axis", "always", False, False),
    "poland": ("Польша", "Poland", "land", "axis", None, "always", False, False),
    "italy": ("Италия", "Italy", "land", "axis", "axis", "always", False, False),
    "libya": ("Ливия", "Libya", "land", "axis", None, "always", False, False),
    "western_mediterranean": ("Западное Средиземноморье", "Western Mediterranean", "sea", "axis", None, "always", False, False),
    "britain": ("Британия", "Britain", "land", "allies", "allies", "always", False, False),
    "paris": ("Париж", "Paris", "land", "allies", "allies", "always", False, False),
    "vichy": ("Виши", "Vichy", "land", "allies", None, "always", False, False),
    "morocco": ("Марокко", "Morocco", "land", "allies", None, "always", False, False),
    "egypt": ("Египет", "Egypt", "land", "allies", "allies", "always", False, False),
    "lebanon": ("Ливан", "Lebanon", "land", "allies", None, "always", False, False),
    "north_sea": ("Северное море", "North Sea", "sea", "allies", None, "always", False, False),
    "north_atlantic": ("Северная Атлантика", "North Atlantic", "sea", "allies", None, "always", False, False),
    "eastern_mediterranean": ("Восточное Средиземноморье", "Eastern Mediterranean", "sea", "allies", None, "always", False, False),
    "baltics": ("Прибалтика", "Baltics", "land", "neutral", None, "always", None, True),
    "kiev": ("Киев", "Kiev", "land", "neutral", None, "always", None, True),
    "odessa": ("Одесса", "Odessa", "land", "neutral", None, "always", None, True),
    "balkans": ("Балканы", "Balkans", "land", "neutral", None, "always", None, False),
    "ural": ("Урал", "Ural", "land", "neutral", "allies", "ussr_at_war", None, False),
    "north_america": ("Северная Америка", "North America", "land", "neutral", "allies", "usa_at_war", None, False),
}
# USSR membership (B-43) is the ``ussr_provinces`` setting unless a map marks a province: ``None`` here
FORBIDDEN_ATTACKS = {("north_sea", "ruhr")}  # (origin, target) named by the source
PARIS_CASCADE = ("vichy", "morocco", "lebanon")
BRITAIN_CASCADE = ("egypt",)


class MapError(ValueError):
    """A malformed group-entered map."""


class MapLimitError(MapError, LimitError):
    """A map beyond the bounds of ``limits`` (RU/EN in ``ru`` / ``en``)."""


def _check_row_size(row: dict) -> None:
    """One province row within the bounds, before anything is built from it."""
    key = row["key"]
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY:
        raise MapLimitError(f"Ключ провинции — строка не длиннее {MAX_KEY} символов.",
                            f"A province key is a text of at most {MAX_KEY} characters.")
    for name in ("name_ru", "name_en"):
        if name in row and (not isinstance(row[name], str) or len(row[name]) > MAX_NAME):
            raise MapLimitError(f"Провинция {key}: название — не длиннее {MAX_NAME} символов.",
                                f"Province {key}: a name is at most {MAX_NAME} characters.")
    for name in ("neighbours", "no_attack_from"):
        if name in row and (not isinstance(row[name], list) or len(row[name]) > MAX_NEIGHBOURS
                            or not all(isinstance(n, str) for n in row[name])):
            raise MapLimitError(f"Провинция {key}: не больше {MAX_NEIGHBOURS} соседей (список ключей).",
                                f"Province {key}: at most {MAX_NEIGHBOURS} neighbours (a list of keys).")
    for name in ("vp", "resources"):
        v = row.get(name, 0)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_PROVINCE_NUMBER:
            raise MapLimitError(f"Провинция {key}: ПО и ресурсы — целые числа от 0 до {MAX_PROVINCE_NUMBER}.",
                                f"Province {key}: VP and resources are whole numbers from 0 to {MAX_PROVINCE_NUMBER}.")


@dataclass
class ProvinceDef:
    """Static facts of one province (printed on the board or its province cards)."""

    key: str
    name_ru: str = ""
    name_en: str = ""
    kind: str = "land"
    vp: int = 0
    resources: int = 0
    climate: str = "none"  # sun | snow | none (winter bonus 0 / 2 / 1)
    neighbours: list[str] = field(default_factory=list)
    start_control: str = "neutral"
    supply_point_of: str | None = None
    supply_activation: str = "always"  # always | ussr_at_war | usa_at_war
    is_ussr: bool | None = None  # None: the ``ussr_provinces`` setting decides (B-43)
    no_attack_from: list[str] = field(default_factory=list)
    allies_may_view_neutral: bool = False
    orange: bool = False
    neutral_area: bool = False
    unknown: list[str] = field(default_factory=list)  # facts the map leaves blank (asked where they matter)


def known_def(key: str) -> ProvinceDef:
    """What the source says about a named province (no map data)."""
    ru, en, kind, ctrl, sp, act, ussr, look = KNOWN_PROVINCES[key]
    return ProvinceDef(key, ru, en, kind, start_control=ctrl, supply_point_of=sp, supply_activation=act,
                       is_ussr=ussr, allies_may_view_neutral=look,
                       no_attack_from=[o for o, t in FORBIDDEN_ATTACKS if t == key])


@dataclass
class BoardMap:
    """A group-entered map. Adjacency is made symmetric; source facts fill unspecified fields."""

    provinces: dict[str, ProvinceDef] = field(default_factory=dict)
    adjacency_known: bool = True  # False: an incomplete map (not connected): adjacency and supply are asked

    @classmethod
    def from_dict(cls, data: dict) -> "BoardMap":
        rows = data.get("provinces") if isinstance(data, dict) else None
        if not isinstance(rows, list) or not rows:
            raise MapError("map needs a non-empty 'provinces' list")
        if len(rows) > MAX_PROVINCES:
            raise MapLimitError(f"На карте не больше {MAX_PROVINCES} провинций.",
                                f"A map holds at most {MAX_PROVINCES} provinces.")
        provs: dict[str, ProvinceDef] = {}
        allowed = set(ProvinceDef.__dataclass_fields__)
        for row in rows:
            if not isinstance(row, dict) or "key" not in row:
                raise MapError("each province needs a 'key'")
            _check_row_size(row)
            extra = set(row) - allowed
            if extra:
                raise MapError(f"province {row['key']}: unknown field(s) {sorted(extra)}")
            base = known_def(row["key"]) if row["key"] in KNOWN_PROVINCES else ProvinceDef(row["key"])
            merged = {**base.__dict__, **row}
            merged["neighbours"] = list(merged["neighbours"])
            p = ProvinceDef(**merged)
            if p.kind not in ("land", "sea") or p.climate not in ("sun", "snow", "none"):
                raise MapError(f"province {p.key}: kind must be land/sea and climate sun/snow/none")
            if p.key in provs:
                raise MapError(f"duplicate province {p.key}")
            provs[p.key] = p
        for p in provs.values():
            for n in p.neighbours + p.no_attack_from:
                if n not in provs:
                    raise MapError(f"province {p.key}: unknown neighbour {n}")
        for p in provs.values():
            for n in p.neighbours:
                if p.key not in provs[n].neighbours:
                    provs[n].neighbours.append(p.key)
        if any(len(p.neighbours) > MAX_NEIGHBOURS for p in provs.values()):  # made symmetric
            raise MapLimitError(f"У провинции не больше {MAX_NEIGHBOURS} соседей (считая обратные связи).",
                                f"A province has at most {MAX_NEIGHBOURS} neighbours (counting the links back).")
        return cls(provs)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.provinces[a].neighbours


def winter_bonus(climate: str) -> int:
    """Defender's winter bonus by the province's icon: sun 0, snow 2, anything else 1 (B-42)."""
    return {"sun": 0, "snow": 2}.get(climate, 1)


def active_supply_points(board: BoardMap, side: str, control: dict, flags: dict, captor_supplied=False) -> set[str]:
    """Supply points of ``side`` that currently supply it (§2.9, B-15, B-18)."""
    out = set()
    for p in board.provinces.values():
        owner = p.supply_point_of
        if owner is None or control.get(p.key) != side:
            continue
        if owner != side and not captor_supplied:
            continue
        if owner == side and p.supply_activation != "always" and not flags.get(p.supply_activation):
            continue
        out.add(p.key)
    return out


def supplied_set(board: BoardMap, side: str, control: dict, quagmires: set, flags: dict,
                 seas_pass=True, captor_supplied=False, quagmire_supply: str = "no_through") -> set[str]:
    """BFS from active supply points over own-controlled provinces, never *through* a quagmire (§2.9).

    ``no_through`` (B-44, the seed's «через»): a quagmire province can be supplied and a supply point in
    quagmire still supplies; only passing on beyond a quagmire province is barred. ``blocks_fully`` (house
    rule, the tracker's former reading): a quagmire province is unsupplied and supplies nothing."""
    points = active_supply_points(board, side, control, flags, captor_supplied)
    fully = quagmire_supply == "blocks_fully"
    start = {k for k in points if not (fully and k in quagmires)}
    seen, todo = set(start), deque(start)
    while todo:
        cur = todo.popleft()
        if not seas_pass and board.provinces[cur].kind == "sea" and cur not in start:
            continue
        if cur in quagmires and cur not in start:
            continue  # supplied, but passes nothing on
        for n in board.provinces[cur].neighbours:
            if n not in seen and control.get(n) == side and not (fully and n in quagmires):
                seen.add(n)
                todo.append(n)
    return seen

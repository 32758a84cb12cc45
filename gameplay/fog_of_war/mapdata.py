"""Map and wheel files: the data a club enters once (spec §1.5, B-1, B-3), shared as YAML or JSON.

A **map file** (``format: fog_of_war_map/1``; the shipped ``data/map_partial.yaml`` is one)::

    name: <text>
    provinces:            # at most MAX_FILE_PROVINCES
      - key: norway       # lowercase latin letters, digits, _
        name_ru / name_en: <text>
        kind: land | sea                       (required)
        start_control: axis | allies | neutral | null
        supply_point_of: axis | allies | null
        supply_activation: always | ussr_at_war | usa_at_war
        neutral_area / orange / is_ussr / allies_may_view_neutral: true | false | null
        vp / resources: 0..99 | null
        climate: sun | snow | none | null     (none: the province prints no icon)
        no_attack_from: [keys]
        from_rules: {field: rule}  readings: {field: why}   # where a fact comes from
    edges:                # at most MAX_EDGES
      - between: [a, b]   (readings / from_rules: optional text)
    cards:                # optional: the card values of each side's physical set (one-tap reveal)
      axis / allies / neutral: [L3, N2, F1, Z, ...]

``null`` is a fact nobody has entered: never invented, asked by the game where it matters.
A **wheel file** (``format: fog_of_war_wheel/1``) lists 6 positions: ``no_intel`` (bool), ``launchable``
(true / false / null) and ``modifier`` (none / A+1 / D+1 / null).

Every input is bounded before anything is built from it: the text's length, YAML anchors and aliases
(refused: a short text could expand into a huge structure), then counts and lengths.
"""
from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path

import yaml

from .board import KNOWN_PROVINCES, BoardMap, ProvinceDef
from .cards import parse_card
from .limits import MAX_CARDS, MAX_KEY, MAX_NAME, MAX_PROVINCE_NUMBER, LimitError

DATA_DIR = Path(__file__).resolve().parent / "data"
PARTIAL_MAP = DATA_DIR / "map_partial.yaml"
RULES_WHEEL_FILE = DATA_DIR / "wheel.yaml"
MAP_FORMAT, WHEEL_FORMAT = "fog_of_war_map/1", "fog_of_war_wheel/1"
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_FILE_CHARS = 60_000  # 28 provinces with every fact and its source take about 12,000
MAX_FILE_PROVINCES = 64  # the printed board has 28
MAX_EDGES = 400
MAX_NOTE = 200  # a from_rules / readings text
COMPLETE_COUNT = 28  # land and sea provinces of the printed board
KEY_RE = re.compile(r"^[a-z][a-z0-9_]*$")

SIDES3 = ("axis", "allies", "neutral")
CLIMATES = ("sun", "snow", "none")
MODIFIERS = ("none", "A+1", "D+1")
FACTS = ("name_ru", "name_en", "kind", "start_control", "supply_point_of", "supply_activation", "neutral_area",
         "orange", "is_ussr", "allies_may_view_neutral", "vp", "resources", "climate", "no_attack_from")
PROVINCE_FIELDS = ("key", *FACTS, "from_rules", "readings")
BLANK_MATTERS = ("vp", "resources", "climate")  # blanks the game asks for (year end, winter battles)


class MapFileError(LimitError):
    """A map or wheel file that cannot be used: ``ru`` and ``en`` say why, in the players' words."""


def _err(ru: str, en: str) -> MapFileError:
    return MapFileError(ru, en)


def read_text(text) -> dict:
    """YAML or JSON text -> a mapping: bounded in length, anchors and aliases refused before composing."""
    if not isinstance(text, str):
        raise _err("Файл карты — это текст.", "A map file is a text.")
    if len(text) > MAX_FILE_CHARS:
        raise _err(f"Файл — не больше {MAX_FILE_CHARS} символов.", f"A file has at most {MAX_FILE_CHARS} characters.")
    try:
        if any(isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None) for ev in yaml.parse(text, Loader=LOADER)):
            raise _err("Якоря и ссылки YAML (& и *) не допускаются.", "YAML anchors and aliases (& and *) are not allowed.")
        data = yaml.load(text, Loader=LOADER)  # JSON is YAML too
    except yaml.YAMLError as exc:
        line = str(exc).splitlines()[0][:200]
        raise _err(f"Это не YAML или JSON: {line}", f"Not YAML or JSON: {line}") from None
    except (ValueError, TypeError, RecursionError):  # e.g. a number of 5,000 digits, nesting past the stack
        raise _err("В файле значение, которое нельзя прочитать (слишком длинное число или слишком глубокая "
                   "вложенность).", "The file holds a value that cannot be read (a number too long or nesting "
                   "too deep).") from None
    if not isinstance(data, dict):
        raise _err("Файл должен быть словарём (строки «ключ: значение»).", "The file must be a mapping (key: value lines).")
    return data


def _note(v, what: str) -> None:
    if v is None:
        return
    if isinstance(v, str):
        if len(v) > MAX_NOTE:
            raise _err(f"{what}: пометка источника — не длиннее {MAX_NOTE} символов.",
                       f"{what}: a source note is at most {MAX_NOTE} characters.")
        return
    if not isinstance(v, dict) or len(v) > len(FACTS) or not all(
            k in FACTS and isinstance(t, str) and len(t) <= MAX_NOTE for k, t in v.items()):
        raise _err(f"{what}: from_rules/readings — поле: короткий текст.",
                   f"{what}: from_rules/readings map a field to a short text.")


def _choice(row: dict, name: str, allowed, key: str) -> None:
    if row.get(name) is not None and row[name] not in allowed:
        raise _err(f"Провинция {key}: {name} — одно из {', '.join(map(str, allowed))} или пусто.",
                   f"Province {key}: {name} is one of {', '.join(map(str, allowed))} or blank.")


def _province(row, seen: set) -> dict:
    if not isinstance(row, dict):
        raise _err("Каждая провинция — словарь с ключом key.", "Each province is a mapping with a key.")
    key = row.get("key")
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY or not KEY_RE.match(key):
        raise _err(f"Ключ провинции: латинские строчные буквы, цифры и _, до {MAX_KEY} символов.",
                   f"A province key: lowercase latin letters, digits and _, at most {MAX_KEY} characters.")
    if key in seen:
        raise _err(f"Провинция {key} повторяется.", f"Province {key} appears twice.")
    extra = sorted(str(k) for k in set(row) - set(PROVINCE_FIELDS))
    if extra:
        raise _err(f"Провинция {key}: неизвестные поля {', '.join(map(str, extra))[:100]}.",
                   f"Province {key}: unknown fields {', '.join(map(str, extra))[:100]}.")
    for name in ("name_ru", "name_en"):
        v = row.get(name)
        if v is not None and (not isinstance(v, str) or len(v) > MAX_NAME):
            raise _err(f"Провинция {key}: название — не длиннее {MAX_NAME} символов.",
                       f"Province {key}: a name is at most {MAX_NAME} characters.")
    if row.get("kind") not in ("land", "sea"):
        raise _err(f"Провинция {key}: укажите вид — суша (land) или море (sea).",
                   f"Province {key}: give its kind, land or sea.")
    _choice(row, "start_control", SIDES3, key)
    _choice(row, "supply_point_of", ("axis", "allies"), key)
    _choice(row, "supply_activation", ("always", "ussr_at_war", "usa_at_war"), key)
    _choice(row, "climate", CLIMATES, key)
    for name in ("neutral_area", "orange", "is_ussr", "allies_may_view_neutral"):
        _choice(row, name, (True, False), key)
    for name in ("vp", "resources"):
        v = row.get(name)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_PROVINCE_NUMBER):
            raise _err(f"Провинция {key}: ПО и ресурсы — целые от 0 до {MAX_PROVINCE_NUMBER} или пусто.",
                       f"Province {key}: VP and resources are whole numbers from 0 to {MAX_PROVINCE_NUMBER}, or blank.")
    naf = row.get("no_attack_from") or []
    if not isinstance(naf, list) or len(naf) > 8 or not all(isinstance(x, str) and len(x) <= MAX_KEY for x in naf):
        raise _err(f"Провинция {key}: no_attack_from — список до 8 ключей.",
                   f"Province {key}: no_attack_from is a list of at most 8 keys.")
    _note(row.get("from_rules"), key)
    _note(row.get("readings"), key)
    seen.add(key)
    return {k: row[k] for k in PROVINCE_FIELDS if k in row}


def _edge(e, keys: set) -> tuple[str, str]:
    pair = e.get("between") if isinstance(e, dict) else e
    if isinstance(e, dict):
        if set(e) - {"between", "from_rules", "readings"}:
            raise _err("Связь: поля between, from_rules, readings.", "An edge has the fields between, from_rules, readings.")
        _note(e.get("from_rules"), "edge")
        _note(e.get("readings"), "edge")
    if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
        raise _err("Связь — пара ключей провинций.", "An edge is a pair of province keys.")
    a, b = pair
    if a == b or a not in keys or b not in keys:
        raise _err(f"Связь {a[:MAX_KEY]}–{b[:MAX_KEY]}: две разные провинции карты.",
                   f"Edge {a[:MAX_KEY]}–{b[:MAX_KEY]}: two different provinces of the map.")
    return (a, b) if a < b else (b, a)


def _cards(data) -> dict:
    if data is None:
        return {}
    if not isinstance(data, dict) or set(data) - set(SIDES3):
        raise _err("cards: списки axis, allies, neutral.", "cards: lists axis, allies, neutral.")
    out = {}
    for side, specs in data.items():
        if not isinstance(specs, list) or len(specs) > MAX_CARDS or not all(isinstance(x, str) and len(x) <= 4 for x in specs):
            raise _err(f"cards.{side}: до {MAX_CARDS} кодов карт (L3, N2, F1, A2, Z).",
                       f"cards.{side}: at most {MAX_CARDS} card codes (L3, N2, F1, A2, Z).")
        try:
            for x in specs:
                parse_card(x, side)
        except ValueError:
            raise _err(f"cards.{side}: коды вида L3, N2, F1, A2, Z.", f"cards.{side}: codes such as L3, N2, F1, A2, Z.") from None
        out[side] = [x.strip().upper() for x in specs]
    return out


def check_map(data: dict) -> dict:
    """A map file's data, checked and normalised (edges as sorted pairs). Raises ``MapFileError``."""
    if not isinstance(data, dict):
        raise _err("Карта — словарь.", "A map is a mapping.")
    extra = sorted(str(k) for k in set(data) - {"format", "name", "provinces", "edges", "cards"})
    if extra:
        raise _err(f"Неизвестные разделы: {', '.join(map(str, extra))[:100]}.", f"Unknown sections: {', '.join(map(str, extra))[:100]}.")
    if data.get("format", MAP_FORMAT) != MAP_FORMAT:
        raise _err(f"Формат файла карты — {MAP_FORMAT}.", f"A map file's format is {MAP_FORMAT}.")
    name = data.get("name") or ""
    if not isinstance(name, str) or len(name) > MAX_NAME:
        raise _err(f"Имя карты — до {MAX_NAME} символов.", f"A map's name is at most {MAX_NAME} characters.")
    rows = data.get("provinces") or []
    if not isinstance(rows, list):
        raise _err("provinces — список.", "provinces is a list.")
    if len(rows) > MAX_FILE_PROVINCES:
        raise _err(f"На карте не больше {MAX_FILE_PROVINCES} провинций.", f"A map holds at most {MAX_FILE_PROVINCES} provinces.")
    seen: set = set()
    provinces = [_province(r, seen) for r in rows]
    for p in provinces:
        for o in p.get("no_attack_from") or []:
            if o not in seen:
                raise _err(f"Провинция {p['key']}: no_attack_from — неизвестная провинция {o}.",
                           f"Province {p['key']}: no_attack_from names an unknown province {o}.")
    raw_edges = data.get("edges") or []
    if not isinstance(raw_edges, list) or len(raw_edges) > MAX_EDGES:
        raise _err(f"Связей — не больше {MAX_EDGES}.", f"At most {MAX_EDGES} edges.")
    edges, notes = [], {}
    for e in raw_edges:
        pair = _edge(e, seen)
        if pair not in notes:
            edges.append(list(pair))
            notes[pair] = {k: e[k] for k in ("from_rules", "readings") if isinstance(e, dict) and k in e}
    out = {"format": MAP_FORMAT, "name": name, "provinces": provinces,
           "edges": [{"between": list(p), **notes[tuple(p)]} for p in edges]}
    cards = _cards(data.get("cards"))
    if cards:
        out["cards"] = cards
    return out


def load_map_text(text) -> dict:
    return check_map(read_text(text))


def partial_map() -> dict:
    """The shipped map of what the quick rules state (every other fact blank)."""
    return load_map_text(PARTIAL_MAP.read_text(encoding="utf-8"))


def neighbours(data: dict) -> dict[str, set]:
    out = {p["key"]: set() for p in data["provinces"]}
    for e in data["edges"]:
        a, b = e["between"]
        out[a].add(b)
        out[b].add(a)
    return out


def connected(data: dict) -> bool:
    adj = neighbours(data)
    if not adj:
        return False
    start = next(iter(adj))
    seen, todo = {start}, deque([start])
    while todo:
        for n in adj[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(adj)


def missing_facts(data: dict) -> dict[str, list[str]]:
    """Per province, the facts left blank that the game would ask for (VP, resources, climate)."""
    out = {}
    for p in data["provinces"]:
        blank = [f for f in BLANK_MATTERS if p.get(f) is None]
        if blank:
            out[p["key"]] = blank
    return out


def validate(data: dict) -> dict:
    """The editor's checks: connected, every province the rules name present, 28 when complete."""
    keys = [p["key"] for p in data["provinces"]]
    missing = [k for k in KNOWN_PROVINCES if k not in keys]
    conn = connected(data)
    isolated = [k for k, v in neighbours(data).items() if not v]
    return {"count": len(keys), "complete_count": COMPLETE_COUNT, "connected": conn, "isolated": isolated,
            "missing_named": missing, "edges": len(data["edges"]), "missing_facts": missing_facts(data),
            "complete": conn and not missing and len(keys) == COMPLETE_COUNT}


def to_board(data: dict) -> BoardMap:
    """The engine's map: blanks become the engine's neutral values and are listed in ``unknown``; adjacency
    and supply are computed only when the map is connected (else the players are asked, as without a map)."""
    adj = neighbours(data)
    provs = {}
    for p in data["provinces"]:
        unknown = [f for f in ("vp", "resources", "climate", "start_control", "orange", "neutral_area")
                   if p.get(f) is None]
        provs[p["key"]] = ProvinceDef(
            p["key"], p.get("name_ru") or "", p.get("name_en") or "", p["kind"], vp=p.get("vp") or 0,
            resources=p.get("resources") or 0, climate=p.get("climate") or "none", neighbours=sorted(adj[p["key"]]),
            start_control=p.get("start_control") or "neutral", supply_point_of=p.get("supply_point_of"),
            supply_activation=p.get("supply_activation") or "always", is_ussr=p.get("is_ussr"),
            no_attack_from=list(p.get("no_attack_from") or []),
            allies_may_view_neutral=bool(p.get("allies_may_view_neutral")), orange=bool(p.get("orange")),
            neutral_area=bool(p.get("neutral_area")), unknown=unknown)
    return BoardMap(provs, adjacency_known=connected(data))


def dump(data: dict) -> str:
    """A map or wheel as YAML text (the export file), readable back by ``read_text``."""
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120)


def dump_json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


# --- the wheel ----------------------------------------------------------------------------------------

def check_wheel(data: dict) -> dict:
    """A wheel file's data, checked. Raises ``MapFileError``."""
    if not isinstance(data, dict) or set(data) - {"format", "name", "positions"}:
        raise _err("Колесо: разделы format, name, positions.", "A wheel has the sections format, name, positions.")
    if data.get("format", WHEEL_FORMAT) != WHEEL_FORMAT:
        raise _err(f"Формат файла колеса — {WHEEL_FORMAT}.", f"A wheel file's format is {WHEEL_FORMAT}.")
    name = data.get("name") or ""
    if not isinstance(name, str) or len(name) > MAX_NAME:
        raise _err(f"Имя колеса — до {MAX_NAME} символов.", f"A wheel's name is at most {MAX_NAME} characters.")
    rows = data.get("positions")
    if not isinstance(rows, list) or len(rows) != 6:
        raise _err("На колесе ровно 6 позиций (0 — NEW OP).", "A wheel has exactly 6 positions (0 is NEW OP).")
    out = []
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or set(r) - {"position", "no_intel", "launchable", "modifier", "from_rules", "readings"}:
            raise _err(f"Позиция {i}: поля no_intel, launchable, modifier.", f"Position {i}: fields no_intel, launchable, modifier.")
        if r.get("position", i) != i or not isinstance(r.get("no_intel", False), bool) \
                or r.get("launchable") not in (True, False, None) or r.get("modifier") not in (*MODIFIERS, None):
            raise _err(f"Позиция {i}: no_intel да/нет, launchable да/нет/пусто, modifier none/A+1/D+1/пусто.",
                       f"Position {i}: no_intel yes/no, launchable yes/no/blank, modifier none/A+1/D+1/blank.")
        for note in (r.get("from_rules"), r.get("readings")):
            if note is not None and not (isinstance(note, dict) and len(note) <= 3 and all(
                    isinstance(t, str) and len(t) <= MAX_NOTE for t in note.values())):
                raise _err(f"Позиция {i}: from_rules — до 3 коротких пометок.", f"Position {i}: from_rules holds up to 3 short notes.")
        out.append({"position": i, "no_intel": bool(r.get("no_intel", False)), "launchable": r.get("launchable"),
                    "modifier": r.get("modifier"), **({"from_rules": r["from_rules"]} if isinstance(r.get("from_rules"), dict) else {})})
    if not out[0]["no_intel"]:
        raise _err("Позиция 0 (NEW OP) всегда с отметкой No Intel (2.4).", "Position 0 (NEW OP) always has the no-intel mark (2.4).")
    return {"format": WHEEL_FORMAT, "name": name, "positions": out}


def load_wheel_text(text) -> dict:
    return check_wheel(read_text(text))


def rules_wheel() -> dict:
    return load_wheel_text(RULES_WHEEL_FILE.read_text(encoding="utf-8"))


def wheel_positions(data: dict) -> list[dict]:
    """The engine's ``wheel_positions`` setting of a wheel file."""
    return [{"no_intel": p["no_intel"], "launchable": p["launchable"], "modifier": p["modifier"]} for p in data["positions"]]

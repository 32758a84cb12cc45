"""The Fog of War scenarios: a set-up, a list of commands each with its expected answer, and facts the final table
must hold — what ``manage.py fogofwar_play`` runs and what the rulings corpus (``rulings/``) is made of.

A scenario is a JSON object of one of two kinds (docs/fog-of-war.md, "Scenarios and rulings"):

- a **game**: ``setup`` (the stepper's new-game set-up: ``settings``, ``axis_cards``, ``allies_cards``,
  ``neutral_cards``, ``board``, ``seed``), ``set`` (engine facts written over the set-up, by dotted path; a list of
  card codes becomes cards), ``commands`` (stepper commands, each with ``expect``) and ``expect_table``;
- a **battle**: ``battle`` (one case of ``case.battle_case``) and ``expect`` (facts of its result).

Everything is checked before it runs: a malformed scenario raises :class:`ScenarioError` (the command's exit
status 2); a disagreement between an answer and its ``expect`` is reported, never raised.
"""
from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gameplay.common.corpus import Verdict

from .case import CaseError, battle_case
from .cards import parse_card
from .state import GameState
from .stepper import HANDLERS, STEPPER

GAME_KEYS = {"setup", "set", "commands", "expect_table"}
INFO_KEYS = {"title", "summary", "rules_on", "cites", "why", "note"}
COMMAND_INFO = {"expect", "why"}
EXPECT_KEYS = {"ok", "code", "says", "notes"}
CARD_FIELDS = {"hand", "deck", "discard", "wins", "losses", "neutral_cards", "removed", "cards", "axis", "allies"}
HAND_REF = re.compile(r"^#(\d+)$")
MAX_COMMANDS = 200


class ScenarioError(ValueError):
    """The scenario itself is malformed (not a disagreement)."""


@dataclass
class Step:
    n: int
    command: dict
    ok: bool
    code: str
    ru: str
    en: str
    problems: list[str] = field(default_factory=list)


@dataclass
class Report:
    kind: str
    steps: list[Step] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # every disagreement, the steps' included
    final: dict = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return not self.problems


def run(scenario: Any) -> Report:
    """Run one scenario; raises :class:`ScenarioError` when it is malformed."""
    if not isinstance(scenario, dict):
        raise ScenarioError("a scenario is a JSON object")
    if "battle" in scenario:
        return _run_battle(scenario)
    if "commands" not in scenario and "setup" not in scenario:
        raise ScenarioError("a scenario has 'setup' and 'commands' (a game) or 'battle' (one battle)")
    return _run_game(scenario)


# --- one battle --------------------------------------------------------------------------------------
def _run_battle(sc: dict) -> Report:
    unknown = set(sc) - {"battle", "expect"} - INFO_KEYS
    if unknown:
        raise ScenarioError(f"unknown key(s) {sorted(unknown)}")
    try:
        result = battle_case(sc["battle"])
    except CaseError as exc:
        raise ScenarioError(f"bad battle case: {exc}") from None
    report = Report("battle", final=result)
    expect = sc.get("expect", {})
    if not isinstance(expect, dict):
        raise ScenarioError("'expect' is an object")
    report.problems += [f"battle: {p}" for p in _subset(expect, result, "")]
    return report


# --- a game ------------------------------------------------------------------------------------------
def _run_game(sc: dict) -> Report:
    unknown = set(sc) - GAME_KEYS - INFO_KEYS
    if unknown:
        raise ScenarioError(f"unknown key(s) {sorted(unknown)}")
    setup = {"axis_cards": "20", "allies_cards": "20", "neutral_cards": "15", "seed": 0, **(sc.get("setup") or {})}
    try:
        table = STEPPER.new_state(setup)
    except ValueError as exc:
        raise ScenarioError(f"bad setup: {exc}") from None
    edits = sc.get("set") or {}
    if not isinstance(edits, dict):
        raise ScenarioError("'set' maps dotted paths of the engine state to values")
    for path, value in edits.items():
        _put(table["engine"], path, _cards_in(path, value))
    try:
        table["engine"] = GameState.from_dict(table["engine"]).to_dict()
    except (ValueError, TypeError, KeyError) as exc:
        raise ScenarioError(f"'set' leaves no valid state: {exc}") from None
    table["ledger"] = _has_unknown(table["engine"])
    commands = sc.get("commands") or []
    if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
        raise ScenarioError(f"'commands' is a list of at most {MAX_COMMANDS} commands")
    report = Report("game")
    rng = random.Random(0)
    for n, raw in enumerate(commands, 1):
        if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
            raise ScenarioError(f"command {n}: an object with a 'type'")
        if raw["type"] not in HANDLERS:
            raise ScenarioError(f"command {n}: unknown type {raw['type']!r} (docs/fog-of-war.md lists them)")
        if "expect" not in raw:
            raise ScenarioError(f"command {n}: every command states its 'expect'")
        expect = raw["expect"]
        if not isinstance(expect, dict) or "ok" not in expect or set(expect) - EXPECT_KEYS:
            raise ScenarioError(f"command {n}: 'expect' has 'ok' and maybe {sorted(EXPECT_KEYS - {'ok'})}")
        command = _resolve_cards({k: v for k, v in raw.items() if k not in COMMAND_INFO}, table)
        out = STEPPER.apply(table, STEPPER.prepare(table, command, rng))
        step = Step(n, command, out.ok, out.reason.code if out.reason else "", out.reason.ru if out.reason else "",
                    out.reason.en if out.reason else "")
        step.problems = _check_answer(expect, step, [x.code for x in (out.notes or ())])
        report.steps.append(step)
        report.problems += [f"command {n} ({command['type']}): {p}" for p in step.problems]
        if out.ok:
            table = out.state
    expect_table = sc.get("expect_table") or {}
    if not isinstance(expect_table, dict):
        raise ScenarioError("'expect_table' maps dotted paths to values")
    for path, want in expect_table.items():
        got = _get(table, path)
        if isinstance(want, int) and not isinstance(want, bool) and isinstance(got, list):
            got = len(got)
        if got != want:
            report.problems.append(f"table {path}: expected {want!r}, got {got!r}")
    report.final = summary(table)
    return report


def _check_answer(expect: dict, step: Step, notes: list[str]) -> list[str]:
    problems = []
    if bool(expect["ok"]) != step.ok:
        problems.append(f"expected {'accepted' if expect['ok'] else 'refused'}, got "
                        f"{'accepted' if step.ok else 'refused'}: {step.ru}")
    if "code" in expect and expect["code"] != step.code:
        problems.append(f"expected code {expect['code']!r}, got {step.code!r}")
    if "says" in expect and expect["says"] not in step.ru and expect["says"] not in step.en:
        problems.append(f"expected the reason to say {expect['says']!r}: {step.ru} / {step.en}")
    for note in expect.get("notes", []):
        if note not in notes:
            problems.append(f"expected the note {note!r} among {notes}")
    return problems


def summary(table: dict) -> dict:
    """The final table in brief: year, phase, who acts, winner, per side its piles and tokens, who controls what."""
    e = table["engine"]
    sides = {}
    for key, s in e["sides"].items():
        sides[key] = {"deck": len(s["deck"]), "hand": len(s["hand"]), "discard": len(s["discard"]),
                      "wins": len(s["wins"]), "losses": len(s["losses"]), "vp": s["vp"],
                      "production_level": s["production_level"], "intel": [s["intel_available"], s["intel_used"]],
                      "pointer": s["wheel_pointer"],
                      "operations": {o["slot"]: [o["target"], len(o["cards"])] for o in s["operations"]}}
    control = {}
    for key, p in e["provinces"].items():
        control.setdefault(p["control"], []).append(key + (" (quagmire)" if p.get("quagmire") else ""))
    last = table.get("battles", [])[-1:] or [None]
    return {"year": e["year"], "winter": e["winter"], "phase": e["phase"], "active_side": e["active_side"],
            "turn_started": e["turn_started"], "superiority": e["superiority"], "winner": e["winner"],
            "sides": sides, "control": control,
            "last_battle": {k: last[0][k] for k in ("target", "A", "D", "outcome") if k in last[0]} if last[0] else None}


# --- helpers -----------------------------------------------------------------------------------------
def _owner(path: str) -> str:
    for side in ("axis", "allies"):
        if side in path.split("."):
            return side
    return "neutral"


def _cards_in(path: str, value):
    """A list of card codes at a card field becomes cards (ids ``<path>-<n>``); operations get their cards too."""
    last = path.split(".")[-1]
    if last == "operations" and isinstance(value, list):
        return [{**op, "cards": _codes(f"{path}.{op.get('slot', '')}", op.get("cards", []), _owner(path))}
                if isinstance(op, dict) else op for op in value]
    if last in CARD_FIELDS and isinstance(value, list) and all(isinstance(v, (str, dict)) for v in value):
        return _codes(path, value, _owner(path))
    return value


def _codes(path: str, codes: list, owner: str) -> list[dict]:
    out = []
    for i, code in enumerate(codes, 1):
        if isinstance(code, dict) and "id" in code and "category" in code:
            out.append(code)
            continue
        try:
            card = parse_card(code, owner, f"{path.replace('.', '-')}-{i}")
        except ValueError as exc:
            raise ScenarioError(f"{path}: {exc}") from None
        out.append({"id": f"{path.replace('.', '-')}-{i}" if isinstance(code, str) else card.id, "owner": owner,
                    "category": card.category, "land": card.land, "sea": card.sea, "name": card.name,
                    "set": card.set, "face_up": False, "known_to_opponent": False})
    return out


def _has_unknown(engine: dict) -> bool:
    def walk(x):
        if isinstance(x, dict):
            return x.get("category") == "unknown" or any(walk(v) for v in x.values())
        if isinstance(x, list):
            return any(walk(v) for v in x)
        return False
    return walk(engine["sides"]) or walk(engine["provinces"])


def _resolve_cards(command: dict, table: dict) -> dict:
    """``#n`` in a command's ``cards`` is the n-th card of the acting side's hand; a card code (``L3``) is the first
    hand card printing it not named yet; anything else is a card id as it stands."""
    cards = command.get("cards")
    side = command.get("side")
    if not isinstance(cards, list) or side not in ("axis", "allies"):
        return command
    hand = table["engine"]["sides"][side]["hand"]
    out, used = [], set()
    for ref in cards:
        m = HAND_REF.match(ref) if isinstance(ref, str) else None
        if m:
            i = int(m.group(1)) - 1
            if not 0 <= i < len(hand):
                raise ScenarioError(f"{ref}: the hand holds {len(hand)} card(s)")
            out.append(hand[i]["id"])
        elif isinstance(ref, str) and re.match(r"^([LNFA]\d+|Z)$", ref):
            card = parse_card(ref, side)
            match = next((c["id"] for c in hand if c["id"] not in used and c["category"] == card.category
                          and c["land"] == card.land and c["sea"] == card.sea), None)
            out.append(match or ref)
        else:
            out.append(ref)
        used.add(out[-1])
    return {**command, "cards": out}


def _split(path: str) -> list:
    if not isinstance(path, str) or not path:
        raise ScenarioError(f"bad path {path!r}")
    return [int(p) if re.fullmatch(r"-?\d+", p) else p for p in path.split(".")]


def _put(root: dict, path: str, value) -> None:
    keys = _split(path)
    node = root
    try:
        for key in keys[:-1]:
            node = node[key]
        if isinstance(node, dict) and keys[-1] not in node:
            raise KeyError(keys[-1])
        node[keys[-1]] = copy.deepcopy(value)
    except (KeyError, IndexError, TypeError):
        raise ScenarioError(f"'set': no field {path!r} in the engine state") from None


def _get(table: dict, path: str):
    keys = _split(path)
    node = table if keys[0] in ("battles", "intel", "ledger", "supply_answers") else table["engine"]
    try:
        for key in keys:
            node = node[key]
    except (KeyError, IndexError, TypeError):
        return "<absent>"
    return node


def _subset(want, got, where: str) -> list[str]:
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for k, v in want.items():
            out += _subset(v, got.get(k, "<absent>"), f"{where}.{k}" if where else k)
        return out
    if isinstance(want, list) and isinstance(got, list) and sorted(map(repr, want)) == sorted(map(repr, got)):
        return []
    return [] if want == got else [f"{where}: expected {want!r}, got {got!r}"]


# --- files and the rulings corpus ------------------------------------------------------------
MAX_BYTES = 256 * 1024  # a scenario file larger than this is refused before it is parsed


def read(path: str, stdin=None):
    """The scenario of a JSON file (``-``: ``stdin``, a text stream), at most ``MAX_BYTES``."""
    data = stdin.read(MAX_BYTES + 1) if path == "-" and stdin is not None else None
    if data is None:
        p = Path(path)
        if not p.is_file():
            raise ScenarioError(f"no scenario file {path}")
        if p.stat().st_size > MAX_BYTES:
            raise ScenarioError(f"{path}: larger than {MAX_BYTES} bytes")
        data = p.read_text(encoding="utf-8")
    if len(data) > MAX_BYTES:
        raise ScenarioError(f"{path}: larger than {MAX_BYTES} bytes")
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: malformed JSON ({exc})") from None


def check_dir(root: str) -> list[Verdict]:
    """The verdict on every ``*.json`` under ``root`` (paths relative to it)."""
    base = Path(root)
    if not base.is_dir():
        raise ScenarioError(f"no directory {root}")
    out = []
    for path in sorted(base.rglob("*.json")):
        name = str(path.relative_to(base))
        try:
            data = read(str(path))
            played = run(data)
        except (ScenarioError, UnicodeDecodeError, RecursionError) as exc:
            out.append(Verdict(name, error=str(exc).splitlines()[0] if str(exc) else "bad input"))
            continue
        title = data.get("title") if isinstance(data, dict) else ""
        title = str((title.get("en") or "") if isinstance(title, dict) else title or "")
        out.append(Verdict(name, title, () if played.agrees else tuple(played.problems) or ("disagrees",)))
    return out

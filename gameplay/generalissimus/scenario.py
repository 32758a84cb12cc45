"""Scenarios and the rulings corpus of «Генералиссимус»: a battle set up by hand and a list of the
stepper's commands, each with the answer it must get, run through the same code path as the web
table (``STEPPER.prepare`` then ``STEPPER.apply``). Format and command vocabulary:
``docs/generalissimus.md`` («Сценарии и разборы»); the corpus: ``gameplay/generalissimus/rulings/``.
"""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import yaml

from gameplay.common import Outcome
from gameplay.common.corpus import Verdict

from .queries import step_needs_of
from .settings import SettingsError
from .state import StateError
from .stepper import STEPPER, PrepareError, engine_of

MAX_BYTES = 256 * 1024
MAX_COMMANDS = 500
SETUP_KEYS = {"units", "terrain", "settings", "piles", "players", "seed"}
CORPUS_KEYS = {"title", "summary", "rules_on", "cites"}
TOP_KEYS = SETUP_KEYS | CORPUS_KEYS | {"commands", "expect_state"}
EXPECT_KEYS = {"ok", "code", "says", "notes"}
UNIT_FACTS = {"sector", "location", "blocks", "crew", "gun", "formation", "facing", "flag"}
STATE_FACTS = {"units", "phase", "turn", "step", "winner", "current_zone", "needs"}
# every command the stepper accepts (docs/generalissimus.md lists their arguments)
COMMANDS = ("place", "unplace", "confirm", "initiative", "zones", "choose", "dice", "retreat_choice", "react",
            "correct", "agree_correction", "drop_correction", "end_turn")


class ScenarioError(ValueError):
    """The scenario itself is malformed (one line, said in the scenario's terms)."""


def read_json(path: str | Path) -> dict:
    p = Path(path)
    if p.stat().st_size > MAX_BYTES:
        raise ScenarioError(f"{p.name}: larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ScenarioError(f"{p.name}: not valid JSON ({exc})") from None
    return data


def _check_shape(data) -> None:
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    extra = sorted(set(data) - TOP_KEYS)
    if extra:
        raise ScenarioError(f"unknown key(s): {', '.join(extra)}")
    if not isinstance(data.get("units"), list):
        raise ScenarioError("'units' must be a list of units")
    cmds = data.get("commands", [])
    if not isinstance(cmds, list) or len(cmds) > MAX_COMMANDS:
        raise ScenarioError(f"'commands' must be a list of at most {MAX_COMMANDS} commands")
    for i, c in enumerate(cmds, 1):
        if not isinstance(c, dict) or not isinstance(c.get("type"), str):
            raise ScenarioError(f"command {i}: an object with a 'type'")
        if c["type"] not in COMMANDS:
            raise ScenarioError(f"command {i}: unknown type {c['type']!r} (known: {', '.join(COMMANDS)})")
        exp = c.get("expect")
        if exp is not None and (not isinstance(exp, dict) or set(exp) - EXPECT_KEYS):
            raise ScenarioError(f"command {i}: 'expect' has some of {', '.join(sorted(EXPECT_KEYS))}")
    es = data.get("expect_state")
    if es is not None and (not isinstance(es, dict) or set(es) - STATE_FACTS):
        raise ScenarioError(f"'expect_state' has some of {', '.join(sorted(STATE_FACTS))}")


def _unit_facts(u) -> dict:
    d = {"sector": u.sector, "location": u.location, "formation": u.formation, "facing": u.facing, "flag": u.flag}
    if u.kind == "artillery":
        d.update(crew=u.crew, gun=u.gun)
    else:
        d["blocks"] = u.blocks
    return d


def final_state(state: dict) -> dict:
    st = engine_of(state)
    needs, _complete = step_needs_of(state)
    return {"turn": st.turn, "phase": st.phase, "step": st.step, "current_zone": st.current_zone,
            "winner": st.winner, "units": {u.id: _unit_facts(u) for u in st.units},
            "needs": [{k: n[k] for k in ("side", "roll", "unit") if k in n} for n in needs if n.get("entered") is None]}


def _answer(out: Outcome) -> dict:
    return {"ok": out.ok, "code": out.reason.code, "reason": {"ru": out.reason.ru, "en": out.reason.en},
            "notes": [{"code": n.code, "ru": n.ru, "en": n.en} for n in out.notes]}


def _disagrees(i: int, cmd: dict, got: dict) -> list[str]:
    exp = cmd.get("expect") or {}
    out = []
    if "ok" in exp and exp["ok"] != got["ok"]:
        out.append(f"command {i} ({cmd['type']}): expected {'applied' if exp['ok'] else 'refused'}, "
                   f"got {'applied' if got['ok'] else 'refused'}: {got['reason']['en']}")
    if "code" in exp and exp["code"] != got["code"]:
        out.append(f"command {i} ({cmd['type']}): expected code {exp['code']}, got {got['code']}: {got['reason']['en']}")
    if "says" in exp and exp["says"] not in got["reason"]["ru"] and exp["says"] not in got["reason"]["en"]:
        out.append(f"command {i} ({cmd['type']}): the answer does not say {exp['says']!r}: {got['reason']['ru']}")
    for code in exp.get("notes") or []:
        if code not in [n["code"] for n in got["notes"]]:
            out.append(f"command {i} ({cmd['type']}): note {code} missing")
    return out


def _state_disagrees(expect: dict, final: dict) -> list[str]:
    out = []
    for key in ("phase", "turn", "step", "winner", "current_zone"):
        if key in expect and expect[key] != final[key]:
            out.append(f"final {key}: expected {expect[key]!r}, got {final[key]!r}")
    for uid, facts in (expect.get("units") or {}).items():
        have = final["units"].get(uid)
        if have is None:
            out.append(f"final units: no unit {uid}")
            continue
        for k, v in facts.items():
            if k not in UNIT_FACTS:
                raise ScenarioError(f"expect_state.units.{uid}: unknown fact {k!r} (known: {', '.join(sorted(UNIT_FACTS))})")
            if have.get(k) != v:
                out.append(f"final {uid}.{k}: expected {v!r}, got {have.get(k)!r}")
    if "needs" in expect:
        want = [{k: n[k] for k in ("side", "roll", "unit") if k in n} for n in expect["needs"]]
        if want != final["needs"]:
            out.append(f"final needs: expected {want}, got {final['needs']}")
    return out


def run_scenario(data: dict) -> dict:
    """Every command's answer and the final state; ``disagreements`` lists where the answers or the final
    state differ from the scenario's expectations. Raises ScenarioError on a malformed scenario."""
    _check_shape(data)
    players = data.get("players") or {"south": "South", "north": "North"}
    try:
        state = STEPPER.new_state({"units": data["units"], "terrain": data.get("terrain"),
                                   "settings": data.get("settings"), "piles": data.get("piles"), "players": players})
    except (StateError, SettingsError, KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(f"the set-up is not possible: {' '.join(str(exc).split())}") from None
    rng = random.Random(data.get("seed", 0))
    steps, disagreements = [], []
    for i, raw in enumerate(data.get("commands", []), 1):
        cmd = {k: v for k, v in raw.items() if k not in ("expect", "why")}
        try:
            cmd = STEPPER.prepare(state, copy.deepcopy(cmd), rng)
            out = STEPPER.apply(state, cmd)
        except PrepareError as exc:
            out = Outcome(False, exc.reason)
        got = _answer(out)
        steps.append({"n": i, "command": cmd, **got})
        disagreements += _disagrees(i, raw, got)
        if out.ok:
            state = out.state
    final = final_state(state)
    if data.get("expect_state"):
        disagreements += _state_disagrees(data["expect_state"], final)
    return {"commands": steps, "final": final, "disagreements": disagreements}


def rule_ids() -> set[str]:
    path = Path(__file__).parent / "data" / "rules.yaml"
    return {s["id"] for s in yaml.safe_load(path.read_text(encoding="utf-8"))["sections"]}


def check_ruling(data: dict) -> list[str]:
    """A corpus file's own requirements (beyond a scenario's): title, summary, rules_on, an expect per command."""
    problems = []
    for key in ("title", "summary"):
        v = data.get(key)
        if not (isinstance(v, dict) and isinstance(v.get("ru"), str) and isinstance(v.get("en"), str) and v["ru"] and v["en"]):
            problems.append(f"'{key}' must be {{'ru', 'en'}}")
    rules_on = data.get("rules_on")
    known = rule_ids()
    if not (isinstance(rules_on, list) and rules_on and all(r in known for r in rules_on)):
        problems.append(f"'rules_on' must list section ids of rules.yaml ({', '.join(sorted(known))})")
    for i, c in enumerate(data.get("commands") or [], 1):
        if isinstance(c, dict) and not isinstance(c.get("expect"), dict):
            problems.append(f"command {i}: every command of a ruling says what it expects ('expect')")
    return problems


def check_file(path: Path) -> Verdict:
    title = ""
    try:
        data = read_json(path)
        if isinstance(data, dict) and isinstance(data.get("title"), dict):
            title = str(data["title"].get("en") or "")
        problems = check_ruling(data) if isinstance(data, dict) else ["a scenario is a JSON object"]
        if problems:
            raise ScenarioError(problems[0])
        return Verdict(str(path), title, tuple(run_scenario(data)["disagreements"]))
    except (ScenarioError, OSError) as exc:
        return Verdict(str(path), title, error=" ".join(str(exc).split()))


def check_dir(path: str | Path) -> list[Verdict]:
    root = Path(path)
    if not root.is_dir():
        raise ScenarioError(f"{path}: not a directory")
    return [check_file(p) for p in sorted(root.rglob("*.json"))]


CORPUS = Path(__file__).parent / "rulings"

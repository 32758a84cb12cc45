"""The rulings corpus: scenario files that state what the engine must answer (like Diplomacy's DATC).

A ruling file is a ``qmg_play`` scenario (``gameplay.qmg.scenario``) with, in addition, a title, a
one-sentence summary, the rule or card texts it rests on (``cites``), the card ids it rules on
(``rules_on``), the expected answer of every command (``expect``) and facts of the final table
(``expect_table``). The format is documented in ``gameplay/qmg/rulings/README.md``.

``check_scenario(doc)`` runs one file's scenario through the engine (the web table's code path) and
returns its disagreements (empty: the engine agrees); ``check_dir(path)`` does it for every ``*.json``
under a directory; ``rulings_for(card_id)`` lists the built-in scenarios that rule on a card. Bad
input (a malformed file, a missing title or expectation, an unknown key) raises ``PositionError``.
Pure Python, no Django.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from gameplay.common.corpus import Verdict

from .board import Board, load_board
from .cards import default_catalogue
from .inputs import unknown
from .scenario import run_scenario
from .state import PositionError

CORPUS_DIR = Path(__file__).resolve().parent / "rulings"
MAX_FILE_BYTES = 256 * 1024  # the same bound as one qmg_play scenario
MAX_FILES = 1000  # scenario files under one directory
MAX_DEPTH = 8  # sub-directory levels walked
MAX_TEXT = 2000  # characters of one title, summary, citation or "why"
MAX_CITES = 20
MAX_FACTS = 200  # pieces named in expect_table's present/absent, open steps expected, notes expected
MAX_ANSWERS = 10  # answers of the commands naming a card, kept per file for the rules lookup

_EXPECT_KEYS = {"ok", "code", "notes", "open", "says"}
# expect_table: present/absent/open are special; the other keys are compared with the final table
_TABLE_KEYS = {"present", "absent", "open", "cards", "vp", "round", "active", "phase", "played", "window",
               "protected", "held_removal", "winner", "end_reason"}
_PIECE_KEYS = {"country", "kind", "space"}
_STEP_KEYS = {"card", "kind", "by", "optional", "left"}


def _text_pair(value, where: str) -> dict:
    if not isinstance(value, dict) or set(value) != {"ru", "en"} \
            or not all(isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in value.values()):
        raise PositionError(f"'{where}' must be {{\"ru\": text, \"en\": text}} (each 1..{MAX_TEXT} characters)")
    return value


def _piece_pattern(value, where: str) -> dict:
    if not isinstance(value, dict) or not value or set(value) - _PIECE_KEYS \
            or not all(isinstance(v, str) for v in value.values()):
        raise PositionError(f"{where}: a piece pattern is an object with some of country, kind, space")
    board = load_board()  # a board variant changes edges, stars and straits, never the ids
    for key, known in (("country", board.turn_order), ("kind", ("army", "navy", "air")), ("space", board.spaces)):
        if key in value and value[key] not in known:
            raise PositionError(f"{where}: " + unknown(key, value[key], known))
    return value


def validate_ruling(doc) -> None:
    """Raise PositionError if ``doc`` is not a well-formed ruling file (the scenario part is checked by the run)."""
    if not isinstance(doc, dict):
        raise PositionError("a ruling file must be a JSON object")
    for key in ("title", "summary"):
        _text_pair(doc.get(key), key)
    cites = doc.get("cites")
    if not isinstance(cites, list) or not 0 < len(cites) <= MAX_CITES:
        raise PositionError(f"'cites' must be a list of 1..{MAX_CITES} citations")
    for i, cite in enumerate(cites, 1):
        if not isinstance(cite, dict) or set(cite) != {"source", "ru", "en"} \
                or not all(isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in cite.values()):
            raise PositionError(f"cites #{i} must be {{\"source\", \"ru\", \"en\"}} texts")
    rules_on = doc.get("rules_on", [])
    if not isinstance(rules_on, list) or len(rules_on) > 50:
        raise PositionError("'rules_on' must be a list of card ids")
    cat = default_catalogue()
    for cid in rules_on:
        if not isinstance(cid, str) or cat.get(cid) is None:
            raise PositionError("rules_on: " + unknown("card id", cid, cat.ids))
    commands = doc.get("commands", [])
    if not isinstance(commands, list):
        raise PositionError("'commands' must be a list")
    for i, cmd in enumerate(commands, 1):
        if not isinstance(cmd, dict):
            raise PositionError(f"command #{i} must be a JSON object")
        exp = cmd.get("expect")
        if not isinstance(exp, dict) or "ok" not in exp or set(exp) - _EXPECT_KEYS:
            raise PositionError(f"command #{i}: 'expect' must be an object with 'ok' and maybe "
                                f"{', '.join(sorted(_EXPECT_KEYS - {'ok'}))}")
        if not isinstance(exp["ok"], bool) or not isinstance(exp.get("code", ""), str) \
                or not isinstance(exp.get("says", ""), str):
            raise PositionError(f"command #{i}: expect.ok is true/false, expect.code and expect.says are texts")
        notes = exp.get("notes", [])
        if not isinstance(notes, list) or len(notes) > MAX_FACTS or not all(isinstance(n, str) for n in notes):
            raise PositionError(f"command #{i}: expect.notes is a list of reason codes")
        _open_patterns(exp.get("open", []), f"command #{i}: expect.open")
        if "why" in cmd:
            _text_pair(cmd["why"], f"command #{i}: why")
    table = doc.get("expect_table", {})
    if not isinstance(table, dict) or set(table) - _TABLE_KEYS:
        raise PositionError(f"'expect_table' is an object with keys among {', '.join(sorted(_TABLE_KEYS))}")
    for key in ("present", "absent"):
        pats = table.get(key, [])
        if not isinstance(pats, list) or len(pats) > MAX_FACTS:
            raise PositionError(f"expect_table.{key} must be a list of piece patterns")
        for j, pat in enumerate(pats, 1):
            _piece_pattern(pat, f"expect_table.{key} #{j}")
    _open_patterns(table.get("open", []), "expect_table.open")
    if not isinstance(table.get("cards", {}), dict):
        raise PositionError("expect_table.cards maps country ids to card counts")


def _open_patterns(value, where: str) -> list:
    if not isinstance(value, list) or len(value) > MAX_FACTS \
            or not all(isinstance(p, dict) and not set(p) - _STEP_KEYS for p in value):
        raise PositionError(f"{where} must be a list of open steps (objects with some of "
                            f"{', '.join(sorted(_STEP_KEYS))})")
    return value


def _matches(expected, actual) -> bool:
    """Partial match: an expected object names only the keys it cares about; lists of texts in any order."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and all(isinstance(x, str) for x in expected):
        return isinstance(actual, list) and sorted(expected) == sorted(x for x in actual if isinstance(x, str)) \
            and len(actual) == len(expected)
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) \
            and all(_matches(e, a) for e, a in zip(expected, actual))
    return expected == actual and type(expected) is type(actual)


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "…"


def _describe(cmd: dict) -> str:
    words = [str(cmd.get(k)) for k in ("type", "country", "card_id", "action", "space") if cmd.get(k)]
    return " ".join(words)


def _command_disagreements(i: int, cmd: dict, got: dict) -> list[str]:
    exp, out = cmd["expect"], []
    where = f"command #{i} ({_describe(cmd)})"
    said = f"{got['code']}: {got['reason']['en']}"
    if got["applied"] != exp["ok"]:
        out.append(f"{where}: expected {'applied' if exp['ok'] else 'refused'}, got "
                   f"{'applied' if got['applied'] else 'refused'} — {said}")
    if exp.get("code") and got["code"] != exp["code"]:
        out.append(f"{where}: expected code {exp['code']}, got {said}")
    if exp.get("says") and exp["says"] not in got["reason"]["ru"] and exp["says"] not in got["reason"]["en"]:
        out.append(f"{where}: expected the reason to say {exp['says']!r}, got {said}")
    codes = [n.get("code") for n in got.get("notes", [])]
    for code in exp.get("notes", []):
        if code not in codes:
            out.append(f"{where}: expected a note {code}, got notes {codes or 'none'}")
    if "open" in exp and not _matches(exp["open"], got["pending"]):
        out.append(f"{where}: expected open steps {_short(exp['open'])}, got "
                   f"{_short([{k: p[k] for k in ('card', 'kind', 'by')} for p in got['pending']])}")
    return out


def _piece_matches(pattern: dict, piece: dict) -> bool:
    return all(piece.get(k) == v for k, v in pattern.items())


def _table_disagreements(expect: dict, state: dict) -> list[str]:
    out = []
    pieces = state["pieces"]
    for pat in expect.get("present", []):
        if not any(_piece_matches(pat, p) for p in pieces):
            out.append(f"final table: expected {_short(pat)} present, it is not")
    for pat in expect.get("absent", []):
        found = [p for p in pieces if _piece_matches(pat, p)]
        if found:
            out.append(f"final table: expected no {_short(pat)}, found {_short(found[0])}")
    if "open" in expect and not _matches(expect["open"], state["pending"]):
        out.append(f"final table: expected open steps {_short(expect['open'])}, got "
                   f"{_short([{k: p[k] for k in ('card', 'kind', 'by')} for p in state['pending']])}")
    for key in sorted(set(expect) - {"present", "absent", "open"}):
        if key == "cards":
            for country, facts in expect["cards"].items():
                have = state["cards"].get(country)
                if have is None:
                    raise PositionError(f"expect_table.cards: unknown country {country!r}")
                if not isinstance(facts, dict) or set(facts) - set(have):
                    raise PositionError(f"expect_table.cards.{country}: keys among {', '.join(sorted(have))}")
                for k, v in facts.items():
                    if not _matches(v, have[k]):
                        out.append(f"final table: expected {country} {k} {_short(v)}, got {_short(have[k])}")
        elif not _matches(expect[key], state[key]):
            out.append(f"final table: expected {key} {_short(expect[key])}, got {_short(state[key])}")
    return out


def check_scenario(doc, board: Board | None = None) -> list[str]:
    """Run one ruling file's scenario; the disagreements with its expectations, first first (empty: agree).

    Bad input (the ruling part malformed, or the scenario refused as ``qmg_play`` refuses it) raises
    ``PositionError``."""
    validate_ruling(doc)
    try:
        result = run_scenario(doc, board or load_board(), lang="en")
    except (KeyError, TypeError, RecursionError) as exc:
        raise PositionError(f"bad scenario: {exc}") from None
    out = []
    for i, (cmd, got) in enumerate(zip(doc.get("commands", []), result["commands"]), 1):
        out += _command_disagreements(i, cmd, got)
    return out + _table_disagreements(doc.get("expect_table", {}), result["state"])


def read_json(path: str | Path, limit: int = MAX_FILE_BYTES, stream=None):
    """A JSON file (or ``stream``, e.g. standard input) of at most ``limit`` bytes; PositionError when it
    is not one. The size is checked before anything is parsed."""
    try:
        if stream is not None:
            raw = stream.read(limit + 1)
        else:
            with open(path, "rb") as fh:
                raw = fh.read(limit + 1)
    except FileNotFoundError as exc:
        raise PositionError(f"file not found: {path}") from exc
    if len(raw) > limit:
        raise PositionError(f"larger than {limit // 1024} KB")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise PositionError(f"not UTF-8 text: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise PositionError(f"malformed JSON: {exc}") from exc


def scenario_files(path: str | Path) -> list[Path]:
    """The ``*.json`` files under ``path`` (a directory, walked recursively, or one file), sorted; at most
    MAX_FILES files, MAX_DEPTH levels deep, symbolic links to directories not followed."""
    root = Path(path)
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise PositionError(f"not a file or directory: {path}")
    found = []
    for here, dirs, files in os.walk(root):
        depth = len(Path(here).relative_to(root).parts)
        if depth >= MAX_DEPTH:
            dirs[:] = []
        dirs.sort()
        found += [Path(here) / f for f in files if f.endswith(".json")]
        if len(found) > MAX_FILES:
            raise PositionError(f"more than {MAX_FILES} scenario files under {path}")
    return sorted(found)


def check_file(path: str | Path, board: Board | None = None) -> Verdict:
    """One file's verdict; bad input is reported in the verdict (``error``), never raised."""
    title = ""
    try:
        doc = read_json(path)
        if isinstance(doc, dict) and isinstance(doc.get("title"), dict):
            title = str(doc["title"].get("en", ""))[:MAX_TEXT]
        return Verdict(str(path), title, tuple(check_scenario(doc, board)))
    except (PositionError, ValueError, OSError) as exc:
        return Verdict(str(path), title, error=(str(exc).splitlines() or ["bad input"])[0])


def check_dir(path: str | Path = CORPUS_DIR, board: Board | None = None) -> list[Verdict]:
    """Every scenario file under ``path`` checked (PositionError if ``path`` itself is unusable)."""
    board = board or load_board()
    return [check_file(f, board) for f in scenario_files(path)]


def _answers(doc: dict, card_id: str) -> list[bool]:
    """The expected answer (True: applied, False: refused) of each command naming ``card_id``, in order."""
    return [cmd["expect"]["ok"] for cmd in doc.get("commands") or [] if cmd.get("card_id") == card_id][:MAX_ANSWERS]


def _file_rulings(path: Path) -> list[tuple[str, dict]]:
    """One built-in file as the rules lookup shows it: (card id, entry) for each card it rules on; none when
    the file is not a well-formed ruling (``--check`` reports it, the lookup leaves it out)."""
    try:
        doc = read_json(path)
        validate_ruling(doc)
    except (PositionError, OSError, ValueError):
        return []
    base = {"file": path.relative_to(CORPUS_DIR).as_posix(), "title": doc["title"], "summary": doc["summary"],
            "cites": doc["cites"]}
    return [(cid, {**base, "answers": _answers(doc, cid)}) for cid in dict.fromkeys(doc.get("rules_on") or [])]


@lru_cache(maxsize=1)
def _corpus_index() -> dict[str, tuple[dict, ...]]:
    """card id -> the entries of the built-in files that rule on it, sorted by file. Read once per process:
    the corpus ships with the code. A corpus over ``scenario_files``' bounds gives an empty index."""
    try:
        files = scenario_files(CORPUS_DIR)
    except PositionError:
        return {}
    out: dict[str, list[dict]] = {}
    for f in files:
        for cid, entry in _file_rulings(f):
            out.setdefault(cid, []).append(entry)
    return {cid: tuple(entries) for cid, entries in out.items()}


def rulings_for(card_id: str) -> list[dict]:
    """The built-in scenarios that rule on ``card_id``, sorted by file (what the rules lookup shows on the
    card's page): ``[{"file", "title": {ru, en}, "summary": {ru, en}, "cites": [{source, ru, en}, …],
    "answers": [bool, …]}]``; ``answers``: the expected answer (True: applied, False: refused) of each of the
    file's commands that names the card (its play, use or play_from), in order — empty when none does."""
    return [{**e, "title": dict(e["title"]), "summary": dict(e["summary"]), "cites": [dict(c) for c in e["cites"]],
             "answers": list(e["answers"])} for e in _corpus_index().get(card_id, ())]

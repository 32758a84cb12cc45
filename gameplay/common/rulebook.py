"""The rules of every game in one shape, for the one rules lookup: sections, the rulings that name them, a search.

Pure Python (no Django). A game's rules are ``<root>/<game>/data/rules.yaml`` (``sections``: ``id``, ``seed``
— the section's name as the game's printed rules give it —, ``title`` and ``text`` in ``ru`` and ``en``, the
text in the project's own words) and its rulings ``<root>/<game>/rulings/**/*.json`` (each with ``title``,
``summary`` in ``ru`` and ``en`` and ``rules_on``: the section ids it rules on). ``root`` is ``gameplay/`` unless
given. A game without a ``rules.yaml`` yet has no sections: it is not listed.

QMG keeps its own data and is adapted to the same shape: its sections are the entries of
``gameplay/qmg/data/rules_1e.yaml`` (``gameplay.qmg.rulebook``; ``seed``: the entry's source), its rulings the
corpus of ``gameplay/qmg/rulings`` (``gameplay.qmg.rulings``), and its search also finds cards.

* ``games(root)``: the games that have rules, in the order of ``GAMES``;
* ``sections(game, root)``, ``section(game, id, root)``;
* ``rulings(game, root)``; ``rulings_for(game, section_id, root)``: the rulings whose ``rules_on`` names the
  section;
* ``search(query, games, root)``: sections (and QMG's cards) ranked for a question, best first (the ranking is
  QMG's search, ``gameplay.qmg.rulebook.search``, run over each game's sections).

Bad data (a malformed file, a missing text, a file too large, too many files) raises ``RulebookError``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from gameplay.qmg import rulebook as qmg_rulebook
from gameplay.qmg import rulings as qmg_rulings

ROOT = Path(__file__).resolve().parents[1]  # gameplay/
GAMES = ("qmg", "generalissimus", "fog_of_war")
LANGS = ("ru", "en")
MAX_FILE_BYTES = 256 * 1024  # one rules.yaml or ruling file
MAX_FILES = 1000  # ruling files of one game
MAX_SECTIONS = 500
MAX_TEXT = 20_000  # characters of one section's text in one language
ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")  # a section id: a slug (in URLs)


class RulebookError(ValueError):
    """A game's rules or rulings data is malformed."""


@dataclass(frozen=True)
class Section:
    game: str
    id: str
    seed: str  # the section's name as the game's printed rules give it
    title_ru: str
    title_en: str
    text_ru: str
    text_en: str

    def title(self, lang: str = "ru") -> str:
        return self.title_en if lang == "en" else self.title_ru

    def text(self, lang: str = "ru") -> str:
        return self.text_en if lang == "en" else self.text_ru


@dataclass(frozen=True)
class Ruling:
    game: str
    file: str  # relative to the game's rulings directory
    title_ru: str
    title_en: str
    summary_ru: str
    summary_en: str
    rules_on: tuple[str, ...]

    def title(self, lang: str = "ru") -> str:
        return self.title_en if lang == "en" else self.title_ru

    def summary(self, lang: str = "ru") -> str:
        return self.summary_en if lang == "en" else self.summary_ru


@dataclass(frozen=True)
class Hit:
    game: str
    kind: str  # "rule" | "card" (a QMG card)
    id: str
    title_ru: str
    title_en: str
    snippet: str
    score: float

    def title(self, lang: str = "ru") -> str:
        return self.title_en if lang == "en" else self.title_ru


def _root(root) -> Path:
    return Path(root) if root is not None else ROOT


def games(root=None) -> list[str]:
    """The games with rules to show, in the order of ``GAMES``."""
    return [g for g in GAMES if sections(g, root)]


def sections(game: str, root=None) -> list[Section]:
    if game not in GAMES:
        return []
    if game == "qmg":
        return list(_qmg_sections())
    return list(_sections(game, str(_root(root))))


def section(game: str, section_id: str, root=None) -> Section | None:
    return next((s for s in sections(game, root) if s.id == section_id), None)


def rulings(game: str, root=None) -> list[Ruling]:
    """Every ruling of ``game`` from its ``rulings`` directory, by file (QMG's are its corpus: ``rulings_for``)."""
    if game not in GAMES or game == "qmg":
        return []
    return list(_rulings(game, str(_root(root))))


def rulings_for(game: str, section_id: str, root=None) -> list[Ruling]:
    """The rulings of ``game`` whose ``rules_on`` names ``section_id``, by file."""
    if game not in GAMES:
        return []
    if game == "qmg":
        return [Ruling("qmg", r["file"], r["title"]["ru"], r["title"]["en"], r["summary"]["ru"], r["summary"]["en"],
                       (section_id,)) for r in qmg_rulings.rulings_for(section_id)]
    return [r for r in _rulings(game, str(_root(root))) if section_id in r.rules_on]


def search(query: str, in_games=None, root=None, limit: int = 25) -> list[Hit]:
    """Sections (and QMG's cards) of ``in_games`` (default: every game with rules) ranked for ``query``."""
    hits: list[Hit] = []
    for game in in_games or games(root):
        if game == "qmg":
            found = qmg_rulebook.search(query, limit=limit)
        elif sections(game, root):
            found = qmg_rulebook.search(query, limit=limit, rules=_entries(game, str(_root(root))), include_cards=False)
        else:
            found = []
        hits += [Hit(game, h.kind, h.id, h.title_ru, h.title_en, h.snippet, h.score) for h in found]
    hits.sort(key=lambda h: -h.score)
    return hits[:limit]


# --------------------------------------------------------------------------------------------
# loading
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _qmg_sections() -> tuple[Section, ...]:
    return tuple(Section("qmg", e.id, e.source, e.title_ru, e.title_en, e.text_ru, e.text_en)
                 for e in qmg_rulebook.load_rules())


def _read(path: Path) -> str:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise RulebookError(f"{path.name}: larger than {MAX_FILE_BYTES} bytes")
    return path.read_text(encoding="utf-8")


def _pair(value, where: str, limit: int = MAX_TEXT) -> dict:
    if not isinstance(value, dict) or not all(isinstance(value.get(lg), str) and 0 < len(value[lg].strip()) <= limit
                                              for lg in LANGS):
        raise RulebookError(f"{where}: needs 'ru' and 'en' texts (1..{limit} characters)")
    return {lg: value[lg].strip() for lg in LANGS}


@lru_cache(maxsize=16)
def _sections(game: str, root: str) -> tuple[Section, ...]:
    path = Path(root) / game / "data" / "rules.yaml"
    if not path.is_file():
        return ()
    try:
        doc = yaml.safe_load(_read(path))
    except yaml.YAMLError as e:
        raise RulebookError(f"{game}/data/rules.yaml: not YAML ({e})") from None
    raw = doc.get("sections") if isinstance(doc, dict) else None
    if not isinstance(raw, list) or len(raw) > MAX_SECTIONS:
        raise RulebookError(f"{game}/data/rules.yaml: 'sections' must be a list of at most {MAX_SECTIONS}")
    out, seen = [], set()
    for i, s in enumerate(raw):
        where = f"{game}/data/rules.yaml, section {i + 1}"
        if not isinstance(s, dict) or not isinstance(s.get("id"), str) or not ID.match(s["id"]) or s["id"] in seen:
            raise RulebookError(f"{where}: 'id' must be a new slug (lower-case letters, digits, _ and -)")
        seen.add(s["id"])
        seed = s.get("seed", "")
        if not isinstance(seed, str):
            raise RulebookError(f"{where}: 'seed' must be text")
        title, text = _pair(s.get("title"), f"{where} title", 200), _pair(s.get("text"), f"{where} text")
        out.append(Section(game, s["id"], seed.strip(), title["ru"], title["en"], text["ru"], text["en"]))
    return tuple(out)


@lru_cache(maxsize=16)
def _rulings(game: str, root: str) -> tuple[Ruling, ...]:
    folder = Path(root) / game / "rulings"
    if not folder.is_dir():
        return ()
    files = sorted(folder.rglob("*.json"))
    if len(files) > MAX_FILES:
        raise RulebookError(f"{game}/rulings: more than {MAX_FILES} files")
    out = []
    for path in files:
        where = f"{game}/rulings/{path.relative_to(folder).as_posix()}"
        try:
            doc = json.loads(_read(path))
        except ValueError as e:
            raise RulebookError(f"{where}: not JSON ({e})") from None
        if not isinstance(doc, dict):
            raise RulebookError(f"{where}: a ruling is a JSON object")
        on = doc.get("rules_on", [])
        if not isinstance(on, list) or not all(isinstance(x, str) for x in on):
            raise RulebookError(f"{where}: 'rules_on' must be a list of section ids")
        title, summary = _pair(doc.get("title"), f"{where} title", 2000), _pair(doc.get("summary"), f"{where} summary", 2000)
        out.append(Ruling(game, path.relative_to(folder).as_posix(), title["ru"], title["en"], summary["ru"],
                          summary["en"], tuple(on)))
    return tuple(out)


@lru_cache(maxsize=16)
def _entries(game: str, root: str) -> tuple[qmg_rulebook.RuleEntry, ...]:
    """A game's sections as entries of QMG's search (the seed's name a keyword)."""
    return tuple(qmg_rulebook.RuleEntry(id=s.id, title_ru=s.title_ru, title_en=s.title_en, text_ru=s.text_ru,
                                        text_en=s.text_en, keywords_ru=(s.seed,) if s.seed else ())
                 for s in _sections(game, root))

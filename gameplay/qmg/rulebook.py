"""The QMG 1st-edition rules lookup (data/rules_1e.yaml) and a search over rules and cards.

Pure Python (no Django). ``load_rules()`` reads the YAML into frozen ``RuleEntry`` objects;
``get()`` and ``related()`` look entries up; ``search()`` ranks rule entries and catalogue cards
(``gameplay.qmg.cards.load_catalogue()``) for a free-text question typed at the table.

Search model, deliberately simple and predictable:
  * text is folded (case, «ё» → «е», punctuation dropped) and split into words;
  * a query word matches a document word when they are equal, share a crude stem (a small
    Russian/English suffix stripper), share a long common prefix (Russian endings vary:
    «пролива» finds «пролив»), or the query word is the beginning of the document word
    (typing in progress: «Стали» finds «Сталинград»);
  * each query word scores per field — title 6, keywords 3, body text 1 — times an IDF factor
    (rare words count more than «армия»); the total is scaled by the share of the query that
    matched, and a keyword phrase matched in full earns a bonus.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from gameplay.qmg.cards import Card, Catalogue, load_catalogue

DEFAULT_PATH = Path(__file__).resolve().parent / "data" / "rules_1e.yaml"
LANGS = ("ru", "en")

# Field weights.
W_TITLE = 6.0
W_KEYWORDS = 3.0
W_TEXT = 1.0
W_CARD_META = 1.5   # a card's country and type labels
PHRASE_BONUS = 2.0  # per word of a multi-word keyword fully present in the query
TITLE_COVER_FACTOR = 1.5  # every word of a title found in the query
TITLE_COVER_BONUS = 10.0
SNIPPET_LEN = 220


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RuleEntry:
    id: str
    title_ru: str
    title_en: str
    text_ru: str
    text_en: str
    keywords_ru: tuple[str, ...] = ()
    keywords_en: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    source: str = ""
    dispute: bool = False

    def title(self, lang: str = "ru") -> str:
        return self.title_en if lang == "en" else self.title_ru

    def text(self, lang: str = "ru") -> str:
        return self.text_en if lang == "en" else self.text_ru

    def keywords(self, lang: str = "ru") -> tuple[str, ...]:
        return self.keywords_en if lang == "en" else self.keywords_ru


@dataclass(frozen=True)
class Hit:
    kind: str        # "rule" | "card"
    id: str
    title_ru: str
    title_en: str
    snippet: str
    score: float

    def title(self, lang: str = "ru") -> str:
        return self.title_en if lang == "en" else self.title_ru


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value if v is not None)


def _entry_from(raw: Mapping[str, Any]) -> RuleEntry:
    return RuleEntry(
        id=str(raw.get("id") or ""),
        title_ru=str(raw.get("title_ru") or ""),
        title_en=str(raw.get("title_en") or ""),
        text_ru=" ".join(str(raw.get("text_ru") or "").split()),
        text_en=" ".join(str(raw.get("text_en") or "").split()),
        keywords_ru=_strings(raw.get("keywords_ru")),
        keywords_en=_strings(raw.get("keywords_en")),
        see_also=_strings(raw.get("see_also")),
        cards=_strings(raw.get("cards")),
        source=str(raw.get("source") or ""),
        dispute=bool(raw.get("dispute", False)),
    )


@lru_cache(maxsize=8)
def _load(path: str) -> tuple[RuleEntry, ...]:
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    raw = data.get("rules") if isinstance(data, Mapping) else data
    return tuple(_entry_from(item) for item in raw or ())


def load_rules(path: str | Path | None = None) -> list[RuleEntry]:
    """Read the rules YAML (default: data/rules_1e.yaml next to this module)."""
    return list(_load(str(Path(path or DEFAULT_PATH).resolve())))


def _default_rules() -> tuple[RuleEntry, ...]:
    return _load(str(DEFAULT_PATH.resolve()))


@lru_cache(maxsize=1)
def _default_catalogue() -> Catalogue:
    return load_catalogue()


def get(rule_id: str, rules: Iterable[RuleEntry] | None = None) -> RuleEntry | None:
    """The entry with this id, or None."""
    for entry in (_default_rules() if rules is None else rules):
        if entry.id == rule_id:
            return entry
    return None


def related(item_id: str, catalogue: Catalogue | None = None,
            rules: Iterable[RuleEntry] | None = None) -> list[RuleEntry | Card]:
    """For a rule id: its see_also entries, then the cards it lists (those in the catalogue).
    For a card id: the rule entries that list the card. Unknown id: []."""
    pool = tuple(_default_rules() if rules is None else rules)
    by_id = {e.id: e for e in pool}
    cat = _default_catalogue() if catalogue is None else catalogue
    entry = by_id.get(item_id)
    if entry is not None:
        out: list[RuleEntry | Card] = [by_id[i] for i in entry.see_also if i in by_id and i != entry.id]
        out.extend(cat[c] for c in entry.cards if c in cat)
        return out
    if item_id in cat:
        return [e for e in pool if item_id in e.cards]
    return []


# --------------------------------------------------------------------------------------------
# Text folding and matching
# --------------------------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")
_CYRILLIC = re.compile(r"[а-я]")
_LATIN = re.compile(r"[a-z]")

STOPWORDS = frozenset("""
и в во на не ли а но что как с со у к по за из от до о об же бы это то я мы вы ты он она оно они
его ее их мне меня нас вам вас там тут так можно нужно надо ли есть быть был была было были уже
где когда какой какая какие какое который которая чем ни да или если при для же вот ну
a an the of to in on at is are be been can could i my me we our you your it its for with and or
vs versus do does did what how if when which who whom this that these those there from by as not
am was were has have had any
""".split())

_RU_ENDINGS = tuple(sorted("""
ировать овать евать ивать ывать
иями ями ами иях ях ах иям ям ам ией ием ием ого его ому ему ыми ими ых их
ая яя ое ее ые ие ый ий ой ей ом ем ов ев ью ую юю ия ии ию
ать ять ить еть ыть ует ает яет ит ет ут ют ат ят ешь ишь ла ло ли ал ил ыл
а я о е ы и у ю ь й л
""".split(), key=len, reverse=True))
_EN_ENDINGS = ("ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "es", "ed", "s")


def fold(text: str) -> str:
    """Lower case, «ё» → «е», punctuation → spaces, spaces collapsed."""
    text = str(text).casefold().replace("ё", "е")
    return " ".join(_WORD.findall(text))


def words(text: str) -> list[str]:
    return fold(text).split()


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """A crude stem: strip one reflexive and one inflectional ending (Russian) or a plural /
    verb ending (English), keeping at least 3 letters."""
    if len(word) <= 3:
        return word
    if _CYRILLIC.search(word):
        for refl in ("ся", "сь"):
            if word.endswith(refl) and len(word) - 2 >= 4:
                word = word[:-2]
                break
        for ending in _RU_ENDINGS:
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                return word[: -len(ending)]
        return word
    for ending in _EN_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            base = word[: -len(ending)]
            return base + "y" if ending in ("ies", "ied") else base
    return word


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def match_strength(query_word: str, doc_word: str) -> float:
    """How well one query word matches one document word (0 = no match, 1 = identical)."""
    if query_word == doc_word:
        return 1.0
    shortest = min(len(query_word), len(doc_word))
    if shortest < 3:
        return 0.0
    qs, ds = stem(query_word), stem(doc_word)
    if qs == ds and len(qs) >= 3:
        return 0.9
    if shortest >= 4 and _common_prefix(query_word, doc_word) >= max(4, shortest - 2):
        return 0.8
    if len(query_word) >= 4 and doc_word.startswith(query_word):
        return 0.6
    if len(qs) >= 4 and len(ds) >= 4 and (ds.startswith(qs) or qs.startswith(ds)):
        return 0.5
    return 0.0


# --------------------------------------------------------------------------------------------
# Index
# --------------------------------------------------------------------------------------------

_COUNTRY_LABELS = {
    "germany": ("Германия немецкая", "Germany German"),
    "japan": ("Япония японская", "Japan Japanese"),
    "italy": ("Италия итальянская", "Italy Italian"),
    "united_kingdom": ("Великобритания британская Британия", "United Kingdom UK British Britain"),
    "soviet_union": ("СССР советская", "Soviet Union USSR Soviet"),
    "united_states": ("США американская", "United States USA US American"),
}
_TYPE_LABELS = {
    "build_army": ("создайте армию", "build army"),
    "build_navy": ("создайте флот", "build navy"),
    "land_battle": ("атака на суше", "land battle"),
    "sea_battle": ("атака на море", "sea battle"),
    "status": ("статус", "status"),
    "response": ("ответ", "response"),
    "event": ("событие", "event"),
    "economic_warfare": ("экономическая война", "economic warfare"),
}


@dataclass
class _Doc:
    kind: str
    id: str
    title_ru: str
    title_en: str
    text: dict[str, str]
    # per language: field name -> set of words; plus keyword phrases (tuples of words)
    fields: dict[str, dict[str, frozenset[str]]]
    weights: dict[str, float]
    phrases: dict[str, tuple[tuple[str, ...], ...]]


@dataclass
class _Index:
    docs: list[_Doc]
    vocab: dict[str, str]  # word -> stem (warm cache, and the list to match query words against)


def _doc_for_rule(entry: RuleEntry) -> _Doc:
    fields = {}
    phrases = {}
    for lang in LANGS:
        kws = entry.keywords(lang)
        fields[lang] = {
            "title": frozenset(words(entry.title(lang))),
            "keywords": frozenset(w for k in kws for w in words(k)),
            "text": frozenset(words(entry.text(lang))),
        }
        phrases[lang] = tuple(p for p in (tuple(w for w in words(k) if w not in STOPWORDS) for k in kws)
                              if len(p) > 1)
    return _Doc("rule", entry.id, entry.title_ru, entry.title_en,
                {"ru": entry.text_ru, "en": entry.text_en}, fields,
                {"title": W_TITLE, "keywords": W_KEYWORDS, "text": W_TEXT}, phrases)


def _doc_for_card(card: Card) -> _Doc:
    country = _COUNTRY_LABELS.get(card.country, (card.country, card.country))
    ctype = _TYPE_LABELS.get(card.type, (card.type, card.type))
    fields = {}
    for i, lang in enumerate(LANGS):
        name = card.name_ru if lang == "ru" else card.name_en
        summary = card.summary_ru if lang == "ru" else card.summary_en
        fields[lang] = {
            "title": frozenset(words(name)),
            "meta": frozenset(words(country[i] + " " + ctype[i])),
            "text": frozenset(words(summary)),
        }
    return _Doc("card", card.id, card.name_ru, card.name_en,
                {"ru": card.summary_ru, "en": card.summary_en}, fields,
                {"title": W_TITLE, "meta": W_CARD_META, "text": W_TEXT}, {"ru": (), "en": ()})


_INDEX_CACHE: dict[tuple[int, int], tuple[Any, Any, _Index]] = {}


def _index_for(rules: tuple[RuleEntry, ...], catalogue: Catalogue | None) -> _Index:
    key = (id(rules), id(catalogue))
    cached = _INDEX_CACHE.get(key)
    if cached is not None and cached[0] is rules and cached[1] is catalogue:
        return cached[2]
    docs = [_doc_for_rule(e) for e in rules]
    if catalogue is not None:
        docs.extend(_doc_for_card(c) for c in catalogue)
    vocab: dict[str, str] = {}
    for doc in docs:
        for per_lang in doc.fields.values():
            for bag in per_lang.values():
                for w in bag:
                    if w not in vocab:
                        vocab[w] = stem(w)
    index = _Index(docs, vocab)
    if len(_INDEX_CACHE) >= 8:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[key] = (rules, catalogue, index)  # strong refs keep the ids valid
    return index


# --------------------------------------------------------------------------------------------
# Search
# --------------------------------------------------------------------------------------------

def _query_lang(query_words: list[str]) -> str:
    text = " ".join(query_words)
    cyr = len(_CYRILLIC.findall(text))
    lat = len(_LATIN.findall(text))
    return "en" if lat > cyr else "ru"


def _snippet(text: str, matched: Mapping[str, float]) -> str:
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s] or [text]
    best, best_score = sentences[0], -1.0
    for s in sentences:
        score = sum(matched.get(w, 0.0) for w in set(words(s)))
        if score > best_score:
            best, best_score = s, score
    if len(best) > SNIPPET_LEN:
        best = best[: SNIPPET_LEN - 1].rsplit(" ", 1)[0] + "…"
    return best


def search(query: str, lang: str | None = None, catalogue: Catalogue | None = None,
           limit: int = 20, rules: Iterable[RuleEntry] | None = None,
           include_cards: bool = True) -> list[Hit]:
    """Rule entries and cards ranked for `query`, best first, at most `limit` hits.

    lang: "ru" / "en" restricts matching to that language's fields; None matches both.
    catalogue: the cards to search (default: the project catalogue); include_cards=False skips them.
    """
    if lang not in (None, *LANGS):
        raise ValueError(f"lang must be one of {LANGS} or None, not {lang!r}")
    try:
        limit = int(limit)
    except (TypeError, ValueError):
        limit = 20
    if limit <= 0 or not isinstance(query, str):
        return []
    raw_words = words(query)
    if not raw_words:
        return []
    content = [w for w in raw_words if w not in STOPWORDS] or raw_words
    # keep order, drop repeats
    seen: set[str] = set()
    qwords = [w for w in content if not (w in seen or seen.add(w))][:32]

    rule_pool = _default_rules() if rules is None else tuple(rules)
    cat = None
    if include_cards:
        cat = _default_catalogue() if catalogue is None else catalogue
    index = _index_for(rule_pool, cat)
    langs = LANGS if lang is None else (lang,)
    n_docs = max(len(index.docs), 1)

    scores = [0.0] * len(index.docs)
    covered = [0.0] * len(index.docs)
    matched_any: dict[str, float] = {}
    total_idf = 0.0
    for qw in qwords:
        matches = {}
        for w in index.vocab:
            s = match_strength(qw, w)
            if s > 0:
                matches[w] = s
        if not matches:
            continue
        for w, s in matches.items():
            if s > matched_any.get(w, 0.0):
                matched_any[w] = s
        contrib = [0.0] * len(index.docs)
        df = 0
        for i, doc in enumerate(index.docs):
            total = 0.0
            for lg in langs:
                for field, bag in doc.fields[lg].items():
                    best = 0.0
                    if len(matches) < len(bag):
                        for w, s in matches.items():
                            if s > best and w in bag:
                                best = s
                    else:
                        for w in bag:
                            s = matches.get(w, 0.0)
                            if s > best:
                                best = s
                    if best:
                        total += doc.weights[field] * best
            if total > 0:
                contrib[i] = total
                df += 1
        if df == 0:
            continue
        idf = math.log(1.0 + n_docs / df)
        total_idf += idf
        for i, c in enumerate(contrib):
            if c:
                scores[i] += idf * c
                covered[i] += idf

    if total_idf == 0:
        return []
    hits: list[Hit] = []
    for i, doc in enumerate(index.docs):
        if scores[i] <= 0:
            continue
        score = scores[i] * (covered[i] / total_idf)
        # The whole title named by the query (e.g. a card name typed in full): the most
        # specific answer there is.
        for lg in langs:
            title_words = [w for w in words(doc.title_en if lg == "en" else doc.title_ru)
                           if w not in STOPWORDS]
            if title_words and all(matched_any.get(w, 0.0) >= 0.8 for w in title_words):
                score = score * TITLE_COVER_FACTOR + TITLE_COVER_BONUS
                break
        if len(qwords) > 1:
            for lg in langs:
                for phrase in doc.phrases[lg]:
                    if all(w in matched_any and matched_any[w] >= 0.8 for w in phrase):
                        score += PHRASE_BONUS * len(phrase)
        snippet_lang = lang or _query_lang(raw_words)
        hits.append(Hit(
            kind=doc.kind, id=doc.id, title_ru=doc.title_ru, title_en=doc.title_en,
            snippet=_snippet(doc.text[snippet_lang], matched_any), score=round(score, 4),
        ))
    hits.sort(key=lambda h: (-h.score, h.kind != "rule", h.id))
    return hits[:limit]

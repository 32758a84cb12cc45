"""The Russian catalogue: complete, not fuzzy, placeholders kept, and the committed .mo matches the .po."""
import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation

LC_MESSAGES = Path(__file__).resolve().parent.parent / "locale" / "ru" / "LC_MESSAGES"
PO = LC_MESSAGES / "django.po"
MO = LC_MESSAGES / "django.mo"

PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text):
    text = text.strip()
    assert text.startswith('"') and text.endswith('"'), text
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(0)), text[1:-1])


def parse_po(path):
    """Entries of a .po file as dicts: msgid, msgid_plural, msgstr (a list: one item, or one per plural form), flags."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry = {"flags": set(), "fields": {}}
        key = None
        for line in block.splitlines():
            if line.startswith("#~"):  # obsolete entry
                key = None
                continue
            if line.startswith("#,"):
                entry["flags"] |= {f.strip() for f in line[2:].split(",")}
                continue
            if line.startswith("#") or not line.strip():
                key = None
                continue
            m = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
            if m:
                key = m.group(1)
                entry["fields"][key] = _unquote(m.group(2))
            else:
                assert key is not None and line.startswith('"'), f"unexpected line in {path}: {line!r}"
                entry["fields"][key] += _unquote(line)
        fields = entry["fields"]
        if "msgid" not in fields:
            continue
        forms = sorted((k for k in fields if k.startswith("msgstr[")), key=lambda k: int(k[7:-1]))
        entries.append({
            "msgctxt": fields.get("msgctxt"),
            "msgid": fields["msgid"],
            "msgid_plural": fields.get("msgid_plural"),
            "msgstr": [fields[k] for k in forms] if forms else [fields.get("msgstr", "")],
            "flags": entry["flags"],
        })
    return entries


ENTRIES = parse_po(PO)
HEADER = next(e for e in ENTRIES if e["msgid"] == "")
MESSAGES = [e for e in ENTRIES if e["msgid"] != ""]


def _label(e):
    return e["msgid"][:60]


def test_catalogue_is_parsed():
    assert len(MESSAGES) > 100
    assert "Language: ru\n" in HEADER["msgstr"][0]


def test_header_has_three_russian_plural_forms():
    assert "nplurals=3;" in HEADER["msgstr"][0]
    assert "fuzzy" not in HEADER["flags"]


def test_every_entry_is_translated():
    untranslated = [_label(e) for e in MESSAGES if not all(s.strip() for s in e["msgstr"])]
    assert untranslated == []


def test_plural_entries_have_three_forms():
    wrong = [_label(e) for e in MESSAGES if e["msgid_plural"] is not None and len(e["msgstr"]) != 3]
    assert wrong == []


def test_no_fuzzy_entries():
    assert [_label(e) for e in ENTRIES if "fuzzy" in e["flags"]] == []


def test_placeholders_are_kept():
    problems = []
    for e in MESSAGES:
        wanted = set(PLACEHOLDER.findall(e["msgid"])) | set(PLACEHOLDER.findall(e["msgid_plural"] or ""))
        for text in e["msgstr"]:
            if not text:  # untranslated: reported by test_every_entry_is_translated
                continue
            found = set(PLACEHOLDER.findall(text))
            if found != wanted:
                problems.append((_label(e), sorted(wanted), sorted(found)))
    assert problems == []


def test_compiled_catalogue_matches_the_po():
    """The committed .mo was compiled from the current .po (each msgid gives the .po's msgstr)."""
    with MO.open("rb") as fh:
        mo = gettext.GNUTranslations(fh)
    stale = []
    for e in MESSAGES:
        if not all(e["msgstr"]):  # untranslated entries are not compiled (reported above)
            continue
        msgid = e["msgid"] if e["msgctxt"] is None else f"{e['msgctxt']}\x04{e['msgid']}"
        if e["msgid_plural"] is None:
            if mo._catalog.get(msgid) != e["msgstr"][0]:
                stale.append(_label(e))
        else:
            if [mo._catalog.get((msgid, i)) for i in range(len(e["msgstr"]))] != e["msgstr"]:
                stale.append(_label(e))
    assert stale == [], "run: python manage.py compilemessages -l ru --ignore=.venv"
    assert mo.info().get("language") == "ru"


@pytest.mark.parametrize(("english", "russian"), [
    ("Play the card", "Сыграть карту"),
    ("Finish the play step", "Завершить фазу розыгрыша"),
    ("Continue", "Продолжить"),
    ("Remove them and continue", "Убрать их и продолжить"),
    ("Score and continue", "Начислить очки и продолжить"),
    ("Undo", "Отменить"),
    ("Redo", "Вернуть"),
    ("Every player needs at least one country.", "Каждому игроку нужна хотя бы одна страна."),
    ("Axis", "Ось"),
    ("Allies", "Коалиция"),
])
def test_django_serves_the_russian_strings(english, russian):
    with translation.override("ru"):
        assert translation.gettext(english) == russian
    with translation.override("en"):
        assert translation.gettext(english) == english


def test_no_access_text_asks_for_the_link():
    text = ("This browser has no link to this game. Ask the host for your join link (or the spectator link) "
            "and open it here.")
    with translation.override("ru"):
        assert "ссылку" in translation.gettext(text)

"""The scripts' Russian catalogue (locale/ru/LC_MESSAGES/djangojs.po): complete, its placeholders kept, compiled,
served by Django's JavaScript catalogue view; and no script text outside it (every sentence static/js shows goes
through gettext())."""
import gettext
import re
from pathlib import Path

import pytest

from .test_translations import LC_MESSAGES, PLACEHOLDER, parse_po

PO = LC_MESSAGES / "djangojs.po"
MO = LC_MESSAGES / "djangojs.mo"
ENTRIES = [e for e in parse_po(PO) if e["msgid"]]
SCRIPTS = Path(__file__).resolve().parent.parent / "static" / "js"


def test_every_entry_is_translated_and_compiled():
    assert ENTRIES
    with MO.open("rb") as fh:
        mo = gettext.GNUTranslations(fh)
    for e in ENTRIES:
        assert e["msgstr"][0].strip(), e["msgid"]
        assert "fuzzy" not in e["flags"], e["msgid"]
        assert set(PLACEHOLDER.findall(e["msgid"])) == set(PLACEHOLDER.findall(e["msgstr"][0])), e["msgid"]
        assert mo._catalog.get(e["msgid"]) == e["msgstr"][0], "run: msgfmt -o djangojs.mo djangojs.po"


def test_the_scripts_texts_are_all_in_the_catalogue():
    """A sentence in app.js or board.js is marked for translation (gettext("…")) and has its Russian."""
    marked = set()
    for name in ("app.js", "board.js"):
        source = (SCRIPTS / name).read_text(encoding="utf-8")
        marked |= set(re.findall(r'gettext\("((?:[^"\\]|\\.)+)"\)', source))
    assert marked == {e["msgid"] for e in ENTRIES}


@pytest.mark.parametrize(("lang", "expected"), [("ru", "Нет связи с сервером"), ("en", "No connection to the server")])
def test_the_catalogue_view_serves_the_pages_language(client, lang, expected):
    client.cookies["django_language"] = lang
    response = client.get("/jsi18n/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assert "django.gettext" in body or "gettext" in body
    if lang == "ru":
        assert "\\u041d\\u0435\\u0442 \\u0441\\u0432\\u044f\\u0437\\u0438" in body or expected in body
    else:
        assert "\\u041d\\u0435\\u0442" not in body and "Нет связи" not in body

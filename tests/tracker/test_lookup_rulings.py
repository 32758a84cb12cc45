"""The rules lookup shows each card's rulings: the corpus files (gameplay/qmg/rulings/) that rule on it."""
import html
import json

import pytest
from django.urls import reverse

from gameplay.qmg import rulings
from gameplay.qmg.cards import load_catalogue
from gameplay.qmg.rulings import CORPUS_DIR, rulings_for
from tracker.qmg import lookup

pytestmark = pytest.mark.django_db

STALINGRAD = json.loads((CORPUS_DIR / "cards" / "su_stalingrad.json").read_text(encoding="utf-8"))


def _page(client, card_id, lang="ru"):
    client.cookies["django_language"] = lang
    r = client.get(reverse("card", args=[card_id]))
    assert r.status_code == 200
    return html.unescape(r.content.decode())


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    """A corpus of one's own in place of the built-in one (the index is cached per process: cleared)."""
    monkeypatch.setattr(rulings, "CORPUS_DIR", tmp_path)
    rulings._corpus_index.cache_clear()
    yield tmp_path
    rulings._corpus_index.cache_clear()


def test_a_card_with_rulings_shows_their_summaries_in_russian(client):
    page = _page(client, "su_stalingrad")
    assert "Разъяснения (проверяются движком)" in page
    assert STALINGRAD["summary"]["ru"] in page and STALINGRAD["title"]["ru"] in page
    assert STALINGRAD["cites"][0]["ru"] in page and STALINGRAD["cites"][0]["source"] in page
    assert "manage.py qmg_play --check" in page and "cards/su_stalingrad.json" in page
    assert "разрешено" in page
    assert STALINGRAD["summary"]["en"] not in page


def test_a_card_with_rulings_shows_their_summaries_in_english(client):
    page = _page(client, "su_stalingrad", "en")
    assert "Rulings (checked by the engine)" in page
    assert STALINGRAD["summary"]["en"] in page and STALINGRAD["cites"][0]["en"] in page
    assert STALINGRAD["summary"]["ru"] not in page


def test_every_built_in_ruling_is_on_the_page_of_each_card_it_rules_on(client):
    card_id = "ger_submarines_uk"
    page = _page(client, card_id, "en")
    found = rulings_for(card_id)
    assert found
    for r in found:
        assert r["summary"]["en"] in page and r["file"] in page


def test_a_card_without_rulings_shows_no_heading(client, corpus):
    card = next(c for c in load_catalogue() if not rulings_for(c.id))  # the built-in corpus rules on every card
    for lang, heading in (("ru", "Разъяснения"), ("en", "Rulings (checked")):
        assert heading not in _page(client, card.id, lang)


def test_the_answers_of_the_cards_own_commands_are_shown(client, corpus):
    refused = {**STALINGRAD, "summary": {"ru": "Отказ по-русски.", "en": "Refused in English."},
               "commands": [{"type": "use_card", "country": "soviet_union", "card_id": "su_stalingrad",
                             "expect": {"ok": False, "code": "use.no_trigger"}}]}
    (corpus / "cards").mkdir()
    (corpus / "cards" / "a_refused.json").write_text(json.dumps(refused), encoding="utf-8")
    (corpus / "cards" / "b_allowed.json").write_text(json.dumps(STALINGRAD), encoding="utf-8")
    (corpus / "cards" / "c_broken.json").write_text("{not json", encoding="utf-8")
    (corpus / "cards" / "d_no_summary.json").write_text(json.dumps({**STALINGRAD, "summary": "x"}), encoding="utf-8")
    assert [(r["file"], r["answers"]) for r in rulings_for("su_stalingrad")] == [
        ("cards/a_refused.json", [False]), ("cards/b_allowed.json", [True])]
    # ger_land_battle: no command of a_refused names it (no answer); b_allowed plays it
    assert [r["answers"] for r in rulings_for("ger_land_battle")] == [[], [True]]
    page = _page(client, "su_stalingrad", "en")
    assert page.index("Refused in English.") < page.index(STALINGRAD["summary"]["en"])
    assert "refused" in page and "allowed" in page
    assert "c_broken" not in page and "d_no_summary" not in page  # not well-formed: left out (--check reports it)


def test_the_page_bounds_the_rulings_it_lists(client, corpus, monkeypatch):
    monkeypatch.setattr(lookup, "MAX_RULINGS_SHOWN", 2)
    for i in range(3):
        doc = {**STALINGRAD, "summary": {"ru": f"Сводка {i}.", "en": f"Summary {i}."}}
        (corpus / f"r{i}.json").write_text(json.dumps(doc), encoding="utf-8")
    page = _page(client, "su_stalingrad", "en")
    assert "Summary 0." in page and "Summary 1." in page and "Summary 2." not in page
    assert "1 more not shown." in page


def test_the_rules_search_still_finds_the_card(client):
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("rules"), {"q": "Сталинград"}).content.decode()
    assert reverse("card", args=["su_stalingrad"]) in page

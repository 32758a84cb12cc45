"""The one rules lookup of the three games (tracker/lookup.py, gameplay/common/rulebook.py): a search across the
games with a filter by game (by default the game the browser came from), a page per section with the rulings that
name it in Russian and English, and /g/<pk>/ask/ answered by the game's own ask view. The rules of
«Генералиссимус» and The Fog of War come from a small rulebook of the tests' own (fixtures/rulebook)."""
import importlib.machinery
import sys
import types
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.urls import reverse

from gameplay.common import rulebook
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg.views import create_game

from .test_generalissimus_views import create as create_generalissimus

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulebook"
GAMEPLAY = rulebook.ROOT  # the games' own rules
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def rules_of_the_tests(monkeypatch):
    monkeypatch.setattr(rulebook, "ROOT", FIXTURES)


def html_of(client, *args, **kw):
    r = client.get(*args, **kw)
    assert r.status_code == 200, r.status_code
    return r.content.decode()


def test_the_loader_reads_sections_and_rulings_in_one_shape():
    assert rulebook.games() == ["qmg", "generalissimus", "fog_of_war"]
    volley = rulebook.section("generalissimus", "volley")
    assert volley.seed == "Ружейный залп" and volley.title("en") == "Musket volley"
    assert [r.file for r in rulebook.rulings_for("fog_of_war", "supply")] == ["cards/blitz_after_a_loss.json"]
    assert rulebook.rulings_for("fog_of_war", "goal") == [] and rulebook.section("fog_of_war", "nope") is None
    qmg = rulebook.sections("qmg")
    assert len(qmg) >= 40 and all(s.game == "qmg" and s.title("ru") and s.text("en") for s in qmg)


@pytest.mark.parametrize("root", [GAMEPLAY, FIXTURES], ids=["the games' data", "the tests' rulebook"])
def test_every_games_rules_load_and_every_ruling_names_a_section_of_its_game(root):
    """The data files of each game that has them: well formed, and each ruling's ``rules_on`` a section of its game
    (QMG's rulings name its cards too, and are checked by its own corpus test)."""
    for game in rulebook.games(root):
        ids = {s.id for s in rulebook.sections(game, root)}
        assert ids and all(s.title("ru") and s.title("en") and s.text("ru") and s.text("en")
                           for s in rulebook.sections(game, root)), game
        for ruling in rulebook.rulings(game, root):
            assert set(ruling.rules_on) <= ids and ruling.rules_on, (game, ruling.file)


def test_a_game_without_rules_yet_is_not_listed(client, tmp_path, monkeypatch):
    (tmp_path / "fog_of_war" / "data").mkdir(parents=True)
    (tmp_path / "fog_of_war" / "data" / "rules.yaml").write_text((FIXTURES / "fog_of_war/data/rules.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(rulebook, "ROOT", tmp_path)
    assert rulebook.games() == ["qmg", "fog_of_war"]
    assert rulebook.rulings_for("fog_of_war", "blitz") == []  # no rulings directory: none
    html = html_of(client, reverse("rules"))
    assert "/rules/fog_of_war/blitz/" in html and "/rules/generalissimus/" not in html


def test_malformed_rules_are_refused_with_the_place(tmp_path):
    (tmp_path / "generalissimus" / "data").mkdir(parents=True)
    (tmp_path / "generalissimus" / "data" / "rules.yaml").write_text(
        'sections:\n  - id: "Bad Id"\n    title: {ru: "a", en: "b"}\n    text: {ru: "a", en: "b"}\n')
    with pytest.raises(rulebook.RulebookError, match="section 1"):
        rulebook.sections("generalissimus", tmp_path)


def test_search_finds_a_section_of_each_game(client):
    html = html_of(client, reverse("rules"), {"q": "залп", "game": "all"})
    assert reverse("rule_section", args=["generalissimus", "volley"]) in html and "Ружейный залп" in html
    html = html_of(client, reverse("rules"), {"q": "блицкриг"})
    assert reverse("rule_section", args=["fog_of_war", "blitz"]) in html
    html = html_of(client, reverse("rules"), {"q": "снабжение"})
    assert reverse("rule_section", args=["fog_of_war", "supply"]) in html and "/rules/r/" in html  # both games
    assert 'class="tag tag-game"' in html


def test_the_filter_keeps_one_game(client):
    html = html_of(client, reverse("rules"), {"q": "снабжение", "game": "fog_of_war"})
    assert reverse("rule_section", args=["fog_of_war", "supply"]) in html and "/rules/r/" not in html
    html = html_of(client, reverse("rules"), {"q": "снабжение", "game": "qmg"}, **HTMX)
    assert "/rules/fog_of_war/" not in html and "/rules/r/" in html and "<html" not in html
    # without a question: the index of the filtered game only
    html = html_of(client, reverse("rules"), {"game": "generalissimus"})
    assert reverse("rule_section", args=["generalissimus", "square"]) in html and "/rules/r/" not in html
    # an unknown game is every game
    html = html_of(client, reverse("rules"), {"q": "снабжение", "game": "chess"})
    assert "/rules/fog_of_war/supply/" in html and "/rules/r/" in html


def test_the_filter_defaults_to_the_game_the_browser_came_from(client):
    battle, _ = create_generalissimus(client)
    html_of(client, reverse("game", args=[battle.pk]))
    html = html_of(client, reverse("rules"), {"q": "снабжение каре залп"})
    assert reverse("rule_section", args=["generalissimus", "square"]) in html
    assert "/rules/fog_of_war/" not in html and "/rules/r/" not in html
    assert 'value="generalissimus" checked' in html and "Бородино" in html  # the back link
    assert reverse("ask", args=[battle.pk]) in html  # its engine answers questions about its position
    html = html_of(client, reverse("rules"), {"q": "снабжение", "game": "all"})  # the filter can be widened
    assert "/rules/fog_of_war/supply/" in html


def test_a_ruling_shows_on_its_sections_page_in_russian_and_english(client):
    url = reverse("rule_section", args=["fog_of_war", "supply"])
    html = html_of(client, url)
    assert "Снабжение" in html and "Без победы блицкриг не продолжается" in html
    assert "Атака на Варшаву отбита" in html and "СНАБЖЕНИЕ" in html
    client.cookies["django_language"] = "en"
    html = html_of(client, url)
    assert "Supply" in html and "No Blitzkrieg after a lost attack" in html
    assert "The attack on Warsaw is beaten off" in html and "Rulings" in html
    html = html_of(client, reverse("rule_section", args=["generalissimus", "square"]))
    assert "Square" in html and "Rulings" not in html  # a section without rulings shows no heading


def test_unknown_sections_and_games_are_404(client):
    assert client.get(reverse("rule_section", args=["fog_of_war", "nope"])).status_code == 404
    assert client.get(reverse("rule_section", args=["chess", "supply"])).status_code == 404
    # QMG's sections are its rule pages
    r = client.get(reverse("rule_section", args=["qmg", "straits"]))
    assert r.status_code == 302 and r["Location"] == reverse("rule", args=["straits"])


def test_a_qmg_rules_page_shows_the_rulings_that_name_it(client, monkeypatch):
    ruling = {"file": "examples/x.json", "title": {"ru": "Пролив закрыт", "en": "The strait is shut"},
              "summary": {"ru": "Итог по-русски.", "en": "The outcome in English."}, "cites": [], "answers": []}
    monkeypatch.setattr(rulebook.qmg_rulings, "rulings_for", lambda rid: [ruling] if rid == "straits" else [])
    assert "Пролив закрыт" in html_of(client, reverse("rule", args=["straits"]))
    client.cookies["django_language"] = "en"
    html = html_of(client, reverse("rule", args=["straits"]))
    assert "The strait is shut" in html and "The outcome in English." in html


def test_ask_answers_by_the_games_own_view(client, monkeypatch):
    qmg = create_game("Спор", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    client.get(reverse("watch", args=[qmg.spectator_token]))
    assert "источнике снабжения «Германия»" in html_of(client, reverse("ask", args=[qmg.pk]),
                                                          {"piece": "germany:army:germany"})
    battle, _ = create_generalissimus(client)
    asked = []
    module = types.ModuleType("tracker.generalissimus.ask")
    module.__spec__ = importlib.machinery.ModuleSpec("tracker.generalissimus.ask", None)
    module.ask = lambda request, game: asked.append(game.pk) or HttpResponse("asked")
    monkeypatch.setitem(sys.modules, "tracker.generalissimus.ask", module)
    r = client.get(reverse("ask", args=[battle.pk]))
    assert r.status_code == 200 and r.content == b"asked" and asked == [battle.pk]
    html_of(client, reverse("game", args=[battle.pk]))  # the rules pages link to the questions of the game at hand
    assert reverse("ask", args=[battle.pk]) in html_of(client, reverse("rules"))
    assert reverse("ask", args=[battle.pk]) in html_of(client, reverse("rule_section", args=["generalissimus", "volley"]))
    assert reverse("ask", args=[battle.pk]) not in html_of(client, reverse("rule_section", args=["fog_of_war", "blitz"]))


def test_ask_of_a_game_without_questions_yet_is_a_404_that_says_so(client, monkeypatch):
    battle, _ = create_generalissimus(client)
    monkeypatch.setattr("tracker.lookup.ASK_MODULE", "tracker.{kind}.not_written_yet")
    r = client.get(reverse("ask", args=[battle.pk]))
    assert r.status_code == 404 and "не умеет отвечать" in r.content.decode()
    client.cookies["django_language"] = "en"
    r = client.get(reverse("ask", args=[battle.pk]))
    assert r.status_code == 404 and "cannot answer questions about its position yet" in r.content.decode()


def test_ask_needs_a_link(client):
    qmg = create_game("Спор", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    assert client.get(reverse("ask", args=[qmg.pk])).status_code == 403
    assert client.get(reverse("ask", args=[999999])).status_code == 404

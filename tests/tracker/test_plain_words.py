"""Every page a player reads says things in words: no setting keys (``snake_case``), no spec row ids
(A-3, B-25 …) and no ``key = 2`` assignments in the visible text, in Russian and in English.

Typed-format examples a fallback field needs (a map line's marks, a unit line) are shown in ``<code>``
and are not prose: they, the values inside text areas and scripts are left out of the scan."""
import html as htmllib
import re

import pytest
from django.test import Client
from django.urls import reverse

from tracker.core.models import Game
from tracker.fog_of_war.forms import NewFogGameForm
from tracker.generalissimus.forms import NewBattleForm
from tracker.qmg.forms import NewGameForm

from .helpers import initial_data

pytestmark = pytest.mark.django_db

HIDDEN = re.compile(r"<(script|style|textarea|code|title)\b.*?</\1>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")
SPEC_ID = re.compile(r"\b[AB]-\d{1,2}\b")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
ASSIGNMENT = re.compile(r"\b\w+\s=\s*\d")


def visible_text(page: str) -> str:
    body = page.split("<body", 1)[-1]
    return htmllib.unescape(TAG.sub(" ", HIDDEN.sub(" ", body)))


def problems(text: str) -> list[str]:
    return sorted({m.group(0) for rx in (SPEC_ID, SNAKE, ASSIGNMENT) for m in rx.finditer(text)})


def test_the_scan_finds_what_it_looks_for():
    assert problems("B-25 · intel_op_includes_target; rules_edition = 2") == [
        "B-25", "intel_op_includes_target", "rules_edition", "rules_edition = 2"]
    assert problems("Ось 8, Союзники 6; a1–f6; «Закончить ход»") == []


def create_games(client):
    client.post(reverse("home"), initial_data(NewGameForm(), name="Слова QMG", player_1="Аня", player_2="Боря"))
    client.post(reverse("generalissimus:new"), initial_data(NewBattleForm(), name="Слова Г"))
    client.post(reverse("fog_of_war:new"), initial_data(NewFogGameForm(), name="Слова Т"))
    return {g.kind: g for g in Game.objects.filter(name__startswith="Слова")}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_no_setting_keys_or_spec_ids_on_any_page(language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    games = create_games(client)
    assert len(games) == 3, games
    urls = [reverse("home"), reverse("generalissimus:new"), reverse("fog_of_war:new"), reverse("fog_of_war:maps"),
            reverse("rules")]
    for game in games.values():
        urls += [reverse("game", args=[game.pk]), reverse("seats", args=[game.pk])]
    found = {}
    for url in urls:
        r = client.get(url, follow=True)
        assert r.status_code == 200, url
        bad = problems(visible_text(r.content.decode()))
        if bad:
            found[url] = bad
    assert found == {}


@pytest.mark.parametrize("language, name, others", [
    ("ru", "Создать партию", ("Начать партию", "Начать сражение", "Завершить ход")),
    ("en", "Create the game", ("Start the game", "Create the battle")),
])
def test_one_name_per_action_the_three_new_game_pages_create_a_game_by_the_same_button(language, name, others):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    for url in (reverse("home"), reverse("generalissimus:new"), reverse("fog_of_war:new")):
        page = client.get(url).content.decode()
        buttons = [visible_text(b).strip() for b in re.findall(r'<button class="btn btn-primary" type="submit">.*?</button>', page)]
        assert buttons == [name], (url, buttons)
        assert not [o for o in others if o in visible_text(page)], url

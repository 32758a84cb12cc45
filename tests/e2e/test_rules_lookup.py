"""The rules lookup at the table: a player opens «Правила» from a QMG game, the search keeps to QMG, one tap
widens it to every game, and a section of another game shows its ruling. The rules of «Генералиссимус» and
The Fog of War are the tests' own small rulebook (tests/tracker/fixtures/rulebook)."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from gameplay.common import rulebook

pytestmark = pytest.mark.django_db(transaction=True)
FIXTURES = Path(__file__).resolve().parents[1] / "tracker" / "fixtures" / "rulebook"


def test_a_player_looks_up_a_rule_from_the_game(live_server, new_context, monkeypatch, shot):
    monkeypatch.setattr(rulebook, "ROOT", FIXTURES)
    phone = new_context().new_page()
    phone.goto(live_server.url + "/")
    phone.fill("input[name=name]", "Спор о снабжении")
    phone.locator("form.new-game button[type=submit]").click()
    url = phone.locator(".seat .link a").first.get_attribute("href")  # the first seat's link (the club's address)
    phone.goto(live_server.url + "/" + url.split("/", 3)[3])
    expect(phone.locator("#game")).to_be_visible()
    phone.locator("a.nav", has_text="Правила").click()
    expect(phone.locator('.rules-filter input[value="qmg"]')).to_be_checked()  # the game the player came from
    phone.fill("#q", "снабжение")
    phone.press("#q", "Enter")
    expect(phone.locator(".hits li").first).to_be_visible()
    expect(phone.locator(".hits .tag-game", has_text="The Fog of War")).to_have_count(0)
    phone.locator(".rules-filter label", has_text="все игры").click()
    fog = phone.locator('.hits a[href="/rules/fog_of_war/supply/"]')
    expect(fog).to_be_visible()
    shot(phone, "rules-lookup-every-game")
    fog.click()
    expect(phone.locator("h1")).to_have_text("Снабжение")
    expect(phone.locator(".rulings")).to_contain_text("Без победы блицкриг не продолжается")
    expect(phone.locator(".back-to-game a")).to_contain_text("Спор о снабжении")
    shot(phone, "rules-lookup-section")

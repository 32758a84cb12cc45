"""The Fog of War on two phones: create, join, plan an operation, defend, launch and resolve one battle."""
import re

import pytest
from playwright.sync_api import expect

from tracker.core import log
from tracker.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def press(page, form_class, label_re=None):
    button = page.locator(f"form.{form_class} button[type=submit]")
    if label_re:
        button = button.filter(has_text=re.compile(label_re))
    button.first.click()


def submit(page, command, label_re):
    page.locator(f"form:has(input[name=command][value={command}]) button[type=submit]",
                 has_text=re.compile(label_re)).first.click()


def test_two_phones_resolve_a_battle(live_server, new_context, shot):
    host = new_context().new_page()
    host.goto(live_server.url + "/fog-of-war/new/")
    host.fill("input[name=name]", "Туман E2E")
    host.fill("input[name=axis_player]", "Аня")
    host.fill("input[name=allies_player]", "Боря")
    shot(host, "fog-of-war-01-new-game")
    host.locator("form.fow-new button[type=submit]").click()
    expect(host.locator("h1")).to_contain_text("Туман E2E")
    links = host.locator(".seat .link a").all()
    axis_url, allies_url = links[0].get_attribute("href"), links[1].get_attribute("href")
    game = Game.objects.get(name="Туман E2E")

    path = lambda url: live_server.url + "/" + url.split("/", 3)[3]  # noqa: E731
    axis = new_context().new_page()
    axis.goto(path(axis_url))
    allies = new_context().new_page()
    allies.goto(path(allies_url))
    expect(axis.locator(".status-bar .active")).to_contain_text("Ось")
    expect(allies.locator(".waiting")).to_be_visible()

    # Axis turn 1: rotate, plan an operation against Vichy with two cards, end the turn
    submit(axis, "start_turn", "Повернуть|Rotate")
    expect(axis.locator(".flash-success")).to_contain_text("колесо повёрнуто")
    axis.locator("details.action summary", has_text=re.compile("Новая операция|New operation")).click()
    axis.select_option("form.act-new-op select[name=target]", "vichy")
    boxes = axis.locator("form.act-new-op input[name=cards]")
    boxes.nth(0).check()
    boxes.nth(1).check()
    press(axis, "act-new-op")
    expect(axis.locator(".flash-success")).to_contain_text("новая операция A")
    expect(axis.locator(".op-target")).to_contain_text("Виши")
    shot(axis, "fog-of-war-02-axis-plans-an-operation")
    press(axis, "act-end")
    expect(axis.locator(".waiting")).to_be_visible()

    # the Allied phone follows within 3 seconds; it sees the op's count, never its target
    expect(allies.locator(".status-bar .active")).to_contain_text("Союзники", timeout=3000)
    expect(allies.locator(".op-target")).to_have_count(0)
    submit(allies, "start_turn", "Повернуть|Rotate")
    allies.select_option("form.act-defend select[name=province]", "vichy")
    allies.locator("form.act-defend input[name=cards]").nth(0).check()
    press(allies, "act-defend")
    expect(allies.locator(".flash-success")).to_contain_text("Виши")
    shot(allies, "fog-of-war-03-allies-defend")
    press(allies, "act-end")

    # Axis turn 2: rotate (the op is now launchable), calculate, then resolve the battle
    expect(axis.locator(".status-bar .active")).to_contain_text("Ось", timeout=3000)
    submit(axis, "start_turn", "Повернуть|Rotate")
    form = axis.locator("form.act-battle")
    form.locator("select[name=origin]").select_option("italy")
    form.locator("select[name=origin_supplied]").select_option("yes")
    form.locator("input[name=reveal_attack]").fill("L3 L2")
    form.locator("input[name=reveal_defence]").fill("L1")
    form.locator("button[value=preview]").click()
    expect(axis.locator(".battle-result.preview .strengths")).to_contain_text("A 5")
    expect(axis.locator(".battle-result.preview .outcome")).to_contain_text("Победа")
    shot(axis, "fog-of-war-04-battle-calculator")
    axis.locator("form.act-battle button[value=resolve]").click()
    expect(axis.locator(".flash-success")).to_contain_text("A 5 против D 1 — Победа")
    shot(axis, "fog-of-war-05-battle-resolved")
    state = log.current_state(game)["engine"]
    assert state["provinces"]["vichy"]["control"] == "axis"
    assert len(state["sides"]["axis"]["wins"]) == 1 and len(state["sides"]["allies"]["losses"]) == 1

    # the other phone shows the result within 3 seconds
    expect(allies.locator(".battles .battle-result .outcome").first).to_contain_text("Победа", timeout=3000)
    expect(allies.locator('tr[data-province="vichy"] .control')).to_contain_text("Ось")
    shot(allies, "fog-of-war-06-allies-see-the-battle")
    assert log.replay(game) == log.current_state(game)

"""The Fog of War on two phones: create, join, plan an operation, defend, launch and resolve one battle;
and a club entering its map on a tablet by taps, exporting, importing it and starting a game on it."""
import json
import re

import pytest
from playwright.sync_api import expect

from tracker.core import log
from tracker.models import FowMap, Game

from .conftest import ARTIFACTS

PHONE_640 = {"width": 360, "height": 640}

pytestmark = pytest.mark.django_db(transaction=True)


def press(page, form_class, label_re=None):
    button = page.locator(f"form.{form_class} button[type=submit]")
    if label_re:
        button = button.filter(has_text=re.compile(label_re))
    button.first.click()


def submit(page, command, label_re):
    page.locator(f"form:has(input[name=command][value={command}]) button[type=submit]",
                 has_text=re.compile(label_re)).first.click()


BROKEN_WORDS = """() => {
    const broken = [];
    for (const th of document.querySelectorAll("#game table.fow-table th")) {
        if (!th.offsetParent) continue;
        const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
        for (let node = walk.nextNode(); node; node = walk.nextNode()) {
            for (const m of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (lines.size > 1) broken.push(m[0]);
            }
        }
    }
    return broken;
}"""


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
    axis = new_context(viewport=PHONE_640).new_page()
    axis.goto(path(axis_url))
    allies = new_context(viewport=PHONE_640).new_page()
    allies.goto(path(allies_url))
    expect(axis.locator(".status-bar .active")).to_contain_text("Ось")
    expect(allies.locator(".waiting")).to_be_visible()

    # Axis turn 1: rotate, plan an operation against Vichy with two cards, end the turn
    submit(axis, "start_turn", "Повернуть|Rotate")
    expect(axis.locator(".flash-success")).to_contain_text("колесо повёрнуто")
    axis.locator("details.action summary", has_text=re.compile("Новая операция|New operation")).click()
    axis.select_option("form.act-new-op select[name=target]", "vichy")
    # the hand is a count (no card values entered): no card is listed by anything a player cannot match
    expect(axis.locator(".my-hand .hand-count")).to_have_text("3 карты")
    hand_texts = axis.locator(".my-hand").inner_text() + axis.locator("form.act-new-op .hand-pick").inner_text()
    assert not re.search(r"карта \d|card \d|ax-\d|al-\d", hand_texts), hand_texts
    axis.locator('form.act-new-op label.hand-count:has(input[value="2"])').click()  # «2 карты»
    bar = axis.locator("#decision-bar").bounding_box()
    assert bar["height"] <= PHONE_640["height"] / 2 + 1, bar  # the bar leaves the other half of the screen
    expect(axis.locator("form.act-new-op button[type=submit]")).to_be_in_viewport()
    press(axis, "act-new-op")
    expect(axis.locator(".flash-success")).to_contain_text("новая операция A (2 карты)")
    assert axis.evaluate(BROKEN_WORDS) == []  # no table head breaks inside a word at 360 px
    expect(axis.locator(".op-target")).to_contain_text("Виши")
    shot(axis, "fog-of-war-02-axis-plans-an-operation")
    press(axis, "act-end")
    expect(axis.locator(".waiting")).to_be_visible()

    # the Allied phone follows within 3 seconds; it sees the op's count, never its target
    expect(allies.locator(".status-bar .active")).to_contain_text("Союзники", timeout=3000)
    expect(allies.locator(".op-target")).to_have_count(0)
    submit(allies, "start_turn", "Повернуть|Rotate")
    allies.locator("details.action summary", has_text=re.compile("Оборонять|Defend")).click()  # folded in the bar
    allies.select_option("form.act-defend select[name=province]", "vichy")
    allies.locator('form.act-defend label.hand-count:has(input[value="1"])').click()  # «1 карта»
    press(allies, "act-defend")
    expect(allies.locator(".flash-success")).to_contain_text("Виши")
    shot(allies, "fog-of-war-03-allies-defend")
    press(allies, "act-end")

    # Axis turn 2: rotate (the op is now launchable), calculate, then resolve the battle
    expect(axis.locator(".status-bar .active")).to_contain_text("Ось", timeout=3000)
    submit(axis, "start_turn", "Повернуть|Rotate")
    axis.locator("details.action.battle > summary").click()  # folded in the bar
    form = axis.locator("form.act-battle")
    form.locator("select[name=origin]").select_option("italy")
    form.locator("select[name=supply_reaches]").select_option("yes")  # the rules' partial map: asked (B-17)
    form.locator("select[name=wheel_mark]").select_option("none")  # the rules' wheel: the mark is asked (B-3)
    # each revealed card told by what is printed on it: its kind, then its strength (two taps)
    taps = form.locator(".reveal-taps")
    taps.locator("button.reveal-kind", has_text="суша").click()
    taps.locator("button.reveal-value", has_text="3").click()
    taps.locator("button.reveal-value", has_text="2").click()  # the kind stays chosen
    taps.locator('label:has(input[value="reveal_defence"])').click()
    taps.locator("button.reveal-value", has_text="1").click()
    expect(form.locator("input[name=reveal_attack]")).to_have_value("L3 L2")
    expect(form.locator("input[name=reveal_defence]")).to_have_value("L1")
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


class Taps:
    """Counts what a player does on the tablet: taps (a tap on a field, a chip, a button, a node) and
    the characters typed, so the report can extrapolate a whole 28-province map."""

    def __init__(self, page):
        self.page, self.taps, self.chars = page, 0, 0

    def tap(self, selector, **kw):
        self.page.locator(selector, **kw).first.click()
        self.taps += 1

    def type(self, selector, text):
        self.tap(selector)
        self.page.locator(selector).first.fill(text)
        self.chars += len(text)

    def choose(self, selector, value):  # a select: open it, tap the option
        self.page.locator(selector).first.select_option(value)
        self.taps += 2

    def chip(self, field, value):  # a radio chip of the province form
        self.tap(f"form.province fieldset.f-{field} label.tap:has(input[value='{value}'])")


def add_province(t, name_en, name_ru, kind, side, vp, resources, climate):
    if kind != "land":  # land is preselected
        t.chip("kind", kind)
    t.type("form.province input[name=name_en]", name_en)
    t.type("form.province input[name=name_ru]", name_ru)
    t.chip("start_control", side)
    if vp is not None:
        t.type("form.province input[name=vp]", str(vp))
    if resources is not None:
        t.type("form.province input[name=resources]", str(resources))
    if climate:
        t.chip("climate", climate)
    t.tap("form.province button[type=submit]")
    expect(t.page.locator(".messages .msg-success")).to_contain_text(name_en)


def connect(t, a, b):
    for key in (a, b):
        t.tap(f'svg.fow-map g.node[data-key="{key}"] :is(circle, rect)')
    expect(t.page.locator(f'svg.fow-map line[data-a="{min(a, b)}"][data-b="{max(a, b)}"]')).to_have_count(1)


def test_club_enters_a_map_by_taps_exports_imports_and_starts_a_game(live_server, new_context, shot, tmp_path):
    page = new_context(viewport={"width": 800, "height": 1280}).new_page()  # a tablet
    t = Taps(page)
    page.goto(live_server.url + "/fog-of-war/maps/")
    t.type("input[name=new-name]", "Клуб")
    t.tap("form.fow-new-file button[type=submit]")
    expect(page.locator(".validation .count")).to_contain_text("21")
    expect(page.locator("svg.fow-map g.node")).to_have_count(21)

    # per province and per edge: the taps a new province and a connection take
    start = (t.taps, t.chars)
    add_province(t, "Norway", "Норвегия", "land", "neutral", 2, 1, "snow")
    per_province = (t.taps - start[0], t.chars - start[1])
    add_province(t, "Arctic Ocean", "Северный Ледовитый океан", "sea", "allies", 0, 0, "none")
    expect(page.locator("svg.fow-map g.node")).to_have_count(23)
    start = t.taps
    connect(t, "norway", "north_sea")
    per_edge = t.taps - start
    connect(t, "norway", "arctic_ocean")
    connect(t, "arctic_ocean", "north_atlantic")
    expect(page.locator("svg.fow-map line.edge")).to_have_count(4)  # the rules' Ruhr–North Sea and three taps
    # a blank fact of a named province: tap it in the list, tap its values
    start = (t.taps, t.chars)
    t.tap('table.provinces tr[data-key="berlin"] a')
    t.type("form.province input[name=vp]", "5")
    t.type("form.province input[name=resources]", "4")
    t.chip("climate", "snow")
    t.tap("form.province button[type=submit]")
    per_fill = (t.taps - start[0], t.chars - start[1])
    expect(page.locator('table.provinces tr[data-key="berlin"]')).to_contain_text("5")
    expect(page.locator(".validation .count")).to_contain_text("23")
    expect(page.locator(".validation .named")).not_to_contain_text("Берлин")
    shot(page, "fog-of-war-07-map-editor")

    # export the file, import it as on another laptop
    with page.expect_download() as dl:
        page.locator("a.export").click()
    path = tmp_path / "club.fow-map.yaml"
    dl.value.save_as(str(path))
    assert "norway" in path.read_text(encoding="utf-8")
    page.goto(live_server.url + "/fog-of-war/maps/")
    page.fill("input[name=imp-name]", "Клуб (импорт)")
    page.set_input_files("input[name=imp-upload]", str(path))
    page.locator("form.fow-import button[type=submit]").click()
    expect(page.locator(".validation .count")).to_contain_text("23")
    imported = FowMap.objects.get(name="Клуб (импорт)")

    # a new game chooses it
    page.goto(live_server.url + "/fog-of-war/new/")
    page.fill("input[name=name]", "На клубной карте")
    page.locator("details.fold > summary", has_text=re.compile("Карта поля|Board map")).click()  # folded
    page.select_option("select[name=map_choice]", str(imported.pk))
    page.locator("form.fow-new button[type=submit]").click()
    expect(page.locator("h1")).to_contain_text("На клубной карте")
    game = Game.objects.get(name="На клубной карте")
    engine = log.current_state(game)["engine"]
    assert "norway" in engine["provinces"] and engine["board"]["provinces"]["berlin"]["vp"] == 5
    assert engine["board"]["provinces"]["norway"]["climate"] == "snow"
    axis_url = page.locator(".seat .link a").first.get_attribute("href")
    axis = new_context().new_page()
    axis.goto(live_server.url + "/" + axis_url.split("/", 3)[3])
    submit(axis, "start_turn", "Повернуть|Rotate")
    expect(axis.locator(".flash-success")).to_contain_text("колесо повёрнуто")
    expect(axis.locator('tr[data-province="norway"]')).to_be_visible()
    shot(axis, "fog-of-war-08-game-on-the-club-map")

    # the figures for the report: taps per province / edge / filled blank, and their extrapolation
    report = {"per_new_province": {"taps": per_province[0], "chars": per_province[1]},
              "per_edge": {"taps": per_edge}, "per_filled_named_province": {"taps": per_fill[0], "chars": per_fill[1]}}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "fog-of-war-map-taps.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    assert per_province[0] <= 10 and per_edge == 2 and per_fill[0] <= 6

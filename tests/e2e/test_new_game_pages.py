"""The new-game pages on a 360×640 phone: every visible control can be tapped (nothing covers its centre,
nothing is wider than the screen), the names and the create button fit the first screen, and a game
starts by taps. The Fog of War's game page is no wider than the phone either."""
import json

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 360, "height": 640}

COVERED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('main input, main select, main textarea, main button, main summary, main a')) {
    if (el.type === 'hidden' || !el.checkVisibility() || el.getBoundingClientRect().width === 0) continue;
    el.scrollIntoView({block: 'center'});
    const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    const label = el.labels && el.labels.length ? el.labels[0] : null;
    if (!hit || !(el === hit || el.contains(hit) || (label && (label === hit || label.contains(hit))) || hit.contains(el)))
      out.push((el.name || el.textContent || el.tagName).trim().slice(0, 40));
    if (r.right > 360 + 1 || r.left < -1) out.push('outside: ' + (el.name || el.tagName));
  }
  return out;
}"""


def check_page(page, shot, name):
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    # open every fold, then every control must be tappable
    for summary in page.locator("main details > summary").all():
        if summary.is_visible():
            summary.click()
    assert page.evaluate(COVERED) == [], name
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    shot(page, f"new-game-{name}-360")


def in_viewport(page, locator):
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


PAGES = [
    ("qmg", "/", {"player_1": "Аня", "player_2": "Боря"}, "form.new-game button[type=submit]"),
    ("generalissimus", "/generalissimus/new/", {"south_player": "Аня", "north_player": "Боря"}, "form.g-new button[type=submit]"),
    ("fog-of-war", "/fog-of-war/new/", {"axis_player": "Аня", "allies_player": "Боря"}, "form.fow-new button[type=submit]"),
]


@pytest.mark.parametrize("name, url, names, button", PAGES, ids=[p[0] for p in PAGES])
def test_new_game_page_by_taps(live_server, new_context, shot, name, url, names, button):
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + url)
    for field, value in names.items():
        page.fill(f"[name={field}]", value)
    page.evaluate("window.scrollTo(0, 0)")
    submit = page.locator(button).last
    assert in_viewport(page, submit), f"{name}: the create button is below the first screen"
    submit.click()
    expect(page.locator(".seat").first).to_be_visible()
    page.goto(live_server.url + url)
    check_page(page, shot, name)


def test_generalissimus_units_are_placed_by_taps(live_server, new_context, shot):
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + "/generalissimus/new/")
    page.locator("details.g-armies > summary").click()
    page.locator(".g-mode[data-mode=units]").click()
    page.locator(".g-terrain-cell[data-cell=c1]").click()
    page.locator("[data-pick=side] [data-value=north]").click()
    page.locator("[data-pick=kind] [data-value=cavalry]").click()
    page.locator(".g-terrain-cell[data-cell=d6]").click()
    assert page.locator("textarea[name=units]").input_value().splitlines() == ["south infantry c1", "north cavalry d6"]
    page.locator(".g-mode[data-mode=terrain]").click()
    page.locator(".g-terrain-cell[data-cell=a3] .g-cell-name").click()
    assert page.locator("select[name=t_a3]").input_value() == "forest"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "new-game-generalissimus-units-360")
    page.locator("form.g-new button[type=submit]").last.click()
    expect(page.locator(".seat").first).to_be_visible()
    from tracker.core import log
    from tracker.models import Game
    state = log.current_state(Game.objects.latest("pk"))
    text = json.dumps(state)
    assert '"sector": "c1"' in text and '"sector": "d6"' in text and '"sector": "b1"' not in text  # not the preset

def test_fog_of_war_game_page_fits_the_phone(live_server, new_context, shot):
    page = new_context(viewport=PHONE).new_page()
    page.goto(live_server.url + "/fog-of-war/new/")
    page.locator("form.fow-new button[type=submit]").click()
    href = page.locator(".seat .link a").first.get_attribute("href")
    page.goto(live_server.url + "/" + href.split("/", 3)[3])
    expect(page.locator(".fow-provinces")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.locator(".whoami").count() == 1 and page.locator(".status-bar .me").count() == 0
    shot(page, "game-fog-of-war-360")

"""Accessibility in the browser: axe-core (vendored from the npm registry into tests/e2e/vendor, used by
the tests only) checks the pages a table uses at phone width (360 px): no serious or critical violation."""
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
SERIOUS = ("serious", "critical")


def violations(page) -> list[dict]:
    """axe's serious and critical violations of the page as it is now (WCAG 2 A/AA and best practices).
    The script is evaluated through the devtools protocol: the page's CSP stays as strict as it is."""
    page.evaluate(AXE)
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
    }""")
    return [v for v in found if v["impact"] in SERIOUS]


def check(page, name):
    bad = violations(page)
    assert not bad, f"{name}: " + json.dumps(bad, ensure_ascii=False, indent=1)


def test_the_tables_pages_have_no_serious_violation_at_phone_width(live_server, new_context):
    host = new_context().new_page()
    host.goto(live_server.url + "/")
    check(host, "new-game page")
    host.fill("input[name=name]", "Доступность")
    host.locator("details.house-rules > summary").click()  # the optional rules are folded
    host.check("input[name=prepare_for_war]")  # the preparation's buttons are on the first game page
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator(".seat .link a").first).to_be_visible()
    check(host, "seats page")
    url = host.locator(".seat .link a").first.get_attribute("href")
    other = new_context().new_page()  # a phone waiting for the other team
    other.goto(live_server.url + "/" + host.locator(".seat .link a").nth(1).get_attribute("href").split("/", 3)[3])
    expect(other.locator(".whoami .waiting-for")).to_be_visible()
    check(other, "game page (a waiting seat)")
    phone = new_context().new_page()
    phone.goto(live_server.url + "/" + url.split("/", 3)[3])
    expect(phone.locator(".whoami")).to_be_visible()
    expect(phone.locator("section.prepare")).to_be_visible()
    check(phone, "game page (the active seat, «Подготовка к войне» open)")
    phone.locator('g.space[data-space="eastern_europe"]').first.dispatch_event("click")
    phone.locator("section.stepper form:has(input[value=play_card]) button[type=submit]").click()
    expect(phone.locator(".flash-success")).to_be_visible()
    check(phone, "game page after a move (the answer shown)")
    phone.goto(live_server.url + "/rules/?q=" + "атака")
    check(phone, "rules search")
    first = phone.locator(".hits a").first
    if first.count():
        first.click()
        check(phone, "a rule or card page")
    phone.goto(live_server.url + "/join/not-a-token/")
    expect(phone.locator("h1")).to_contain_text(re.compile("."))
    check(phone, "404 page")

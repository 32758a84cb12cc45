"""A 2-player game on two phones: join, build, see it on the other phone, refusal, scoring, undo."""
import re

import pytest
from playwright.sync_api import expect

from tracker.models import Game, Piece

pytestmark = pytest.mark.django_db(transaction=True)

def submit_stepper(page, label_re):
    page.locator("section.stepper button[type=submit]", has_text=re.compile(label_re)).first.click()


def test_two_phones_play_germanys_turn(live_server, new_context, shot):
    host = new_context().new_page()
    csp_errors = []
    for_each = lambda page: page.on(  # noqa: E731
        "console", lambda msg: csp_errors.append((msg.text[:60], msg.location.get("url"), msg.location.get("lineNumber"))) if "Content Security Policy" in msg.text else None)
    for_each(host)
    host.goto(live_server.url + "/")
    host.fill("input[name=name]", "E2E")
    host.select_option("select[name=players]", "2")
    host.fill("input[name=player_1]", "Аня")
    host.fill("input[name=player_2]", "Боря")
    host.locator("details.house-rules > summary").click()  # the optional rules are folded
    host.check("input[name=step_by_step]")  # a teaching game: one tap per step (tests/e2e/test_table_feel.py: one tap)
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator("h1")).to_contain_text("E2E")
    links = host.locator(".seat .link a").all()
    axis_url, allies_url = links[0].get_attribute("href"), links[1].get_attribute("href")
    shot(host, "qmg-01-join-links")
    game = Game.objects.get(name="E2E")

    # the join links carry the LAN address; open them on this machine's live server
    path = lambda url: live_server.url + "/" + url.split("/", 3)[3]  # noqa: E731
    axis = new_context().new_page()
    axis.goto(path(axis_url))
    allies = new_context().new_page()
    for_each(axis), for_each(allies)
    allies.goto(path(allies_url))
    expect(axis.locator(".status-bar .active")).to_contain_text("Германия")
    expect(allies.locator(".waiting")).to_be_visible()
    shot(axis, "qmg-02-germany-phone")

    # an illegal build is refused with its reason and changes nothing
    axis.select_option("select[name=card_type]", "build_army")
    axis.select_option("section.stepper select[name=space]", "russia")
    submit_stepper(axis, "Сыграть|Play")
    expect(axis.locator(".flash-error")).to_contain_text("Создать армию можно только рядом")
    assert not Piece.objects.filter(game=game, space="russia").exists()
    shot(axis, "qmg-03-refused")

    # tapping Eastern Europe on the map fills the form's target space
    axis.select_option("select[name=card_type]", "build_army")
    axis.locator('g.space[data-space="eastern_europe"]').first.dispatch_event("click")
    expect(axis.locator("section.stepper select[name=space]")).to_have_value("eastern_europe")
    submit_stepper(axis, "Сыграть|Play")
    expect(axis.locator(".flash-success")).to_contain_text("Восточная Европа")

    # the other phone follows within 3 seconds
    expect(allies.locator('g.space[data-space="eastern_europe"] .piece')).to_have_count(1, timeout=3000)
    shot(allies, "qmg-04-other-phone-sees-it")

    # finish the play step, supply, victory
    submit_stepper(axis, "Завершить|Finish")
    expect(axis.locator(".status-bar .phase")).to_contain_text("Снабжение")
    submit_stepper(axis, "Продолжить|Continue|Убрать")
    expect(axis.locator(".status-bar .phase")).to_contain_text("Победные очки")
    expect(axis.locator(".score-lines")).to_contain_text("Германия 2")
    submit_stepper(axis, "Начислить|Score")
    expect(axis.locator(".vp-axis-n")).to_contain_text("2")
    expect(allies.locator(".vp-axis-n")).to_contain_text("2", timeout=3000)
    shot(axis, "qmg-05-scored")

    # undo restores the previous state (the VP go back)
    axis.locator(".undo-redo button", has_text=re.compile("Отменить|Undo")).click()
    expect(axis.locator(".vp-axis-n")).to_contain_text("0")
    expect(axis.locator(".status-bar .phase")).to_contain_text("Победные очки")
    game.refresh_from_db()
    assert game.qmg.vp_axis == 0 and game.qmg.phase == "victory"
    shot(axis, "qmg-06-undone")
    assert csp_errors == []  # htmx and the map script work under the strict CSP

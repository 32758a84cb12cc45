"""A dropped connection is never silent (the production ASGI server, three phones of a six-player game).

- The server is stopped mid-turn; Germany's player taps «Закончить ход»: within a few seconds the decision bar says
  the move was not sent (the old answer gone), with «Повторить»; a phone that was only watching says there is no
  connection. The server is started again on the same port and database: the phones say the link is back;
  «Повторить» sends the same form with its original version; the turn's end is applied exactly once and every
  phone comes to the same version.
- A move the server applied whose answer never reached the phone: «Повторить» sends it again with its original
  version, and the server refuses it as a conflict: it is applied once.
- The server ends every stream after a while and the browser opens a new one: no console error on any phone, and
  the phones stay live."""
import re
import time

import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tests.asgi_server import AsgiServer
from tracker.models import Event, Game
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 640}
NOT_SENT = "Нет связи с сервером — ход не отправлен"


def six_players():
    names = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]
    return create_game("Связь", list(zip(names, DEFAULT_SEATING[6])), {})


def phone(new_context, server, game, number, errors):
    page = new_context(viewport=PHONE).new_page()
    page.on("console", lambda m: errors.append((number, m.text)) if m.type == "error" else None)
    page.goto(server.url + f"/join/{game.seats.get(number=number).token}/")
    expect(page.locator("#game")).to_be_visible()
    return page


def build(page, space):
    page.locator(f'g.space[data-space="{space}"]').first.dispatch_event("click")
    page.get_by_role("button", name="Сыграть карту").click()
    expect(page.locator("#decision-bar .flash")).to_contain_text(re.compile("[Сс]ыграна карта"))


def moves_of(game, kind):
    return [e for e in Event.objects.filter(game=game, kind=Event.MOVE) if (e.command or {}).get("type") == kind]


def converged(pages, game):
    game.refresh_from_db()
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-version", str(game.version), timeout=8000)


def test_a_tap_while_the_server_is_down_says_so_and_is_sent_again_once(real_db, new_context):
    server = AsgiServer().start()
    try:
        game = six_players()
        errors = []
        germany = phone(new_context, server, game, 1, errors)
        britain = phone(new_context, server, game, 2, errors)
        japan = phone(new_context, server, game, 3, errors)
        germany.wait_for_timeout(500)  # the streams are open and heard
        build(germany, "eastern_europe")
        converged([germany, britain, japan], game)
        finish = germany.locator("#decision-bar").get_by_role("button", name="Закончить ход")
        expect(finish).to_be_visible()

        port = server.port
        server.stop()
        t0 = time.perf_counter()
        finish.click()
        state = germany.locator("#decision-bar .conn-state")
        expect(state).to_contain_text(NOT_SENT, timeout=5000)
        said = time.perf_counter() - t0
        expect(germany.locator("#decision-bar .flash")).to_have_count(0)  # the old answer is gone
        expect(state.get_by_role("button", name="Повторить")).to_be_visible()
        expect(britain.locator("#decision-bar .conn-state")).to_contain_text("Нет связи с сервером", timeout=8000)
        watching = time.perf_counter() - t0
        print(f"\n  the server stopped: the tapping phone said so after {said * 1000:.0f} ms, "
              f"a watching phone after {watching * 1000:.0f} ms")
        germany.screenshot(path=str(_artifact("connection-lost-360")))
        assert not moves_of(game, "supply")

        server = AsgiServer(port=port).start()
        expect(state).to_contain_text("Связь восстановлена", timeout=8000)
        expect(britain.locator("#decision-bar .conn-state")).to_contain_text("Связь восстановлена", timeout=8000)
        germany.screenshot(path=str(_artifact("connection-back-360")))
        state.get_by_role("button", name="Повторить").click()
        expect(germany.locator("#decision-bar .flash .flash-steps li").first).to_be_visible(timeout=8000)
        expect(germany.locator(".conn-state")).to_have_count(0)
        assert len(moves_of(game, "supply")) == 1 and len(moves_of(game, "draw")) == 1
        converged([germany, britain, japan], game)
        assert not [e for e in errors if "[object Event]" in e[1] or "sseError" in e[1]], errors
    finally:
        server.stop()


def test_a_move_applied_whose_answer_was_lost_is_not_applied_twice(asgi_live_server, new_context):
    game = six_players()
    errors = []
    germany = phone(new_context, asgi_live_server, game, 1, errors)
    britain = phone(new_context, asgi_live_server, game, 2, errors)
    germany.wait_for_timeout(500)
    build(germany, "eastern_europe")
    lost = []

    def answer_lost(route):  # the server applies the move; the phone never hears back
        route.fetch()
        lost.append(route.request.url)
        route.abort("connectionreset")

    germany.route("**/command/", answer_lost)
    germany.locator("#decision-bar").get_by_role("button", name="Закончить ход").click()
    state = germany.locator("#decision-bar .conn-state")
    expect(state).to_contain_text("ход не отправлен", timeout=5000)  # as far as the phone can tell
    assert lost and len(moves_of(game, "draw")) == 1  # it was applied all the same
    germany.unroute("**/command/")
    state.get_by_role("button", name="Повторить").click()  # the same form, its version the one before the move
    expect(germany.locator("#decision-bar .flash").first).to_be_visible()  # refused: the turn has passed
    expect(germany.locator(".conn-state")).to_have_count(0)
    assert len(moves_of(game, "draw")) == 1 and len(moves_of(game, "supply")) == 1
    converged([germany, britain], game)


def test_the_streams_expected_reconnects_log_no_error(asgi_live_server, new_context, settings):
    """Each stream ends after about a second here (a few minutes in production): the browser opens a new one."""
    settings.LIVE_STREAM_SECONDS = 1.0
    game = six_players()
    errors = []
    germany = phone(new_context, asgi_live_server, game, 1, errors)
    britain = phone(new_context, asgi_live_server, game, 2, errors)
    opened = []
    britain.on("request", lambda r: opened.append(r.url) if "/stream/" in r.url else None)
    britain.wait_for_timeout(4500)
    assert len(opened) >= 2, opened  # the stream was opened again
    build(germany, "eastern_europe")
    converged([germany, britain], game)
    assert errors == [], errors


def _artifact(name):
    from .conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"

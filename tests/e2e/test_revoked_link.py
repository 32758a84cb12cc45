"""A link the host replaces stops working on the phone at once: the host taps «new link» for a seat on the
links page, and that seat's open game page turns into the page that asks for a link (its stream ended with a
last word, the page asked for itself and was refused), without anyone touching that phone. The other
seat's phone plays on."""
import time

import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_replaced_seat_link_shows_the_no_link_page_on_that_phone(asgi_live_server, new_context, shot):
    game = create_game("Новая ссылка", list(zip(["Гер", "Бри"], DEFAULT_SEATING[2])), {})
    url = asgi_live_server.url
    britain = new_context().new_page()
    britain.goto(f"{url}/join/{game.seats.get(number=2).token}/")
    germany = new_context().new_page()
    germany.goto(f"{url}/join/{game.seats.get(number=1).token}/")
    for page in (britain, germany):
        expect(page.locator("#game")).to_be_visible()
    time.sleep(0.5)  # the streams are open and heard
    host = new_context().new_page()
    host.goto(f"{url}/host/{game.host_token}/")
    host.goto(f"{url}/g/{game.pk}/seats/")
    seat = game.seats.get(number=2)
    t0 = time.perf_counter()
    host.locator(f'form:has(input[name="seat"][value="{seat.pk}"]) button').click()
    host.locator('#new-link-confirm button[type="submit"]').click()  # the step that names whose phone loses access
    expect(host.locator(".messages")).to_contain_text("Бри")
    expect(britain.get_by_text("нет ссылки", exact=False)).to_be_visible(timeout=3000)
    print(f"\n  the phone showed the no-link page {(time.perf_counter() - t0) * 1000:.0f} ms after the host's tap")
    expect(britain.locator("#game")).to_have_count(0)
    shot(britain, "revoked-link-phone")
    expect(germany.locator("#game")).to_be_visible()  # the other phone is untouched

"""The map at a real table (QMG, Chromium): each phone at 360×640 opens on its own country's home and keeps the
player's view through a refresh and a reload; the board wraps in the Pacific and both halves of a space cut by the
edge can be tapped; a tap on a space a card step does not offer says why; the zoom buttons never cover a space;
a spectator reads no «your camp»; the table screen shows the whole board, legibly, at 1024×768 and 1920×1080,
with the round, the country to play, the victory points, the last move and the statuses in play, live, and the
same for a seat's browser as for a spectator's.

``drags_to_reach`` counts the drags a player needs to bring a space fully into the map (a drag: 200 px of a
thumb); the figures are printed."""
import re
import time

import pytest
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log
from tracker.models import Game
from tracker.qmg.views import create_game

from .mapview import BOX, HOMES, drags_to_reach, inside, map_box, space_box
from .test_accessibility import check
from .test_decision_bar import two_players

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 640}
HOST = log.Actor(is_host=True)


def six_players(name):
    names = ["Гер", "Бри", "Яп", "Сов", "Ит", "Ам"]
    return create_game(name, list(zip(names, DEFAULT_SEATING[6])), {})


def open_link(new_context, server, path, viewport=PHONE):
    page = new_context(viewport=viewport).new_page()
    page.goto(server.url + path)
    expect(page.locator("#game")).to_be_visible()
    page.wait_for_timeout(300)  # board.js has placed the first view
    return page


def view_box(page):
    """The map's view: the map point at the centre of the map's box, and map units per screen pixel (the box may
    change its height with the decision bar's)."""
    x, y, w, h = map(float, page.locator("svg.board-svg").first.get_attribute("viewBox").split())
    return round(x + w / 2), round(y + h / 2), round(w / map_box(page)["w"], 2)


def test_each_phone_opens_on_its_home_and_keeps_the_players_view(asgi_live_server, new_context, shot):
    game = six_players("Дома")
    figures = {}
    for number, country in enumerate(DEFAULT_SEATING[6], 1):
        country = country[0]
        page = open_link(new_context, asgi_live_server, f"/join/{game.seats.get(number=number).token}/")
        figures[country] = drags_to_reach(page, HOMES[country])
        if country in ("japan", "united_states"):
            shot(page, f"map-home-{country}-360")
        page.context.close()
    print("\n  drags to bring the home space into the map at 360×640:", figures)
    assert figures == {country: 0 for country in figures}

    usa = open_link(new_context, asgi_live_server, f"/join/{game.seats.get(number=6).token}/")
    drags_to_reach(usa, "western_europe")  # the player looks at Europe
    looked = view_box(usa)
    germany = Game.objects.get(pk=game.pk)
    log.submit(game.pk, germany.version, HOST, {"type": "play_card", "card_type": "build_army",
                                                "space": "eastern_europe"})  # another phone's move: a refresh
    expect(usa.locator("#game")).to_have_attribute("data-version", str(germany.version + 1))
    assert view_box(usa) == looked  # the refresh kept the view
    usa.reload()
    expect(usa.locator("#game")).to_be_visible()
    usa.wait_for_timeout(300)
    assert view_box(usa) == looked  # so did a reload


def test_the_board_wraps_in_the_pacific_and_both_halves_can_be_tapped(live_server, new_context, shot):
    game = six_players("Тихий океан")
    page = open_link(new_context, live_server, f"/join/{game.seats.get(number=1).token}/")
    for _ in range(6):  # zoomed out to the whole board: both edges on the screen
        page.locator("[data-board-zoom=out]").click()
    for half, edge in (("north_pacific", "left"), ("eastern_pacific", "right")):
        target = page.locator(f'g.space-half[data-half-of="{half}"] .shape')
        box, frame = target.evaluate(BOX), map_box(page)
        assert box["x"] < frame["x"] + frame["w"] / 2 if edge == "left" else box["x"] > frame["x"] + frame["w"] / 2
        visible_x = max(box["x"], frame["x"]) + 4 if edge == "left" else min(box["x"] + box["w"], frame["x"] + frame["w"]) - 4
        page.mouse.click(visible_x, box["y"] + box["h"] / 2)  # the half that shows, at the edge
        expect(page.locator(f'g.space[data-space="{half}"]').first).to_have_class(re.compile(r"\bselected\b"))
        expect(page.locator(f'g.space-half[data-half-of="{half}"]')).to_have_class(re.compile(r"\bselected\b"))
        expect(page.locator("#decision-bar select[name=space]")).to_have_value(half)
    shot(page, "map-wrap-360")
    # the Atlantic whole, between the Americas and Europe
    xs = {s: space_box(page, s)["x"] for s in ("eastern_us", "north_atlantic", "united_kingdom", "japan")}
    assert xs["eastern_us"] < xs["north_atlantic"] < xs["united_kingdom"] < xs["japan"]


def test_a_tap_on_a_space_the_card_step_does_not_offer_says_why(live_server, new_context):
    game = two_players("Не тот сектор")
    page = open_link(new_context, live_server, f"/join/{game.seats.get(number=1).token}/")
    page.locator("#decision-bar input[name=card]").fill("Принудительный призыв")
    page.get_by_role("button", name="Сыграть карту").click()
    expect(page.locator("svg.board-svg g.space.target").first).to_be_attached()
    assert page.locator('g.space.target[data-space="japan"]').count() == 0
    page.locator('g.space[data-space="japan"]').first.dispatch_event("click")
    answer = page.locator("#decision-bar .bar-answer")
    expect(answer).to_contain_text("Япония — не вариант этого шага")
    page.screenshot(path=str(_artifact("map-not-a-choice-360")))


def test_the_zoom_buttons_never_cover_a_space(live_server, new_context):
    game = six_players("Кнопки")
    page = open_link(new_context, live_server, f"/join/{game.seats.get(number=4).token}/")  # the USSR: Moscow
    buttons = [b.evaluate(BOX) for b in page.locator(".board-controls button").all()]
    assert len(buttons) == 3

    def covered():
        """The spaces whose drawn part (the map clips what lies outside its box) meets a zoom button."""
        hits, frame = [], map_box(page)
        for g in page.locator("svg.board-svg g.space").all():
            r = g.locator(".shape").first.evaluate(BOX)
            left, top = max(r["x"], frame["x"]), max(r["y"], frame["y"])
            right, bottom = min(r["x"] + r["w"], frame["x"] + frame["w"]), min(r["y"] + r["h"], frame["y"] + frame["h"])
            if right <= left or bottom <= top:
                continue  # not on the map's box at all
            box = {"x": left, "y": top, "w": right - left, "h": bottom - top}
            for b in buttons:
                if box["x"] < b["x"] + b["w"] and b["x"] < box["x"] + box["w"] and box["y"] < b["y"] + b["h"] \
                        and b["y"] < box["y"] + box["h"]:
                    hits.append(g.get_attribute("data-space"))
        return hits

    assert covered() == []
    for zoom in ("in", "in", "out", "out", "out"):
        page.locator(f"[data-board-zoom={zoom}]").click()
        assert covered() == [], zoom
    drags_to_reach(page, "japan")
    assert covered() == []


def test_a_spectator_reads_no_your_camp(live_server, new_context):
    game = six_players("Зритель")
    page = open_link(new_context, live_server, f"/watch/{game.spectator_token}/")
    expect(page.locator(".reminders")).to_contain_text("Проливы, закрытые для «Оси» (сейчас её ход)")
    assert "вашего лагеря" not in page.locator("#game").inner_text()


def _artifact(name):
    from .conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


LEGIBLE = """() => {
    const out = [];
    for (const t of document.querySelectorAll("svg.board-svg g.space text.name")) {
        const m = t.getScreenCTM();
        out.push(parseFloat(t.getAttribute("font-size")) * m.a);
    }
    return out;
}"""


@pytest.mark.parametrize("viewport", [{"width": 1024, "height": 768}, {"width": 1920, "height": 1080}],
                         ids=["1024x768", "1920x1080"])
def test_the_table_screen_shows_the_whole_board_legibly_and_live(asgi_live_server, new_context, viewport):
    game = two_players("Экран стола")
    for command in ({"type": "play_card", "card_type": "build_army", "space": "eastern_europe"},
                    {"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0},
                    {"type": "draw"},
                    {"type": "play_card", "card_type": "status", "card_id": "uk_rationing"}):
        game.refresh_from_db()
        assert log.submit(game.pk, game.version, HOST, command).applied, command
    page = open_link(new_context, asgi_live_server, f"/watch/{game.spectator_token}/table/", viewport)
    expect(page).to_have_url(re.compile(r"/g/\d+/table/$"))
    frame = map_box(page)
    window = {"x": 0, "y": 0, "w": viewport["width"], "h": viewport["height"]}
    for g in page.locator("svg.board-svg g.space").all():  # the whole board on the screen, nothing to scroll to
        box = g.locator(".shape").first.evaluate(BOX)
        assert inside(box, frame) and inside(box, window), g.get_attribute("data-space")
    sizes = sorted(page.evaluate(LEGIBLE))
    median = sizes[len(sizes) // 2]
    used = (frame["w"] + (page.locator(".screen-panel").evaluate(BOX)["w"] if viewport["width"] >= 1280 else 0)) \
        / viewport["width"]
    print(f"\n  table screen {viewport['width']}×{viewport['height']}: names {sizes[0]:.1f}–{sizes[-1]:.1f} px "
          f"(median {median:.1f}), the width used {used:.0%}")
    # the phone's drawing of the board in the same room has names of about 5 px (1024) and 9 px (1920)
    assert median >= (9 if viewport["width"] < 1280 else 13) and sizes[0] >= (7.5 if viewport["width"] < 1280 else 11)
    assert used >= 0.9
    status = page.locator(".screen-status")
    for text in ("Раунд 1 из 20", "Великобритания", "Ось 2", "Коалиция"):
        expect(status).to_contain_text(text)
    news = page.locator(".screen-news") if viewport["width"] < 1280 else page.locator(".screen-panel")
    expect(news).to_contain_text("Карточная система")  # the status in play
    expect(news).to_contain_text("Великобритания")
    for locator in (status, news):
        box = locator.evaluate(BOX)
        assert box["y"] >= 0 and box["y"] < viewport["height"], locator  # on the screen
    assert "Вы:" not in page.locator("body").inner_text()
    page.screenshot(path=str(_artifact(f"table-screen-{viewport['width']}x{viewport['height']}")))

    # live: a move on a phone appears on the screen without a reload
    before = int(page.locator("#game").get_attribute("data-version"))
    game.refresh_from_db()
    assert log.submit(game.pk, game.version, HOST, {"type": "end_play"}).applied
    expect(page.locator("#game")).to_have_attribute("data-version", str(before + 1), timeout=3000)
    expect(page.locator(".screen-status .phase")).not_to_have_text("Розыгрыш карты")

    # a seat's browser sees the same screen as a spectator (no seat's text, nothing hidden)
    seat = open_link(new_context, asgi_live_server, f"/join/{game.seats.get(number=1).token}/", viewport)
    url = asgi_live_server.url + f"/g/{game.pk}/table/"

    def served(p):
        html = p.request.get(url).text()
        return html[html.index('<section id="game"'):html.index("</main>")]

    assert served(seat) == served(page)
    if viewport["width"] == 1024:
        check(page, "the table screen")

"""A game night: six phones (one per country, 360×640) and the table screen play round 1, round 2 and Germany's turn
of round 3 of a «Подготовка к войне» game on a real ``manage.py serve`` (tests/serve_process.py, on the test's
database), with the four decisions of
tests/e2e/game_night_taps.py played the same way (the same code):

- a battle answered by a face-down response: Germany attacks Ukraine, only the USSR is asked (its teammates hold
  no face-down response), every phone shows what is at stake and no page but the USSR's names the card, it
  reveals «Сталинград» and every phone's history says the army was saved;
- a server restart mid-turn: the server process is ended, the UK's «Сыграть карту» is said not sent; a new
  process is started on the same port, «Повторить» applies it, once;
- an event with no legal target: the USA's «Флот переведён в Пёрл-Харбор», warned of (each step named) and
  played all the same with one more tap;
- a Blitzkrieg battle: Germany attacks Ukraine, the army is removed, «Блицкриг» is offered in the bar (one tap) and
  builds a German army there.

Every counted tap must be on the screen and under the finger with the page not scrolled (``strict``), and each
decision's number of taps is asserted. Screenshots: test-artifacts/game-night-*.png."""
import re

import pytest
from django.db import connections
from playwright.sync_api import expect

from gameplay.qmg.seating import DEFAULT_SEATING
from tests.serve_process import ServeProcess, database_url
from tracker.models import Event, Game, Piece
from tracker.qmg.views import create_game

from . import game_night_taps as night

pytestmark = pytest.mark.django_db(transaction=True)

# taps per decision (the counted taps of game_night_taps.py)
TAPS = {"battle answered": 5, "restart": 4, "event": 4, "blitzkrieg": 6}


def moves(game, country, round_, kind):
    return [e for e in Event.objects.filter(game=game, kind=Event.MOVE, country=country, round=round_)
            if e.command.get("type") == kind]


def watch(page, name, seen):
    """Keeps, for a failure's report, each whole-page load (request method and URL) and each answer >= 400."""
    page.on("request", lambda r: seen.append(f"{name}: page {r.method} {r.url}") if r.is_navigation_request() else None)
    page.on("response", lambda r: seen.append(f"{name}: {r.status} {r.request.method} {r.url}")
            if r.status >= 400 else None)


def test_a_game_night_of_six_phones_and_the_table_screen(real_db, new_context, tmp_path):
    names = night.NAMES
    game = create_game("Игровой вечер", [(names[s[0]], s) for s in DEFAULT_SEATING[6]], {"prepare_for_war": True})
    # the test's own database (SQLite's file of real_db, or PostgreSQL's test database), shared with the server
    server = ServeProcess(tmp_path, env={"DATABASE_URL": database_url(connections["default"]),
                                         "DJANGO_LIVE_BUS": "local", "WEB_ACCESS_LOG": "/dev/null"}).start()
    url = f"http://127.0.0.1:{server.port}"
    try:
        pages = {}
        errors = []
        seen = []  # what each phone loaded as a whole page, and every answer >= 400: printed if the night fails
        for seat in game.seats.all():
            page = new_context(viewport=night.PHONE).new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            watch(page, seat.countries[0], seen)
            page.goto(url + f"/join/{seat.token}/")
            expect(page.locator("#game")).to_be_visible()
            pages[seat.countries[0]] = page
        table = new_context(viewport=night.TABLE).new_page()
        table.goto(url + f"/watch/{game.spectator_token}/table/")
        expect(table.locator("svg.board-svg")).to_be_visible()
        pages["germany"].wait_for_timeout(500)  # the streams are open and heard
        assert not [s for s in seen if ": page " not in s], seen  # every page came with its scripts and styles

        tally = night.Tally()
        # the restart: the server process ended, then started again on its port
        try:
            night.night(pages, table, tally, "game-night", server.stop, server.start, strict=True)
        except Exception:
            print("\nwhat the phones loaded and were refused:", *seen, sep="\n  ")
            print("console errors:", *errors, sep="\n  ")
            print("the server's log (end):", server.log()[-4000:], sep="\n")
            raise
        tally.report()

        game.refresh_from_db()
        game = Game.objects.get(pk=game.pk)
        assert game.qmg.round == 3  # rounds 1 and 2 played through, round 3 under way
        rows = {title.split(" (")[0]: (taps, scrolls) for title, taps, scrolls, _ in tally.rows}
        assert all(scrolls == 0 for _taps, scrolls in rows.values()), rows
        got = dict(zip(TAPS, (taps for taps, _s in rows.values())))
        assert got == TAPS, got
        blitzkrieg = [label for _phone, label, _s in tally.rows[3][3]]
        assert "«Блицкриг» in the bar" in blitzkrieg, blitzkrieg  # offered, one tap
        event = [label for _phone, label, _s in tally.rows[2][3]]
        assert "confirm the card anyway" in event, event  # warned, and still played

        # the battle answered (every phone's history said so at the time): the reveal is in the log; the USSR's
        # teammates never held a face-down response
        assert [game.country_cards.get(country=c).responses for c in ("united_kingdom", "united_states")] == [0, 0]
        assert [e for e in moves(game, "soviet_union", 2, "use_card") if night.SAVED in e.summary_ru]
        # the restart: the UK's card sent twice (once refused by the server being down), applied once
        assert len(moves(game, "united_kingdom", 2, "play_card")) == 1
        # the event: played, its steps with no target skipped
        assert len(moves(game, "united_states", 2, "play_card")) == 1
        # Blitzkrieg: the Soviet army removed from Ukraine, a German army built there
        assert Piece.objects.filter(game=game, country="germany", kind="army", space="ukraine").exists()
        assert not Piece.objects.filter(game=game, country="soviet_union", space="ukraine").exists()
        expect(table.locator('g.space[data-space="ukraine"]').first).to_have_attribute(
            "data-pieces", re.compile("germany"))
        expect(table.locator("body")).to_contain_text("Раунд 3 из 20")  # the table screen followed the evening
        assert not [e for e in errors if "[object Event]" in e or "sseError" in e], errors
    finally:
        server.stop()

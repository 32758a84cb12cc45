"""Taps and scrolls of four decisions of a six-player QMG game night on 360×640 phones, measured on any checkout
of this project, so that the figures of two checkouts come from the same turns played the same way:

    .venv/bin/python tests/e2e/game_night_taps.py /path/to/checkout [--shots game-night-taps]

The checkout needs its own venv (``<checkout>/.venv``, ``pip install -e '.[test]'``); its app is started with its
own ``manage.py serve`` (one uvicorn worker, a fresh SQLite file, a free port) and the game is created in its own
Django shell («Подготовка к войне» on, one country per seat). Six phones (360×640) and the table screen (1024×768)
open their links; the phones play round 1 and round 2 and Germany's turn of round 3:

- round 1: the USSR puts «Сталинград» face down and Germany «Блицкриг» face up («Подготовка к войне»); Germany
  builds in Eastern Europe, the USSR in Ukraine, the others discard a card;
- **a battle answered by a face-down response** (round 2, Germany): Germany battles Ukraine; the USSR — whose
  teammates the UK and the USA hold no face-down response — reveals «Сталинград»; Germany finishes the turn;
- **a server restart mid-turn** (round 2, the UK): the UK chooses its card, the server stops, «Сыграть карту» is
  tapped (the phone must say it was not sent), the server starts again, «Повторить» is tapped (applied once),
  the UK finishes the turn;
- **an event with no legal target** (round 2, the USA): «Флот переведён в Пёрл-Харбор», none of whose steps has a
  target (a warning, where the page gives one, is confirmed);
- **a Blitzkrieg battle** (round 3, Germany): Germany battles Ukraine (the USSR has nothing left to answer),
  uses «Блицкриг» (one button where the page offers it, else the page's own form for using a status) and
  finishes the turn.

Every counted tap is made as a finger makes it: if the target is not on the screen and under the finger
(``UNDER_FINGER``), the player scrolls to it — one scroll counted — then taps exactly there; choosing in a list and
typing a card's name count as one tap each. The moves that set the situations up are Playwright's clicks and not
counted. With ``strict=True`` (the e2e test) a needed scroll fails instead. The totals per situation are printed
at the end; screenshots ``<shots>-*.png`` of each decision are left in test-artifacts/.
"""
import argparse
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[2]))
warnings.filterwarnings("ignore", message="No directory at")  # whitenoise, on importing the tests' Django helpers
from tests.e2e.checkout import restartable  # noqa: E402
from tests.e2e.conftest import ARTIFACTS, CHROMIUM, FLAGS  # noqa: E402
from tests.e2e.test_decision_bar import HTMX_BUSY, PHONE, UNDER_FINGER  # noqa: E402

TABLE = {"width": 1024, "height": 768}
COUNTRIES = ["germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states"]
NAMES = {"germany": "Гера", "united_kingdom": "Бриджит", "japan": "Юки", "soviet_union": "Сева", "italy": "Ита",
         "united_states": "Сэм"}
NOT_SENT = "ход не отправлен"
EVENT = "Флот переведён в Пёрл-Харбор"
STAKE = "под ударом армия СССР в секторе «Юг СССР»"
SAVED = "её спасла карта «Сталинград»"
NO_TARGET = "допустимой цели нет"
CONFIRM = re.compile("всё равно|подтвердить|confirm|anyway", re.I)

CREATE = r"""
import json
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg.views import create_game
names = %s
game = create_game("Игровой вечер", [(names[s[0]], s) for s in DEFAULT_SEATING[6]], {"prepare_for_war": True})
print("GAME" + json.dumps({"pk": game.pk, "watch": game.spectator_token,
                           "seats": {s.countries[0]: s.token for s in game.seats.all()}}))
""" % json.dumps(NAMES)

STILL = """async (el) => {  // resolves when the element has kept its place for two frames in a row
    let last = null;
    for (let i = 0; i < 120; i++) {
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const r = el.getBoundingClientRect(), now = [r.top, r.left, r.width, r.height].join();
        if (now === last) return true;
        last = now;
    }
    return false;
}"""

WHERE = """(el) => { const r = el.getBoundingClientRect();
    return {top: Math.round(r.top + window.scrollY), page: document.documentElement.scrollHeight,
            text: (el.innerText || el.value || el.name || "").trim().slice(0, 40)}; }"""


class Phone:
    """One phone: taps counted per situation; a scroll counted (or, strict, refused) whenever the target is not
    under the finger."""

    def __init__(self, page, name, tally, strict=False):
        self.page, self.name, self.tally, self.strict = page, name, tally, strict

    def bar(self):
        return self.page.locator("#decision-bar")

    def version(self):
        return self.page.locator("#game").get_attribute("data-version")

    def _reach(self, locator, label):
        expect(locator).to_be_visible()
        locator.evaluate(STILL)  # where a finger finds it: once the bar's height and the page's layout have settled
        scroll_y = self.page.evaluate("window.scrollY")
        where, scrolled = locator.evaluate(UNDER_FINGER), False
        if self.strict:
            assert scroll_y == 0, f"{self.name}: the page is scrolled ({scroll_y} px) before «{label}»"
            assert where["ok"], f"{self.name}: «{label}» is not under the finger without scrolling: {where}"
        if not where["ok"]:
            scrolled = True
            locator.scroll_into_view_if_needed()
            where = locator.evaluate(UNDER_FINGER)
            if not where["ok"]:
                locator.evaluate("(el) => el.scrollIntoView({block: 'center'})")
                where = locator.evaluate(UNDER_FINGER)
        assert where["ok"], (label, where)
        self.tally.count(self.name, label, locator.evaluate(WHERE), scrolled)
        return where

    def tap(self, locator, label, submits=False):
        before = self.version() if submits else None
        where = self._reach(locator, label)
        self.page.mouse.click(where["x"], where["y"])
        if submits:
            self.answered(before)

    def choose(self, locator, value, label):
        self._reach(locator, label)
        locator.select_option(value)

    def type(self, locator, text, label):
        self._reach(locator, label)
        locator.fill(text)

    def answered(self, before):
        expect(self.page.locator(f'#game:not([data-version="{before}"])')).to_have_count(1, timeout=10_000)
        self.settled()

    def settled(self):
        expect(self.page.locator(HTMX_BUSY)).to_have_count(0)
        if self.strict:
            assert self.page.evaluate("window.scrollY") == 0, f"{self.name}: the answer scrolled the page"

    def shot(self, name):
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


class Tally:
    """Taps and scrolls per situation, printed as they are made."""

    def __init__(self):
        self.rows, self.current = [], None

    def situation(self, title):
        self.current = [title, 0, 0, []]
        self.rows.append(self.current)
        print(f"\n{title}")

    def count(self, phone, label, info, scrolled):
        self.current[1] += 1
        self.current[2] += scrolled
        self.current[3].append((phone, label, scrolled))
        print(f"  tap {self.current[1]:2} ({phone}): {label:<44} top {info['top']:5} px of {info['page']:5} px"
              f"{'  SCROLL' if scrolled else ''}")

    def report(self):
        print("\nsituation | taps | scrolls")
        for title, taps, scrolls, _ in self.rows:
            print(f"{title} | {taps} | {scrolls}")


# --- the moves that set the situations up (not counted) ----------------------------------------------------
def space(page, space_id):
    return page.locator(f'svg.board-svg g.space[data-space="{space_id}"] .shape').first


def wait_turn(page):
    """This phone may play a card: its bar has «Сыграть карту»."""
    expect(page.locator("#decision-bar").get_by_role("button", name="Сыграть карту")).to_be_visible(timeout=15_000)


def idle(page):
    expect(page.locator(HTMX_BUSY)).to_have_count(0)


def submit_click(page, locator):
    before = page.locator("#game").get_attribute("data-version")
    locator.click()
    expect(page.locator(f'#game:not([data-version="{before}"])')).to_have_count(1, timeout=10_000)
    idle(page)


def finish(page):
    submit_click(page, page.locator("#decision-bar").get_by_role("button", name="Закончить ход"))
    expect(page.locator("#decision-bar .flash .flash-steps li").first).to_be_visible()


def discard_turn(page):
    wait_turn(page)
    bar = page.locator("#decision-bar")
    bar.locator("select[name=card_type]").select_option("discard_unused")
    submit_click(page, bar.get_by_role("button", name="Сыграть карту"))
    finish(page)


def build_turn(page, space_id):
    wait_turn(page)
    page.locator("#decision-bar select[name=space]").select_option(space_id)
    submit_click(page, page.locator("#decision-bar").get_by_role("button", name="Сыграть карту"))
    expect(page.locator("#decision-bar .flash")).to_contain_text(re.compile("[Сс]ыграна карта"))
    finish(page)


def prepare(page, name, face_down=False):
    section = page.locator("#decision-bar section.prepare")
    if face_down:
        section.locator("details.prepare-response > summary").click()
    submit_click(page, section.locator("button.choice", has_text=name).first)


def same_version(pages, leader):
    version = leader.locator("#game").get_attribute("data-version")
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-version", version, timeout=15_000)


# --- the night ---------------------------------------------------------------------------------------------
def round_one(pages):
    prepare(pages["soviet_union"], "Сталинград", face_down=True)
    prepare(pages["germany"], "Блицкриг")
    build_turn(pages["germany"], "eastern_europe")
    discard_turn(pages["united_kingdom"])
    discard_turn(pages["japan"])
    build_turn(pages["soviet_union"], "ukraine")
    discard_turn(pages["italy"])
    discard_turn(pages["united_states"])


def night_window_seen(phone, asked):
    """The response window as one phone shows it: the stake on the page (in the bar of the phone asked), a reveal
    and «Пас» only on the phone asked."""
    expect(phone.page.locator("#game")).to_contain_text(STAKE, timeout=15_000)
    answers = phone.bar().locator("form.bar-pass, button.reveal")
    if asked:
        expect(phone.bar()).to_contain_text(STAKE)
        expect(answers.first).to_be_visible()
    else:
        expect(answers).to_have_count(0)


def battle_answered(phones, tally, shots, table):
    """Germany battles Ukraine; the USSR reveals «Сталинград» (only the USSR is asked); Germany finishes."""
    tally.situation("battle answered by a face-down response (Germany attacks Ukraine, the USSR reveals Stalingrad)")
    germany, ussr = phones["germany"], phones["soviet_union"]
    wait_turn(germany.page)
    germany.choose(germany.bar().locator("select[name=card_type]"), "land_battle", "card type: land battle")
    germany.tap(space(germany.page, "ukraine"), "Ukraine on the map")
    expect(germany.bar().locator("select[name=space]")).to_have_value("ukraine")
    germany.tap(germany.bar().get_by_role("button", name="Сыграть карту"), "«Сыграть карту»", submits=True)
    reveal = ussr.bar().locator("button.reveal", has_text="Сталинград").first
    expect(reveal).to_be_visible(timeout=15_000)
    ussr.settled()
    if ussr.strict:  # only the USSR is asked; every phone is told what is at stake; no other page names the card
        for country, phone in phones.items():
            night_window_seen(phone, country == "soviet_union")
            if country != "soviet_union":
                expect(phone.page.locator("body")).not_to_contain_text("Сталинград")
        expect(table.locator("body")).not_to_contain_text("Сталинград")
    table.screenshot(path=str(ARTIFACTS / f"{shots}-table-window.png"))
    ussr.shot(f"{shots}-response-asked")
    phones["united_kingdom"].shot(f"{shots}-response-teammate")
    ussr.tap(reveal, "reveal «Сталинград»", submits=True)
    expect(ussr.bar().locator(".flash").first).to_contain_text("Сталинград")
    if ussr.strict:  # every phone's history says what happened
        for phone in phones.values():
            expect(phone.page.locator("#game .history")).to_contain_text(SAVED, timeout=15_000)
    ussr.shot(f"{shots}-response-revealed")
    finish_btn = germany.bar().get_by_role("button", name="Закончить ход")
    expect(finish_btn).to_be_visible(timeout=15_000)
    germany.settled()
    germany.tap(finish_btn, "«Закончить ход»", submits=True)
    expect(germany.bar().locator(".flash .flash-steps li").first).to_be_visible()


def restart_mid_turn(phones, tally, shots, stop, start):
    """The UK chooses its card; the server stops; «Сыграть карту» says it was not sent; the server starts again;
    «Повторить» sends it (applied once); the UK finishes."""
    tally.situation("server restart mid-turn (the UK's card: not sent, then sent again)")
    uk = phones["united_kingdom"]
    wait_turn(uk.page)
    uk.page.wait_for_timeout(300)  # the live stream is open again after the last move
    uk.choose(uk.bar().locator("select[name=card_type]"), "discard_unused", "card type: discard a card")
    stop()
    uk.tap(uk.bar().get_by_role("button", name="Сыграть карту"), "«Сыграть карту» (server down)")
    state = uk.bar().locator(".conn-state")
    expect(state).to_contain_text(NOT_SENT, timeout=8000)
    uk.shot(f"{shots}-restart-not-sent")
    start()
    expect(state).to_contain_text("Связь восстановлена", timeout=15_000)
    uk.shot(f"{shots}-restart-back")
    uk.tap(state.get_by_role("button", name="Повторить"), "«Повторить»", submits=True)
    finish_btn = uk.bar().get_by_role("button", name="Закончить ход")
    expect(finish_btn).to_be_visible()
    uk.tap(finish_btn, "«Закончить ход»", submits=True)
    expect(uk.bar().locator(".flash .flash-steps li").first).to_be_visible()


def event_without_target(phones, tally, shots):
    """The USA play an event none of whose steps has a legal target; a warning, if given, is confirmed."""
    tally.situation(f"event with no legal target (the USA: «{EVENT}»)")
    us = phones["united_states"]
    wait_turn(us.page)
    us.type(us.bar().locator("input[name=card]"), EVENT, "the card's name typed")
    before = us.version()
    us.tap(us.bar().get_by_role("button", name="Сыграть карту"), "«Сыграть карту»")
    confirm = us.bar().get_by_role("button", name=CONFIRM)
    played = us.page.locator(f'#game:not([data-version="{before}"])')
    expect(confirm.or_(played).first).to_be_visible(timeout=10_000)
    idle(us.page)
    if us.version() == before:  # warned: the phone says the card does nothing now and asks to confirm
        if us.strict:
            expect(us.bar()).to_contain_text(NO_TARGET)
        us.shot(f"{shots}-event-warned")
        us.tap(confirm.first, "confirm the card anyway", submits=True)
    else:
        us.settled()
        us.shot(f"{shots}-event-warned")
    finish_btn = us.bar().get_by_role("button", name="Закончить ход")
    expect(finish_btn).to_be_visible()
    us.tap(finish_btn, "«Закончить ход»", submits=True)
    expect(us.bar().locator(".flash .flash-steps li").first).to_be_visible()


def blitzkrieg_battle(phones, tally, shots):
    """Germany battles Ukraine (nobody can answer: the army is removed), then builds there with «Блицкриг»."""
    tally.situation("Blitzkrieg battle (Germany attacks Ukraine, then «Блицкриг» builds there)")
    germany = phones["germany"]
    wait_turn(germany.page)
    germany.choose(germany.bar().locator("select[name=card_type]"), "land_battle", "card type: land battle")
    germany.tap(space(germany.page, "ukraine"), "Ukraine on the map")
    expect(germany.bar().locator("select[name=space]")).to_have_value("ukraine")
    germany.tap(germany.bar().get_by_role("button", name="Сыграть карту"), "«Сыграть карту»", submits=True)
    offered = germany.bar().locator("button", has_text="Блицкриг")
    if offered.count():  # the status offered in the bar: one tap
        germany.shot(f"{shots}-blitzkrieg-offered")
        germany.tap(offered.first, "«Блицкриг» in the bar", submits=True)
    else:  # the page's form for using a status: opened, the name typed, sent
        use = germany.page.locator("#game details.use-card")
        germany.tap(use.locator("> summary"), "open «Применить статус или открыть ответ»")
        germany.type(use.locator("input[name=card]"), "Блицкриг", "the status's name typed")
        germany.shot(f"{shots}-blitzkrieg-offered")
        germany.tap(use.get_by_role("button", name="Применить карту"), "«Применить карту»", submits=True)
    step = germany.bar().locator('[data-step-choice][data-space="ukraine"]')
    if step.count():  # the build offered as a card step
        germany.tap(step.first, "build in Ukraine (card step)", submits=True)
    germany.shot(f"{shots}-blitzkrieg-built")
    finish_btn = germany.bar().get_by_role("button", name="Закончить ход")
    expect(finish_btn).to_be_visible()
    germany.tap(finish_btn, "«Закончить ход»", submits=True)
    expect(germany.bar().locator(".flash .flash-steps li").first).to_be_visible()


def night(pages, table, tally, shots, stop, start, strict=False):
    """The whole night: round 1, round 2 (three of the situations), Germany's turn of round 3 (Blitzkrieg)."""
    phones = {c: Phone(pages[c], c, tally, strict) for c in COUNTRIES}
    round_one(pages)
    same_version([*pages.values(), table], pages["united_states"])
    table.screenshot(path=str(ARTIFACTS / f"{shots}-table-round-1.png"))
    battle_answered(phones, tally, shots, table)
    restart_mid_turn(phones, tally, shots, stop, start)
    discard_turn(pages["japan"])
    discard_turn(pages["soviet_union"])
    discard_turn(pages["italy"])
    event_without_target(phones, tally, shots)
    blitzkrieg_battle(phones, tally, shots)
    same_version([*pages.values(), table], pages["germany"])
    table.screenshot(path=str(ARTIFACTS / f"{shots}-table-round-3.png"))
    return phones


def open_pages(browser, url, game):
    """The six phones (a context each, 360×640) and the table screen (the spectator link, 1024×768)."""
    pages = {}
    for country in COUNTRIES:
        ctx = browser.new_context(viewport=PHONE, locale="ru-RU")
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        page.goto(f"{url}/join/{game['seats'][country]}/")
        expect(page.locator("#game")).to_be_visible()
        pages[country] = page
    ctx = browser.new_context(viewport=TABLE, locale="ru-RU")
    ctx.set_default_timeout(10_000)
    table = ctx.new_page()
    table.goto(f"{url}/watch/{game['watch']}/table/")
    pages["germany"].wait_for_timeout(500)  # the streams are open and heard
    return pages, table


MOVES = r"""
import json
from tracker.models import Event
moves = [[e.round, e.country, e.command.get("type"), e.command.get("card_type")]
         for e in Event.objects.filter(game_id=%d, kind=Event.MOVE).order_by("seq")]
print("MOVES" + json.dumps(moves))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of this project with its own .venv")
    parser.add_argument("--shots", default="game-night-taps", help="prefix of the screenshots in test-artifacts/")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    ARTIFACTS.mkdir(exist_ok=True)
    with restartable(checkout, "game-night") as server:
        game = json.loads(server.shell(CREATE).split("GAME", 1)[1])
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True)
        print(f"checkout {checkout} ({head.stdout.strip()}), phones 360×640, six seats")
        tally = Tally()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            pages, table = open_pages(browser, server.url, game)
            night(pages, table, tally, args.shots, server.stop, server.start)
            browser.close()
        moves = json.loads(server.shell(MOVES % game["pk"]).split("MOVES", 1)[1])
        uk_cards = [m for m in moves if m[:3] == [2, "united_kingdom", "play_card"]]
        print(f"\nmoves in the log: {len(moves)}; the UK's cards played in round 2: {len(uk_cards)} (one expected)")
        tally.report()


if __name__ == "__main__":
    main()

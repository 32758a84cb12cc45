"""Generalissimus on two phones: set up a small battle, orders face down, initiative, a musket
volley exchange, a bayonet charge met by a counter-charge, the loser's owner tapping the diagonal
retreat on its own phone, the rout; the other phone follows live."""
import pytest
from playwright.sync_api import expect

from tracker.core import log
from tracker.models import Game

from .test_decision_bar import HTMX_BUSY, caught_up as phone_caught_up

pytestmark = pytest.mark.django_db(transaction=True)


def place(page, zone, card):
    before = page.locator("ul.g-placed li").count()
    page.locator(f'form.g-place label.g-zone-chip:has(input[name="zone"][value="{zone}"])').click()  # the zone's chip
    page.locator(f'form.g-place button[name="card_type"][value="{card}"]').click()
    expect(page.locator("ul.g-placed li")).to_have_count(before + 1)


def caught_up(page, game):
    """The phone shows the game's newest version and htmx is done with it, as a player looks before tapping:
    a tap while the other phone's move is being swapped in lands on the page that is going away."""
    phone_caught_up(page, game, timeout=5.0)
    expect(page.locator(HTMX_BUSY)).to_have_count(0)


def answered(page, tap):
    """``tap()``, then wait until the page shows the version the tap made: the move is written before the
    other phone acts (a click returns when it is dispatched, not when the server has answered)."""
    before = page.locator("#game").get_attribute("data-version")
    tap()
    expect(page.locator("#game")).not_to_have_attribute("data-version", before, timeout=5000)


def tap_dice(form, faces, game=None):
    """Tap the dice on the table and submit them; with ``game``, as ``choose`` does."""
    if game is not None:
        caught_up(form.page, game)
    for i, v in enumerate(faces, 1):
        form.locator(f'label.g-die:has(input[name="d{i}"][value="{v}"])').click()
    submit = form.locator("button[type=submit]:not([name=digital])").click
    if game is None:
        submit()
    else:
        answered(form.page, submit)


def choose(page, card, unit, target=None, game=None):
    """Choose a card and its unit (and target), then submit; with ``game``, as a player does who looks at the
    screen first: once the phone shows the newest version, and the next phone acts once this one is answered."""
    if game is not None:
        caught_up(page, game)
    form = page.locator("form.g-choose")
    form.locator(f'input[name="cards"][value="{card}"]').check()
    form.locator("select[name=unit]").select_option(unit)
    if target:
        form.locator("select[name=target]").select_option(target)
    submit = form.locator("button[type=submit]").click
    if game is None:
        submit()
    else:
        answered(page, submit)



def confirm_and_initiative(south, north, game, before_roll=lambda: None):
    """Both phones confirm their orders, South enters the initiative dice 5 against 2 on the big buttons (after
    ``before_roll``, e.g. a screenshot of them) and plays the zones centre, west, east."""
    caught_up(south, game)
    south.locator("button.g-confirm").click()
    caught_up(north, game)
    north.locator("button.g-confirm").click()
    form = south.locator("form.g-dice")
    form.locator('label.g-die:has(input[name="south"][value="5"])').click()
    form.locator('label.g-die:has(input[name="north"][value="2"])').click()
    before_roll()
    form.locator("button[type=submit]:not([name=digital])").click()
    south.locator('button[name="sequence"][value="center,west,east"]').click()

def test_two_phones_play_a_turn_with_volley_charge_and_rout(live_server, new_context, shot):
    host = new_context().new_page()
    host.goto(live_server.url + "/generalissimus/new/")
    host.fill("input[name=name]", "E2E Генералиссимус")
    host.fill("input[name=south_player]", "Аня")
    host.fill("input[name=north_player]", "Боря")
    host.locator("details.g-armies > summary").click()  # armies and terrain are folded
    host.check('input[name=preset][value="contact"]')
    # tap a sector of the terrain grid: it cycles to the next terrain
    host.locator('.g-terrain-cell[data-cell="a3"] .g-cell-name').click()
    expect(host.locator('select[name="t_a3"]')).to_have_value("forest")
    shot(host, "generalissimus-01-new-battle")
    host.locator("form.g-new button[type=submit]").click()
    links = host.locator(".seat .link a").all()
    south_url, north_url = links[0].get_attribute("href"), links[1].get_attribute("href")
    game = Game.objects.get(name="E2E Генералиссимус")
    assert log.current_state(game)["engine"]["terrain"] == {"a3": "forest"}

    path = lambda url: live_server.url + "/" + url.split("/", 3)[3]  # noqa: E731
    south = new_context().new_page()
    south.goto(path(south_url))
    north = new_context().new_page()
    north.goto(path(north_url))
    expect(south.locator("svg.g-board")).to_be_visible()
    expect(north.locator("svg.g-board.g-flipped")).to_be_visible()

    # orders face down: North sees only the counts of South's cards
    place(south, "center", "musket_volley")
    place(south, "center", "bayonets")
    expect(north.locator(".g-zones tbody tr").nth(1).locator(".g-count").first).to_have_text("2", timeout=3000)
    assert "S-musket_volley" not in north.content() and "S-bayonets" not in north.content()
    place(north, "center", "musket_volley")
    place(north, "center", "bayonets")
    shot(north, "generalissimus-02-orders-face-down")
    # initiative: big 1-6 buttons for the physical dice
    confirm_and_initiative(south, north, game, lambda: shot(south, "generalissimus-03-initiative-dice"))

    # step 1: both reveal a Musket volley at the same time
    choose(south, "S-musket_volley-1", "S-inf-1", "N-inf-1", game=game)
    expect(north.locator("form.g-choose")).to_be_visible(timeout=3000)
    choose(north, "N-musket_volley-1", "N-inf-1", "S-inf-1", game=game)
    expect(south.locator("ul.g-revealed li")).to_have_count(2, timeout=3000)
    tap_dice(south.locator('form.g-dice[data-roll="fire"]'), [4, 1, 1], game)
    tap_dice(north.locator('form.g-dice[data-roll="fire"]'), [1, 2, 2], game)
    expect(south.locator(".g-last-step")).to_contain_text("пехота Севера на c4", timeout=3000)
    shot(south, "generalissimus-04-volley-result")

    # step 2: South charges with Bayonets!, North meets the charge with its own card
    choose(south, "S-bayonets-1", "S-inf-2", "N-inf-2", game=game)
    expect(north.locator("form.g-choose")).to_be_visible(timeout=3000)
    choose(north, "N-bayonets-1", "N-inf-2", game=game)
    expect(north.locator('form.g-dice[data-roll="melee"]')).to_be_visible(timeout=3000)
    tap_dice(north.locator('form.g-dice[data-roll="melee"]'), [1, 1, 1], game)
    expect(south.locator('form.g-dice[data-roll="melee"]')).to_be_visible(timeout=3000)
    shot(south, "generalissimus-05-melee-dice")
    tap_dice(south.locator('form.g-dice[data-roll="melee"]'), [6, 6, 6], game)

    # North lost: its owner chooses where the unit falls back. North's phone offers the engine's options
    # with the proposal (straight back, d5) pre-selected; North taps the diagonal e5 instead. South waits.
    retreat = north.locator("form.g-retreat")
    expect(retreat).to_be_visible(timeout=3000)
    expect(retreat.locator('input[name="sector"][value="d5"]')).to_be_checked()
    expect(south.locator('.g-ask[data-ask="retreat"] .waiting')).to_be_visible(timeout=3000)
    assert south.locator("form.g-retreat").count() == 0
    shot(north, "generalissimus-06a-retreat-choice")
    retreat.locator('label.g-sector-pick:has(input[value="e5"])').click()
    expect(retreat.locator('input[name="sector"][value="e5"]')).to_be_checked()
    retreat.locator("button[type=submit]").click()

    # the rout: North's unit lies with its flag down on the diagonal e5, South's column stepped into d4
    expect(south.locator('g.g-unit.routed[data-unit="N-inf-2"]')).to_have_count(1)
    expect(north.locator('g.g-unit.routed[data-unit="N-inf-2"]')).to_have_count(1, timeout=3000)
    expect(north.locator(".g-last-step")).to_contain_text("19")
    st = log.current_state(game)["engine"]
    n2 = next(u for u in st["units"] if u["id"] == "N-inf-2")
    assert (n2["flag"], n2["sector"]) == ("routed", "e5")
    s2 = next(u for u in st["units"] if u["id"] == "S-inf-2")
    assert s2["sector"] == "d4"
    shot(north, "generalissimus-06-rout-north-phone")
    shot(south, "generalissimus-07-rout-south-phone")

    # tap the routed unit to see what it may do
    north.locator('g.g-unit[data-unit="N-inf-2"]').click()
    expect(north.locator(".g-unit-info")).to_be_visible()
    shot(north, "generalissimus-08-unit-options")

    # end of turn; the log replays to the stored state
    south.locator(".g-end button[type=submit]").click()
    expect(north.locator(".g-turn")).to_contain_text("2", timeout=3000)
    assert log.replay(game) == log.current_state(game)


def test_an_incomplete_choice_is_refused_on_souths_phone_and_north_is_never_blocked(live_server, new_context, shot):
    """South ticks «Маневр!» without saying which way to turn: its phone refuses it in Russian, naming the
    card, and keeps the card and unit ticked; North chooses meanwhile; South adds the turn and the step
    is carried out on both phones."""
    from gameplay.generalissimus.stepper import STEPPER
    from tracker.generalissimus.forms import preset_units

    initial = STEPPER.new_state({"units": preset_units("contact"), "terrain": None, "settings": {"deploy_rows": 3},
                                 "piles": None, "players": {"south": "Аня", "north": "Боря"}})
    game = log.create_game(Game.GENERALISSIMUS, "Маневр", [("Аня", ["south"]), ("Боря", ["north"])], initial)
    south = new_context().new_page()
    south.goto(f"{live_server.url}/join/{game.seats.get(number=1).token}/")
    north = new_context().new_page()
    north.goto(f"{live_server.url}/join/{game.seats.get(number=2).token}/")
    place(south, "center", "manoeuvre")
    place(north, "center", "form_up")
    confirm_and_initiative(south, north, game)

    caught_up(south, game)
    form = south.locator("form.g-choose")
    form.locator('input[name="cards"][value="S-manoeuvre-1"]').check()
    form.locator("select[name=unit]").select_option("S-inf-1")
    form.locator("button[type=submit]").click()
    expect(south.locator(".bar-answer, .flash, .messages").first).to_contain_text("налево или направо", timeout=5000)
    expect(south.get_by_text("«Маневр!»", exact=False).first).to_be_visible()
    body = south.locator("body").inner_text()
    assert "Неверный ввод" not in body and "direction" not in body
    expect(south.locator('form.g-choose input[name="cards"][value="S-manoeuvre-1"]')).to_be_checked()
    expect(south.locator("form.g-choose select[name=unit]")).to_have_value("S-inf-1")
    shot(south, "generalissimus-09-incomplete-choice-refused")

    # North is not blocked: its choice is taken at once
    caught_up(north, game)
    form = north.locator("form.g-choose")
    form.locator('input[name="cards"][value="N-form_up-1"]').check()
    form.locator("select[name=unit]").select_option("N-inf-2")
    north.locator("details.g-more > summary").click()
    form.locator("select[name=formation]").select_option("column")
    answered(north, form.locator("button[type=submit]").click)
    assert "Неверный ввод" not in north.locator("body").inner_text()

    # South completes its order: the step is carried out on both phones
    caught_up(south, game)
    form = south.locator("form.g-choose")
    if not form.locator('input[name="cards"][value="S-manoeuvre-1"]').is_checked():
        form.locator('input[name="cards"][value="S-manoeuvre-1"]').check()
    form.locator("select[name=unit]").select_option("S-inf-1")
    if not form.locator("select[name=direction]").is_visible():
        south.locator("details.g-more > summary").click()
    form.locator("select[name=direction]").select_option("left")
    answered(south, form.locator("button[type=submit]").click)
    expect(north.locator(".g-last-step")).to_contain_text("пехота Юга", timeout=5000)
    st = log.current_state(game)["engine"]
    assert next(u for u in st["units"] if u["id"] == "S-inf-1")["facing"] == "W"
    assert st["phase"] == "end_of_turn"

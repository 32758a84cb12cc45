"""A step's card is checked when it is chosen: an incomplete choice is refused on the chooser's phone
in the player's words (naming the rule), the form keeps what was entered, and the other side is never
blocked. Every page a player reads names units, sides and house rules as players name them."""
import html as html_lib
import re

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings, strategies as hs

from tracker.core import log

from .test_generalissimus_views import create, dice, engine, ok, page, post, seat_client, snapshot

pytestmark = pytest.mark.django_db

INTERNAL = [
    re.compile(r"(?<![\w-])[SN]-[a-z_]+-\d+(?![\w-])"),  # unit and card identifiers
    re.compile(r"(?<![\w-])(south|north)(?![\w-])"),  # side identifiers
    re.compile(r"(?<![\w-])[a-z]+_[a-z_]+(?![\w-])"),  # setting keys and other identifiers
    re.compile(r"Invalid input|Неверный ввод|needs '|формат команды|command format|Traceback"),
]


def visible(html: str) -> str:
    """The text a person reads on the page: no scripts, styles, tags or attribute values."""
    html = re.sub(r"(?s)<(script|style|svg)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<[^>]*>", " ", html)
    return html_lib.unescape(html)


def internal_words(html: str) -> list[str]:
    text = visible(html)
    return [text[max(0, m.start() - 40):m.end() + 20].replace("\n", " ") for rx in INTERNAL for m in rx.finditer(text)]


NAMES = iter(range(10**6))


def battle(client, cards_south, cards_north, **over):
    game, _ = create(client, **{"name": f"Битва {next(NAMES)}", **over})
    south, north = seat_client(Client, game, 1), seat_client(Client, game, 2)
    for side, c, cards in (("south", south, cards_south), ("north", north, cards_north)):
        for card in cards:
            ok(post(c, game, "place", side=side, card_type=card, zone="center"))
    ok(post(south, game, "confirm", side="south"))
    ok(post(north, game, "confirm", side="north"))
    return game, south, north


def to_actions(game, south):
    text = ok(post(south, game, "initiative", south=5, north=2))
    ok(post(south, game, "zones", side="south", sequence="center,west,east"))
    return text


def test_a_manoeuvre_without_a_turn_is_refused_on_the_choosers_phone_and_north_is_not_blocked(client):
    game, south, north = battle(client, ["manoeuvre"], ["form_up"])
    to_actions(game, south)
    before = snapshot(game)
    r = post(south, game, "choose", side="south", cards="S-manoeuvre-1", unit="S-inf-1")
    assert r.status_code == 422
    text = r.content.decode()
    assert "«Маневр!»" in text and "налево или направо" in text
    assert not internal_words(text), internal_words(text)
    assert snapshot(game) == before
    # the refused form shows again as it was entered: the card ticked, the unit selected
    assert 'value="S-manoeuvre-1" checked' in text and 'value="S-inf-1" selected' in text
    # North chooses meanwhile: accepted, waiting for South
    ok(post(north, game, "choose", side="north", cards="N-form_up-1", unit="N-inf-2", formation="column"))
    ok(post(south, game, "choose", side="south", cards="S-manoeuvre-1", unit="S-inf-1", direction="left"))
    st = engine(game)
    assert next(u for u in st["units"] if u["id"] == "S-inf-1")["facing"] == "W"
    assert st["phase"] == "end_of_turn"


@pytest.mark.parametrize("card, fields, words", [
    ("form_up", {"unit": "S-inf-1"}, "выберите строй"),
    ("bayonets", {"unit": "S-inf-1", "use": "charge"}, "выберите цель"),
    ("musket_volley", {"unit": "S-inf-1"}, "выберите цель"),
    ("move", {"unit": "S-cav-1", "path": "b2 b3 b4"}, "Путь конницы — один или два сектора"),
])
def test_incomplete_choices_are_refused_with_the_rule_in_russian(client, card, fields, words):
    game, south, north = battle(client, [card], ["form_up"])
    to_actions(game, south)
    before = snapshot(game)
    r = post(south, game, "choose", side="south", cards=f"S-{card}-1", **fields)
    assert r.status_code in (400, 422)
    text = r.content.decode()
    assert words in text
    assert not internal_words(text), internal_words(text)
    assert snapshot(game) == before
    ok(post(north, game, "choose", side="north", cards="N-form_up-1", unit="N-inf-2", formation="line"))


def test_sides_and_units_are_named_as_players_name_them(client):
    game, south, north = battle(client, ["musket_volley"], ["form_up"])
    text = to_actions(game, south)
    assert "Инициативу выиграл Юг" in text
    html = page(south, game)
    assert "пехота Юга на c3" in html and "пехота Севера на c4" in html
    assert not internal_words(html), internal_words(html)
    en = Client()
    en.cookies.load(south.cookies)
    en.cookies["django_language"] = "en"
    html = en.get(f"/g/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "South&#x27;s infantry at c3" in html or "South's infantry at c3" in html


# --- random legal and illegal choices through the web layer ------------------------------------------

UNITS = {"south": ["S-inf-1", "S-inf-2", "S-cav-1", "S-art-1", "N-inf-1", "S-zzz"],
         "north": ["N-inf-1", "N-inf-2", "N-cav-1", "N-art-1", "S-inf-1"]}
TARGETS = ["", "N-inf-1", "N-inf-2", "S-inf-1", "S-inf-2", "X"]
CARDS = ["manoeuvre", "form_up", "move", "bayonets", "musket_volley"]


def choice(side):
    return hs.fixed_dictionaries({
        "card": hs.sampled_from(CARDS), "unit": hs.sampled_from(UNITS[side]), "target": hs.sampled_from(TARGETS),
        "direction": hs.sampled_from(["", "left", "right", "up"]), "formation": hs.sampled_from(["", "line", "column", "square", "blob"]),
        "use": hs.sampled_from(["", "charge", "advance", "meet", "dance"]), "facing": hs.sampled_from(["", "N", "S", "Q"]),
        "path": hs.sampled_from(["", "b2", "b2 b3", "z9", "b2 b3 b4"])})


def fields(side, c):
    prefix = "S" if side == "south" else "N"
    out = {"cards": f"{prefix}-{c['card']}-1"}
    out.update({k: v for k, v in c.items() if k != "card" and v})
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(south_tries=hs.lists(choice("south"), min_size=1, max_size=4), north_tries=hs.lists(choice("north"), max_size=3),
       first=hs.sampled_from(["south", "north"]))
def test_random_choices_never_show_internal_words_and_a_refusal_never_blocks_the_other_side(south_tries, north_tries, first):
    from django.test import Client as C
    host = C()
    game, south, north = battle(host, CARDS, CARDS)
    to_actions(game, south)
    clients = {"south": south, "north": north}
    tries = {"south": list(south_tries), "north": list(north_tries)}
    order = [first, "south" if first == "north" else "north"]
    chosen = set()
    for side in order:
        for c in tries[side]:
            before = snapshot(game)
            r = post(clients[side], game, "choose", side=side, **fields(side, c))
            text = r.content.decode()
            assert r.status_code in (200, 400, 422), text[:2000]
            assert not internal_words(text), (internal_words(text), c)
            if r.status_code != 200:
                assert snapshot(game) == before  # a refusal changes nothing
            else:
                chosen.add(side)
                break
    # whoever has not chosen yet still can, with a complete order; the step then goes on
    complete = {"card": "form_up", "unit": "", "target": "", "direction": "", "formation": "column", "use": "",
                "facing": "", "path": ""}
    for side, uid in (("south", "S-inf-1"), ("north", "N-inf-1")):
        if side not in chosen and not log.current_state(game).get("reveal") and engine(game)["phase"] == "actions":
            state = log.current_state(game)
            if (state.get("pending") or {}).get(side):
                continue
            text = ok(post(clients[side], game, "choose", side=side, **fields(side, dict(complete, unit=uid))))
            assert not internal_words(text), internal_words(text)
    state = log.current_state(game)
    assert not any((state.get("pending") or {}).values()) or engine(game)["phase"] != "actions"
    for c in (south, north, host):
        html = page(c, game)
        assert not internal_words(html), internal_words(html)
    # any dice the reveal waits for can be entered by their side, and the step resolves
    for _ in range(4):
        state = log.current_state(game)
        if not state.get("reveal"):
            break
        from gameplay.generalissimus.queries import step_needs_of
        needs = [n for n in step_needs_of(state)[0] if n["roll"] in ("fire", "melee") and n.get("entered") is None]
        asks = [n for n in step_needs_of(state)[0] if n["roll"] in ("retreat", "react") and n.get("entered") is None]
        if needs:
            n = needs[0]
            text = ok(dice(clients[n["side"]], game, n["side"], n["roll"], [3] * n["n"]))
        elif asks:
            a = asks[0]
            if a["roll"] == "retreat":
                text = ok(post(clients[a["side"]], game, "retreat_choice", side=a["side"], unit=a["unit"], sector=a["options"][0]))
            else:
                text = ok(post(clients[a["side"]], game, "react", side=a["side"], unit=a["unit"], card="none"))
        else:
            break
        assert not internal_words(text), internal_words(text)


def test_a_correction_is_said_in_words(client):
    game, south, north = battle(client, ["move"], ["form_up"])
    text = ok(post(south, game, "correct", side="south", unit="S-inf-1", formation="disordered", flag="routed"))
    assert "строй: расстроенный строй" in text and "флаг: лежит" in text
    assert not internal_words(text), internal_words(text)
    text = ok(post(north, game, "agree_correction", side="north"))
    assert not internal_words(text), internal_words(text)

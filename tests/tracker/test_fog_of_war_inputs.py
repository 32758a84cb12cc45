"""The Fog of War through the web layer: random legal and illegal choices, posted by both seats, a spectator and
the host. No answer is a server error, no page shows an internal message, a key or a card id, every message in
the Russian page is Russian, and a refusal never keeps the other side from playing on."""
import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.refusals import visible
from tracker.core import log
from tracker.models import Game

from .test_fog_of_war_views import HTMX, create, seat

pytestmark = pytest.mark.django_db

COMMANDS = ["start_turn", "defend", "new_op", "reinforce_op", "cancel_op", "reinforce_quagmire", "launch",
            "resolve_quagmire", "intel", "end_turn", "partner_done", "ye_score_vp", "ye_spend", "set_control", "name_cards", "nonsense"]
JUNK = ["", "zz", "-1", "999999", "ABC", "north_sea", "L3 L2", "Q9", "1 2 3", "x" * 30]
# what no page may show: keys of provinces, sides, piles, settings; card ids; the engine's English
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:ax|al|ne|axis|allies)-\d+\b|\b(?:axis|allies|discard|losses|wins)\b"
                      r"|Invalid input|Traceback|Unknown command|KeyError|ValueError|None\b")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
ALLOWED_LATIN = {"NEW", "Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Intel", "Quagmire", "OPP",
                 "LOSS", "QUAG", "WIN", "The", "Fog", "War", "PP"}


def messages_of(body: str) -> str:
    """The text of the page's messages: the answer of the bar, the flash, the form errors."""
    parts = re.findall(r'<(?:div|p|li|ul)[^>]*class="[^"]*(?:flash|errorlist|msg-)[^"]*"[^>]*>(.*?)</(?:div|p|li|ul)>',
                       body, re.S)
    return visible(" ".join(parts))


def field_values(game, who):
    engine = log.current_state(game)["engine"]
    provinces = list(engine["provinces"])
    hand = [c["id"] for c in engine["sides"].get(who, {}).get("hand", [])] if who in ("axis", "allies") else []
    other = [c["id"] for s in ("axis", "allies") for c in engine["sides"][s]["hand"]]
    return provinces, hand, other


@st.composite
def moves(draw):
    return [(draw(st.sampled_from(["axis", "allies", "spectator", "host"])), draw(st.sampled_from(COMMANDS)),
             draw(st.integers(0, 10 ** 6))) for _ in range(draw(st.integers(3, 9)))]


def build(game, who, command, pick):
    provinces, hand, other = field_values(game, who)
    choose = lambda options: options[pick % len(options)] if options else ""  # noqa: E731
    data = {"command": command, "version": game.version if pick % 7 else pick % 3}
    data["province"] = choose(provinces + JUNK)
    data["target"] = choose(provinces + JUNK)
    data["origin"] = choose(provinces + JUNK)
    data["slot"] = choose(list("ABCDEFZ") + JUNK)
    pool = hand + other + JUNK
    data["cards"] = [choose(pool), pool[(pick // 7) % len(pool)]][: 1 + pick % 2]
    if pick % 3 == 0:
        data["n_cards"] = choose(["1", "2", "3", "9", "x", ""])
    data["target_kind"] = choose(["defence", "neutral", "op", "quagmire", "objectives", "zz"])
    data["counter_rounds"] = choose(["0", "1", "3", "-1", "x", "21"])
    data["reveal_attack"] = choose(["L3 L2", "", "Q9", "N2 Z"])
    data["reveal_defence"] = choose(["L1", "", "F1 F1"])
    for key in ("losses", "level", "intel_pairs", "vp", "vp_gain", "resources"):
        data[key] = choose(["0", "1", "x", "-3", "500"])
    data["control"] = choose(["axis", "allies", "neutral", "zz"])
    data["codes"] = choose(["L3", "L3 N2", "Q9", "", "Z Z Z Z"])
    if who in ("axis", "allies") and pick % 5 == 0:
        data["side"] = "allies" if who == "axis" else "axis"  # the other seat's side
    return data


@pytest.fixture(scope="module")
def django_db_setup(django_db_setup):  # noqa: PT004 - the default database
    return django_db_setup


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # a failing case is reported as found
@given(moves())
def test_random_choices_answer_in_the_players_words(db, client, steps):
    game = create(client)
    phones = {"axis": seat(Client(), game, 1), "allies": seat(Client(), game, 2), "spectator": Client(),
              "host": Client()}
    phones["spectator"].get(reverse("watch", args=[game.spectator_token]))
    phones["host"].get(reverse("host_link", args=[game.host_token]))
    for who, command, pick in steps:
        game.refresh_from_db()
        data = build(game, who, command, pick)
        r = phones[who].post(reverse("command", args=[game.pk]), data, **HTMX)
        assert r.status_code < 500, (who, data, r.status_code)
        body = r.content.decode()
        shown = messages_of(body)
        assert not INTERNAL.search(shown), (who, data, shown)
        latin = {w for w in LATIN_WORD.findall(shown)} - ALLOWED_LATIN
        assert not latin, (who, data, shown, latin)
        page = visible(re.sub(r"<(code|textarea)[^>]*>.*?</\1>", " ", body, flags=re.S))  # typed formats aside
        leaked = re.search(r"\b(?:ax|al|ne)-\d+\b|\b[a-z]+_[a-z]+\b", page)
        assert not leaked, (who, data, leaked.group(0), page[max(0, leaked.start() - 80):leaked.end() + 80])
        if r.status_code >= 400:
            # a refusal changes nothing and never blocks the other side: its page answers and it may act
            other = "allies" if who == "axis" else "axis"
            assert phones[other].get(reverse("game", args=[game.pk])).status_code == 200
    # both sides can still play a turn from wherever the random posts left the game
    engine = log.current_state(game)["engine"]
    if engine["phase"] == "turn" and not engine["winner"]:
        active = engine["active_side"]
        game.refresh_from_db()
        if not engine["turn_started"]:
            r = phones[active].post(reverse("command", args=[game.pk]), {"command": "start_turn",
                                                                         "version": game.version}, **HTMX)
            assert r.status_code == 200, messages_of(r.content.decode())


def test_a_seat_names_its_hand_cards_as_printed_and_the_reveal_asks_only_the_others(client):
    """The club that prefers it tells the app each drawn card by kind and strength: the hand then lists them as
    printed, a launch types only the unnamed cards, and nobody else may name them."""
    from .test_fog_of_war_views import hand, post, st

    game = create(client)
    axis, allies = seat(Client(), game, 1), seat(Client(), game, 2)
    r = post(axis, game, "name_cards", codes="L3 n2")
    assert r.status_code == 200, messages_of(r.content.decode())
    page = visible(axis.get(reverse("game", args=[game.pk])).content.decode())
    assert "3 карты : суша 3 флот 2" in page
    assert "суша 3" not in visible(allies.get(reverse("game", args=[game.pk])).content.decode())
    assert post(axis, game, "name_cards", codes="L1 L1").status_code == 422  # one card is left unnamed
    assert "Неназванных карт на руке: 1" in messages_of(post(axis, game, "name_cards", codes="L1 L1").content.decode())
    assert post(axis, game, "name_cards", codes="Q7").status_code == 422
    assert post(client, game, "name_cards", side="axis", codes="L1").status_code == 403  # the host: not its secret
    assert post(allies, game, "name_cards", side="axis", codes="L1").status_code == 403
    named = [c for c in st(game)["sides"]["axis"]["hand"] if c["category"] != "unknown"]
    assert sorted((c["category"], c["land"], c["sea"]) for c in named) == [("land", 3, None), ("naval", None, 2)]
    assert post(axis, game, "start_turn").status_code == 200
    ids = [c["id"] for c in named] + [i for i in hand(game, "axis") if i not in {c["id"] for c in named}]
    assert post(axis, game, "new_op", target="vichy", cards=ids[:2]).status_code == 200


def test_a_refused_form_comes_back_open_with_what_was_chosen(client):
    from .test_fog_of_war_views import post

    game = create(client)
    axis = seat(Client(), game, 1)
    assert post(axis, game, "start_turn").status_code == 200
    r = post(axis, game, "new_op", target="vichy", n_cards="9")  # more cards than the hand holds
    assert r.status_code == 400
    body = r.content.decode()
    assert "У вас на руке меньше карт." in messages_of(body)
    form = body[body.index('class="act-new-op"') - 400:body.index("Поставить на NEW OP")]
    assert "<details class=\"action\" open>" in form and '<option value="vichy" selected>' in form

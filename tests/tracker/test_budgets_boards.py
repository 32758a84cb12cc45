"""Budgets of the board-variant page and of what a browser without a link learns (the hostile probe).

A board patch is bounded before anything is built: its length, no YAML anchors or aliases (one
checker, ``tracker.qmg.variants.check_patch``, for the boards page and an imported game), and what
it may add (``gameplay.qmg.board.LIMITS``, checked while the patch is applied and the board built).
The poll and the start page tell a browser only about the games it has a link to.
Run with ``-s`` to see what each formerly unbounded request now costs.
"""
from __future__ import annotations

import time
import tracemalloc
from itertools import combinations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from gameplay.qmg.board import LIMITS, BoardLimitError, build_board, resolve_patch, standard_board_data
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import transfer
from tracker.models import BoardVariant, Game
from tracker.qmg import forms as qmg_forms
from tracker.qmg.adapter import QmgAdapter
from tracker.qmg.variants import MAX_PATCH, PatchError, check_patch
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db

STANDARD = standard_board_data()


@pytest.fixture(autouse=True)
def _warm():
    """Templates compiled and translations loaded before anything is timed."""
    client = Client()
    client.get(reverse("boards")), client.get("/")
    client.post(reverse("boards"), {"name": "", "patch": "extends: standard\n"})


def measured(label: str, call):
    """``call()``'s result, its time and its peak of Python memory, printed."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result = call()
    finally:
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    size = len(getattr(result, "content", b""))
    print(f"\n  {label}: {seconds * 1000:.1f} ms, peak {peak / 1e6:.2f} MB, response {size} bytes")
    return result


def alias_bomb(levels: int = 9) -> str:
    """The probe's kind of patch: each level an anchored list of nine aliases of the one before (×9 per level)."""
    names = "abcdefghijklmnop"
    items = ["&a [x,x,x,x,x,x,x,x,x]"] + [f"&{names[i]} [{','.join([f'*{names[i - 1]}'] * 9)}]"
                                          for i in range(1, levels)]
    return f"remove_straits: [{', '.join(items)}]\n"


def straits_patch(n: int) -> str:
    seas = sorted(STANDARD["sea"])
    lines = ["extends: standard", "add_straits:"]
    for i in range(n):
        lines.append(f"  s{i}: {{ru: П{i}, en: S{i}, land: north_africa, seas: [{seas[i % 14]}, {seas[(i + 1) % 14]}]}}")
    return "\n".join(lines) + "\n"


def new_pairs(n: int) -> list[list[str]]:
    """n adjacencies the standard board does not have."""
    have = {frozenset(e[:2]) for e in STANDARD["edges"]}
    spaces = sorted(STANDARD["land"]) + sorted(STANDARD["sea"])
    return [[a, b] for a, b in combinations(spaces, 2) if frozenset((a, b)) not in have][:n]


def maximal_patch() -> str:
    """A patch at every bound at once: what the largest accepted variant costs."""
    edges = ", ".join(f"[{a}, {b}]" for a, b in new_pairs(LIMITS["added_adjacencies"]))
    extra = LIMITS["straits"] - len(STANDARD["straits"])
    straits = straits_patch(extra).split("add_straits:\n", 1)[1]
    return (f"extends: standard\nname: {'N' * LIMITS['characters_in_a_name']}\nadd_edges: [{edges}]\n"
            f"add_stars: [{', '.join(sorted(STANDARD['land']))}]\nadd_straits:\n{straits}")


def post_variant(name: str, patch: str, client: Client | None = None):
    return (client or Client()).post(reverse("boards"), {"name": name, "patch": patch})


# --- 1. anchors and aliases, length ---------------------------------------------------------------

def test_an_alias_bomb_is_refused_on_the_boards_page_before_anything_is_built():
    patch = alias_bomb()
    assert len(patch) < 400
    response = measured(f"POST /boards/ with a {len(patch)}-byte alias bomb (was 82.5 MB in 5.5 s)",
                        lambda: post_variant("Bomb", patch))
    assert response.status_code == 400
    assert len(response.content) < 100_000
    assert "Якоря и ссылки YAML" in response.content.decode()  # the page speaks Russian by default
    assert not BoardVariant.objects.exists()


def test_the_form_and_the_import_share_one_checker():
    patch = alias_bomb()
    with pytest.raises(PatchError) as refused:
        check_patch(patch)
    form = qmg_forms.BoardVariantForm({"name": "Bomb", "patch": patch})
    assert not form.is_valid() and form.errors["patch"] == [str(refused.value)]
    with pytest.raises(ValueError) as imported:
        QmgAdapter().import_setup({"board_variant": {"name": "Bomb", "patch": patch}})
    assert str(imported.value) == str(refused.value)
    assert not BoardVariant.objects.exists()


def test_a_single_anchor_without_an_alias_is_refused_too():
    with pytest.raises(PatchError, match="(?i)anchors|якоря"):
        check_patch("extends: standard\nadd_stars: &s [balkans]\n")


def test_a_patch_longer_than_the_limit_is_refused_by_its_length():
    patch = "extends: standard\n" + "#" * MAX_PATCH
    response = measured(f"POST /boards/ with a {len(patch)}-character patch", lambda: post_variant("Long", patch))
    assert response.status_code == 400
    assert str(MAX_PATCH) in response.content.decode().replace("\xa0", "").replace(",", "")
    assert not BoardVariant.objects.exists()


# --- 2. what a patch may add ----------------------------------------------------------------------

def test_twenty_thousand_straits_are_refused_quickly():
    patch = straits_patch(20_000)
    response = measured(f"POST /boards/ with 20,000 straits ({len(patch)} characters; the page of a game on "
                        "it was 7 s and 28.5 MB per view)", lambda: post_variant("Straits", patch))
    assert response.status_code == 400
    assert not BoardVariant.objects.exists()
    assert len(response.content) < 100_000  # the refused text is not echoed back


def test_one_strait_over_the_limit_is_refused_with_a_clear_message():
    patch = straits_patch(LIMITS["straits"] - len(STANDARD["straits"]) + 1)
    assert len(patch) < MAX_PATCH  # refused by the board's limit, not by the length
    response = measured("POST /boards/ with 21 straits", lambda: post_variant("Straits", patch))
    assert response.status_code == 400
    client = Client()
    client.cookies["django_language"] = "en"
    html = post_variant("Straits", patch, client).content.decode()
    assert f"A board may have at most {LIMITS['straits']} straits." in html
    assert not BoardVariant.objects.exists()


@pytest.mark.parametrize("key,limit,value", [
    ("add_edges", "added_adjacencies", lambda n: [list(p) for p in new_pairs(n)]),
    ("remove_edges", "removed_adjacencies", lambda n: [e[:2] for e in STANDARD["edges"]] * 2),
    ("add_stars", "added_stars", lambda n: sorted(STANDARD["land"]) * 2),
    ("remove_stars", "removed_stars", lambda n: sorted(STANDARD["land"]) * 2),
    ("remove_straits", "removed_straits", lambda n: [f"s{i}" for i in range(n)]),
    ("name", "characters_in_a_name", lambda n: "N" * n),
])
def test_every_list_a_patch_may_hold_is_bounded_in_the_engine(key, limit, value):
    patch = {"extends": "standard", key: value(LIMITS[limit] + 1)}
    with pytest.raises(BoardLimitError) as refused:
        build_board(resolve_patch(patch))
    assert refused.value.what == limit and refused.value.limit == LIMITS[limit]


def test_a_full_board_with_too_many_straits_is_refused_by_build_board():
    data = standard_board_data()
    data["straits"] = {f"s{i}": {"land": "north_africa", "seas": ["north_sea", "mediterranean"]}
                       for i in range(LIMITS["straits"] + 1)}
    with pytest.raises(BoardLimitError):
        build_board(data)


def test_the_limits_are_small_multiples_of_the_standard_board():
    assert LIMITS["straits"] == 4 * len(STANDARD["straits"])
    assert LIMITS["adjacencies"] == 2 * len(STANDARD["edges"])
    assert LIMITS["added_stars"] == len(STANDARD["land"])


def test_the_largest_accepted_variant_is_saved_and_its_game_page_stays_cheap():
    patch = maximal_patch()
    assert len(patch) < MAX_PATCH
    board = check_patch(patch).board
    assert len(board.straits) == LIMITS["straits"] and len(board.edges) == LIMITS["adjacencies"]
    response = measured(f"POST /boards/ with the largest accepted patch ({len(patch)} characters)",
                        lambda: post_variant("Max", patch))
    assert response.status_code == 302
    variant = BoardVariant.objects.get(name="Max")
    seats = list(zip(["A", "B"], DEFAULT_SEATING[2]))
    games = {"the standard board": create_game("Std", seats, {}),
             "the largest accepted variant": create_game("Max", seats, {}, variant)}
    for label, game in games.items():
        host = Client()
        host.get(reverse("host_link", args=[game.host_token]))
        host.get(game.get_absolute_url())  # warm: a variant's board is built once per process (cached)
        page = measured(f"GET a game page on {label}", lambda: host.get(game.get_absolute_url()))
        assert page.status_code == 200


def test_an_imported_variant_over_a_limit_is_refused():
    patch = straits_patch(LIMITS["straits"])
    with pytest.raises(ValueError, match=str(LIMITS["straits"])):
        QmgAdapter().import_setup({"board_variant": {"name": "Imported", "patch": patch}})
    assert not BoardVariant.objects.exists()


# --- 3. the same name posted twice at once --------------------------------------------------------

def test_a_name_taken_between_validation_and_save_is_a_409_form_error(monkeypatch):
    """The race, simulated: another request saves a variant of this name after this form's uniqueness
    check passed and before its save."""
    checked = qmg_forms.BoardVariantForm.validate_unique

    def check_then_lose_the_race(form):
        checked(form)
        BoardVariant.objects.create(name=form.cleaned_data["name"], patch="extends: standard\n")

    monkeypatch.setattr(qmg_forms.BoardVariantForm, "validate_unique", check_then_lose_the_race)
    client = Client()
    client.cookies["django_language"] = "en"
    response = measured("POST /boards/ losing the race for a name",
                        lambda: post_variant("Клуб", "extends: standard\nremove_stars: [hawaii]\n", client))
    assert response.status_code == 409
    assert "already exists" in response.content.decode()
    assert list(BoardVariant.objects.values_list("name", "patch")) == [("Клуб", "extends: standard\n")]


def test_a_name_already_taken_is_a_409_form_error_too():
    BoardVariant.objects.create(name="Клуб", patch="extends: standard\n")
    response = post_variant("Клуб", "extends: standard\nremove_stars: [hawaii]\n")
    assert response.status_code == 409
    assert BoardVariant.objects.get().patch == "extends: standard\n"


# --- 5. who sees which games ----------------------------------------------------------------------

@pytest.fixture
def game():
    return create_game("Чужая", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})


def linked(game, role):
    client = Client()
    if role == "host":
        client.get(reverse("host_link", args=[game.host_token]))
    elif role == "seat":
        client.get(reverse("join", args=[game.seats.get(number=1).token]))
    elif role == "watch":
        client.get(reverse("watch", args=[game.spectator_token]))
    return client


def test_the_poll_is_a_404_without_a_link_as_for_a_missing_game(game, django_assert_num_queries):
    url = reverse("poll", args=[game.pk])
    stranger = Client()
    with django_assert_num_queries(0):
        response = measured("GET poll without a link", lambda: stranger.get(url, {"v": game.version - 1}))
    assert response.status_code == 404 and "HX-Trigger" not in response
    assert stranger.get(reverse("poll", args=[99999])).status_code == 404


@pytest.mark.parametrize("role", ["host", "seat", "watch"])
def test_the_poll_answers_each_link_in_one_query(game, role, django_assert_num_queries):
    client = linked(game, role)
    url = reverse("poll", args=[game.pk])
    game.refresh_from_db()
    with django_assert_num_queries(1):
        assert client.get(url, {"v": game.version}).status_code == 204
    with django_assert_num_queries(1):
        response = client.get(url, {"v": game.version - 1})
    assert response.status_code == 200 and response["HX-Trigger"] == "game-changed"


@pytest.mark.parametrize("role", ["host", "seat", "watch"])
def test_the_poll_is_a_404_once_the_link_is_revoked(game, role):
    client = linked(game, role)
    if role == "seat":
        seat = game.seats.get(number=1)
        seat.token = "revoked"
        seat.save()
    else:
        setattr(game, "host_token" if role == "host" else "spectator_token", "revoked")
        game.save()
    response = client.get(reverse("poll", args=[game.pk]), {"v": 0})
    assert response.status_code == 404
    assert response["HX-Refresh"] == "true"  # the page reloads onto the "no link" page


def test_a_link_to_one_game_does_not_open_the_poll_of_another(game):
    other = create_game("Другая", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    client = linked(game, "host")
    assert client.get(reverse("poll", args=[other.pk]), {"v": 0}).status_code == 404


def test_the_start_page_lists_only_the_games_this_browser_has_a_link_to(game):
    mine = create_game("Моя", list(zip(["A", "B"], DEFAULT_SEATING[2])), {})
    stranger = measured("GET / without any link", lambda: Client().get("/"))
    assert "Чужая" not in stranger.content.decode() and "Моя" not in stranger.content.decode()
    html = linked(mine, "seat").get("/").content.decode()
    assert "Моя" in html and "Чужая" not in html
    assert Game.objects.count() == 2


def test_an_import_then_lists_the_imported_game_for_its_host(game):
    doc = transfer.export_game(game)
    client = Client()
    client.post(reverse("import_game"), {"file": SimpleUploadedFile("game.json", transfer.dumps(doc).encode(), "application/json")})
    copy = Game.objects.exclude(pk=game.pk).get()
    html = client.get("/").content.decode()
    assert copy.get_absolute_url() in html and game.get_absolute_url() not in html  # its copy, not the original



@pytest.mark.parametrize("patch", [alias_bomb(9), straits_patch(20_000)], ids=["alias bomb", "20000 straits"])
def test_a_variant_stored_before_the_bounds_is_refused_when_read_not_built(client, patch):
    """A variant saved by an older version (or edited in the database) is checked again when a game
    reads it: the game's page, poll and moves answer a 409 with the reason, in bounded time."""
    variant = BoardVariant.objects.create(name="Старый", patch="extends: standard\n")
    game = create_game("На старой доске", list(zip(["А", "Б"], DEFAULT_SEATING[2])), {}, board_variant=variant)
    BoardVariant.objects.filter(pk=variant.pk).update(patch=patch)  # as an older version could have stored it
    client.get(reverse("host_link", args=[game.host_token]))
    r = measured("page of a game on a stored over-limit variant",
                 lambda: client.get(reverse("game", args=[game.pk])))
    assert r.status_code == 409 and "больше нельзя использовать" in r.content.decode()  # noqa: translated
    assert client.get(reverse("poll", args=[game.pk])).status_code in (200, 204, 409)
    r = client.post(reverse("command", args=[game.pk]), {"command": "end_play", "version": game.version})
    assert r.status_code == 409

"""Refusals that reveal nothing hidden, for every game: the shape of its tests.

Two games that differ only in a hidden fact — *twins*: the same public table, the same log, but another card
face down, another hand — are sent the same posts by a viewer who may not know that fact (the other seat, a
spectator, the host). Every answer must be the same for both: status, visible text and markup, once what
differs between any two games (their numbers, links and CSRF tokens) is set aside. A refusal checked against
the hidden fact before the viewer's rights (403 here, 400 there), or a reason that names the fact, shows as a
difference. A post applied in both twins moves both the same way, so they stay twins for the posts after it.

    twins = [make_game(face_down="su_stalingrad"), make_game(face_down="su_moscow")]
    compared = assert_refusals_alike(twins, {"host": host_of, "spectator": spectator_of},
                                     [("command", {"command": "use_card", "card": "Москва", "version": CURRENT})])

``viewers`` maps a name to a function that returns a logged-in ``django.test.Client`` for one game; each post
is (a URL name taking the game's pk, the form data), ``CURRENT`` standing for the game's version at that
moment. It returns the number of posts compared (each sent to both twins).
"""
from __future__ import annotations

import difflib
import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from django.test import Client
from django.urls import reverse

CURRENT = object()  # stands for the game's current version in a post's data
HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": |csrftoken=)"?[A-Za-z0-9]+')
TAGS = re.compile(r"<[^>]+>")


def normalised(body: str, game) -> str:
    """The answer with what differs between any two games set aside: the game's number in its addresses, its
    links' tokens, the session's CSRF token."""
    text = CSRF.sub(lambda m: m.group(1) + "{csrf}", body)
    tokens = [game.host_token, game.spectator_token, *game.seats.values_list("token", flat=True)]
    for token in tokens:
        text = text.replace(token, "{token}")
    return re.sub(rf"/(g|stream)/{game.pk}/", r"/\1/{game}/", text).replace(f'data-game="{game.pk}"', 'data-game=""')


def visible(body: str) -> str:
    """What a person reads in the answer: its text without the markup, spaces collapsed."""
    return " ".join(html.unescape(TAGS.sub(" ", body)).split())


def linked(link_name: str, token_of: Callable) -> Callable[..., Client]:
    """A viewer: a browser that opened the link ``link_name`` with the token ``token_of(game)`` of a game."""
    def make(game) -> Client:
        client = Client()
        client.get(reverse(link_name, args=[token_of(game)]))
        return client
    return make


def viewers_without_the_seat(other: str, number: int) -> dict[str, Callable[..., Client]]:
    """The viewers who may not know a seat's hidden cards: the other seat (``other``, seat ``number``), a
    spectator and the host."""
    return {f"the other seat ({other})": linked("join", lambda g: g.seats.get(number=number).token),
            "a spectator": linked("watch", lambda g: g.spectator_token),
            "the host": linked("host_link", lambda g: g.host_token)}


def answer(client: Client, game, url_name: str, data: dict, htmx: bool = True) -> tuple[int, str, str]:
    """(status, visible text, normalised markup) of one post to one game."""
    game.refresh_from_db()
    fields = {k: str(game.version) if v is CURRENT else v for k, v in data.items()}
    response = client.post(reverse(url_name, args=[game.pk]), fields, **(HTMX if htmx else {}))
    body = normalised(response.content.decode("utf-8", "replace"), game)
    return response.status_code, visible(body), body


def assert_refusals_alike(twins: Sequence, viewers: Mapping[str, Callable[..., Client]],
                          posts: Iterable[tuple[str, dict]], *, htmx: bool = True) -> int:
    """Send every post as every viewer to both twins; fail on the first answer that differs (showing where)."""
    posts = list(posts)
    compared = 0
    for viewer, make in viewers.items():
        clients = [make(game) for game in twins]
        for url_name, data in posts:
            answers = [answer(client, game, url_name, data, htmx) for client, game in zip(clients, twins)]
            first = answers[0]
            for other in answers[1:]:
                if other != first:
                    raise AssertionError(_difference(viewer, url_name, data, first, other))
            compared += 1
    return compared


def _difference(viewer, url_name, data, a, b) -> str:
    shown = {k: ("{version}" if v is CURRENT else v) for k, v in data.items()}
    lines = [f"{viewer} posting {url_name} {shown}: the twins' answers differ",
             f"  status {a[0]} / {b[0]}"]
    if a[1] != b[1]:
        lines.append(f"  text: {a[1][:300]!r}\n     / {b[1][:300]!r}")
    diff = list(difflib.unified_diff(a[2].splitlines(), b[2].splitlines(), lineterm="", n=1))
    lines += ["  markup:", *("    " + line[:200] for line in diff[:30])]
    return "\n".join(lines)

"""Who the browser is for a game: host, a seat, a spectator, or nobody.

Links carry long random tokens (host link, one join link per seat, a spectator link); opening
one binds the browser session to that role. Tokens are checked against the database on every
request, so a regenerated token revokes the old link at once: ``new_seat_link`` and
``new_game_link`` replace one, and the live streams opened with it end at once as well
(``tracker.core.live``), on every server.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.http import Http404
from django.shortcuts import render

from . import live, rows
from .log import Actor
from .models import Game, Seat, new_token

SESSION_KEY = "access"


def _entry(request, game: Game) -> dict:
    return request.session.get(SESSION_KEY, {}).get(str(game.pk), {})


def grant(request, game: Game, role: str, token: str) -> None:
    access = dict(request.session.get(SESSION_KEY, {}))
    entry = dict(access.get(str(game.pk), {}))
    entry[role] = token
    access[str(game.pk)] = entry
    request.session[SESSION_KEY] = access


def session_tokens(request, pk) -> frozenset[str]:
    """The links to game ``pk`` this browser holds (any role)."""
    entry = request.session.get(SESSION_KEY, {}).get(str(pk), {})
    return frozenset(v for v in entry.values() if isinstance(v, str) and v) if isinstance(entry, dict) else frozenset()


def new_seat_link(seat: Seat) -> None:
    """A new join link for the seat; the old one stops working, its open streams included."""
    with transaction.atomic():
        seat.token = new_token()
        seat.save(update_fields=["token"])
        _links_replaced(seat.game_id)


def new_game_link(game: Game, link: str) -> None:
    """A new host (``link="host"``) or spectator (``"watch"``) link; the old one stops working, its open streams
    included."""
    field = {"host": "host_token", "watch": "spectator_token"}[link]
    with transaction.atomic():
        setattr(game, field, new_token())
        game.save(update_fields=[field])
        _links_replaced(game.pk)


def _links_replaced(game_id: int) -> None:
    Game.objects.filter(pk=game_id).update(links_version=F("links_version") + 1)
    links = Game.objects.filter(pk=game_id).values_list("links_version", flat=True).get()
    live.announce_links(game_id, links)


def actor_for(request, game: Game, seat=False) -> Actor | None:
    """The actor this browser may be for the game, or None when it has no valid link (``seat``: the
    browser's seat already read, or None for none)."""
    entry = _entry(request, game)
    if seat is False:
        seat = _seat(game, entry.get("seat"))
    if entry.get("host") and entry["host"] == game.host_token:
        return Actor(is_host=True, seat=seat)
    if seat is not None:
        return Actor(seat=seat)
    if entry.get("watch") and entry["watch"] == game.spectator_token:
        return Actor()
    return None


def _seat(game, token):
    if not token:
        return None
    return Seat.objects.filter(game=game, token=token).first()


def linked_values(request, pk, *fields) -> tuple | None:
    """``fields`` of game ``pk`` when this browser holds a valid link to it (host, seat or spectator),
    else None: one query, the links checked in its WHERE clause (none at all without any link)."""
    entry = request.session.get(SESSION_KEY, {}).get(str(pk), {})
    links = Q()
    if entry.get("host"):
        links |= Q(host_token=entry["host"])
    if entry.get("watch"):
        links |= Q(spectator_token=entry["watch"])
    if entry.get("seat"):
        links |= Q(Exists(Seat.objects.filter(game=OuterRef("pk"), token=entry["seat"])))
    if not links:
        return None
    return Game.objects.filter(links, pk=pk).values_list(*fields).first()


def known_games(request) -> set[int]:
    return {int(k) for k in request.session.get(SESSION_KEY, {})}


def game_and_actor(request, pk):
    """(game, actor, None), or (game, None, the 403 page); Http404 for a game that does not exist. A seat's
    phone is read with its game in one query."""
    if not 0 < pk < 2 ** 63:  # beyond any id (the ORM finds nothing there; SQLite would overflow)
        raise Http404("No Game matches the given query.")
    token = request.session.get(SESSION_KEY, {}).get(str(pk), {}).get("seat")
    if token and isinstance(token, str):  # every request of a game page starts with one of these (tracker.core.rows)
        seat = next(iter(rows.fetch_with(Seat, "game", "game_id = %s AND token = %s", [pk, token])), None)
        if seat is not None:
            actor, denied = actor_or_403(request, seat.game, seat)
            return seat.game, actor, denied
    game = next(iter(rows.fetch(Game, "id = %s", [pk])), None)
    if game is None:
        raise Http404("No Game matches the given query.")
    actor, denied = actor_or_403(request, game, None)
    return game, actor, denied


def actor_or_403(request, game, seat=False):
    """(actor, None), or (None, the 403 page that asks for a link)."""
    actor = actor_for(request, game, seat)
    if actor is None:
        return None, render(request, "no_access.html", {"game": game}, status=403)
    return actor, None

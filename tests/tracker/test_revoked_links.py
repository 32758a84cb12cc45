"""A replaced link closes its live streams at once: in the server process that replaced it, and in every
other through the bus (the local watcher of the versions, PostgreSQL's LISTEN/NOTIFY). The stream's last
word is a version past the current one, so the page asks for itself and meets the page that asks for a link;
streams opened with links that still work are not touched.

The streams are read from the production ASGI app served by uvicorn in a thread (tests/asgi_server.py)."""
from __future__ import annotations

import time

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test import Client
from django.urls import reverse

from tracker.core import live
from tracker.core.live import HUB
from tracker.models import Game, Seat

from .test_live import Stream, browser, game6, server  # noqa: F401  (fixtures)

HTMX = {"HTTP_HX_REQUEST": "true"}


def host_of(game) -> Client:
    return browser(reverse("host_link", args=[game.host_token]))


def seat_phone(game, number) -> Client:
    return browser(reverse("join", args=[game.seats.get(number=number).token]))


def ended(stream: Stream, timeout: float = 5.0) -> float:
    """Seconds until the server ended the stream (its last chunk sent)."""
    return stream.wait_for(lambda s: s.raw.endswith(b"0\r\n\r\n"), timeout=timeout)


def last_word(stream: Stream) -> str:
    return stream.body.strip().rsplit("\n\n", 1)[-1]


def test_a_replaced_seat_link_ends_that_seat_s_stream_at_once(server, game6):
    host = host_of(game6)
    britain, germany, watcher = seat_phone(game6, 2), seat_phone(game6, 1), browser(
        reverse("watch", args=[game6.spectator_token]))
    streams = {name: Stream(server, game6, c) for name, c in
               (("britain", britain), ("germany", germany), ("spectator", watcher), ("host", host))}
    for s in streams.values():
        s.wait_for(lambda s: "event: ping" in s.body)
    seat = game6.seats.get(number=2)
    t0 = time.perf_counter()
    assert host.post(reverse("seats", args=[game6.pk]), {"seat": seat.pk, "confirm": "yes"}).status_code == 302
    ended(streams["britain"])
    took = time.perf_counter() - t0
    print(f"\n  the replaced seat link's stream ended {took * 1000:.0f} ms after the host's tap")
    assert last_word(streams["britain"]) == f"event: version\ndata: {game6.version + 1}"
    # the others stay open (and keep hearing)
    time.sleep(0.3)
    for name in ("germany", "spectator", "host"):
        assert not streams[name].raw.endswith(b"0\r\n\r\n"), name
    # the page the old phone then asks for is the one asking for a link (a whole page: htmx reloads it)
    refresh = britain.get(reverse("game", args=[game6.pk]), **HTMX)
    assert refresh.status_code == 403 and refresh.headers.get("HX-Refresh") == "true"
    page = britain.get(reverse("game", args=[game6.pk]))
    assert page.status_code == 403 and "ссылк" in page.content.decode()
    # and a new stream with the old link is refused
    again = Stream(server, game6, britain)
    again.wait_for(lambda s: s.status == 403)
    for s in (*streams.values(), again):
        s.close()


@pytest.mark.parametrize("link", ["watch", "host"])
def test_a_replaced_spectator_or_host_link_ends_its_streams(server, game6, link):
    host = host_of(game6)
    other_host = host_of(game6)  # another browser that opened the old host link
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    germany = seat_phone(game6, 1)
    opened = {"watch": Stream(server, game6, watcher), "host": Stream(server, game6, other_host),
              "seat": Stream(server, game6, germany)}
    for s in opened.values():
        s.wait_for(lambda s: "event: ping" in s.body)
    assert host.post(reverse("seats", args=[game6.pk]), {"link": link, "confirm": "yes"}).status_code == 302
    ended(opened[link])
    time.sleep(0.3)
    assert not opened["seat"].raw.endswith(b"0\r\n\r\n")
    assert not opened["watch" if link == "host" else "host"].raw.endswith(b"0\r\n\r\n")
    mine = Stream(server, game6, host)  # the host's own browser keeps its rights through the new link
    mine.wait_for(lambda s: "event: ping" in s.body)
    for s in (*opened.values(), mine):
        s.close()


def replace_elsewhere(game, number) -> None:
    """A seat link replaced as another server process would: the rows written, nothing told to this process."""
    with transaction.atomic():
        Seat.objects.filter(game=game, number=number).update(token=f"replaced-{number}-{time.monotonic_ns()}")
        Game.objects.filter(pk=game.pk).update(links_version=F("links_version") + 1)


def test_a_link_replaced_by_another_process_ends_the_stream_through_the_watcher(server, game6, settings):
    settings.LIVE_BUS = "local"
    britain = seat_phone(game6, 2)
    stream = Stream(server, game6, britain)
    stream.wait_for(lambda s: "event: ping" in s.body)
    t0 = time.perf_counter()
    replace_elsewhere(game6, 2)
    ended(stream)
    print(f"\n  local bus: the stream ended {(time.perf_counter() - t0) * 1000:.0f} ms after another process "
          "replaced the link")
    assert HUB.streams(game6.pk) == 0
    stream.close()


def test_a_link_replaced_on_another_server_ends_the_stream_through_postgresql(server, game6, settings):
    if connection.vendor != "postgresql":
        pytest.skip("the LISTEN/NOTIFY bus needs PostgreSQL")
    settings.LIVE_BUS = "postgres"
    settings.LIVE_SAFETY_SECONDS = 3600  # no re-read of the versions: only the notification can end it
    germany = seat_phone(game6, 1)  # opened first: the listener of this process is connected before the change
    first = Stream(server, game6, germany)
    first.wait_for(lambda s: "event: ping" in s.body)
    time.sleep(0.5)
    britain = seat_phone(game6, 2)
    stream = Stream(server, game6, britain)
    stream.wait_for(lambda s: "event: ping" in s.body)
    t0 = time.perf_counter()
    with transaction.atomic():
        replace_elsewhere(game6, 2)
        links = Game.objects.filter(pk=game6.pk).values_list("links_version", flat=True).get()
        with connection.cursor() as cursor:  # what the other server's write sends (tracker.core.live.announce_links)
            cursor.execute("SELECT pg_notify(%s, %s)", [live.CHANNEL, f"{game6.pk}:links:{links}"])
    ended(stream)
    print(f"\n  PostgreSQL bus: the stream ended {(time.perf_counter() - t0) * 1000:.0f} ms after another server "
          "replaced the link")
    time.sleep(0.3)
    assert not first.raw.endswith(b"0\r\n\r\n")
    for s in (first, stream):
        s.close()


def test_streams_that_left_give_their_places_back(server, game6, settings):
    """A stream counts against its client's bound from its first byte to its own end: streams whose client left
    hold no place, and the place of one that was refused is never taken."""
    settings.LIVE_STREAMS_PER_CLIENT = 2
    watcher = browser(reverse("watch", args=[game6.spectator_token]))
    for _round in range(3):
        held = [Stream(server, game6, watcher) for _i in range(2)]
        for s in held:
            s.wait_for(lambda s: "event: ping" in s.body)
        refused = Stream(server, game6, watcher)
        refused.wait_for(lambda s: s.status == 429)
        for s in (*held, refused):
            s.close()
        deadline = time.monotonic() + 5
        while HUB.streams(game6.pk) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert HUB.streams(game6.pk) == 0 and HUB.clients.get("127.0.0.1", 0) == 0

"""Rate-limit buckets: the client's address behind a trusted proxy, and a seat's own allowance for a
request with a valid link token or a seat cookie whose grant is live (aegea_pbem/rate_limits.py,
games/web/seat_limits.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.cache import caches
from django.test import Client, RequestFactory
from django.urls import reverse

from aegea_pbem.rate_limits import client_address
from aegea_pbem.security_config import parse_trusted_proxies
from games.reading.links import link_token
from games.reading.situation import load_game
from games.web.seat_cookies import cookie_name
from tests.browser_like_client import BrowserLikeClient, seat_page
from tests.order_loop_support import seats_to_act, two_player_game
from tests.web.support import sign_out_as_a_browser

PROXY = "10.1.0.5"
JUNK_SENDER, PLAYER = "203.0.113.66", "198.51.100.7"


def address_of(remote: str, forwarded: str | None = None) -> str:
    meta = {"REMOTE_ADDR": remote} | ({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {})
    return client_address(RequestFactory().get("/", **meta))


def test_the_client_is_the_right_most_forwarded_address_that_is_not_a_trusted_proxy(settings):
    settings.TRUSTED_PROXIES = parse_trusted_proxies("10.1.0.0/16, 127.0.0.1")
    # What the client wrote itself (the left entries) is skipped: the proxies appended the rest.
    assert address_of(PROXY, f"1.2.3.4, {PLAYER}") == PLAYER
    assert address_of(PROXY, f"{PLAYER}, 10.1.0.9") == PLAYER  # a second trusted proxy in the chain
    assert address_of("127.0.0.1", "2001:db8::1") == "2001:db8::1"
    assert address_of(PROXY, "") == PROXY and address_of(PROXY) == PROXY  # nothing forwarded
    assert address_of(PROXY, f"{PLAYER}, not-an-address") == PROXY  # garbage picks no bucket
    assert address_of(PROXY, "10.1.0.7, 10.1.0.9") == "10.1.0.7"  # proxies only: the farthest


def test_x_forwarded_for_from_a_peer_that_is_not_a_trusted_proxy_is_ignored(settings):
    settings.TRUSTED_PROXIES = parse_trusted_proxies("10.1.0.5")
    assert address_of(JUNK_SENDER, PLAYER) == JUNK_SENDER
    settings.TRUSTED_PROXIES = ()  # the default: no proxy is trusted
    assert address_of(PROXY, PLAYER) == PROXY


def test_a_malformed_trusted_proxy_stops_the_start_with_its_name():
    with pytest.raises(ValueError, match="'10.0.0.300'"):
        parse_trusted_proxies("127.0.0.1,10.0.0.300")
    assert parse_trusted_proxies("") == ()


def junk_orders(client: BrowserLikeClient, api: str, forwarded: str, count: int) -> list[int]:
    body = json.dumps({"expected_seq": 0, "command": {"kind": "pass"}})
    auth = {"HTTP_AUTHORIZATION": "Bearer junk", "HTTP_X_FORWARDED_FOR": forwarded}
    return [client.post(api, body, content_type="application/json", **auth).status_code for _ in range(count)]


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)  # inside one window
@pytest.mark.django_db
def test_junk_from_one_address_behind_the_proxy_does_not_lock_out_the_players(settings):
    """Finding: rate limits block everyone behind a reverse proxy. They were keyed on REMOTE_ADDR and
    counted before the token was checked: behind nginx every player shared one bucket, so junk
    from one address locked out every real order. Now junk fills its own address's bucket, and a
    valid seat spends its own."""
    settings.RATE_LIMITS = {"orders": (3, 60), "links": (5, 60)}
    settings.TRUSTED_PROXIES = parse_trusted_proxies(PROXY)
    caches["ratelimit"].clear()
    game = two_player_game()
    seat = seats_to_act(game)[0]
    api = reverse("games:api-orders", args=[game.pk])
    proxy = BrowserLikeClient(REMOTE_ADDR=PROXY)
    assert junk_orders(proxy, api, JUNK_SENDER, 4) == [403, 403, 403, 429]
    # A player's form order through the same proxy, from another address: accepted.
    seq = load_game(game).seq
    page = reverse("games:play", args=[game.pk, link_token(seat)])
    order = proxy.post(page, {"kind": "pass", "expected_seq": seq}, HTTP_X_FORWARDED_FOR=PLAYER)
    assert order.status_code == 302 and load_game(game).seq > seq
    # A valid seat's order from the junk sender's own address: its seat's bucket, not the address's.
    other = seats_to_act(game)[0]
    body = json.dumps({"expected_seq": load_game(game).seq, "command": {"kind": "pass"}})
    auth = {"HTTP_AUTHORIZATION": f"Bearer {link_token(other)}", "HTTP_X_FORWARDED_FOR": JUNK_SENDER}
    assert proxy.post(api, body, content_type="application/json", **auth).status_code == 201
    assert junk_orders(proxy, api, JUNK_SENDER, 1) == [429]  # the junk is still limited


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)
@pytest.mark.django_db
def test_a_seats_allowance_is_its_own_whichever_address_spends_it(settings):
    """One seat's link opened from many addresses is one bucket (a token cannot be multiplied by
    addresses), and another seat of the same game is not touched by it."""
    settings.RATE_LIMITS = {"links": (2, 60)}
    caches["ratelimit"].clear()
    game = two_player_game()
    ana, ben = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    state = reverse("games:api-state", args=[game.pk])
    opened = [
        BrowserLikeClient(REMOTE_ADDR=f"192.0.2.{n}")
        .get(state, HTTP_AUTHORIZATION=f"Bearer {link_token(ana)}")
        .status_code
        for n in range(3)
    ]
    assert opened == [200, 200, 429]
    assert BrowserLikeClient().get(state, HTTP_AUTHORIZATION=f"Bearer {link_token(ben)}").status_code == 200


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)
@pytest.mark.django_db
def test_a_signed_out_copy_of_a_seat_cookie_spends_its_own_address_not_the_seats(settings):
    """A seat cookie spends its seat's allowance only while its grant is live (games/web/seat_limits.py):
    a copy kept after sign-out cannot lock its player out."""
    settings.RATE_LIMITS = {"links": (3, 60)}
    caches["ratelimit"].clear()
    seat = two_player_game().seats.get(faction="athens")
    player = Client(REMOTE_ADDR=PLAYER)
    page = seat_page(player, seat.game_id, link_token(seat))  # the seat's first request
    copy = player.cookies[cookie_name(seat.pk)].value
    sign_out_as_a_browser(player)
    thief = Client(REMOTE_ADDR=JUNK_SENDER)
    thief.cookies[cookie_name(seat.pk)] = copy
    assert [thief.get(page).status_code for _ in range(4)] == [403, 403, 403, 429]
    seat_page(player, seat.game_id, link_token(seat))  # its second
    assert player.get(page).status_code == 200  # its third: within the seat's 3

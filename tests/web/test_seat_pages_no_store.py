"""Every answer that shows or opens a seat is sent with Cache-Control: no-store (games/web/urls.py,
docs/operations.md "Security settings").

Finding "no caching of seat pages": the player page, its history, its export, the Move cost preview
and the JSON API of a seat (its screen, coins and cards) came with no Cache-Control at all, so on a
shared device the back button could show the seat again after sign-out. The public pages keep
whatever caching the browser likes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern

from games.models import Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.web.urls import urlpatterns
from tests.browser_like_client import seat_page
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Ask:
    """One request of a seat's: the URL's name, the method, the path (from the seat, its token and
    its page's address) and what is sent."""

    name: str
    method: str
    path: Callable[[Seat, str, str], str]
    data: Callable[[Seat], dict[str, Any]] = lambda seat: {}
    bearer: bool = False
    signed_in: bool = False


def _order(seat: Seat) -> dict[str, Any]:
    return {"kind": "pass", "expected_seq": load_game(seat.game).seq}


def _api_order(seat: Seat) -> dict[str, Any]:
    return {"expected_seq": load_game(seat.game).seq, "command": {"kind": "pass"}}


ASKS = [
    Ask("seat", "GET", lambda seat, token, page: page),
    Ask("seat", "POST", lambda seat, token, page: page, _order),  # an order, then back to the page
    Ask("seat-move-cost", "GET", lambda seat, token, page: page + "move-cost?kind=pass"),
    Ask("seat-history", "GET", lambda seat, token, page: page + "history/?since=all"),
    Ask("seat-export", "GET", lambda seat, token, page: page + "export.json"),
    Ask("seat-action", "POST", lambda seat, token, page: page + "vacation/", lambda seat: {"days": "2"}),
    Ask("seat-sign-out-everywhere", "POST", lambda seat, token, page: page + "sign-out-everywhere/"),
    Ask("play", "GET", lambda seat, token, page: f"/play/{seat.game_id}/{token}/"),
    Ask("play-rest", "GET", lambda seat, token, page: f"/play/{seat.game_id}/{token}/history/"),
    Ask("api-state", "GET", lambda seat, token, page: f"/api/games/{seat.game_id}/state", bearer=True),
    Ask("api-orders", "POST", lambda seat, t, page: f"/api/games/{seat.game_id}/orders", _api_order, True),
    Ask("export", "GET", lambda seat, token, page: f"/games/{seat.game_id}/export.json", bearer=True),
    Ask("own-seat", "GET", lambda seat, token, page: f"/your-seats/{seat.pk}/", signed_in=True),
]


def no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


@pytest.mark.parametrize("ask", ASKS, ids=lambda ask: f"{ask.method} {ask.name}")
def test_every_answer_of_a_seat_is_sent_with_no_store(ask: Ask):
    game = two_player_game()
    seat = seats_to_act(game)[0]
    token = link_token(seat)
    client = Client()
    page = seat_page(client, game.pk, token)  # the seat cookie, as its player's browser holds it
    if ask.signed_in:
        client.force_login(get_user_model().objects.create_user("ana", email=seat.email))
    path, data = ask.path(seat, token, page), ask.data(seat)
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if ask.bearer else {}
    if ask.method == "GET":
        response = client.get(path, **headers)
    elif ask.bearer:
        response = client.post(path, json.dumps(data), content_type="application/json", **headers)
    else:
        response = client.post(path, data, **headers)
    assert response.status_code < 400, response
    assert response.resolver_match.url_name == ask.name
    assert no_store(response), response.get("Cache-Control")


def test_a_seat_page_that_opens_nothing_is_not_kept_either():
    game = two_player_game()
    seat = game.seats.first()
    refused = Client().get(f"/play/{game.pk}/{seat.pk}/")
    assert refused.status_code == 403 and no_store(refused)


def test_every_seat_and_api_address_is_in_the_table():
    """A new page below a seat's address (or a new API call) must join ASKS, so it is checked too."""
    routes = [p for p in urlpatterns if isinstance(p, URLPattern)]
    seats = {p.name for p in routes if str(p.pattern).startswith(("play/", "api/", "your-seats/"))}
    assert seats <= {ask.name for ask in ASKS}


def test_the_public_pages_may_still_be_cached():
    for path in ("/", "/rules/en/", "/sign-in/"):
        response = Client().get(path)
        assert response.status_code == 200 and not no_store(response), path

"""A Django test client that opens emailed links as a browser does.

An emailed link (/play/<game>/<token>/…) answers with the seat cookie and a redirect to the same
page without the token (games/web/seat_cookies.py): 302, or 307 for a POST, which a browser sends
again with its body. This client follows exactly that redirect, keeping the cookie, so a test
that opens a player's link reads the page the player reads. Every other redirect (an order's
303/302 back to the page) is left for the test to assert on. tests/web/test_seat_cookies.py tests
the exchange itself with Django's plain client.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.test import Client
from django.test.client import FakePayload

EXCHANGES = {"play", "play-rest"}


class BrowserLikeClient(Client):
    follows_links = True

    def request(self, **request: Any) -> Any:
        payload = request.get("wsgi.input")
        body = payload.read() if payload is not None else b""
        request["wsgi.input"] = FakePayload(body)
        response = super().request(**request)
        if self.follows_links and response.status_code in (302, 307) and _exchanged(response):
            target = urlsplit(response["Location"])
            again = {**request, "PATH_INFO": target.path, "QUERY_STRING": target.query}
            if response.status_code == 302:
                again.update(REQUEST_METHOD="GET", CONTENT_LENGTH="0")
                body = b""
            again["wsgi.input"] = FakePayload(body)
            response = super().request(**again)
        return response


def _exchanged(response: Any) -> bool:
    """Whether the emailed link answered: resolver_match resolves lazily, so only a redirect asks."""
    match = getattr(response, "resolver_match", None)
    return match is not None and match.url_name in EXCHANGES


def seat_page(client: Any, game_id: int, token: str) -> str:
    """Open the emailed link /play/<game_id>/<token>/ in `client` as a player does, once: the
    client keeps the seat cookie; the answer is the token-free address every later request uses."""
    follows, client.follows_links = getattr(client, "follows_links", False), False
    try:
        response = client.get(f"/play/{game_id}/{token}/")
    finally:
        client.follows_links = follows
    assert response.status_code == 302, response
    return response["Location"]

"""Shared helpers of tests/web/ (and of the tests elsewhere that need them), so that no test
imports another test module. Its fixtures are in conftest.py beside it.
"""

from __future__ import annotations

from django.core import mail
from django.test import Client

from games.models import Event, Game, Seat
from games.services.seat_grants import grant_seat, new_browser_id
from games.web.seat_cookies import COOKIE_PREFIX, grant_cookie_value
from notifications.services import deliver_outbox
from tests.inbox.support import inbound_settings, postmark  # noqa: F401  (the fixture: inbound mail on)

NEW_LINK = "/links/new/"


def events(game: Game) -> int:
    return Event.objects.filter(game=game).count()


def emails_so_far_sent() -> None:
    """The game's welcome emails out of the way: what the test looks at is sent after."""
    deliver_outbox()
    mail.outbox = []


def ask_for_a_new_link(client, address: str, **headers) -> str:
    """Post the form of a page that opens nothing, as the browser does; the page it lands on."""
    response = client.post(NEW_LINK, {"email": address}, follow=True, **headers)
    assert response.status_code == 200 and response.redirect_chain == [(f"{NEW_LINK}?sent=1", 302)]
    return response.content.decode()


def seat_cookie(seat: Seat) -> str:
    """The value of a seat cookie whose grant is live, as opening the seat's link in a new browser
    leaves it (for a request built without the link's exchange)."""
    return grant_cookie_value(grant_seat(seat, new_browser_id()))


def sign_out_as_a_browser(client: Client, **headers):
    """POST /sign-out/ with only the cookies a browser sends there (the seat cookies' paths lie below
    /play/: not those), then keep, as the browser would, the seat cookies the answer did not delete."""
    seat_cookies = {
        name: client.cookies.pop(name) for name in list(client.cookies) if name.startswith(COOKIE_PREFIX)
    }
    response = client.post("/sign-out/", **headers)
    for name, morsel in seat_cookies.items():
        if name not in response.cookies:
            client.cookies[name] = morsel
    return response

"""Shared helpers of tests/web/ (and of the tests elsewhere that need them), so that no test
imports another test module. Its fixtures are in conftest.py beside it.
"""

from __future__ import annotations

from django.core import mail

from games.models import Event, Game
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

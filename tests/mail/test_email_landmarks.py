"""The HTML emails' landmarks (templates/emails/_base.html): a screen reader on a phone jumps to the
email's content by its `main` landmark, and every line of the email stands in a landmark.

Asserted on the HTML alternative of the emails actually sent: the welcomes of a new game, the turn
email after an order, and a notice (a new link the player asked for), in English and German.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.core import mail

from games.engine import Pass
from games.reading.situation import load_game
from games.services.fresh_links import request_new_links
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from notifications.services import deliver_outbox
from tests.order_loop_support import seats_to_act

pytestmark = pytest.mark.django_db

ANA = PlayerSpec("Ana", "ana@example.com", "athens", language="en")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta", language="de")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Landmarks(HTMLParser):
    """The body's text, by the landmark role (`role="…"`) it stands in; None: in no landmark."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, str | None]] = []  # (tag, its role) of the open elements
        self.text: dict[str | None, list[str]] = {}
        self.roles: list[str] = []  # every role met, in order

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        role = dict(attrs).get("role")
        if role:
            self.roles.append(role)
        if tag not in VOID:
            self.open.append((tag, role))

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        tags = [tag for tag, _ in self.open]
        if "body" not in tags or not data.strip():
            return  # the head's title is the subject, not part of the email's body
        landmark = next((role for _, role in reversed(self.open) if role in ("main", "contentinfo")), None)
        self.text.setdefault(landmark, []).append(" ".join(data.split()))


def landmarks(message) -> Landmarks:
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    parsed = Landmarks()
    parsed.feed(html)
    return parsed


def sent_emails() -> list:
    """The welcomes, a turn email and a new link notice, as sent."""
    game = create_game([ANA, BEN])
    (seat,) = seats_to_act(game)
    submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    request_new_links("ben@example.com")
    deliver_outbox()
    return list(mail.outbox)


def test_every_html_email_has_one_main_landmark_holding_its_content_and_nothing_outside_a_landmark():
    emails = sent_emails()
    kinds = {m.tags[0] for m in emails}
    assert {"welcome", "turn", "link"} <= kinds
    for message in emails:
        found = landmarks(message)
        assert found.roles.count("main") == 1, message.tags
        assert None not in found.text, (message.tags, found.text.get(None))  # every line in a landmark
        main = " ".join(found.text["main"])
        greeting = {"ana@example.com": "Hello Ana,", "ben@example.com": "Hallo Ben,"}[message.to[0]]
        assert main.startswith("AEGEAPOLIS") and greeting in main  # the heading and the content
        # The key to the game: its link is in the main content, the warning about it in the footer.
        html, _ = message.alternatives[0]
        assert html.index('role="main"') < html.index("/play/") < html.index('role="contentinfo"')
        assert any("link" in line or "Link" in line for line in found.text["contentinfo"])

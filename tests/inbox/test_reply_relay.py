"""H-SCREEN: an email reply relays the writer's own words to a rival and nothing of the email it quotes.

Finding: games/services/inbox/reply_lines.py knew only English and German quote markers, so a reply from a
French, Spanish, Italian or Dutch mail client (or Outlook's unquoted header block) was read whole,
and the quoted original (the seat's signed link, its reply address, "behind your screen" and its
Mission Cards) was relayed to the rival as a permanent MessageSent. Each fixture in
tests/fixtures/replies/ is a reply as that client writes it; ORIGINAL stands where the client puts
the email replied to (QUOTED: with "> ", PLAIN: as it is), filled in with the real email the seat
was sent. Each goes through the inbound path an ESP's webhook takes (notifications/feed.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core import mail

from games.models import Event
from games.services.messages import send_message
from notifications.feed import feed_reply
from tests.order_loop_support import two_player_game

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "replies").glob("*.eml"))
DOMAIN = "aegeapolis.localhost"
LINK = re.compile(r"/play/\d+/[^\s/]+|/mail/unsubscribe/[^\s/]+")  # the seat's link, its unsubscribe key
ADDRESS = re.compile(r"orders\+[^@\s]+@" + re.escape(DOMAIN))


@pytest.fixture(autouse=True)
def inbound(settings):
    settings.INBOUND_DOMAIN = DOMAIN
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []


def secrets_of(seat) -> list[str]:
    """What of the seat's own emails must never reach a rival: its links (its unsubscribe links too),
    reply addresses, and the lines about what is behind its screen and its Mission Cards."""
    bodies = [m.body for m in mail.outbox if m.to == [seat.email]]
    found = {m for body in bodies for m in LINK.findall(body) + ADDRESS.findall(body)}
    found |= {
        line.strip()
        for body in bodies
        for line in body.splitlines()
        if "behind your screen" in line or "Mission Cards" in line
    }
    assert any("behind your screen" in s for s in found) and any(s.startswith("/play/") for s in found)
    assert any(s.startswith("/mail/unsubscribe/") for s in found)
    return sorted(found)


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.stem for f in FIXTURES])
@pytest.mark.django_db(transaction=True)
def test_h_screen_a_reply_relays_the_words_and_nothing_of_the_original(fixture: Path) -> None:
    game = two_player_game(name="Corfu")
    ana, ben = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    send_message(ana, "sparta", "Shall we split Delos?")
    to_ben = [m for m in mail.outbox if m.to == [ben.email]]
    (reply_address,) = to_ben[-1].reply_to  # the message email's: a reply goes back to Ana
    original = "\n".join(m.body for m in to_ben)  # the welcome, with the link and the screen, too
    raw = fixture.read_text()
    words = raw.split("\n\n", 1)[1].splitlines()[0]
    raw = raw.replace("QUOTED", "\n".join("> " + line for line in original.splitlines()))
    raw = raw.replace("PLAIN", original).replace("ADDRESS", reply_address)
    secrets = secrets_of(ben)
    sent_before = len(mail.outbox)

    feed_reply(raw.encode())

    relayed = Event.objects.filter(game=game, type="MessageSent", actor="sparta").get()
    assert relayed.payload["text"] == words
    to_ana = [m for m in mail.outbox[sent_before:] if m.to == [ana.email]]
    assert to_ana, "the rival was not mailed the reply"
    everything = relayed.payload["text"] + "".join(
        m.body + "".join(str(part) for part, _ in m.alternatives) for m in to_ana
    )
    assert [s for s in secrets if s in everything] == []


@pytest.mark.django_db
def test_h_screen_a_message_typed_with_a_servers_link_or_reply_address_loses_them() -> None:
    """Whatever the reply reading misses, a relayed text never carries this server's links or
    reply addresses: a player pasting their own link into a message does not hand over the seat."""
    game = two_player_game(name="Corfu")
    ana = game.seats.get(faction="athens")
    text = (
        f"Look: http://127.0.0.1:8000/play/{game.pk}/abc.def-ghi/ and /play/{game.pk}/tok/history/ "
        f"or orders+o.1.2.3.xyz@{DOMAIN}; also see https://example.org/rules"
    )

    row = send_message(ana, "sparta", text)

    relayed = row.payload["text"]
    assert "/play/" not in relayed and "orders+" not in relayed
    assert "[link removed]" in relayed and "[address removed]" in relayed
    assert "https://example.org/rules" in relayed  # others' links are the writer's own words

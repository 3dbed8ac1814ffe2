"""A message email offers "reply to this email" only when a reply can reach the game.

Finding: without INBOUND_DOMAIN (no Reply-To to the inbound address) the message email still said
"Reply to this email to answer Athens", and the reply went to the sender address, unread.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from games.reading.links import link_token
from games.services.messages import send_message
from tests.order_loop_support import link_in, two_player_game


@pytest.mark.parametrize(
    ("domain", "said", "not_said"),
    [
        ("play.example.com", "Reply to this email to answer Athens", "write on the game's page"),
        ("", "To answer Athens, write on the game's page", "Reply to this email"),
    ],
)
@pytest.mark.django_db(transaction=True)
def test_a_message_email_says_how_to_answer_as_the_mail_can_be_answered(settings, domain, said, not_said):
    settings.INBOUND_DOMAIN = domain
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    game = two_player_game()
    mail.outbox = []

    send_message(game.seats.get(faction="athens"), "sparta", "Shall we split Delos?")

    (message,) = [m for m in mail.outbox if "message" in m.subject]
    assert said in message.body and not_said not in message.body
    assert bool(message.reply_to) == bool(domain)
    assert "/play/" in message.body  # the link the hint points at


@pytest.mark.django_db(transaction=True)
def test_finding_a_message_email_carries_no_key_to_the_readers_seat_for_a_reply_to_quote(settings, client):
    """Finding (H-SCREEN, "a relay that can never carry a secret"): the message email, whose reply
    goes to the rival, carried the reader's signed link in both bodies, so every reply quoted the
    key to the reader's seat back towards the rival, and only the relay stood in between. It now
    links to the seat's token-free page, which the seat cookie opens."""
    settings.INBOUND_DOMAIN = "play.example.com"
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    game = two_player_game()
    ben = game.seats.get(faction="sparta")
    (welcome,) = [m for m in mail.outbox if m.to == [ben.email]]
    assert client.get(link_in(welcome)).status_code == 200  # Ben opened his link: the seat cookie is set
    mail.outbox = []

    send_message(game.seats.get(faction="athens"), "sparta", "Shall we split Delos?")

    (message,) = [m for m in mail.outbox if m.to == [ben.email]]
    bodies = message.body + "".join(str(part) for part, _type in message.alternatives)
    assert link_token(ben) not in bodies and f"/play/{game.pk}/ey" not in bodies
    assert message.reply_to[0].split("+", 1)[1].split("@")[0] not in bodies  # the reply key: a header only
    page = link_in(message)
    assert page == f"/play/{game.pk}/{ben.pk}/"
    assert "holds no key to your seat" in message.body
    opened = client.get(page)
    assert opened.status_code == 200 and "Shall we split Delos?" in opened.text
    elsewhere = Client().get(page)  # another browser: no cookie, no seat; a new link by email is offered
    assert elsewhere.status_code == 403 and 'name="email"' in elsewhere.text

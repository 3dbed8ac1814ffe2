"""A message email offers "reply to this email" only when a reply can reach the game.

Finding: without INBOUND_DOMAIN (no Reply-To to the inbound address) the message email still said
"Reply to this email to answer Athens", and the reply went to the sender address, unread.
"""

from __future__ import annotations

import pytest
from django.core import mail

from games.services.messages import send_message
from tests.order_loop_support import two_player_game


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

"""Orders by email reply handled by a real Celery worker on Redis (docs/email-orders.md): the webhook only
stores the mail and answers 200; the worker applies the order and mails the answer."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games.models import Event
from notifications.models import InboundMail
from tests.inbox.support import ADDRESS, inbound_settings, is_answer, mailgun, postmark  # noqa: F401
from tests.notifications.celery_fixtures import anymail_outbox, celery_worker, wait_until  # noqa: F401
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgresql,  # the worker thread needs the committed rows of a real database
    pytest.mark.usefixtures("celery_worker"),
]


def reply_to_of_turn_email(seat) -> str:
    wait_until(lambda: any(m.to == [seat.email] for m in mail.outbox), what="the turn email")
    (reply_to,) = [m for m in mail.outbox if m.to == [seat.email]][-1].reply_to
    assert ADDRESS.fullmatch(reply_to)
    return reply_to


@pytest.mark.parametrize("post", [postmark, mailgun])
def test_a_worker_applies_an_emailed_order_and_answers_once(client, post):
    game = two_player_game()
    (seat,) = seats_to_act(game)
    reply_to = reply_to_of_turn_email(seat)
    response = post(client, reply_to, "pass\n\n> quoted turn email")
    assert response.status_code == 200
    wait_until(lambda: InboundMail.objects.filter(outcome="accepted").exists(), what="the worker's handling")
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1

    def answered() -> list:
        return [m for m in mail.outbox if m.to == [seat.email] and is_answer(m.subject)]

    wait_until(lambda: len(answered()) == 1, what="the answer")
    assert re.search("Your order was accepted: pass", answered()[0].body)

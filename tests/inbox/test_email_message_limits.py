"""Messages written in email replies spend the seat's limit as the page's message form does, and
inbound posts need the webhook secret in production (games/web/seat_limits.py, notifications/webhooks.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.core import mail
from django.core.cache import caches
from django.urls import reverse

from games.models import Event
from games.reading.links import link_token
from notifications.models import InboundMail
from notifications.services import deliver_outbox
from tests.inbox.support import inbound_settings, postmark, turn_email_reply_to  # noqa: F401
from tests.order_loop_support import two_player_game

pytestmark = pytest.mark.django_db

LIMITED = {
    "en": "You have sent many messages in a short time, so this one was not sent.",
    "de": "Du hast in kurzer Zeit viele Nachrichten geschickt, darum wurde diese nicht gesendet.",
}


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)  # inside one window
@pytest.mark.parametrize("language", ["en", "de"])
def test_messages_by_email_are_limited_per_seat_like_the_web_form(client, settings, language):
    """Finding: messages by email are not rate-limited. 40 inbound posts in 2 s made 40 permanent
    messages and 80 emails. Now a seat's replies spend its "orders" allowance (shared with the
    page's form); a reply over it gets a polite answer in the seat's language and creates nothing."""
    settings.RATE_LIMITS = {"orders": (3, 60)}
    caches["ratelimit"].clear()
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    seat.language = language
    seat.save(update_fields=["language"])
    form = reverse("games:play-rest", args=[game.pk, link_token(seat), "message/"])
    assert client.post(form, {"to": "all", "text": "from the page"}).status_code == 302
    deliver_outbox()  # the page's message mailed to its rival
    mail.outbox.clear()
    for n in range(4):
        assert postmark(client, reply_to, f"message all hello {n}").status_code == 200
    sent = Event.objects.filter(game=game, type="MessageSent")
    assert [e.payload["text"] for e in sent.order_by("seq")] == ["from the page", "hello 0", "hello 1"]
    outcomes = list(InboundMail.objects.order_by("id").values_list("outcome", flat=True))
    assert outcomes == ["message", "message", "refused", "refused"]
    deliver_outbox()
    answers = [m for m in mail.outbox if m.to == [seat.email]]  # the replies' answers, in its language
    assert len(answers) == 4 and all(LIMITED[language] in a.body for a in answers[2:])
    rival_mails = [m for m in mail.outbox if m.to != [seat.email]]
    assert len(rival_mails) == 2  # the two sent messages; the refused ones mailed nobody


def test_inbound_posts_without_the_webhook_secret_are_refused_in_production(client, settings):
    """Finding: messages by email are not rate-limited, and anyone could post them: without
    ANYMAIL_WEBHOOK_SECRET anymail only warns and takes every inbound post. With
    AEGEA_PRODUCTION=1 such a post is refused (503, so the ESP keeps the mail and posts it again
    once the secret is set) and nothing is read."""
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    settings.PRODUCTION = True
    settings.ANYMAIL = {}
    refused = postmark(client, reply_to, "message all hello", auth="")
    assert refused.status_code == 503
    assert InboundMail.objects.count() == 0 and not Event.objects.filter(type="MessageSent").exists()
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:s3cret"}
    assert postmark(client, reply_to, "message all hello", auth="").status_code == 400  # no basic auth
    assert postmark(client, reply_to, "message all hello").status_code == 200  # with it
    assert Event.objects.filter(game=game, type="MessageSent").count() == 1

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


DAILY_CAP = {
    "en": (
        "You have sent 2 messages to {rival} in the last 24 hours, the most one rival may get, so this"
        " one was not sent. You can write to {rival} again in 1 day 0 h."
    ),
    "de": (
        "Du hast {rival} binnen 24 Stunden 2 Nachrichten geschickt, mehr darf ein Rivale nicht bekommen;"
        " darum wurde diese nicht gesendet. Du kannst {rival} in 1 Tag 0 Std. wieder schreiben."
    ),
}
RIVAL_NAMES = {"athens": {"en": "Athens", "de": "Athen"}, "sparta": {"en": "Sparta", "de": "Sparta"}}


def one_line(body: str) -> str:
    return " ".join(body.split())


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)
@pytest.mark.parametrize("language", ["en", "de"])
def test_messages_by_email_reply_stop_at_the_daily_cap_per_rival(client, settings, language):
    """Finding: no daily cap on relayed messages. Within the per-minute limit a seat could reply
    "message sparta …" all day long; now RATE_LIMITS "messages" caps it per rival and day, as on
    the page: the reply over it is answered in the seat's language, with the hours to wait, and
    nothing is appended nor mailed."""
    settings.RATE_LIMITS = {"messages": (2, 86400)}
    game = two_player_game()
    seat, reply_to = turn_email_reply_to(game)
    (rival,) = {"athens", "sparta"} - {seat.faction}
    seat.language = language
    seat.save(update_fields=["language"])
    mail.outbox.clear()
    for n in range(3):
        assert postmark(client, reply_to, f"message {rival} hello {n}").status_code == 200
    sent = Event.objects.filter(game=game, type="MessageSent").order_by("seq")
    assert [e.payload["text"] for e in sent] == ["hello 0", "hello 1"]
    outcomes = list(InboundMail.objects.order_by("id").values_list("outcome", flat=True))
    assert outcomes == ["message", "message", "refused"]
    deliver_outbox()
    answers = [m for m in mail.outbox if m.to == [seat.email]]
    assert len(answers) == 3 and DAILY_CAP[language].format(rival=RIVAL_NAMES[rival][language]) in one_line(
        answers[-1].body
    )
    assert len([m for m in mail.outbox if m.to != [seat.email]]) == 2  # the refused one mailed nobody


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)
def test_a_reply_to_a_message_email_counts_against_the_same_daily_cap(client, settings):
    """The other way into a message by email: answering a rival's message email."""
    settings.RATE_LIMITS = {"messages": (1, 86400)}
    game = two_player_game()
    athens, sparta = game.seats.get(faction="athens"), game.seats.get(faction="sparta")
    form = reverse("games:play-rest", args=[game.pk, link_token(sparta), "message/"])
    assert client.post(form, {"to": "athens", "text": "from the page"}).status_code == 302
    deliver_outbox()
    (message_email,) = [m for m in mail.outbox if m.to == [athens.email] and "orders+m." in m.reply_to[0]]
    assert postmark(client, message_email.reply_to[0], "my answer").status_code == 200  # Athens' first
    assert postmark(client, message_email.reply_to[0], "and another").status_code == 200  # over the cap
    texts = [e.payload["text"] for e in Event.objects.filter(game=game, type="MessageSent").order_by("seq")]
    assert texts == ["from the page", "my answer"]
    deliver_outbox()
    (refusal,) = [m for m in mail.outbox if m.to == [athens.email] and "changed nothing" in m.subject]
    assert "You have sent 1 message to Sparta in the last 24 hours" in one_line(refusal.body)

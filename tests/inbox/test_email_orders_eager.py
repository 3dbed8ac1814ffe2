"""Orders by email without Redis (`make run`: Celery eager, no worker, no beat) (docs/email-orders.md).

The webhook's nudge runs the handling inside the request, right after its commit, so the order
is applied and answered before the ESP gets its 200. What the nudge could not finish (the handling
failed, the answer's send failed) is left to `manage.py eagerbeat`, which `make run` starts in
place of Celery beat: it runs the same schedule, so nothing waits for ever. Real Postmark and
Mailgun posts, real commits (transaction=True), the answers read from the mail actually sent.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.core.management import call_command
from django.db import OperationalError

import tests.inbox.support as inbound_posts
from games.models import Event
from notifications.eager_beat import due
from notifications.models import InboundMail, Outbox
from tests.inbox.support import ADDRESS, inbound_settings, is_answer, mailgun, postmark  # noqa: F401
from tests.order_loop_support import seats_to_act, two_player_game


@pytest.fixture(autouse=True)
def real_commits(monkeypatch, settings):
    """Post as the ESP does: the webhook's transaction commits and its on-commit nudge runs then
    (not Django's test capture of it), eagerly, as with no REDIS_URL."""
    assert settings.CELERY_TASK_ALWAYS_EAGER
    monkeypatch.setattr(
        inbound_posts, "post_inbound", lambda client, url, **kwargs: client.post(url, **kwargs)
    )


def turn_reply_to(game):
    (seat,) = seats_to_act(game)
    (reply_to,) = [m for m in mail.outbox if m.to == [seat.email]][-1].reply_to  # sent at once, eagerly
    assert ADDRESS.fullmatch(reply_to)
    return seat, reply_to


def answers(seat) -> list:
    return [m for m in mail.outbox if m.to == [seat.email] and is_answer(m.subject)]


def passes(game) -> int:
    return Event.objects.filter(game=game, type="PlayerPassed").count()


def a_minute_later() -> None:
    """Time passes (no sleep): the stored mails are older than the sweep's grace period."""
    for record in InboundMail.objects.all():
        InboundMail.objects.filter(pk=record.pk).update(received=record.received - timedelta(minutes=1))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("post", [postmark, mailgun])
def test_without_redis_a_reply_is_applied_and_answered_before_the_webhook_returns(client, post):
    game = two_player_game()
    seat, reply_to = turn_reply_to(game)
    assert post(client, reply_to, "pass\n\n> It is your turn").status_code == 200
    # Nothing else has run: no worker, no beat, no deliver_outbox() by the test.
    assert passes(game) == 1
    (answer,) = answers(seat)
    assert "Your order was accepted: pass" in answer.body
    assert InboundMail.objects.get().outcome == "accepted"
    assert not Outbox.objects.exclude(status=Outbox.Status.SENT).exists()


@pytest.mark.django_db(transaction=True)
def test_without_redis_a_reply_whose_handling_failed_is_handled_by_eagerbeat(client, monkeypatch):
    import games.services.inbox.replies

    game = two_player_game()
    seat, reply_to = turn_reply_to(game)
    real = games.services.inbox.replies.handle_reply

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")  # SQLite under `make run`, another writer busy

    monkeypatch.setattr(games.services.inbox.replies, "handle_reply", locked)
    assert postmark(client, reply_to, "pass").status_code == 200  # the ESP has delivered it
    assert passes(game) == 0 and answers(seat) == []
    assert InboundMail.objects.get().outcome == ""  # stored, waiting
    monkeypatch.setattr(games.services.inbox.replies, "handle_reply", real)
    call_command("eagerbeat", "--once", stdout=StringIO())  # too soon: the sweep leaves fresh mail alone
    assert passes(game) == 0
    a_minute_later()
    call_command("eagerbeat", "--once", stdout=StringIO())
    assert passes(game) == 1 and InboundMail.objects.get().outcome == "accepted"
    assert "Your order was accepted: pass" in answers(seat)[0].body
    call_command("eagerbeat", "--once", stdout=StringIO())
    assert passes(game) == 1 and len(answers(seat)) == 1


@pytest.mark.django_db(transaction=True)
def test_without_redis_an_answer_whose_send_failed_is_sent_by_eagerbeat(client, monkeypatch):
    game = two_player_game()
    seat, reply_to = turn_reply_to(game)
    real_send = EmailMultiAlternatives.send

    def refused(self, *args, **kwargs):
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr(EmailMultiAlternatives, "send", refused)
    assert mailgun(client, reply_to, "pass").status_code == 200
    assert passes(game) == 1 and answers(seat) == []  # applied; its answer waits in the outbox
    assert Outbox.objects.filter(kind="reply", status=Outbox.Status.PENDING).count() == 1
    monkeypatch.setattr(EmailMultiAlternatives, "send", real_send)
    call_command("eagerbeat", "--once", stdout=StringIO())
    assert "Your order was accepted: pass" in answers(seat)[0].body
    assert not Outbox.objects.filter(kind="reply").exclude(status=Outbox.Status.SENT).exists()


@pytest.mark.django_db(transaction=True)
def test_without_redis_a_mail_that_always_fails_is_given_up_and_its_sender_told(client, monkeypatch):
    import games.services.inbox.replies
    from notifications.inbound import MAX_ATTEMPTS

    game = two_player_game()
    seat, reply_to = turn_reply_to(game)

    def poison(*args, **kwargs):
        raise RuntimeError("poison")

    monkeypatch.setattr(games.services.inbox.replies, "handle_reply", poison)
    assert postmark(client, reply_to, "pass").status_code == 200  # attempt 1, in the request
    for _ in range(MAX_ATTEMPTS):
        a_minute_later()
        call_command("eagerbeat", "--once", stdout=StringIO())
    assert InboundMail.objects.get().outcome == "failed" and passes(game) == 0
    (answer,) = answers(seat)
    assert "Your email could not be handled, so nothing was changed." in answer.body
    a_minute_later()
    call_command("eagerbeat", "--once", stdout=StringIO())
    assert len(answers(seat)) == 1


def test_eagerbeat_runs_the_whole_beat_schedule_at_its_intervals(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert set(due({}, 0.0)) == set(schedule)  # at start: every task (leftovers of a previous run)
    last_run = dict.fromkeys(schedule, 0.0)
    assert due(last_run, 59.0) == []
    assert set(due(last_run, 60.0)) == {n for n, e in schedule.items() if e["schedule"] <= 60}
    assert "games-tick-deadlines" in due(last_run, 60.0)  # deadlines pass without Redis too
    assert set(due(last_run, 300.0)) == {n for n, e in schedule.items() if e["schedule"] <= 300}
    assert "games-prune-outbox" not in due(last_run, 300.0)  # daily
    longest = max(e["schedule"] for e in schedule.values())
    assert set(due(last_run, longest)) == set(schedule)


@pytest.mark.django_db
def test_eagerbeat_refuses_to_run_beside_a_real_broker(settings):
    from django.core.management.base import CommandError

    settings.CELERY_TASK_ALWAYS_EAGER = False
    with pytest.raises(CommandError, match="REDIS_URL is set"):
        call_command("eagerbeat", "--once")

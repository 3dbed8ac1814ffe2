"""The outbox: written with the transaction, delivered once by a real Celery worker on Redis."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from celery.signals import task_postrun
from django.conf import settings
from django.core import mail
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils.translation import gettext_lazy

from aegea_pbem.celery import app as celery_app
from notifications.models import Outbox
from notifications.services import (
    deliver_outbox,
    frozen,
    outbox_batch,
    render_email,
    rendered,
    retry_failed,
)
from notifications.tasks import deliver_pending
from tests.notifications import flaky_backend
from tests.notifications.celery_fixtures import (  # noqa: F401
    anymail_outbox,
    celery_worker,
    wait_for_mail,
    wait_until,
)
from tests.notifications.outbox_support import TURN_CONTEXT, enqueue_turn


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # the worker thread needs the committed rows of a real database
@pytest.mark.usefixtures("celery_worker")
def test_row_committed_with_the_turn_is_delivered_by_the_worker():
    with transaction.atomic():
        row = enqueue_turn()
    outbox = wait_for_mail(1)
    message = outbox[0]
    assert message.to == ["ana@example.com"]
    assert message.subject == "Athens: your turn — 431 BC, round 1 of 3 · Game 7"
    assert "It is your turn as Athens: 431 BC, action round 1." in message.body
    assert "- Sparta passed." in message.body
    assert "http://testserver/play/7/abc/" in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    assert '<a href="http://testserver/play/7/abc/">' in html
    assert "<li>Sparta passed.</li>" in html
    assert message.extra_headers["X-Aegea-Notification"] == "aegea-turn-7-3-11"
    sent = message.anymail_test_params  # what anymail hands to the ESP
    assert sent["to"][0].addr_spec == "ana@example.com"
    assert sent["subject"] == message.subject
    assert sent["text_body"] == message.body and sent["html_body"] == html
    assert sent["tags"] == ["turn"]
    assert sent["metadata"] == {"game": "7", "seq": "3", "seat": "11"}
    wait_until(lambda: Outbox.objects.get(pk=row.pk).status == Outbox.Status.SENT, what="row marked sent")
    row.refresh_from_db()
    assert row.attempts == 1 and row.sent_at is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_rolled_back_transaction_leaves_no_row_and_sends_nothing():
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue_turn()
        raise RuntimeError("the order failed")
    assert Outbox.objects.count() == 0
    assert deliver_outbox() == 0
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_same_notification_enqueued_twice_is_one_row_and_one_email():
    with transaction.atomic():
        first = enqueue_turn()
        second = enqueue_turn(phase_label="changed")
    assert first.pk == second.pk
    assert Outbox.objects.count() == 1
    assert len(mail.outbox) == 1  # eager mode: delivered after commit


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_a_transaction_nudges_delivery_once_however_many_rows_it_writes(monkeypatch):
    nudges: list[int] = []
    monkeypatch.setattr(deliver_pending, "apply_async", lambda **kw: nudges.append(1))
    with transaction.atomic():
        for seat in range(3):
            enqueue_turn(seat_id=seat)
        with transaction.atomic():  # a savepoint's row, nudged by the same callback
            enqueue_turn(seat_id=9)
    assert nudges == [1]
    with pytest.raises(RuntimeError), transaction.atomic():  # the outer transaction's nudge survives
        enqueue_turn(seat_id=20)
        try:
            with transaction.atomic():
                enqueue_turn(seat_id=21)
                raise RuntimeError("the savepoint fails")
        except RuntimeError:
            pass
        raise RuntimeError("and then the transaction")
    assert nudges == [1]
    with transaction.atomic():
        try:
            with transaction.atomic():  # the nudge registered here is rolled back with its row
                enqueue_turn(seat_id=30)
                raise RuntimeError("the savepoint fails")
        except RuntimeError:
            pass
        enqueue_turn(seat_id=31)  # so this row registers its own
    assert nudges == [1, 1]
    assert Outbox.objects.count() == 5


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_outbox_batch_writes_its_rows_in_one_statement_and_keeps_the_first_of_a_key():
    enqueue_turn(seat_id=1, phase_label="first")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries, outbox_batch() as rows:
        enqueue_turn(seat_id=1, phase_label="again")  # written before: skipped
        enqueue_turn(seat_id=2)
        enqueue_turn(seat_id=2, phase_label="twice in the batch")  # the batch's first stays
        enqueue_turn(seat_id=3)
    assert len(rows) == 4
    # One INSERT; before it the app's stamp (games: the log's head) read once for the batch's game.
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT", "INSERT"]
    assert sorted(Outbox.objects.values_list("seat_id", flat=True)) == [1, 2, 3]
    assert "first" in rendered(Outbox.objects.get(seat_id=1)).text
    assert "twice" not in rendered(Outbox.objects.get(seat_id=2)).text
    with pytest.raises(RuntimeError), transaction.atomic(), outbox_batch():
        enqueue_turn(seat_id=4)
        raise RuntimeError("the order failed")
    assert not Outbox.objects.filter(seat_id=4).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # the worker thread needs the committed rows of a real database
@pytest.mark.usefixtures("celery_worker")
def test_task_delivered_three_times_sends_each_row_once():
    finished: list[str] = []

    def count(sender=None, **kwargs) -> None:
        finished.append(sender.name)

    task_postrun.connect(count, weak=False)
    try:
        with transaction.atomic():
            for seat in range(4):
                enqueue_turn(seat_id=seat, to_email=f"p{seat}@example.com")  # one nudge for the commit
        for _ in range(3):
            deliver_pending.delay()
        wait_until(lambda: finished.count("notifications.deliver_pending") >= 4, what="all 4 task runs")
    finally:
        task_postrun.disconnect(count)
    assert sorted(m.to[0] for m in mail.outbox) == [f"p{s}@example.com" for s in range(4)]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_two_workers_delivering_at_once_never_send_a_row_twice():
    with transaction.atomic():
        for seat in range(20):
            Outbox.objects.create(
                game_id=7,
                seq=3,
                seat_id=seat,
                kind="turn",
                to_email=f"p{seat}@example.com",
                subject="s",
                body_text="t",
                body_html="<p>t</p>",
            )
    start = threading.Barrier(2)
    counts: list[int] = []

    def worker() -> None:
        start.wait()
        try:
            counts.append(deliver_outbox())
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counts) == 20
    assert len(mail.outbox) == 20
    assert len({m.to[0] for m in mail.outbox}) == 20
    assert set(Outbox.objects.values_list("attempts", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_failed_delivery_stays_pending_and_the_sweep_sends_it_later(settings):
    settings.EMAIL_BACKEND = "tests.notifications.flaky_backend.FlakyBackend"
    mail.outbox = []
    flaky_backend.FAILING["on"] = True
    try:
        with transaction.atomic():
            row = enqueue_turn()
    finally:
        flaky_backend.FAILING["on"] = False
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("pending", 1)
    assert "ESP unreachable" in row.last_error
    assert mail.outbox == []

    from notifications.tasks import sweep_outbox

    sweep_outbox.apply()
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error) == ("sent", 2, "")
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_row_gives_up_after_the_maximum_attempts(settings):
    settings.EMAIL_BACKEND = "tests.notifications.flaky_backend.FlakyBackend"
    settings.OUTBOX_MAX_ATTEMPTS = 2
    flaky_backend.FAILING["on"] = True
    try:
        with transaction.atomic():
            row = enqueue_turn()
        deliver_outbox()
        deliver_outbox()  # nothing left to try: the row is failed, not pending
    finally:
        flaky_backend.FAILING["on"] = False
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("failed", 2)


def test_sweep_is_scheduled_by_celery_beat():
    schedule = settings.CELERY_BEAT_SCHEDULE["notifications-sweep-outbox"]
    assert schedule["task"] == "notifications.sweep_outbox"
    assert "notifications.sweep_outbox" in celery_app.tasks


def test_email_is_rendered_in_the_readers_language_with_one_line_subject():
    email = render_email("turn", {**TURN_CONTEXT, "sealed": True}, "en")
    assert email.subject == "Athens: your sealed winter order — 431 BC · Game 7"
    assert "\n" not in email.subject
    assert "every player now submits a sealed order" in email.text
    assert email.html.lstrip().startswith("<!doctype html>")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_a_row_keeps_its_context_and_is_rendered_when_sent_as_it_was_enqueued():
    with transaction.atomic():
        row = enqueue_turn(language="de", phase_label=gettext_lazy("Pass"))
    row.refresh_from_db()
    # Stored unrendered: the template and the context, lazy text already in the reader's language.
    assert (row.template, row.body_text, row.body_html) == ("turn", "", "")
    assert row.context == {**TURN_CONTEXT, "phase_label": "Passen"}
    assert row.status == "sent"  # delivered after the commit (tasks run eagerly in tests)
    (message,) = mail.outbox
    expected = render_email("turn", {**TURN_CONTEXT, "phase_label": "Passen"}, "de")
    assert message.subject == expected.subject == row.subject  # the subject is kept for the admin
    assert message.body == expected.text and message.alternatives[0][0] == expected.html
    assert "Hallo Ana," in message.body


def test_a_context_that_would_not_render_as_text_is_refused_when_enqueued():
    with pytest.raises(TypeError, match="datetime"):
        frozen({"deadline": datetime(2026, 11, 30, tzinfo=UTC)}, "en")


@pytest.mark.django_db(transaction=True)
def test_a_row_that_fails_to_render_counts_a_failed_attempt_and_is_kept(settings):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    mail.outbox = []
    with transaction.atomic():
        row = enqueue_turn()
        Outbox.objects.filter(pk=row.pk).update(template="no_such_template")
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("pending", 1)  # the commit's delivery tried once
    assert "TemplateDoesNotExist" in row.last_error
    deliver_outbox()
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("failed", 2)  # kept for the operator (admin: retry)
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
def test_failed_rows_can_be_queued_again_and_are_then_sent(settings):
    settings.EMAIL_BACKEND = "tests.notifications.flaky_backend.FlakyBackend"
    settings.OUTBOX_MAX_ATTEMPTS = 1
    mail.outbox = []
    flaky_backend.FAILING["on"] = True
    try:
        with transaction.atomic():
            row = enqueue_turn()
    finally:
        flaky_backend.FAILING["on"] = False
    row.refresh_from_db()
    assert row.status == "failed"
    with transaction.atomic():
        assert retry_failed(Outbox.objects.all()) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 1)
    assert len(mail.outbox) == 1

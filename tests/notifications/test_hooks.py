"""What games registers with notifications (notifications/hooks.py, games/mail_hooks.py): the
kinds of email a row may have, and a queue that still works with nothing registered."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction

from notifications.hooks import MailHooks
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.notifications.outbox_support import enqueue_turn


@pytest.mark.django_db
def test_a_kind_the_game_did_not_register_is_refused_and_nothing_is_written() -> None:
    with pytest.raises(ValueError, match="'trun'"), transaction.atomic():
        enqueue_turn(kind="trun")
    with pytest.raises(ValueError, match="'reminder-x'"), transaction.atomic():
        enqueue_turn(kind="reminder-x")
    assert not Outbox.objects.exists()


@pytest.mark.django_db
def test_registered_kinds_and_a_reminder_point_are_written() -> None:
    enqueue_turn(kind="turn")
    enqueue_turn(kind="reminder-2")
    assert sorted(Outbox.objects.values_list("kind", flat=True)) == ["reminder-2", "turn"]


@pytest.mark.django_db
def test_with_nothing_registered_the_queue_takes_any_kind_and_sends_it(monkeypatch) -> None:
    monkeypatch.setattr("notifications.hooks._registered", MailHooks())
    enqueue_turn(kind="anything")
    assert deliver_outbox() == 1
    (message,) = mail.outbox
    assert message.subject == "Athens: your turn — 431 BC, round 1 of 3 · Game 7"
    assert message.tags == ["anything"]
    assert "http://testserver/play/7/abc/" in message.body
    assert Outbox.objects.get().status == Outbox.Status.SENT

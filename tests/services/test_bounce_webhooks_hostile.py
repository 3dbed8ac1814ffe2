"""Tracking webhook posts that must change nothing: forged, unsigned, unmatched, unreadable.
None of them may answer 500 (the test client raises any server error)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from games.models import DeliveryProblem
from games.services.game_setup import PlayerSpec, create_game
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.bounce_support import (
    MAILGUN_KEY,
    SECRET,
    mailgun_event,
    post_mailgun,
    post_postmark,
    postmark_record,
)

PLAYERS = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]


@pytest.fixture
def row(db, settings) -> Outbox:
    settings.ANYMAIL = {"WEBHOOK_SECRET": SECRET, "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY}
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    organiser = get_user_model().objects.create_user("olga", "olga@example.com", "pw")
    game = create_game(PLAYERS, organiser=organiser, name="Quiet game")
    deliver_outbox()
    mail.outbox.clear()
    return Outbox.objects.get(seat_id=game.seats.get(faction="sparta").pk, kind="welcome")


def nothing_changed() -> None:
    assert not DeliveryProblem.objects.exists()
    deliver_outbox()
    assert [m for m in mail.outbox if m.to == ["olga@example.com"]] == []  # no alert


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [None, "Basic " + "d3Jvbmc6c2VjcmV0"])  # none, and "wrong:secret"
def test_a_postmark_post_without_the_webhook_secret_is_refused(row, client, auth):
    assert post_postmark(client, postmark_record(row), auth=auth).status_code == 400
    nothing_changed()


@pytest.mark.django_db
def test_a_mailgun_post_with_a_forged_signature_is_refused(row, client):
    assert post_mailgun(client, mailgun_event(row, key="guessed-key")).status_code == 400
    unsigned = mailgun_event(row)
    del unsigned["signature"]
    assert post_mailgun(client, unsigned).status_code == 400
    nothing_changed()


def other_seat(row: Outbox) -> str:
    return str(Outbox.objects.exclude(seat_id=row.seat_id).values_list("seat_id", flat=True).first())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes",
    [
        {"Metadata": {}},  # an email we did not send, or sent before metadata
        {"Metadata": {"game": "999999", "seq": "1", "seat": "999999"}},
        {"Email": "someone@else.example"},  # another recipient than the email's
        {"MessageID": "not-the-one-sent"},  # the metadata of one email, the id of another
        {"Tag": "turn"},  # no turn email with that key was sent
        {"Metadata": {"game": "1" * 30, "seq": "9" * 12, "seat": "-1"}},  # numbers no row can have
        {"Metadata": {"game": True, "seq": None, "seat": {"x": 1}}},
        {"Email": None},
    ],
)
def test_an_authenticated_event_that_matches_no_sent_email_is_answered_and_ignored(row, client, changes):
    assert post_postmark(client, postmark_record(row, **changes)).status_code == 200
    nothing_changed()


@pytest.mark.django_db
def test_an_organisers_alert_bouncing_does_not_mark_the_seat(row, client):
    """Alerts to the organiser carry the seat's id too, but went to the organiser's address."""
    alert = Outbox.objects.create(
        game_id=row.game_id, seq=99, seat_id=row.seat_id, kind="absent", to_email="olga@example.com",
        status=Outbox.Status.SENT, message_id="alert-1",
    )  # fmt: skip
    alert.sent_at = alert.created
    alert.save()
    assert post_postmark(client, postmark_record(alert)).status_code == 200
    nothing_changed()


@pytest.mark.django_db
def test_an_email_still_pending_is_not_reported_on(row, client):
    Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.PENDING)
    assert post_postmark(client, postmark_record(row)).status_code == 200
    nothing_changed()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        "{not json",
        json.dumps([1, 2, 3]),
        json.dumps({"RecordType": "Bounce", "Type": "HardBounce", "Metadata": ["game", 1]}),
        json.dumps(
            {"FromFull": {"Email": "a@b.example"}, "To": "x@y.example"}
        ),  # inbound mail at the tracking URL
    ],
)
def test_an_unreadable_postmark_post_is_answered_400_not_500(row, client, body):
    assert post_postmark(client, body).status_code == 400
    nothing_changed()


@pytest.mark.django_db
def test_an_unreadable_mailgun_post_is_answered_400_not_500(row, client):
    payload = mailgun_event(row)
    del payload["event-data"]["event"]
    assert post_mailgun(client, payload).status_code == 400
    nothing_changed()


@pytest.mark.django_db
def test_without_a_webhook_secret_the_tracking_webhook_takes_nothing(row, client, settings):
    """anymail only warns when the secret is unset and would take any post: a stranger knowing a
    player's address could report it as spam and stop the player's reminders."""
    settings.ANYMAIL = {}
    complaint = postmark_record(row, record_type="SpamComplaint")
    assert post_postmark(client, complaint, auth=None).status_code == 403
    nothing_changed()


@pytest.mark.django_db
def test_our_own_failure_on_a_good_post_answers_500_so_the_esp_posts_it_again(row, client, monkeypatch):
    """Only a post anymail cannot read is the ESP's fault (400, not retried); a bug of ours on a good
    post, be it a ValueError, must answer 500, or the bounce would be lost for good."""

    def broken(report: object) -> str:
        raise ValueError("a bug of ours")

    monkeypatch.setattr("games.services.delivery_problems.record_report", broken)
    client.raise_request_exception = False
    assert post_postmark(client, postmark_record(row)).status_code == 500
    nothing_changed()

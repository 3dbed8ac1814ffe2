"""Tracking events from the ESP (bounces, rejections, spam complaints, deliveries): anymail's
`tracking` signal, for every ESP's /anymail/<esp>/tracking/ webhook.

anymail authenticates the post before the signal fires (ANYMAIL["WEBHOOK_SECRET"] basic auth,
and the ESP's signature where it has one, e.g. MAILGUN_WEBHOOK_SIGNING_KEY); a forged post is
refused with 400 and never gets here. What does get here is matched to the outbox row it is about
(`match_outbox`) before anything changes:

- by the metadata every email carries (services._message: game, seq, seat) and its tag (the
  row's kind): together the row's unique key, so one indexed lookup;
- the event's recipient must be the address the row was sent to (an organiser's alert names
  the seat too, but went to the organiser), and the row must have been sent;
- where both the event and the row know the ESP's message id, they must agree.

An event that matches no row is logged (without addresses) and ignored: the webhook still
answers 200, as there is nothing the ESP could send better. "deferred" (the ESP retries by
itself), opens, clicks and the rest are ignored. A matched event goes to the registered
delivery_report hook (notifications/hooks.py; games: delivery_problems.record_report), in this
request: it is a few rows and at most one outbox row, and if it fails the webhook answers 500 and
the ESP posts it again.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from anymail.signals import AnymailTrackingEvent, tracking
from django.dispatch import receiver
from django.utils import timezone

from .hooks import MailReport, registered
from .models import Outbox
from .webhook_errors import our_handler

log = logging.getLogger(__name__)
TRACKED = {"bounced", "rejected", "complained", "delivered"}
_ID = re.compile(r"^\d{1,18}$")
SEQ_MAX = 2**31 - 1  # Outbox.seq is a 32-bit integer: a larger number matches nothing


@receiver(tracking, dispatch_uid="aegea-tracking-delivery")
@our_handler
def on_tracking(sender: Any, event: AnymailTrackingEvent, esp_name: str, **kwargs: Any) -> None:
    handle_tracking(event, esp_name)


def handle_tracking(event: AnymailTrackingEvent, esp_name: str) -> str:
    """Record one tracking event if it is about an email we sent; returns what came of it."""
    if event.event_type not in TRACKED:
        return "ignored"
    row = match_outbox(event)
    if row is None:
        log.info("%s %s event matches no sent email: ignored", esp_name, event.event_type)
        return "unmatched"
    record_report = registered().delivery_report
    if record_report is None:
        log.info(
            "%s %s event for outbox %s: nobody registered to record it", esp_name, event.event_type, row.pk
        )
        return "unrecorded"
    description = str(event.description or event.mta_response or "").strip()
    outcome = record_report(
        MailReport(
            seat_id=row.seat_id,
            email=row.to_email,
            event=str(event.event_type),
            description=" ".join(description.split()),
            outbox_id=row.pk,
            sent_at=row.sent_at or row.created,
            at=event.timestamp or timezone.now(),
        )
    )
    log.info("%s %s event for outbox %s: %s", esp_name, event.event_type, row.pk, outcome)
    return outcome


def match_outbox(event: AnymailTrackingEvent) -> Outbox | None:
    """The sent outbox row the event is about, or None when it cannot be told for sure."""
    metadata = event.metadata if isinstance(event.metadata, dict) else {}
    key = [_number(metadata.get(name)) for name in ("game", "seq", "seat")]
    recipient = str(event.recipient or "").strip().lower()
    if None in key or key[1] > SEQ_MAX or not recipient:
        return None
    game_id, seq, seat_id = key
    rows = Outbox.objects.filter(game_id=game_id, seq=seq, seat_id=seat_id, status=Outbox.Status.SENT)
    tags = [tag for tag in event.tags or [] if isinstance(tag, str)]
    if tags:
        rows = rows.filter(kind__in=tags)
    message_id = _bare(event.message_id)
    for row in rows.order_by("-sent_at"):
        if row.to_email.strip().lower() != recipient:
            continue
        if message_id and row.message_id and _bare(row.message_id) != message_id:
            continue
        return row
    return None


def _number(value: Any) -> int | None:
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    return int(text) if _ID.match(text) else None


def _bare(message_id: Any) -> str:
    """A message id without its angle brackets (ESPs write it with and without)."""
    return str(message_id or "").strip().strip("<>").strip()

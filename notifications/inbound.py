"""Inbound email (issue 6): anymail's `inbound` signal, for every ESP's webhook.

The ESP posts each received email to /anymail/<esp>/inbound/; anymail authenticates the post
(ANYMAIL["WEBHOOK_SECRET"] basic auth, and the ESP's own signature where it has one, e.g.
Mailgun's MAILGUN_WEBHOOK_SIGNING_KEY) and fires the signal with an AnymailInboundMessage.
Here the recipient address is the only key: orders+<token>@INBOUND_DOMAIN names the seat and
what the reply is for (games/mail_keys.py). The From header is never trusted. Then:

- no valid token (forged, revoked, another domain): logged, no answer, nothing changes;
- the same email posted again (the ESP's retry): handled once (InboundMail.esp_message_id);
- spam-flagged by the ESP, or larger than INBOUND_MAX_BYTES (1 MB): nothing changes, a polite answer;
- otherwise the reply's own lines go to games.email_orders.handle_reply.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from anymail.signals import AnymailInboundEvent, inbound
from django.conf import settings
from django.db import IntegrityError, transaction
from django.dispatch import receiver

from .models import InboundMail

log = logging.getLogger(__name__)
DEFAULT_MAX_BYTES = 1024 * 1024


def _recipients(message: Any) -> list[str]:
    found = [message.envelope_recipient] if message.envelope_recipient else []
    for header in ("to", "cc"):
        found += [address.addr_spec for address in getattr(message, header, None) or []]
    for header in ("Delivered-To", "X-Original-To"):
        found += [str(value) for value in message.get_all(header) or []]
    return found


def _size(event: AnymailInboundEvent) -> int:
    """How large the email was: the ESP's post (Mailgun posts the Django request, files included),
    or the message rebuilt from the ESP's JSON (Postmark). Django itself refuses any post whose
    non-file data exceeds DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) with 400 before we see it."""
    request = event.esp_event
    if hasattr(request, "META"):
        return int(request.META.get("CONTENT_LENGTH") or 0)
    return len(event.message.as_bytes())


def _message_id(event: AnymailInboundEvent, recipient: str, text: str) -> str:
    found = event.message.get("Message-ID") or event.event_id
    if found:
        return "".join(c for c in str(found) if c.isprintable())[:255]
    return "sha256:" + hashlib.sha256(f"{recipient}\n{text}".encode()).hexdigest()


@receiver(inbound, dispatch_uid="aegea-inbound-orders")
def handle_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    from games.email_orders import answer_refusal, handle_reply
    from games.mail_keys import read_reply_address
    from games.order_syntax import read_reply

    message = event.message
    key = next((k for k in map(read_reply_address, _recipients(message)) if k is not None), None)
    if key is None:
        log.info("inbound %s mail without a valid reply token: ignored", esp_name)
        return
    # PostgreSQL text cannot hold NUL; a mail carrying one would otherwise end in a server error.
    text = (message.text or "").replace("\x00", "")
    html = (message.html or "").replace("\x00", "") or None
    size = _size(event)
    record = InboundMail(
        esp_message_id=_message_id(event, key.seat.email, text),
        recipient=key.seat.email,
        seat_id=key.seat.pk,
        game_id=key.seat.game_id,
        size=size,
    )
    # One transaction: if handling fails, nothing of this email is kept and the ESP's retry
    # handles it again; if it succeeds, a second post of the same email is recognised.
    with transaction.atomic():
        try:
            with transaction.atomic():
                record.save()
        except IntegrityError:
            log.info("inbound %s: message %s seen before: ignored", esp_name, record.esp_message_id)
            return
        limit = int(getattr(settings, "INBOUND_MAX_BYTES", DEFAULT_MAX_BYTES))
        if message.spam_detected:
            record.outcome = "spam"
            answer_refusal(key, record.pk, "spam")
        elif size > limit:
            record.outcome = "too-large"
            answer_refusal(key, record.pk, "too-large")
        else:
            lines = read_reply(text, html)
            record.outcome = handle_reply(key, lines, record.pk)
            record.detail = "\n".join(lines[:5])[:2000]
        record.save(update_fields=["outcome", "detail"])

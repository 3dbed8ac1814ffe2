"""An email reply fed through the inbound path an ESP's webhook takes, with no ESP (local trials).

The reply becomes the AnymailInboundMessage that anymail's inbound webhooks build and anymail's
`inbound` signal is sent with it, so everything after the ESP's post is the production code:
the recipient address is the only key, the reply is stored, handled and answered by email.
Used by `manage.py feedreply` and the local mailbox page's "reply to this email".
"""

from __future__ import annotations

import re

from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent, EventType, inbound

from .models import InboundMail

ESP_NAME = "local"
HEADER_LINE = re.compile(rb"^[A-Za-z0-9-]+:")


class NotStored(Exception):
    """The reply was not stored: no seat's current reply address, or an email fed before."""


def feed_reply(raw: bytes, to: str | None = None) -> AnymailInboundMessage:
    """Send anymail's inbound signal for `raw` (a whole email, or only the words of a reply), as its
    webhooks do; `to` replaces its To (the address the reply was sent to). Raises NotStored when
    the inbound path kept nothing: it answers an ESP 200 either way, but here a person waits."""
    if not HEADER_LINE.match(raw.lstrip()):
        raw = b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + raw
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    if to:
        del message["To"]
        message["To"] = to
    if not message["To"]:
        raise NotStored("The reply names no recipient: give the seat's reply address.")
    before = InboundMail.objects.count()
    event = AnymailInboundEvent(event_type=EventType.INBOUND, message=message, esp_event=raw)
    inbound.send(sender=feed_reply, event=event, esp_name=ESP_NAME)
    if InboundMail.objects.count() == before:
        raise NotStored(
            f"Nothing was stored: {message['To']} is no seat's current reply address, or this email "
            "(its Message-ID) was fed before."
        )
    return message

"""`manage.py feedreply`: an email reply fed through the inbound path an ESP's webhook takes.

For trying orders and messages by email on a machine with no ESP (`make run`): the reply (a raw
RFC 5322 message from a file, or from standard input) becomes the AnymailInboundMessage that
anymail's inbound webhooks build, and anymail's `inbound` signal is sent with it, so everything
after the ESP's post is the same code as in production: the recipient address is the only key
(a seat's reply address), the reply is stored, handled and answered by email.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent, EventType, inbound
from django.core.management.base import BaseCommand, CommandError, CommandParser

from notifications.models import InboundMail

ESP_NAME = "feedreply"
HEADER_LINE = re.compile(rb"^[A-Za-z0-9-]+:")


def feed_reply(raw: bytes, to: str | None = None) -> AnymailInboundMessage:
    """Send anymail's inbound signal for the raw email, as its webhooks do. `to` replaces the email's
    To (the address the reply was sent to: a seat's reply address)."""
    if not HEADER_LINE.match(raw.lstrip()):
        # Only the words of a reply (`echo pass | manage.py feedreply - --to ...`): an email of them.
        raw = b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + raw
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    if to:
        del message["To"]
        message["To"] = to
    if not message["To"]:
        raise CommandError("The reply names no recipient: give --to with the seat's reply address.")
    event = AnymailInboundEvent(event_type=EventType.INBOUND, message=message, esp_event=raw)
    inbound.send(sender=feed_reply, event=event, esp_name=ESP_NAME)
    return message


class Command(BaseCommand):
    help = (
        "Feed an email reply (a file, or - for standard input; a whole email or only its words) "
        "through the inbound path an ESP's webhook takes; --to sets the address it was sent to "
        "(a seat's reply address)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", help="a file holding the raw email, or - for standard input")
        parser.add_argument("--to", help="the address the reply was sent to (replaces its To)")

    def handle(self, *args: Any, email: str, to: str | None = None, **options: Any) -> None:
        raw = sys.stdin.buffer.read() if email == "-" else Path(email).read_bytes()
        before = InboundMail.objects.count()
        message = feed_reply(raw, to)
        if InboundMail.objects.count() == before:
            # The webhook answers the ESP 200 either way and tells the sender nothing: here a person waits.
            raise CommandError(
                f"Nothing was stored: {message['To']} is no seat's current reply address, or this email "
                "(its Message-ID) was fed before. Reply to an email in the mailbox, or give --to."
            )
        self.stdout.write(f"Fed the reply to {message['To']} through the inbound path; it is handled now.")

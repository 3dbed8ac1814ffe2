"""`manage.py feedreply`: an email reply fed through the inbound path an ESP's webhook takes
(notifications/feed.py), for trying orders and messages by email on `make run` with no ESP."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from notifications.feed import NotStored, feed_reply


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
        try:
            message = feed_reply(raw, to)
        except NotStored as refusal:
            raise CommandError(f"{refusal} Reply to an email in the mailbox, or give --to.") from None
        self.stdout.write(f"Fed the reply to {message['To']} through the inbound path; it is handled now.")

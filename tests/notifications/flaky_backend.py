"""An email backend that fails while `FAILING` is set: an ESP outage, for the sweep tests."""

from __future__ import annotations

from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend

FAILING = {"on": False}


class FlakyBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        if FAILING["on"]:
            raise ConnectionError("ESP unreachable")
        mail.outbox.extend(email_messages)
        return len(email_messages)

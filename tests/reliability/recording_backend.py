"""An email backend for worker processes in fault tests: appends one line per message (its
X-Aegea-Notification key) to the file named by AEGEA_MAIL_RECORD, after AEGEA_MAIL_DELAY seconds
(a slow ESP, so a test can kill the worker in the middle of delivering). When a send begins it
first appends the key to AEGEA_MAIL_RECORD + ".started", so the test can tell that a send is
under way and kill the worker inside it, not at a moment that depends on its own polling."""

from __future__ import annotations

import os
import time

from django.core.mail.backends.base import BaseEmailBackend


class RecordingBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        for message in email_messages:
            key = message.extra_headers["X-Aegea-Notification"]
            with open(os.environ["AEGEA_MAIL_RECORD"] + ".started", "a") as started:
                started.write(key + "\n")
            time.sleep(float(os.environ.get("AEGEA_MAIL_DELAY", "0")))
            with open(os.environ["AEGEA_MAIL_RECORD"], "a") as record:
                record.write(key + "\n")
        return len(email_messages)

"""The email backend of the order-to-inbox bench (bench/inbox_latency.py): each message serialised
as a real backend would, then dropped (nothing leaves the machine, nothing piles up in memory),
and the time it was handed over noted in Redis.

Each note is "<game> <seq> <kind> <unix time>" on the list INBOX_KEY, from the metadata every
outbox message carries (notifications/services.py); the bench reads them after the run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import redis
from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend

INBOX_KEY = "bench:inbox"


class TimedBackend(BaseEmailBackend):
    """A timestamped note per message on the Redis list INBOX_KEY; the messages are dropped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.redis = redis.Redis.from_url(settings.REDIS_URL)

    def send_messages(self, messages: Sequence[Any]) -> int:
        handed = time.time()
        for message in messages:
            message.message()  # the MIME text, as locmem and the SMTP backend build it
        notes = [
            f"{m.metadata['game']} {m.metadata['seq']} {m.tags[0]} {handed:.6f}"
            for m in messages
            if getattr(m, "metadata", None)
        ]
        if notes:
            self.redis.rpush(INBOX_KEY, *notes)
        return len(messages)

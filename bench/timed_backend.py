"""The email backend of the order-to-inbox bench (bench/inbox_latency.py): each message serialised
as a real backend would, then dropped (nothing leaves the machine, nothing piles up in memory),
and the time it was handed over noted in Redis.

Each note is "<game> <seq> <kind> <unix time>" on the list INBOX_KEY, from the metadata every
outbox message carries (notifications/services.py); the bench reads them after the run.

Django builds a backend per message (notifications/services.py sends each row on a connection of
its own), so the Redis client is the process's, not the backend's: one per backend connected to
Redis for every email (a new pool, a connect, a HELLO and the client's version looked up in the
installed packages' metadata), ~20% of a worker's time per email in a profile of the inbox bench,
a cost of the bench's note-taking, not of the product's delivery. A warm email's CPU in one
process went from 18.3/20.8/16.3 to 14.5/12.6/12.4 ms (3 alternating pairs, docs/operations.md).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

import redis
from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend

INBOX_KEY = "bench:inbox"
_clients: dict[int, redis.Redis] = {}  # by process id: a forked child connects on its own


def _client() -> redis.Redis:
    pid = os.getpid()
    if pid not in _clients:
        _clients[pid] = redis.Redis.from_url(settings.REDIS_URL)
    return _clients[pid]


class TimedBackend(BaseEmailBackend):
    """A timestamped note per message on the Redis list INBOX_KEY; the messages are dropped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.redis = _client()

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

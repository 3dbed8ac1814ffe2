"""The order-to-inbox bench (bench/inbox_latency.py): each turn email's hand-over, noted by the bench's
email backend (bench/timed_backend.py), is matched to the commit of the order that wrote it."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings
from django.core.mail import EmailMessage, get_connection

from bench.inbox_latency import turn_latencies
from bench.timed_backend import INBOX_KEY


def test_each_turn_email_counts_from_the_commit_of_the_order_with_its_seq() -> None:
    commits = [(7, 12, 100.0), (7, 15, 101.0), (8, 12, 100.5)]
    notes = [
        "7 12 turn 100.25",
        "8 12 turn 100.75",
        "7 15 turn 102.5",
        "7 15 offer 101.1",  # not the next player's turn email
        "9 3 turn 99.0",  # an email of no timed order (a game set up before the load)
    ]
    assert turn_latencies(commits, notes) == pytest.approx([0.25, 0.25, 1.5])


def test_the_bench_backend_notes_game_seq_kind_and_time_of_each_message_handed_to_it() -> None:
    inbox = redis.Redis.from_url(settings.REDIS_URL)
    inbox.delete(INBOX_KEY)
    message = EmailMessage("Your turn", "text", "game@example.org", ["ana@example.com"])
    message.tags = ["turn"]
    message.metadata = {"game": "7", "seq": "12", "seat": "3"}
    backend = get_connection("bench.timed_backend.TimedBackend")
    try:
        assert backend.send_messages([message]) == 1
        (note,) = inbox.lrange(INBOX_KEY, 0, -1)
    finally:
        inbox.delete(INBOX_KEY)
    game, seq, kind, at = note.decode().split()
    assert (game, seq, kind) == ("7", "12", "turn") and float(at) > 0

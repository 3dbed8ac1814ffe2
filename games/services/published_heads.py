"""Published heads (docs/operations.md "Published heads", docs/fairness.md "Witnessed heads"): once a
day the beat appends the head of every game whose log moved since its last published head to the
public list /log-heads/, and hands the day's lines to the operator's webhook or email address, so
that a third party keeps copies no operator can rewrite later.

A head is the pin of the log's last event (games/reading/log_head.py), never its hash: the list is
public, and a hash before the end would let anyone try candidates for the secrets it covers.
"""

from __future__ import annotations

import json
import logging
import urllib.request
from datetime import date

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.models import Event, PublishedHead
from games.reading.export import chain_pin

log = logging.getLogger(__name__)
WEBHOOK_TIMEOUT_SECONDS = 10


def publish_heads(day: date | None = None) -> list[PublishedHead]:
    """Append today's heads (once per game and day: a second run adds nothing) and send them on."""
    day = day or timezone.localdate()
    with transaction.atomic():
        rows = _new_heads(day)
        PublishedHead.objects.bulk_create(rows, ignore_conflicts=True)
    written = list(PublishedHead.objects.filter(day=day).order_by("game_id"))
    if written and rows:
        _send_on(day, written)
    return written


def _new_heads(day: date) -> list[PublishedHead]:
    """The head of every game whose log moved since its last published head (an unchanged head adds
    nothing a copy does not hold already)."""
    published = {
        row["game_id"]: row["seq"]
        for row in PublishedHead.objects.values("game_id").annotate(seq=Max("seq")).values("game_id", "seq")
    }
    done_today = set(PublishedHead.objects.filter(day=day).values_list("game_id", flat=True))
    heads = Event.objects.values("game_id").annotate(seq=Max("seq")).order_by("game_id")
    rows = []
    for head in heads:
        game_id, seq = head["game_id"], head["seq"]
        if game_id in done_today or published.get(game_id) == seq:
            continue
        digest, seed = Event.objects.filter(game_id=game_id, seq=seq).values_list("hash", "game__seed").get()
        rows.append(PublishedHead(day=day, game_id=game_id, seq=seq, pin=chain_pin(seed, digest)))
    return rows


def _send_on(day: date, rows: list[PublishedHead]) -> None:
    """To LOG_HEADS_WEBHOOK_URL (a JSON POST) and LOG_HEADS_EMAIL (a plain email), each if set. A
    failure is logged and left: the list itself holds the heads, and tomorrow's run sends its own."""
    lines = [row.line() for row in rows]
    url = getattr(settings, "LOG_HEADS_WEBHOOK_URL", "")
    if url:
        body = json.dumps({"day": day.isoformat(), "heads": lines}).encode()
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT_SECONDS):  # noqa: S310 (the operator's URL)
                pass
        except OSError as error:
            log.warning("published heads of %s: the webhook failed: %s", day, error)
    address = getattr(settings, "LOG_HEADS_EMAIL", "")
    if address:
        try:
            send_mail(f"AEGEAPOLIS log heads {day.isoformat()}", "\n".join(lines) + "\n", None, [address])
        except OSError as error:
            log.warning("published heads of %s: the email failed: %s", day, error)

"""Pruning the outbox: the bodies of emails delivered long ago are blanked; the rows stay.

A row's body is its rendered text and HTML (rows written before emails were rendered at delivery)
or the frozen context its template renders (rows written since): a sent row keeps its context so
that an operator can render again what a player was sent, until this prunes it.

A sent row is delivery state, not the game's record: the event log is, and what an email told a
player (the turn, the happenings, the link) follows from it. What an operator auditing a game
still wants from the outbox is who was sent which email and when, and the ESP's message id to match
its logs: the row's key, address, subject, status, sent_at and message_id. The text and HTML bodies
are ~2.2 KB of the ~2.7 KB a row takes on disk (docs/operations.md), so blanking them frees most of
it. The row itself must stay anyway: its unique key (game, seq, seat, kind) is what makes `enqueue`
idempotent, and a deleted key could be written, and mailed, again.

Only rows that are SENT are touched: a pending or failed row still owes an email.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Case, Q, QuerySet, TextField, Value, When
from django.db.models.functions import Cast, Length

from .models import Outbox

DEFAULT_BATCH = 1000
# The characters a frozen context takes as JSON text; an empty one frees nothing.
_context_size = Case(When(context={}, then=Value(0)), default=Length(Cast("context", TextField())))


@dataclass
class PruneReport:
    rows: int = 0  # rows whose bodies were blanked (with dry_run: would be)
    characters: int = 0  # characters of body text, HTML and context freed
    batches: int = 0
    games: set[int] = field(default_factory=set)
    dry_run: bool = False


def blank_sent_bodies(
    game_ids: QuerySet | Iterable[int],
    *,
    sent_before: datetime,
    batch_size: int = DEFAULT_BATCH,
    dry_run: bool = False,
) -> PruneReport:
    """Blank body_text, body_html and the frozen context of the games' SENT rows sent before `sent_before`.

    Works in batches of `batch_size` rows (one short transaction each, so delivery workers and
    orders never wait long on a lock), walking the ids upwards; rows already blanked are skipped,
    so running it again, or after an interruption, does only what is left. With `dry_run` the same
    batches are counted and nothing is written.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    candidates = Outbox.objects.filter(
        Q(body_text__gt="") | Q(body_html__gt="") | ~Q(context={}),
        game_id__in=game_ids,
        status=Outbox.Status.SENT,
        sent_at__lt=sent_before,
    )
    report = PruneReport(dry_run=dry_run)
    after_id = 0
    while True:
        with transaction.atomic():
            batch = list(
                candidates.filter(id__gt=after_id)
                .order_by("id")
                .annotate(size=Length("body_text") + Length("body_html") + _context_size)
                .values_list("id", "game_id", "size")[:batch_size]
            )
            if not batch:
                return report
            ids = [row_id for row_id, _, _ in batch]
            if not dry_run:
                # The status again: a row is never blanked unless it is sent in this very statement.
                sent = Outbox.objects.filter(id__in=ids, status=Outbox.Status.SENT)
                sent.update(body_text="", body_html="", context={})
        after_id = ids[-1]
        report.rows += len(batch)
        report.characters += sum(size for _, _, size in batch)
        report.games.update(game_id for _, game_id, _ in batch)
        report.batches += 1

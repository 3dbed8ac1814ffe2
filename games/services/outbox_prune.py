"""Pruning the outbox of ended games (docs/operations.md, "Disk"): the use case behind
`manage.py pruneoutbox` and the daily beat task `games.prune_outbox`.

The outbox is a generic mail queue that knows no game states, so which games are over is decided
here; what pruning does to a row (its bodies blanked, the row kept) is notifications/prune.py's.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Game
from notifications.prune import DEFAULT_BATCH, PruneReport, blank_sent_bodies


def prune_ended_games_outbox(
    keep_days: int, *, batch_size: int = DEFAULT_BATCH, dry_run: bool = False, now: datetime | None = None
) -> PruneReport:
    """Blank the bodies of ended games' emails sent more than `keep_days` days ago (H-END: an ended
    game takes no more orders, so nothing of it is mailed again). Pending and failed rows, and
    every row of a game still new or active, are left as they are."""
    if keep_days < 0:
        raise ValueError("keep_days cannot be negative")
    sent_before = (now or timezone.now()) - timedelta(days=keep_days)
    ended = Game.objects.filter(status=Game.Status.ENDED).values("pk")
    return blank_sent_bodies(ended, sent_before=sent_before, batch_size=batch_size, dry_run=dry_run)

"""Celery beat tasks: long games (docs/long-games.md "The beat task") and the outbox's pruning.
They poll the database; nothing waits in Redis."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="games.tick_deadlines", ignore_result=True)
def tick_deadlines() -> int:
    """Reminders and default orders now due (games/deadline_tick.py); returns how many defaults."""
    from .deadline_tick import tick

    return len(tick().defaults)


@shared_task(name="games.send_digests", ignore_result=True)
def send_digests() -> int:
    """The daily digests whose hour has come (games/digests.py)."""
    from .digests import send_digests as send

    return send()


@shared_task(name="games.prune_outbox", ignore_result=True)
def prune_outbox() -> int:
    """Daily: blank the bodies of ended games' emails older than OUTBOX_KEEP_DAYS (games/outbox_prune.py)."""
    from django.conf import settings

    from .outbox_prune import prune_ended_games_outbox

    if settings.OUTBOX_KEEP_DAYS is None:
        return 0
    return prune_ended_games_outbox(settings.OUTBOX_KEEP_DAYS).rows


@shared_task(name="games.send_new_links", ignore_result=True)
def send_new_links(email: str) -> int:
    """The new links asked for on /links/new/ (games/fresh_links.py), mailed by a worker: done in
    the request, the time a known address took (its seats' states loaded, their emails queued)
    told the asker that it plays, which the page's words are careful not to."""
    from .fresh_links import request_new_links

    return request_new_links(email)

"""Celery beat tasks of long games (issue 6). They poll the database; nothing waits in Redis."""

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

"""Celery beat without a broker: `make run` with no Redis runs the periodic tasks in a process of its own.

With REDIS_URL unset, CELERY_TASK_ALWAYS_EAGER runs every nudge inside its caller: an inbound
mail is handled in the webhook's request, right after its commit (notifications/inbound.py), and
its answer is sent there too. But no beat runs CELERY_BEAT_SCHEDULE, so whatever the nudge did
not finish would wait for ever: an inbound mail whose handling failed (SQLite busy, a crash),
a row stored by a process killed before its nudge, an outbox row whose send failed, and every
deadline, reminder and digest (docs/long-games.md). `manage.py eagerbeat` runs that same schedule in a
process of its own, each task inside it (Task.apply), so each is retried as with a real beat.
The tasks are idempotent (they read what to do from the database): a round run twice changes
nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)


def interval(entry: dict[str, Any]) -> float:
    """Seconds between two runs of a CELERY_BEAT_SCHEDULE entry (a number, a timedelta or a
    celery `schedule`); a crontab has none and is refused, as this loop cannot keep it."""
    every = entry["schedule"]
    every = getattr(every, "run_every", every)
    if isinstance(every, timedelta):
        return every.total_seconds()
    if isinstance(every, (int, float)):
        return float(every)
    raise ValueError(f"eagerbeat runs interval schedules only, not {every!r}")


def due(last_run: dict[str, float], now: float) -> list[str]:
    """The schedule's entries due at `now` (seconds on any steady clock): never run, or run an
    interval ago."""
    schedule = settings.CELERY_BEAT_SCHEDULE
    return [name for name, entry in schedule.items() if now - last_run.get(name, -1e18) >= interval(entry)]


def run_due(last_run: dict[str, float], now: float) -> list[str]:
    """Run every entry due at `now` in this process; a failing task is logged and tried again at
    its next interval, like a beat's. Returns the names run."""
    from aegea_pbem.celery import app

    names = due(last_run, now)
    for name in names:
        entry = settings.CELERY_BEAT_SCHEDULE[name]
        try:
            app.tasks[entry["task"]].apply(args=entry.get("args", ()), kwargs=entry.get("kwargs", {}))
        except Exception:
            log.exception("eagerbeat: %s failed; it runs again in %s s", name, interval(entry))
        last_run[name] = now
    return names


def run_forever(
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], Any] = time.sleep,
    tick: float = 1.0,
) -> None:
    """Run the schedule until the process is stopped (`make run` stops it with the web server)."""
    last_run: dict[str, float] = {}
    while True:
        run_due(last_run, clock())
        sleep(tick)

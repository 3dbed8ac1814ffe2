"""Celery tasks: the beat's polls of long games (deadlines, digests), the pruning of the outbox, the
sign-in requests and the seat grants, and the new links asked for on /links/new/, with how the web
hands that ask over (ask_for_new_links). They poll the database; nothing waits in Redis. The
registered names (games.*) stay as they are, so queued and scheduled tasks keep running. Each task
calls its service through the service's module, so that a test's patch of the service is the one a
task runs.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading

from celery import shared_task
from django.conf import settings
from django.db import connections
from kombu.exceptions import OperationalError

from games.services import (
    deadline_tick,
    digests,
    fresh_links,
    invitations,
    outbox_prune,
    published_heads,
    seat_grants,
    sign_in,
)

log = logging.getLogger(__name__)


@shared_task(name="games.tick_deadlines", ignore_result=True)
def tick_deadlines() -> int:
    """Reminders and default orders now due (games/services/deadline_tick.py); returns how many defaults."""
    return len(deadline_tick.tick().defaults)


@shared_task(name="games.send_digests", ignore_result=True)
def send_digests() -> int:
    """The daily digests whose hour has come (games/services/digests.py)."""
    return digests.send_digests()


@shared_task(name="games.remind_invitations", ignore_result=True)
def remind_invitations() -> int:
    """Reminders of unanswered invitations, and the lapse of old ones (games/services/invitations.py)."""
    return invitations.remind_and_lapse()


@shared_task(name="games.prune_outbox", ignore_result=True)
def prune_outbox() -> int:
    """Daily: blank the bodies of ended games' emails older than OUTBOX_KEEP_DAYS
    (games/services/outbox_prune.py)."""
    if settings.OUTBOX_KEEP_DAYS is None:
        return 0
    return outbox_prune.prune_ended_games_outbox(settings.OUTBOX_KEEP_DAYS).rows


@shared_task(name="games.prune_sign_ins", ignore_result=True)
def prune_sign_ins() -> int:
    """Daily: delete the sign-in requests expired or spent a day ago (games/services/sign_in.py)."""
    return sign_in.prune_sign_in_requests()


@shared_task(name="games.prune_seat_grants", ignore_result=True)
def prune_seat_grants() -> int:
    """Daily: delete the seat grants revoked or expired a day ago (games/services/seat_grants.py)."""
    return seat_grants.prune_seat_grants()


@shared_task(name="games.send_new_links", ignore_result=True)
def send_new_links(email: str) -> int:
    """The new links asked for on /links/new/ (games/services/fresh_links.py), mailed by a worker: done in
    the request, the time a known address took (its seats' states loaded, their emails queued)
    told the asker that it plays, which the page's words are careful not to."""
    return fresh_links.request_new_links(email)


def ask_for_new_links(email: str) -> None:
    """/links/new/'s ask: fresh_links.request_new_links by a worker (games.send_new_links), so that the answer
    takes as long for an address that plays as for one that does not. With Redis down, by a thread
    of this process that the answer does not wait for (_background), for the same reason; with
    eager tasks (the embedded default, no broker configured) here, as every task runs then."""
    try:
        # The address is a player's: Celery's lines of the task (received, succeeded, failed; their
        # records' args and data) show argsrepr instead of the arguments, so it stays out of the logs.
        send_new_links.apply_async((email,), argsrepr="('[hidden]',)", kwargsrepr="{}")
    except (OperationalError, OSError):  # the broker is down: no worker will, and the ask must not be lost
        log.warning("new links: no broker, asked of a thread of this process")
        _background.ask(email)


def wait_for_background_asks(timeout: float) -> bool:
    """Wait until this process's thread has carried out every ask handed to it; whether it has."""
    return _background.wait(timeout)


class _Background:
    """One daemon thread per process that carries out the asks the broker could not take, one
    after another, while the page answers at once. One thread, not one per ask: with Redis down
    the rate limits are off too (aegea_pbem/security.py), and a flood of asks must not become a
    flood of threads and database connections. The thread closes its connection after each ask
    (no request's end closes it for it). At exit the asks not yet done are waited for (EXIT_WAIT):
    a daemon thread is stopped wherever it is, and the asker was told an email is on its way."""

    EXIT_WAIT = 10.0  # seconds

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._asks: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._pending = 0
        self._pid = 0

    def ask(self, email: str) -> None:
        with self._lock:
            if self._pid != os.getpid():  # first ask, or a forked child (gunicorn) without the thread
                self._pid, self._asks, self._pending = os.getpid(), queue.SimpleQueue(), 0
                threading.Thread(target=self._run, args=(self._asks,), name="new-links", daemon=True).start()
            self._pending += 1
        self._asks.put(email)

    def _run(self, asks: queue.SimpleQueue[str]) -> None:
        while True:
            email = asks.get()
            try:
                fresh_links.request_new_links(email)
            except Exception:  # the thread must outlive one failed ask (the address stays out of the log)
                log.exception("new links: an ask failed in the background")
            finally:
                connections.close_all()  # this thread's own connections only
                with self._lock:
                    self._pending -= 1
                    self._lock.notify_all()

    def wait(self, timeout: float) -> bool:
        with self._lock:
            return self._pid != os.getpid() or self._lock.wait_for(lambda: self._pending == 0, timeout)

    def flush(self) -> None:
        if not self.wait(self.EXIT_WAIT):
            log.warning("new links: %d ask(s) not carried out at exit", self._pending)


_background = _Background()


atexit.register(_background.flush)


@shared_task(name="games.publish_heads", ignore_result=True)
def publish_heads() -> int:
    """Daily: the heads of the games whose logs moved, appended to /log-heads/ and sent to the
    operator's webhook or address (games/services/published_heads.py); returns how many today."""
    return len(published_heads.publish_heads())

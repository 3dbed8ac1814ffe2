"""Waking a Celery worker after an outbox row is committed: a hint, never a condition.

The outbox row is the promise; the nudge only makes delivery prompt, and beat's sweep delivers
whatever a lost nudge left pending. Sending one is a round trip to the broker (Celery builds and
publishes a message: about a millisecond of client time), so an order does not send it itself:
it rings this process's doorbell, and a background thread sends one nudge for however many
rings came in meanwhile (the woken worker delivers every pending row, not just one order's).
No ring is lost: the thread clears the bell before it sends, so a ring during a send is
answered by another. After a nudge the thread rests NUDGE_INTERVAL before it answers again: one
woken worker delivers every row committed before it looks, so under load a nudge per burst of
orders is as good as one per order, and each costs about a millisecond of the process's CPU that
its orders then lack (under the HTTP bench's steady orders, a rest of 50 ms still left the nudges
3.9% of a web process's Python time, 250 ms 1.0%); an email goes out at most that much later.
When Celery runs tasks eagerly (tests, the embedded default without Redis) the nudge is sent at
once, in the caller's thread, as the delivery then is.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time

from celery import Task
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

BROKER_PAUSE = 30.0  # seconds without nudges after the broker failed to take one
NUDGE_INTERVAL = 0.25  # seconds the bell's thread rests after each nudge
EXIT_WAIT = 5.0  # seconds the process waits at exit for a nudge its bell's thread is sending
_broker_down_until = [0.0]


def wake_a_worker() -> None:
    """Nudge delivery (call it after commit): at once when tasks run eagerly, else by the doorbell."""
    from .tasks import deliver_pending  # the task module imports the services, which import us

    if deliver_pending.app.conf.task_always_eager:
        send_nudge(deliver_pending)
    else:
        _doorbell.ring()


def send_nudge(task: Task | None = None) -> None:
    """Publish one deliver_pending. With the broker down (Redis stopped) nothing fails: rows wait,
    pending, for the sweep. Finding the broker down takes Celery seconds, so after a failure this
    process skips nudges for BROKER_PAUSE seconds."""
    if task is None:
        from .tasks import deliver_pending as task
    if time.monotonic() < _broker_down_until[0]:
        return
    try:
        task.apply_async(retry=False)
    except (OperationalError, OSError) as exc:
        _broker_down_until[0] = time.monotonic() + BROKER_PAUSE
        log.warning("outbox: no broker to wake a worker (%s); the sweep will deliver", type(exc).__name__)


def warm_up() -> None:
    """Import the broker's transport (kombu's and redis's modules, ~50 ms) while a web process
    starts, not inside the first order's nudge. Opens no connection: a broker that is down at
    start changes nothing."""
    from .tasks import deliver_pending

    if not deliver_pending.app.conf.task_always_eager:
        deliver_pending.app.connection_for_write().release()


class Doorbell:
    """One background thread per process that turns many rings into few nudges."""

    def __init__(self, interval: float = NUDGE_INTERVAL) -> None:
        self.interval = interval
        self._lock = threading.Lock()
        self._rung = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._idle = threading.Event()  # clear while the thread takes a ring and sends its nudge
        self._idle.set()

    def ring(self) -> None:
        with self._lock:
            # A forked child (gunicorn, multiprocessing) has the parent's bell but not its thread.
            if self._thread is None or self._pid != os.getpid() or not self._thread.is_alive():
                self._pid, self._rung, self._idle = os.getpid(), threading.Event(), threading.Event()
                self._idle.set()
                self._thread = threading.Thread(target=self._answer, name="outbox-nudge", daemon=True)
                self._thread.start()
            self._rung.set()

    def _answer(self) -> None:
        rung, idle = self._rung, self._idle
        while True:
            rung.wait()
            idle.clear()  # before the bell: at exit, flush sees the ring or the nudge on its way
            rung.clear()
            try:
                send_nudge()
            except Exception:  # the thread must outlive any one nudge; the sweep covers a lost one
                log.exception("outbox: the nudge failed; the sweep will deliver")
            finally:
                idle.set()
            time.sleep(self.interval)  # rings meanwhile wait for one nudge after it

    def flush(self, wait: float = EXIT_WAIT) -> None:
        """At exit: a nudge the thread is sending is waited for (up to `wait` seconds), and a ring
        not yet answered is answered now. The thread is a daemon, which exit stops wherever it is: a
        short-lived command's emails (`manage.py createdemo`'s welcomes) were left for beat's sweep,
        a minute later, when its first nudge (which connects to the broker) was still on its way at
        exit. A nudge still stuck after `wait` means a broker that hangs: no second one is tried
        (it would hang the exit too); the sweep delivers."""
        if self._pid != os.getpid():
            return
        if not self._idle.wait(timeout=wait):
            log.warning("outbox: a nudge was still on its way at exit; the sweep will deliver")
            return
        if self._rung.is_set():
            self._rung.clear()
            send_nudge()


_doorbell = Doorbell()
atexit.register(_doorbell.flush)

"""Faults: a Celery worker process SIGKILLed while it delivers (slow; .ci/run runs it).

The worker is a real `celery worker` process on the test Redis database and the test database,
sending through tests/reliability/recording_backend.py (a line per email in a file: nothing is sent).
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from aegea_pbem.celery import app as celery_app
from notifications.models import Outbox
from notifications.services import deliver_outbox
from notifications.tasks import deliver_pending
from tests.notifications.celery_fixtures import TEST_BROKER_URL, _forget_broker_connections, wait_until
from tests.reliability.support import celery_worker_process, recorded_keys

pytestmark = [pytest.mark.slow, pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

ROWS = 30
# Seconds per email for the worker that is killed: the kill comes as soon as the test sees a send
# begin, so it lands inside that send (after the previous row's commit, before this row's) even
# when a busy machine delays the test's polling by a second. The heir sends without delay.
DELAY = 2.0
KILL_IN_SEND = 3  # the doomed worker is killed during its third email


# A queue of this test run's own: another test run sharing the Redis database cannot take its tasks.
QUEUE = f"fault-test-{os.getpid()}"


def start_worker(record: Path, broker: str, name: str, delay: float = 0.0) -> subprocess.Popen:
    return celery_worker_process(record, broker, name, queue=QUEUE, delay=delay)


def pending(count: int) -> None:
    Outbox.objects.bulk_create(
        Outbox(
            game_id=7,
            seq=n,
            seat_id=1,
            kind="turn",
            to_email=f"p{n}@example.com",
            subject="s",
            body_text="t",
            body_html="<p>t</p>",
        )
        for n in range(1, count + 1)
    )


lines = recorded_keys


def sends_begun(record: Path) -> list[str]:
    return lines(record.with_name(record.name + ".started"))


@pytest.fixture
def broker():
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(broker_url=TEST_BROKER_URL, task_always_eager=False)
    _forget_broker_connections()
    celery_app.control.purge()
    yield TEST_BROKER_URL
    celery_app.control.purge()
    celery_app.conf.update(saved)
    _forget_broker_connections()


def test_worker_killed_while_delivering_every_due_email_is_sent_exactly_once(tmp_path, broker):
    record = tmp_path / "sent.txt"
    pending(ROWS)
    first = start_worker(record, broker, f"doomed-{os.getpid()}@%h", delay=DELAY)
    try:
        deliver_pending.apply_async(queue=QUEUE)
        wait_until(lambda: len(sends_begun(record)) >= KILL_IN_SEND, timeout=180, what="the first emails")
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
    # Killed in the middle of a send: the emails before it went out, that one did not.
    assert len(lines(record)) == KILL_IN_SEND - 1
    assert len(sends_begun(record)) == KILL_IN_SEND
    # acks_late: the killed worker's task was never acknowledged, so Redis hands it to the next
    # worker after its visibility timeout; the beat sweep does not wait that long. Both paths:
    second = start_worker(record, broker, f"heir-{os.getpid()}@%h")
    try:
        deliver_pending.apply_async(queue=QUEUE)  # the sweep's nudge (beat sends sweep_outbox every minute)
        wait_until(
            lambda: not Outbox.objects.filter(status=Outbox.Status.PENDING).exists(),
            timeout=120,
            what="every row delivered",
        )
    finally:
        second.terminate()
        second.wait(timeout=30)
    assert deliver_outbox() == 0  # nothing left for a sweep
    sent = Counter(lines(record))
    assert len(sent) == ROWS
    assert set(sent.values()) == {1}, [key for key, n in sent.items() if n > 1]
    assert Outbox.objects.filter(status=Outbox.Status.SENT).count() == ROWS

"""A real Celery worker on Redis for tests, and a way to wait for the emails it sends.

Import the fixtures into a test module: `from tests.notifications.celery_fixtures import
celery_worker, anymail_outbox  # noqa: F401`. Tests using them need
`django_db(transaction=True)`, because the worker thread has its own database connection
and only sees committed rows.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core import mail

from aegea_pbem.celery import app as celery_app

# A dedicated Redis database for test runs (the Makefile passes one as REDIS_URL), so a
# developer's running worker never sees test tasks.
TEST_BROKER_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/13"


@pytest.fixture
def anymail_outbox(settings) -> list:
    """Send through anymail's test backend; the messages land in `django.core.mail.outbox`."""
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    mail.outbox = []
    return mail.outbox


@pytest.fixture
def celery_worker(anymail_outbox) -> Iterator[object]:
    """A Celery worker thread consuming from Redis; tasks are no longer run eagerly."""
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(broker_url=TEST_BROKER_URL, task_always_eager=False)
    _forget_broker_connections()
    celery_app.control.purge()  # tasks left queued by an interrupted run
    try:
        with start_worker(celery_app, perform_ping_check=False, shutdown_timeout=20) as worker:
            yield worker
    finally:
        celery_app.conf.update(saved)
        _forget_broker_connections()


def _forget_broker_connections() -> None:
    """Drop pools bound to the previous broker (eager runs create them for memory://)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def wait_until(condition: Callable[[], bool], timeout: float = 20.0, what: str = "condition") -> None:
    """Poll `condition` until it holds: the worker runs in another thread, on its own schedule."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        pause.wait(0.05)


def wait_for_mail(count: int, timeout: float = 20.0) -> list:
    """Wait until at least `count` messages were sent; returns the outbox."""
    wait_until(lambda: len(mail.outbox) >= count, timeout, f"{count} email(s), have {len(mail.outbox)}")
    return mail.outbox

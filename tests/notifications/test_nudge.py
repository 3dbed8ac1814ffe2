"""The doorbell that wakes a Celery worker after an order commits (notifications/nudge.py)."""

from __future__ import annotations

import threading
import time

import pytest

from notifications import nudge
from notifications.tasks import deliver_pending


def wait_for(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def sent(monkeypatch) -> list[float]:
    """The nudges the bell's thread sends, each a time; the first one takes 0.3 s (a slow broker)."""
    times: list[float] = []

    def slow_first() -> None:
        if not times:
            time.sleep(0.3)
        times.append(time.monotonic())

    monkeypatch.setattr(nudge, "send_nudge", slow_first)
    return times


def test_a_ring_is_answered_by_a_nudge_from_the_bells_thread_not_the_caller(sent):
    bell = nudge.Doorbell()
    before = time.monotonic()
    bell.ring()
    assert time.monotonic() - before < 0.1  # the caller (an order) does not wait for the broker
    assert wait_for(lambda: len(sent) == 1)


def test_rings_during_a_nudge_are_answered_by_one_more_and_none_is_lost(sent):
    bell = nudge.Doorbell()
    bell.ring()
    time.sleep(0.1)  # the thread is inside the first (slow) nudge
    last_ring = 0.0
    for _ in range(20):
        bell.ring()
        last_ring = time.monotonic()
    assert wait_for(lambda: len(sent) == 2)
    time.sleep(0.2)
    assert len(sent) == 2  # twenty rings, one nudge: the woken worker delivers every pending row
    assert sent[-1] >= last_ring  # ... and it was sent after the last ring


def test_after_a_nudge_the_bell_rests_so_steady_rings_send_few_nudges_and_the_last_is_answered(
    monkeypatch,
):
    sent: list[float] = []
    monkeypatch.setattr(nudge, "send_nudge", lambda: sent.append(time.monotonic()))
    bell = nudge.Doorbell(interval=0.1)
    started = time.monotonic()
    while time.monotonic() - started < 0.5:  # an order every 5 ms, as a busy web process takes them
        bell.ring()
        last_ring = time.monotonic()
        time.sleep(0.005)
    assert wait_for(lambda: sent and sent[-1] >= last_ring)  # the last order's email is not forgotten
    assert 2 <= len(sent) <= 8  # about one per interval, not one for each of ~100 rings
    assert all(b - a >= 0.1 for a, b in zip(sent, sent[1:], strict=False))


def test_rings_from_many_threads_are_answered(sent):
    bell = nudge.Doorbell()
    threads = [threading.Thread(target=bell.ring) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wait_for(lambda: len(sent) >= 1)
    assert len(sent) <= 2


def test_an_unanswered_ring_is_answered_at_exit(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr(nudge, "send_nudge", lambda: sent.append(1))
    bell = nudge.Doorbell()
    bell._pid = nudge.os.getpid()  # as if this process had rung, before its thread answered
    bell._rung.set()
    bell.flush()
    assert sent == [1]
    bell.flush()
    assert sent == [1]  # nothing rang since


def test_a_nudge_still_on_its_way_at_exit_is_waited_for_and_not_sent_twice(sent):
    bell = nudge.Doorbell()
    bell.ring()
    time.sleep(0.1)  # the thread is inside the first (slow) nudge, as a command's only one may be
    bell.flush()  # at exit: the thread, a daemon, would be stopped wherever it is
    assert len(sent) == 1


def test_a_nudge_stuck_at_exit_is_left_to_the_sweep_and_holds_the_exit_up_only_so_long(monkeypatch):
    senders: list[str] = []
    release = threading.Event()

    def stuck() -> None:  # a broker that hangs: a second nudge would hang as well
        senders.append(threading.current_thread().name)
        release.wait(5)

    monkeypatch.setattr(nudge, "send_nudge", stuck)
    warnings: list[str] = []
    monkeypatch.setattr(nudge.log, "warning", lambda message, *args: warnings.append(message % args))
    bell = nudge.Doorbell()
    bell.ring()
    assert wait_for(lambda: senders)
    bell.ring()  # another order meanwhile
    started = time.monotonic()
    bell.flush(wait=0.2)
    assert time.monotonic() - started < 1
    assert senders == ["outbox-nudge"]  # the exiting thread tried no second one
    release.set()
    assert warnings == ["outbox: a nudge was still on its way at exit; the sweep will deliver"]


def test_with_eager_tasks_the_nudge_is_sent_at_once_in_the_callers_thread(monkeypatch):
    sent: list[str] = []
    here = threading.current_thread().name
    monkeypatch.setitem(deliver_pending.app.conf, "task_always_eager", True)
    monkeypatch.setattr(
        deliver_pending, "apply_async", lambda **kw: sent.append(threading.current_thread().name)
    )
    nudge.wake_a_worker()
    assert sent == [here]


def test_a_broker_that_refuses_pauses_nudges_instead_of_failing_the_order(monkeypatch):
    from kombu.exceptions import OperationalError

    def refuse(**kwargs) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(deliver_pending, "apply_async", refuse)
    monkeypatch.setattr(nudge, "_broker_down_until", [0.0])
    warnings: list[str] = []
    monkeypatch.setattr(nudge.log, "warning", lambda message, *args: warnings.append(message % args))
    nudge.send_nudge(deliver_pending)  # no exception
    assert nudge._broker_down_until[0] > time.monotonic() + nudge.BROKER_PAUSE - 5
    assert warnings == ["outbox: no broker to wake a worker (OperationalError); the sweep will deliver"]
    nudge.send_nudge(deliver_pending)  # paused: not even tried
    assert len(warnings) == 1

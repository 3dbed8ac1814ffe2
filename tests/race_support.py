"""Two real connections racing for row locks, without sleeping: the first holds its locks until the
second has come to wait for one of them (PostgreSQL's pg_stat_activity says so), then lets go."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from django.db import connection, connections


def wait_until_a_backend_waits_on_a_lock(
    timeout: float = 20.0, unless: Callable[[], bool] = lambda: False
) -> None:
    """Return once another connection of this database waits for a row lock, or `unless()` is
    true (no sleeping: polls)."""
    with connections["default"].cursor() as cursor:
        give_up = time.monotonic() + timeout
        while time.monotonic() < give_up:
            if unless():
                return
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0]:
                return
    raise AssertionError("no connection came to wait for a lock")


def captured(outcomes: dict[str, object], key: str, work: Callable[[], Any]) -> Callable[[], None]:
    """A thread's target: `work()`'s result, or the error it raised, in outcomes[key]; the thread's
    own connection closed after it."""

    def run() -> None:
        try:
            outcomes[key] = work()
        except Exception as error:  # noqa: BLE001 - the test reports it
            outcomes[key] = error
        finally:
            connection.close()

    return run


def paused_in_load_game(
    monkeypatch: pytest.MonkeyPatch, module: ModuleType
) -> tuple[threading.Event, threading.Event]:
    """`module.load_game` sets `held` (its caller has taken its locks by then) and waits for `release`."""
    held, release = threading.Event(), threading.Event()
    real = module.load_game

    def pausing(*args: Any, **kwargs: Any) -> Any:
        held.set()
        assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "load_game", pausing)
    return held, release


def race(
    first: Callable[[], None],
    second: Callable[[], None],
    held: threading.Event,
    release: threading.Event,
    *,
    second_may_finish: bool = False,
) -> None:
    """Start `first`; once it holds its locks (`held`) start `second` and wait until it waits for one
    of them (or, with `second_may_finish`, until it has finished without waiting); then `release`
    the first and join both."""
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    threads[0].start()
    assert held.wait(30)
    threads[1].start()
    wait_until_a_backend_waits_on_a_lock(
        unless=(lambda: not threads[1].is_alive()) if second_may_finish else (lambda: False)
    )
    release.set()
    for thread in threads:
        thread.join(60)

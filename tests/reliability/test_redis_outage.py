"""Fault: Redis stopped for 60 s and started again while orders come in (slow; .ci/run runs it).

A private redis-server on a free port, not the Redis the test run itself uses: stopping that one
would break every other test. A real `celery worker` process stays up through the outage, sending
through tests/reliability/recording_backend.py (one line per email in a file, counted at the end).
While Redis is down, orders keep being accepted (their emails wait in the outbox, in PostgreSQL);
once it is back, the worker reconnects and the beat's sweep (sent here as beat would) delivers
every waiting email, each exactly once.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections import Counter

import pytest
import redis

from aegea_pbem.celery import app as celery_app
from games.engine import Pass
from games.models import Event
from games.reading.situation import load_game
from games.services.orders import submit_order
from notifications import nudge
from notifications.models import Outbox
from notifications.tasks import sweep_outbox
from tests.notifications.celery_fixtures import _forget_broker_connections, wait_until
from tests.order_loop_support import seats_to_act, two_player_game
from tests.reliability.support import celery_worker_process, recorded_keys

pytestmark = [pytest.mark.slow, pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

OUTAGE = 60.0  # seconds Redis stays down (docs/operations.md)
ORDERS_DURING = 4  # spread over the outage: before, inside and after the 30 s pause in nudging
DELIVERY_TIMEOUT = 240.0  # a busy 2-core machine: the worker's reconnect backoff plus the sends


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    def __init__(self, directory) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = directory
        self.server: subprocess.Popen | None = None

    def start(self) -> None:
        self.server = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self.answers, timeout=30, what="the private redis-server")

    def stop(self) -> None:
        if self.server is not None and self.server.poll() is None:
            self.server.terminate()
            self.server.wait(timeout=20)

    def answers(self) -> bool:
        try:
            return redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping()
        except redis.RedisError:
            return False


@pytest.fixture
def private_redis(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()
    saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(broker_url=server.url, task_always_eager=False)
    _forget_broker_connections()
    yield server
    server.stop()
    celery_app.conf.update(saved)
    _forget_broker_connections()
    nudge._broker_down_until[0] = 0.0  # this process's pause after the outage: later tests nudge again


def pass_for_whoever_must_act(game) -> int:
    seat = seats_to_act(game)[0]
    return submit_order(game, seat, Pass(seat.faction), load_game(game).seq).seq


def test_redis_down_60_s_orders_are_accepted_and_every_email_is_sent_once_when_it_is_back(
    tmp_path, private_redis
):
    record = tmp_path / "sent.txt"
    worker = celery_worker_process(record, private_redis.url, f"outage-{os.getpid()}@%h")
    try:
        # Before the outage: the game's welcomes and one order's emails go out through the worker.
        game = two_player_game()
        accepted = [pass_for_whoever_must_act(game)]
        wait_until(
            lambda: not Outbox.objects.filter(game_id=game.pk, status=Outbox.Status.PENDING).exists(),
            timeout=DELIVERY_TIMEOUT,
            what="the emails before the outage",
        )
        before_outage = Outbox.objects.filter(game_id=game.pk).count()
        assert len(recorded_keys(record)) == before_outage

        private_redis.stop()
        down_since = time.monotonic()
        for n in range(ORDERS_DURING):
            time.sleep(max(0.0, down_since + n * OUTAGE / ORDERS_DURING - time.monotonic()))
            accepted.append(pass_for_whoever_must_act(game))  # accepted: nothing raised
        time.sleep(max(0.0, down_since + OUTAGE - time.monotonic()))
        assert not private_redis.answers()
        assert time.monotonic() - down_since >= OUTAGE
        waiting = Outbox.objects.filter(game_id=game.pk, status=Outbox.Status.PENDING).count()
        assert waiting == Outbox.objects.filter(game_id=game.pk).count() - before_outage >= ORDERS_DURING
        assert len(recorded_keys(record)) == before_outage  # nothing could be nudged meanwhile

        private_redis.start()  # the same port: the worker reconnects by itself
        _forget_broker_connections()
        sweep_outbox.delay()  # what beat sends every minute
        wait_until(
            lambda: not Outbox.objects.filter(status=Outbox.Status.PENDING).exists(),
            timeout=DELIVERY_TIMEOUT,
            what="every waiting email sent",
        )
        assert worker.poll() is None, "the worker died during the outage"
    finally:
        worker.terminate()
        worker.wait(timeout=60)

    assert load_game(game).seq == accepted[-1]
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == len(accepted) == 1 + ORDERS_DURING
    due = set(Outbox.objects.filter(game_id=game.pk).values_list("kind", "game_id", "seq", "seat_id"))
    sent = Counter(recorded_keys(record))
    assert set(sent) == {f"aegea-{kind}-{g}-{seq}-{seat}" for kind, g, seq, seat in due}
    assert set(sent.values()) == {1}, [key for key, count in sent.items() if count > 1]
    assert Outbox.objects.filter(game_id=game.pk, status=Outbox.Status.SENT).count() == len(due)

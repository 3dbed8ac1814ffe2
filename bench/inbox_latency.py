"""Order-to-inbox latency (`make bench`): from an order's commit to the next player's email being
handed to the email backend, under a steady load of orders across many games.

Two Celery worker processes on the configured Redis deliver with bench/timed_backend.py, which
notes when each message is handed over. Driver processes give the recorded orders to clones of
the recorded game, one order of each of their games in turn, paced to RATE orders/s in all; each
order's commit time is taken when submit_order returns (its transaction committed, the worker
nudged). Both clocks are this machine's wall clock.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
import traceback
from pathlib import Path
from typing import Any

import redis
from django.conf import settings
from django.db import connections

from aegea_pbem.celery import app as celery_app
from bench.figures import Figure, targeted
from bench.mail import started_workers, stop_workers
from bench.orders import Recording, _p99, clone_game
from bench.timed_backend import INBOX_KEY
from games.models import Game, Seat
from games.services.orders import submit_order
from notifications.models import Outbox

RATE = 50.0  # orders/s in all, the steady load
TARGET_P99 = "<= 1000"  # ms
BACKEND = "bench.timed_backend.TimedBackend"


def _drive(recording: Recording, game_ids: list[int], rate: float, limit: int, start: Any, out: Any) -> None:
    """Give `limit` orders to `game_ids` (one of each game in turn) at `rate`/s; put their commit times."""
    connections.close_all()  # the parent's connection must not be shared: open our own
    try:
        games = [Game.objects.get(pk=pk) for pk in game_ids]
        seats = {g.pk: {s.faction: s for s in Seat.objects.filter(game=g)} for g in games}
        schedule = [(game, order) for order in recording.orders for game in games][
            :limit
        ]  # order i of each game before order i + 1 of any
        commits = []
        start.wait()
        began = time.perf_counter()
        for n, (game, (command, seq)) in enumerate(schedule):
            if (wait := began + n / rate - time.perf_counter()) > 0:
                time.sleep(wait)
            result = submit_order(game, seats[game.pk][command.player], command, seq)
            commits.append((game.pk, result.seq, time.time()))
        out.put((commits, time.perf_counter() - began))
    except BaseException:
        out.put(traceback.format_exc())
    finally:
        connections.close_all()


def bench_inbox_latency(
    recording: Recording,
    orders: int = 1000,
    games: int = 12,
    drivers: int = 2,
    workers: int = 2,
    log_dir: Path = Path(settings.BASE_DIR) / "var",
) -> list[Figure]:
    """p50 and p99 of order commit to the next player's turn email handed to the backend, at RATE
    orders/s over `games` games from `drivers` processes, delivered by `workers` worker processes."""
    inbox = redis.Redis.from_url(settings.REDIS_URL)
    inbox.delete(INBOX_KEY)
    Outbox.objects.all().delete()  # the earlier benches' rows: only these orders' emails are sent
    celery_app.control.purge()
    clones = [clone_game(recording, f"bench inbox {n}").pk for n in range(games)]
    procs = started_workers(workers, log_dir, backend=BACKEND)
    try:
        commits, seconds = _driven(recording, clones, drivers, orders)
        deadline = time.monotonic() + 120
        while Outbox.objects.filter(status=Outbox.Status.PENDING).exists() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        stop_workers(procs)
        celery_app.control.purge()
    latencies = turn_latencies(commits, [note.decode() for note in inbox.lrange(INBOX_KEY, 0, -1)])
    inbox.delete(INBOX_KEY)
    pending = Outbox.objects.filter(status=Outbox.Status.PENDING).count()
    detail = (
        f"{len(latencies)} turn emails of {len(commits)} orders given at {len(commits) / seconds:.1f}"
        f" orders/s (paced to {RATE:g}) over {games} games from {drivers} processes, delivered by"
        f" {workers} Celery workers on Redis with their board pictures; {pending} left pending"
    )
    if not latencies:
        raise RuntimeError(f"no turn email reached the backend ({detail})")
    return [
        Figure("order_to_inbox_p50_ms", statistics.median(latencies) * 1000, "ms", detail),
        targeted("order_to_inbox_p99_ms", _p99(latencies) * 1000, "ms", TARGET_P99),
        Figure("order_to_inbox_orders_per_s", len(commits) / seconds, "orders/s", "the load achieved"),
    ]


def turn_latencies(commits: list[tuple[int, int, float]], notes: list[str]) -> list[float]:
    """Seconds from each order's commit (game, its last seq, when) to each turn email of that seq
    handed to the backend (bench/timed_backend.py's notes), sorted; other emails are not counted."""
    committed = {(game, seq): at for game, seq, at in commits}
    handed = ((int(game), int(seq), kind, float(at)) for game, seq, kind, at in map(str.split, notes))
    return sorted(
        at - committed[(g, s)] for g, s, kind, at in handed if kind == "turn" and (g, s) in committed
    )


def _driven(recording: Recording, clones: list[int], drivers: int, orders: int) -> tuple[list, float]:
    context = multiprocessing.get_context("fork")
    start, out = context.Event(), context.Queue()
    connections.close_all()
    share = -(-orders // drivers)
    procs = [
        context.Process(
            target=_drive, args=(recording, clones[n::drivers], RATE / drivers, share, start, out)
        )
        for n in range(drivers)
    ]
    for proc in procs:
        proc.start()
    start.set()
    results = [out.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join()
    if failed := [r for r in results if isinstance(r, str)]:
        raise RuntimeError(f"a driver failed:\n{failed[0]}")
    return [c for commits, _ in results for c in commits], max(seconds for _, seconds in results)

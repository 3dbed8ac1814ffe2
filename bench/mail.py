"""Turn emails delivered by real Celery worker processes on Redis (`make bench`).

10,000 pending outbox rows, two `celery worker --pool threads --concurrency 4` processes started
here with Django's locmem email backend (messages are kept in each worker's memory: nothing leaves
the machine), woken by deliver_pending tasks; timed until every row is marked sent.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone, translation

from aegea_pbem.celery import app as celery_app
from bench.figures import Figure, cpu_seconds, machine_busy_seconds
from bench.orders import clone_game, record_game
from games.engine import fold, new_game
from games.mail.turns import position_told
from games.models import Seat
from games.services.orders import submit_order
from games.words.names import faction_name
from notifications.models import Outbox
from notifications.services import frozen
from notifications.tasks import deliver_pending

BASE_DIR = Path(settings.BASE_DIR)
FAKE_GAME = 2_000_000_000  # outbox rows name games by plain id: no game row is needed
# Delivery waits on the database's commit, not the CPU: each worker process delivers with a few
# threads (each its own connection, sharing rows through SKIP LOCKED).
THREADS = 4


def start_workers(count: int, env: dict[str, str], log_dir: Path) -> list[subprocess.Popen]:
    """`count` Celery worker processes (THREADS threads each) on the configured Redis, email in memory."""
    workers = []
    for n in range(count):
        log = open(log_dir / f"bench-worker-{n}.log", "w")  # noqa: SIM115  (closed with the process)
        workers.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "aegea_pbem",
                    "worker",
                    "--pool",
                    "threads",
                    "--concurrency",
                    str(THREADS),
                    "-n",
                    f"bench{n}-{os.getpid()}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--loglevel",
                    "WARNING",
                ],
                cwd=BASE_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    return workers


def wait_for_workers(count: int, timeout: float = 60.0) -> None:
    """Ping until `count` workers answer, on a connection of its own closed after: a pooled one left
    waiting for replies hangs a process forked later (kombu closes it in the child, reading first)."""
    deadline = time.monotonic() + timeout
    with celery_app.connection_for_write() as connection:
        while len(celery_app.control.ping(timeout=0.5, connection=connection) or []) < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{count} Celery workers did not answer within {timeout} s")


def stop_workers(workers: list[subprocess.Popen]) -> None:
    for worker in workers:
        worker.terminate()
    for worker in workers:
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def opening_position() -> dict[str, Any]:
    """The turn email's position of the first player of a new 4-player game (H-SETUP; the engine
    alone, no game row): their holdings, the costs, where they may expand, the Poleis near theirs
    and the example reply, as a real turn email tells them (notify.position_told), in English."""
    state = fold(new_game({"factions": ["athens", "sparta", "corinth", "thebes"]}, "bench"))
    faction = state.player_on_turn or state.seat_order[0]
    with translation.override("en"):
        return {"faction_name": faction_name(faction), "on_turn": True, **position_told(state, faction)}


def pending_rows(count: int, game_id: int = FAKE_GAME) -> None:
    """Write `count` pending turn emails as an order writes them: template and context, rendered by
    the worker that sends them (rendering moved from the order to delivery). The position
    is told here once, not by each worker (its game is not in the database): the email carries it."""
    context = frozen(
        {
            "game_name": "Bench",
            "player_name": "Ana",
            "year_label": "431 BC",
            "phase_label": "action round 1",
            "sealed": False,
            "happenings": ["Sparta passed."],
            "keys_of": {"version": 1, "reply": ["o", "1"]},  # signed by the worker (mail_keys.keys_signed)
            **opening_position(),
        },
        "en",
    )
    now = timezone.now()
    Outbox.objects.bulk_create(
        [
            Outbox(
                game_id=game_id,
                seq=n,
                seat_id=1,
                kind="turn",
                to_email=f"player{n}@example.com",
                template="turn",
                context=context,
                created=now,
            )
            for n in range(1, count + 1)
        ],
        batch_size=2000,
    )


def bench_delivery(rows: int = 10_000, workers: int = 2, log_dir: Path = BASE_DIR / "var") -> list[Figure]:
    """Turn emails delivered per second by `workers` real worker processes for `rows` pending rows
    of a fixed context: the delivery itself (no game to tell, no board picture to draw)."""
    Outbox.objects.all().delete()  # the scratch database's earlier benches left rows of their own
    celery_app.control.purge()
    pending_rows(rows)
    sent, elapsed = _delivered(workers, log_dir)
    detail = (
        f"{sent} of {rows} pending turn emails sent once each by {workers} worker processes"
        f" ({THREADS} threads each, locmem email backend; a fixed context with a real position,"
        " no board picture)"
    )
    return _rates("emails", sent, rows, elapsed, detail)


AFRESH = "start afresh (no tile of these games drawn)"
COLD_GAMES, RUNNING_GAMES = 3, 6  # recorded games whose emails are sent: ~500, then ~1,000


def bench_game_delivery(recording: Any, workers: int = 2, log_dir: Path = BASE_DIR / "var") -> list[Figure]:
    """The emails real games write (welcomes, turns, sealed winters, the end), each rendered as
    sent: the happenings, the player's position and reach, and the board picture.

    The games are played by differently seeded bots, and their orders given in turn, one of each
    game, so the pending emails mix the games as a backlog of many games does. Two backlogs of
    different games: the first sent by freshly started workers, which drew only the empty boards
    and the Native Poleis as they started (games/board/png.warm_up), none of these games' tiles
    (`game_emails_cold`),
    the second by the same workers, which then hold the parts of other games' boards
    (`game_emails`: as workers that have been running meet a backlog)."""
    seeds = range(2, COLD_GAMES + RUNNING_GAMES + 1)
    recordings = [recording] + [record_game(bot_seed=seed) for seed in seeds]
    Outbox.objects.all().delete()
    _replay_in_turn([(clone_game(r, f"bench emails {n}"), r) for n, r in enumerate(recordings[:COLD_GAMES])])
    cold = list(Outbox.objects.values_list("id", flat=True))
    _replay_in_turn([(clone_game(r, f"bench emails {n}"), r) for n, r in enumerate(recordings[COLD_GAMES:])])
    # Both backlogs held back (as failed, not yet tried) until their turn.
    running = Outbox.objects.exclude(id__in=cold)
    Outbox.objects.update(status=Outbox.Status.FAILED)
    celery_app.control.purge()  # the orders' own nudges: the timed workers start from nothing queued
    procs = started_workers(workers, log_dir)
    try:
        cold_rows = Outbox.objects.filter(id__in=cold)
        figures = timed_backlog("game_emails_cold", cold_rows, COLD_GAMES, procs, AFRESH)
        figures += timed_backlog("game_emails", running, RUNNING_GAMES, procs, "have sent the first backlog")
    finally:
        stop_workers(procs)
        celery_app.control.purge()
    return figures


def timed_backlog(
    name: str, held: Any, games: int, procs: list[subprocess.Popen], state: str
) -> list[Figure]:
    """Release the `held` rows to the running workers, time them through, name the figures `name`.
    (A nudge of the backlog before may still be queued: it may start on these rows at once.)

    Besides the rate, the CPU each email cost: the workers' own, and the whole machine's (the
    database included), which a shared machine's other load changes less than the wall clock."""
    before = Outbox.objects.filter(status=Outbox.Status.SENT, attempts=1).count()
    pids = [proc.pid for proc in procs]
    workers_cpu, machine_cpu = cpu_seconds(pids), machine_busy_seconds()
    started = time.perf_counter()
    rows = held.update(status=Outbox.Status.PENDING)
    elapsed = _timed_delivery(len(procs), started)
    workers_cpu, machine_cpu = cpu_seconds(pids) - workers_cpu, machine_busy_seconds() - machine_cpu
    sent = Outbox.objects.filter(status=Outbox.Status.SENT, attempts=1).count() - before
    detail = (
        f"{sent} of {rows} emails of {games} recorded 4-player games, their orders interleaved, sent"
        f" once each by {len(procs)} worker processes that {state}, each with its board picture"
    )
    per_email = 1000 / max(sent, 1)
    return _rates(name, sent, rows, elapsed, detail) + [
        Figure(f"{name}_worker_cpu_ms", workers_cpu * per_email, "ms", "the worker processes' CPU per email"),
        Figure(
            f"{name}_machine_cpu_ms",
            machine_cpu * per_email,
            "ms",
            "all cores busy, per email (database too)",
        ),
    ]


def _replay_in_turn(games: list[tuple[Any, Any]]) -> None:
    """Each recording's orders submitted to its clone, one order of each game in turn."""
    seats = {game.pk: {s.faction: s for s in Seat.objects.filter(game=game)} for game, _ in games}
    longest = max(len(recording.orders) for _, recording in games)
    for i in range(longest):
        for game, recording in games:
            if i < len(recording.orders):
                command, seq = recording.orders[i]
                submit_order(game, seats[game.pk][command.player], command, seq)


def _rates(name: str, sent: int, rows: int, elapsed: float, detail: str) -> list[Figure]:
    """<name>_delivered_per_s, and <name>_10000_seconds: the issue's 10,000 at that rate."""
    return [
        Figure(f"{name}_delivered_per_s", sent / elapsed, "emails/s", detail),
        Figure(f"{name}_10000_seconds", elapsed * 10_000 / max(rows, 1), "s", "time for 10,000 at that rate"),
    ]


def _delivered(workers: int, log_dir: Path) -> tuple[int, float]:
    """Start `workers` worker processes, nudge them, wait until nothing is pending: (sent once, seconds)."""
    procs = started_workers(workers, log_dir)
    try:
        elapsed = _timed_delivery(workers)
    finally:
        stop_workers(procs)
        celery_app.control.purge()
    return Outbox.objects.filter(status=Outbox.Status.SENT, attempts=1).count(), elapsed


def started_workers(
    workers: int, log_dir: Path, backend: str = "django.core.mail.backends.locmem.EmailBackend"
) -> list[subprocess.Popen]:
    env = {
        **os.environ,
        "EMAIL_BACKEND": backend,
        "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings",
    }
    log_dir.mkdir(parents=True, exist_ok=True)
    procs = start_workers(workers, env, log_dir)
    try:
        wait_for_workers(workers)
    except Exception:
        stop_workers(procs)
        raise
    return procs


def _timed_delivery(workers: int, started: float | None = None) -> float:
    """Nudge the running workers and wait until no row is pending: the seconds that took (since
    `started`, a perf_counter reading, when given)."""
    started = time.perf_counter() if started is None else started
    for _ in range(workers * THREADS):  # a nudge per thread: each task delivers until nothing is pending
        deliver_pending.delay()
    deadline = time.monotonic() + 300
    while Outbox.objects.filter(status=Outbox.Status.PENDING).exists():
        if time.monotonic() > deadline:
            break
        time.sleep(0.1)
    return time.perf_counter() - started

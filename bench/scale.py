"""Scale (`make bench-scale`): the order latency on a database of thousands of real games' logs,
against the same orders on a nearly empty database, in the same run.

The seeded games are copies of real games played through submit_order by the bench's bot (three
finished, one stopped half-way), made by bench/scale_seed.py: re-chained logs by COPY, their
snapshots, read models and (sent) outbox rows alongside. The bench then checks a sample of them
with verifygame's own checks (hash chain, and every order replayed from the seed).

The empty side is a twin: before seeding, the scratch database (holding only the recorded games)
is copied with CREATE DATABASE … TEMPLATE. The timed replays then alternate between the twin and
the seeded database, run for run, so that the load of a shared machine, which drifts over minutes,
falls on both sides alike (measured one after the other, the ratio swung between 0.9 and 2.3).
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Iterator

import psycopg
from django.db import connection

from bench.figures import Figure
from bench.orders import Recording, clone_game, record_game, replay_orders
from bench.scale_seed import seed_games
from games.eventstore import statecache
from games.eventstore.verification import verify_game
from games.models import Event, Game

EXTRA_TEMPLATES = ((2, None), (3, None), (4, 70))  # (bot seed, orders before it stops), beside the recording
LATENCY_RUNS = 3  # clones per measurement: 3 × the recorded game's orders
SAMPLE = 3  # seeded games checked like `verifygame`
SIZED_TABLES = ("games_event", "games_snapshot", "notifications_outbox", "games_seat", "games_seatclock")


@contextlib.contextmanager
def _on_database(name: str) -> Iterator[None]:
    """Run Django's default connection against database `name` (same server), then switch back."""
    own = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = own


def _server(sql: str) -> None:
    """A statement run from the server's maintenance database (CREATE/DROP DATABASE)."""
    params = connection.get_connection_params() | {"dbname": "postgres", "autocommit": True}
    with psycopg.connect(**params) as admin:
        admin.execute(sql)


def _twin() -> str:
    """A copy of the scratch database as it is now (our connection closed: TEMPLATE needs that)."""
    own = connection.settings_dict["NAME"]
    twin = f"{own}_twin"
    connection.close()
    _server(f"DROP DATABASE IF EXISTS {twin} WITH (FORCE)")
    _server(f"CREATE DATABASE {twin} TEMPLATE {own}")
    return twin


def _replay(recording: Recording, name: str) -> list[float]:
    """The recorded orders on a fresh clone, started with a cold state cache."""
    statecache.clear()
    return replay_orders(clone_game(recording, name), recording)


def _alternating(recording: Recording, twin: str) -> tuple[list[float], list[float]]:
    """LATENCY_RUNS replays on the twin (empty) and on the seeded database, alternately."""
    empty: list[float] = []
    seeded: list[float] = []
    with _on_database(twin):
        _replay(recording, "scale warm-up")  # the first orders on a connection: untimed
    _replay(recording, "scale warm-up")
    for run in range(LATENCY_RUNS):
        with _on_database(twin):
            empty += _replay(recording, f"scale empty {run}")
        seeded += _replay(recording, f"scale seeded {run}")
    return sorted(empty), sorted(seeded)


def _p99(sorted_values: list[float]) -> float:
    return sorted_values[max(0, int(len(sorted_values) * 0.99) - 1)]


def _sizes() -> tuple[int, str]:
    """The database's size, and each big table's with (in brackets) its indexes' share."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        (database,) = cursor.fetchone()
        parts = []
        for table in SIZED_TABLES:
            cursor.execute("SELECT pg_total_relation_size(%s), pg_indexes_size(%s)", [table, table])
            total, indexes = cursor.fetchone()
            parts.append(f"{table} {_mb(total)} (indexes {_mb(indexes)})")
    return database, ", ".join(parts)


def _mb(size: int) -> str:
    return f"{size / 2**20:,.1f} MB"


def bench_scale(recording: Recording, games: int | None, events: int) -> list[Figure]:
    """Order latency (p50, p99 of the recorded game's orders) before and after seeding `games`
    games (by default as many as make about `events` events)."""
    before = time.perf_counter()
    templates = [Game.objects.get(pk=recording.game_id)]
    for bot_seed, stop_after in EXTRA_TEMPLATES:
        templates.append(Game.objects.get(pk=record_game(bot_seed, stop_after=stop_after).game_id))
    recorded_in = time.perf_counter() - before
    if games is None:
        per_game = Event.objects.filter(game__in=templates).count() / len(templates)
        games = round(events / per_game)
    twin = _twin()
    started = time.perf_counter()
    events = seed_games(templates, games)
    seeded_in = time.perf_counter() - started
    seeded = list(Game.objects.filter(name__startswith="scale ").order_by("pk"))
    sample = [seeded[n * (len(seeded) - 1) // max(1, SAMPLE - 1)] for n in range(SAMPLE)]
    verified = [verify_game(game) for game in sample]
    if not all(v.ok for v in verified):
        raise AssertionError(f"a seeded game fails verifygame: {[v for v in verified if not v.ok]}")
    database, tables = _sizes()
    try:
        empty, full = _alternating(recording, twin)
    finally:
        _server(f"DROP DATABASE IF EXISTS {twin} WITH (FORCE)")
    total_games, total_events = Game.objects.count(), Event.objects.count()
    active = Game.objects.filter(name__startswith="scale ", status=Game.Status.ACTIVE).count()
    detail = f"{total_games} games, {total_events} events"
    seeding = (
        f"{games} games ({active} in progress) of {len(templates)} recorded games"
        f" (recorded in {recorded_in:.0f} s), {events} events; verifygame passed on {len(sample)} of them"
    )
    return [
        Figure("scale_seed_seconds", seeded_in, "s", seeding),
        Figure("scale_seed_events_per_s", events / seeded_in, "events/s"),
        Figure("scale_database_mb", database / 2**20, "MB", tables),
        Figure(
            "scale_empty_order_p50_ms",
            statistics.median(empty) * 1000,
            "ms",
            f"{len(empty)} orders, on a copy of the database before seeding",
        ),
        Figure("scale_empty_order_p99_ms", _p99(empty) * 1000, "ms"),
        Figure(
            "scale_seeded_order_p50_ms", statistics.median(full) * 1000, "ms", f"{len(full)} orders, {detail}"
        ),
        Figure("scale_seeded_order_p99_ms", _p99(full) * 1000, "ms"),
        Figure(
            "scale_order_latency_ratio",
            statistics.median(full) / statistics.median(empty),
            "x",
            "p50 seeded / p50 empty",
        ),
        Figure("scale_order_p99_ratio", _p99(full) / _p99(empty), "x", "p99 seeded / p99 empty"),
    ]

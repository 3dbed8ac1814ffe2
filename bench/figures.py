"""Speed of the event store, measured on the configured database (`make bench`).

Each figure is one function returning Figures; "Reliability, security and speed" adds more.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from django.db import connection, transaction

from games.eventstore.log_reading import load_engine_events, load_events
from games.eventstore.store import append_events
from games.models import Game


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    detail: str = ""
    target: str = ""  # e.g. ">= 0.5"; empty when the figure has none
    met: bool | None = None

    def line(self) -> str:
        value = f"{self.value:.2f}" if self.unit == "x" else f"{self.value:,.1f}"
        verdict = ""
        if self.target:
            verdict = f"  [target {self.target}: {'met' if self.met else 'NOT met'}]"
        return f"{self.name}: {value} {self.unit}{verdict}" + (f"  ({self.detail})" if self.detail else "")

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Fact:
    type: str
    payload: dict[str, object]


def _move(index: int) -> Fact:
    # A payload the size of a real order: who, from where, to where, how many.
    return Fact(
        "Moved", {"player": "athens", "from": "E3", "to": "E5", "phalanxes": index % 7, "king": False}
    )


def bench_appends(count: int = 2000) -> list[Figure]:
    """One event per append_events call, each its own transaction, on one game."""
    game = Game.objects.create(name="bench appends")
    latencies = []
    started = time.perf_counter()
    for seq in range(count):
        before = time.perf_counter()
        append_events(game, seq, [_move(seq)], actor="athens")
        latencies.append(time.perf_counter() - before)
    elapsed = time.perf_counter() - started
    latencies.sort()
    return [
        Figure("appends_per_s", count / elapsed, "appends/s", f"{count} appends, one event per transaction"),
        Figure("append_p50_ms", statistics.median(latencies) * 1000, "ms"),
        Figure("append_p99_ms", latencies[int(len(latencies) * 0.99) - 1] * 1000, "ms"),
    ]


def bench_loads(events: int = 10_000, repeat: int = 5, batch: int = 500) -> list[Figure]:
    """Load every event of one game with `events` events: as engine events and as model rows."""
    game = Game.objects.create(name="bench loads")
    for start in range(0, events, batch):
        append_events(game, start, [_move(i) for i in range(start, min(start + batch, events))])

    def best_rate(load: Callable[[], list[object]]) -> float:
        times = []
        for _ in range(repeat):
            before = time.perf_counter()
            loaded = load()
            times.append(time.perf_counter() - before)
            assert len(loaded) == events
        return events / statistics.median(times)

    detail = f"{events}-event game, median of {repeat}"
    return [
        Figure("events_loaded_per_s", best_rate(lambda: load_engine_events(game)), "events/s", detail),
        Figure(
            "event_rows_loaded_per_s", best_rate(lambda: load_events(game)), "events/s", detail + ", as rows"
        ),
    ]


RAW_PAYLOAD = '{"player": "athens", "from": "E3", "to": "E5", "phalanxes": 3, "king": false}'


@contextmanager
def raw_json_rows(rows: int = 100_000) -> Iterator[Callable[[], float]]:
    """A scratch table of `rows` jsonb rows; yields a function that reads and decodes them all, with
    no store code in between, and returns the seconds it took (the database's reading ceiling)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_raw (id bigserial PRIMARY KEY, game_id bigint NOT NULL, seq int NOT NULL,"
            " payload jsonb NOT NULL, UNIQUE (game_id, seq))"
        )
        try:
            cursor.execute(
                "INSERT INTO bench_raw (game_id, seq, payload) SELECT 2, n, %s FROM generate_series(1, %s) n",
                [RAW_PAYLOAD, rows],
            )

            def read() -> float:
                before = time.perf_counter()
                cursor.execute("SELECT payload FROM bench_raw WHERE game_id = 2 ORDER BY seq")
                # Django's cursor hands jsonb over as text; decoding it is part of reading JSON.
                assert len([json.loads(text) for (text,) in cursor.fetchall()]) == rows
                return time.perf_counter() - before

            yield read
        finally:
            cursor.execute("DROP TABLE bench_raw")


def bench_database_ceiling(inserts: int = 2000, rows: int = 100_000, repeat: int = 3) -> list[Figure]:
    """The database's own ceiling, measured alike: single-row INSERT+COMMIT from one client, and
    reading and decoding `rows` rows of JSON, with no store code in between."""
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bench_raw_insert (id bigserial PRIMARY KEY, game_id bigint NOT NULL,"
            " seq int NOT NULL, payload jsonb NOT NULL, UNIQUE (game_id, seq))"
        )
        try:
            started = time.perf_counter()
            for seq in range(inserts):  # autocommit: every statement is its own transaction
                cursor.execute(
                    "INSERT INTO bench_raw_insert (game_id, seq, payload) VALUES (1, %s, %s)",
                    [seq, RAW_PAYLOAD],
                )
            insert_rate = inserts / (time.perf_counter() - started)
            locked_rate = _locked_appends(cursor, inserts)
        finally:
            cursor.execute("DROP TABLE bench_raw_insert")
    with raw_json_rows(rows) as read:
        times = [read() for _ in range(repeat)]
    return [
        Figure("raw_insert_commit_per_s", insert_rate, "inserts/s", f"{inserts} single-row INSERT+COMMIT"),
        Figure(
            "raw_locked_append_per_s",
            locked_rate,
            "appends/s",
            f"{inserts} transactions of BEGIN, a row locked and the head read, one INSERT, COMMIT",
        ),
        Figure(
            "raw_json_rows_read_per_s",
            rows / statistics.median(times),
            "rows/s",
            f"{rows} jsonb rows read and decoded",
        ),
    ]


def _locked_appends(cursor: Any, count: int) -> float:
    """The least an order's transaction can be, with no store code: lock the game's row and read
    its log's head (the order must be decided on the head it appends after), INSERT one row,
    COMMIT. Four round trips where the raw insert is one."""
    cursor.execute("CREATE TABLE bench_raw_game (id bigint PRIMARY KEY)")
    try:
        cursor.execute("INSERT INTO bench_raw_game (id) VALUES (3)")
        started = time.perf_counter()
        for _ in range(count):
            with transaction.atomic():
                cursor.execute(
                    "SELECT (SELECT max(seq) FROM bench_raw_insert WHERE game_id = g.id)"
                    " FROM bench_raw_game g WHERE g.id = 3 FOR UPDATE"
                )
                (head,) = cursor.fetchone()
                cursor.execute(
                    "INSERT INTO bench_raw_insert (game_id, seq, payload) VALUES (3, %s, %s)",
                    [(head or 0) + 1, RAW_PAYLOAD],
                )
        return count / (time.perf_counter() - started)
    finally:
        cursor.execute("DROP TABLE bench_raw_game")


def cpu_seconds(pids: Iterable[int]) -> float:
    """User and system CPU the processes have used (Linux: /proc/<pid>/stat, in clock ticks)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def machine_busy_seconds() -> float:
    """CPU time all cores spent on anything but idling and waiting for I/O (/proc/stat)."""
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, irq, softirq, steal = (
            int(v) for v in stat.readline().split()[1:9]
        )
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def targeted(name: str, value: float, unit: str, target: str, detail: str = "") -> Figure:
    """A figure with its target (">= x", "> x", "<= x" or "< x") and whether it is met."""
    op, bound = target.split()
    met = {">=": value >= float(bound), ">": value > float(bound), "<": value < float(bound)}.get(
        op, value <= float(bound)
    )
    return Figure(name, value, unit, detail, target, met)


RATIOS = [  # (ratio name, figure, ceiling figure, target)
    # What any order could reach at best: a locked read of the head before its write.
    ("raw_locked_append_to_raw_insert_ratio", "raw_locked_append_per_s", "raw_insert_commit_per_s", ""),
    ("appends_to_raw_insert_ratio", "appends_per_s", "raw_insert_commit_per_s", ""),
    # Context, not targets: no event store in Python comes near a raw INSERT (the target is the peer's
    # orders, bench/versus_peer.py).
    ("orders_to_raw_insert_ratio", "orders_per_s", "raw_insert_commit_per_s", ""),
    ("orders_4_clients_to_raw_insert_ratio", "orders_per_s_4_clients", "raw_insert_commit_per_s", ""),
    # The replay bench reads the raw rows again between its own runs (bench_orders.bench_replay), so
    # that both sides of these ratios see the same load on the machine.
    ("loads_to_raw_read_ratio", "events_loaded_per_s", "raw_json_rows_read_alongside_per_s", ""),
    ("replay_to_raw_read_ratio", "replay_events_per_s", "raw_json_rows_read_alongside_per_s", ">= 0.5"),
]


def ratios(figures: list[Figure]) -> list[Figure]:
    """The service's figures as fractions of the database's ceiling measured in the same run."""
    by_name = {figure.name: figure.value for figure in figures}
    out = []
    for name, numerator, denominator, target in RATIOS:
        if numerator in by_name and denominator in by_name:
            value = by_name[numerator] / by_name[denominator]
            detail = f"{numerator} / {denominator}"
            out.append(
                targeted(name, value, "x", target, detail) if target else Figure(name, value, "x", detail)
            )
    return out


def engine_bound(figures: list[Figure]) -> list[Figure]:
    """The best orders-to-raw-insert ratio an order could reach if it cost nothing but the engine's
    decision (engine_ms_per_order) and one single-row INSERT+COMMIT: 1 / (1 + raw rate x engine time)."""
    by_name = {figure.name: figure.value for figure in figures}
    if "engine_ms_per_order" not in by_name or "raw_insert_commit_per_s" not in by_name:
        return []
    bound = 1 / (1 + by_name["raw_insert_commit_per_s"] * by_name["engine_ms_per_order"] / 1000)
    detail = "an order costing only engine_ms_per_order plus one raw INSERT+COMMIT"
    return [Figure("orders_to_raw_insert_ratio_engine_bound", bound, "x", detail)]


TARGETS = {
    "state_load_snapshots_p50_ms": "<= 5",
    "state_load_cached_p50_ms": "<= 5",
    "emails_10000_seconds": "<= 60",
    "game_emails_cold_10000_seconds": "<= 60",
    "game_emails_10000_seconds": "<= 60",
    "game_emails_backlog_10000_seconds": "<= 60",
    "http_orders_per_s": ">= 300",
    "scale_order_latency_ratio": "<= 1.5",
    "bot_win_rate_vs_random": ">= 0.95",
    "bot_win_rate_vs_greedy": ">= 0.65",
    "bot_win_rate_4p_vs_greedy": "> 0.25",
    "bot_decision_p99_ms": "<= 1000",
}


def with_targets(figures: list[Figure]) -> list[Figure]:
    """The figures, those with a target (TARGETS) marked met or not."""
    return [
        targeted(f.name, f.value, f.unit, TARGETS[f.name], f.detail) if f.name in TARGETS else f
        for f in figures
    ]

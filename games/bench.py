"""Speed of the event store, measured on the configured database (`make bench`).

Each figure is one function returning Figures; "Reliability, security and speed" adds more.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from .models import Game
from .store import append_events, load_engine_events, load_events


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    detail: str = ""

    def line(self) -> str:
        return f"{self.name}: {self.value:,.1f} {self.unit}" + (f"  ({self.detail})" if self.detail else "")

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

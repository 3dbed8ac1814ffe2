"""Our orders against the peer's (bench/peer.py), in alternating rounds of the same run (`make bench`).

The machine is shared, so absolute rates are noisy: each round times our submit_order and the peer
on the same recorded orders back to back (who goes first alternates), from 1 client and from 4
(4 processes, each on its own game), and the ratio is taken within the round. The figures are the
medians over the rounds. After each round the peer's stored events must fold to the same state as
our game's log: both did the same work.

Beside the rates, where each side's order spends its time: the CPU of the client processes and of
their PostgreSQL backends per order (the backends' from /proc, so only when the database runs on
this machine), and for one client the wait that is left of the wall time (round trips, the commit's
flush). The ratio's target is a budget of these: at 1.5 times the peer's rate, our order may take
two thirds of the peer's wall time.
"""

from __future__ import annotations

import multiprocessing
import os
import statistics
import time
import traceback
import uuid
from collections.abc import Callable
from typing import Any

from django.db import connection, connections

from bench.figures import Figure, targeted
from bench.orders import Recording, _p99, clone_game, replay_orders
from bench.peer import peer_app
from games.eventstore.log_reading import load_engine_events
from games.models import Game
from games.reading.situation import load_game

RATIO_TARGET = ">= 1.5"  # the target; 2 is the moonshot
MOONSHOT = 2.0


class PeerDisagrees(AssertionError):
    """The peer's stored events fold to another state than our log: the two did not do the same work."""


# A client's CPU seconds over its orders: its own process's, and its PostgreSQL backend's (None when
# the backend is not a process of this machine).
Cpu = tuple[float, float | None]


def backend_cpu_seconds(pid: int) -> float | None:
    """User and system CPU a local process has used (PostgreSQL's backend of a connection), or None."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _counted(
    backend_pid: int, ready: Callable[[], Any], orders: Callable[[], list[float]]
) -> tuple[list[float], Cpu, float]:
    """Once `ready` returns (the start of a round's clients), run `orders`: their latencies, the CPU the
    client and its backend spent on them, and their wall time. A side's setup (its connection, the
    peer's application) is neither timed nor counted."""
    ready()
    backend, client, wall = backend_cpu_seconds(backend_pid), time.process_time(), time.perf_counter()
    latencies = orders()
    wall, client = time.perf_counter() - wall, time.process_time() - client
    after = backend_cpu_seconds(backend_pid)
    return latencies, (client, None if backend is None or after is None else after - backend), wall


# A side's client: (the game it played, its orders' latencies, its CPU, the wall time of its orders).
Result = tuple[Any, list[float], Cpu, float]
Run = Callable[[Recording, Any, Callable[[], Any]], Result]


def _ours(recording: Recording, game_id: int, ready: Callable[[], Any]) -> Result:
    game = Game.objects.get(pk=game_id)
    backend_pid = connection.connection.info.backend_pid
    return (game_id, *_counted(backend_pid, ready, lambda: replay_orders(game, recording)))


def _peer(recording: Recording, peer_id: uuid.UUID, ready: Callable[[], Any]) -> Result:
    def orders() -> list[float]:
        latencies = []
        for command, seq in recording.orders:
            before = time.perf_counter()
            app.order(peer_id, command, seq)
            latencies.append(time.perf_counter() - before)
        return latencies

    with peer_app(create_tables=False) as app:
        with app.recorder.datastore.get_connection() as conn:  # the pool's one connection (peer_env)
            backend_pid = conn.info.backend_pid
        return (peer_id, *_counted(backend_pid, ready, orders))


def _child(run: Run, args: tuple, ready: Any, start: Any, out: Any) -> None:
    connections.close_all()  # the parent's connection must not be shared: open our own

    def set_up() -> None:  # connected (the peer's application made): say so, and wait for the others
        ready.put(True)
        start.wait()

    try:
        out.put(run(*args, set_up))
    except BaseException:  # the parent raises it, rather than wait for a result that never comes
        out.put(traceback.format_exc())
        ready.put(False)  # a client that failed in its setup must not keep the parent waiting for it
    finally:
        connections.close_all()


def _timed(run: Run, games: list[Any], recording: Recording) -> tuple:
    """Every game replayed at once (one process each when more than one); (orders/s, latencies, ids,
    the CPU per order in ms of the clients and of their backends, the latter None when unknown)."""
    if len(games) == 1:
        game, latencies, cpu, wall = run(recording, games[0], lambda: None)
        return len(latencies) / wall, latencies, [game], _per_order([cpu], latencies)
    context = multiprocessing.get_context("fork")
    ready, start, out = context.Queue(), context.Event(), context.Queue()
    connections.close_all()
    procs = [context.Process(target=_child, args=(run, (recording, g), ready, start, out)) for g in games]
    for proc in procs:
        proc.start()
    for _ in procs:  # every client set up before the clock starts (a failed one says so on `out`)
        ready.get(timeout=600)
    before = time.perf_counter()
    start.set()
    results = [out.get(timeout=600) for _ in procs]
    if failed := [result for result in results if isinstance(result, str)]:
        raise RuntimeError(f"a client failed:\n{failed[0]}")
    elapsed = time.perf_counter() - before
    for proc in procs:
        proc.join()
    latencies = [lat for _, lats, _, _ in results for lat in lats]
    cpu = _per_order([cpu for _, _, cpu, _ in results], latencies)
    return len(latencies) / elapsed, latencies, [game for game, _, _, _ in results], cpu


def _per_order(cpus: list[Cpu], latencies: list[float]) -> tuple[float, float | None]:
    """The clients' and their backends' CPU, summed, in ms per order."""
    backends = [backend for _, backend in cpus]
    ms = 1000 / len(latencies)
    client = sum(client for client, _ in cpus) * ms
    return client, None if None in backends else sum(backends) * ms


def _check_same(recording: Recording, ours: list[int], peers: list[uuid.UUID]) -> None:
    """Each game of either side ends in the same state (our log and the peer's events, folded)."""
    with peer_app() as app:
        states = [load_game(Game.objects.get(pk=pk)).state.to_dict() for pk in ours]
        states += [app.folded(peer_id).to_dict() for peer_id in peers]
    if any(state != states[0] for state in states[1:]):
        raise PeerDisagrees(f"the peer's games and ours of recording {recording.game_id} end apart")


def bench_versus_peer(recording: Recording, rounds: int = 5) -> list[Figure]:
    """orders/s of submit_order and of the peer from 1 and 4 clients, and their ratios (medians of
    `rounds` alternating rounds), with our orders' latencies pooled over the rounds."""
    template = Game.objects.get(pk=recording.game_id)
    opening = load_engine_events(template, up_to_seq=recording.opening_seq)
    rates: dict[tuple[str, int], list[float]] = {}
    latencies: dict[int, list[float]] = {1: [], 4: []}
    cpu: dict[tuple[str, int], list[tuple[float, float | None]]] = {}
    with peer_app() as app:  # its tables made once, before any client needs them
        app.start(template.seed, opening)
    for round_ in range(rounds):
        for clients in (1, 4):
            ours = [clone_game(recording, f"bench versus peer {round_}.{n}").pk for n in range(clients)]
            with peer_app() as app:
                peers = [app.start(template.seed, opening) for _ in range(clients)]
            sides = [("ours", _ours, ours), ("peer", _peer, peers)]
            ids = {}
            for side, run, games in sides if round_ % 2 == 0 else sides[::-1]:
                rate, lats, ids[side], spent = _timed(run, games, recording)
                rates.setdefault((side, clients), []).append(rate)
                cpu.setdefault((side, clients), []).append(spent)
                if side == "ours":
                    latencies[clients] += lats
            _check_same(recording, ids["ours"], ids["peer"])
    return _figures(recording, rounds, rates, latencies) + _cpu_figures(rates, cpu)


def _cpu_figures(
    rates: dict[tuple[str, int], list[float]], cpu: dict[tuple[str, int], list[tuple[float, float | None]]]
) -> list[Figure]:
    """Where each side's order spends its time, medians of the rounds: the client's and the backend's
    CPU per order and, from one client, the wall time left to waiting (wall less both CPUs)."""
    figures = []
    for (side, clients), spent in sorted(cpu.items(), key=lambda item: (item[0][1], item[0][0] != "ours")):
        name = ("order" if side == "ours" else "peer") + ("" if clients == 1 else f"_{clients}_clients")
        whose = "submit_order" if side == "ours" else "the peer"
        client = statistics.median(c for c, _ in spent)
        figures.append(
            Figure(f"{name}_client_cpu_ms", client, "ms", f"{whose}'s client process(es) per order")
        )
        if any(b is None for _, b in spent):
            continue  # the database is not on this machine: its backends' CPU is not to be read
        backend = statistics.median(b for _, b in spent)
        detail = "their PostgreSQL backends per order (/proc: in ticks of 10 ms over the round)"
        figures.append(Figure(f"{name}_backend_cpu_ms", backend, "ms", detail))
        if clients == 1:
            walls = [1000 / rate for rate in rates[(side, clients)]]
            wait = statistics.median(w - c - b for w, (c, b) in zip(walls, spent, strict=True))
            figures.append(
                Figure(f"{name}_wait_ms", wait, "ms", "wall per order less both CPUs: round trips, flush")
            )
    return figures


def _figures(
    recording: Recording,
    rounds: int,
    rates: dict[tuple[str, int], list[float]],
    latencies: dict[int, list[float]],
) -> list[Figure]:
    figures = []
    for clients in (1, 4):
        suffix = "" if clients == 1 else f"_{clients}_clients"
        ours, peer = rates[("ours", clients)], rates[("peer", clients)]
        detail = (
            f"{len(recording.orders)} orders of a 4-player game per client, {clients} process(es) on as"
            f" many games; median of {rounds} rounds alternating with the peer"
        )
        lats = sorted(latencies[clients])
        ratio_name = "orders_to_peer_ratio" if clients == 1 else f"orders{suffix}_to_peer_ratio"
        round_ratios = [o / p for o, p in zip(ours, peer, strict=True)]
        ratio = statistics.median(round_ratios)
        spread = ", ".join(f"{r:.2f}" for r in round_ratios)
        moon = "met" if ratio >= MOONSHOT else "not met"
        figures += [
            Figure(f"orders_per_s{suffix}", statistics.median(ours), "orders/s", detail),
            Figure(f"order_p50_ms{suffix}", statistics.median(lats) * 1000, "ms"),
            Figure(f"order_p99_ms{suffix}", _p99(lats) * 1000, "ms"),
            Figure(
                f"peer_orders_per_s{suffix}",
                statistics.median(peer),
                "orders/s",
                "eventsourcing 9.5.6 on PostgreSQL (bench/peer.py): get (cache on, snapshots every 100),"
                " decide_recorded, one event per engine event, save; same orders, same rounds",
            ),
            targeted(
                ratio_name,
                ratio,
                "x",
                RATIO_TARGET,
                f"median of the rounds' ratios ({spread}); moonshot >= {MOONSHOT:g}: {moon}",
            ),
        ]
    return figures

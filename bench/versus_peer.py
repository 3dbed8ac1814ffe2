"""Our orders against the peer's (bench/peer.py), in alternating rounds of the same run (`make bench`).

The machine is shared, so absolute rates are noisy: each round times our submit_order and the peer
on the same recorded orders back to back (who goes first alternates), from 1 client and from 4
(4 processes, each on its own game), and the ratio is taken within the round. The figures are the
medians over the rounds. After each round the peer's stored events must fold to the same state as
our game's log: both did the same work.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
import traceback
import uuid
from collections.abc import Callable
from typing import Any

from django.db import connections

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


def _ours(recording: Recording, game_id: int) -> tuple[list[float], Any]:
    game = Game.objects.get(pk=game_id)
    return replay_orders(game, recording), game_id


def _peer(recording: Recording, peer_id: uuid.UUID) -> tuple[list[float], Any]:
    latencies = []
    with peer_app(create_tables=False) as app:
        for command, seq in recording.orders:
            before = time.perf_counter()
            app.order(peer_id, command, seq)
            latencies.append(time.perf_counter() - before)
    return latencies, peer_id


def _child(run: Callable[..., tuple[list[float], Any]], args: tuple, start: Any, out: Any) -> None:
    connections.close_all()  # the parent's connection must not be shared: open our own
    start.wait()
    try:
        out.put(run(*args))
    except BaseException:  # the parent raises it, rather than wait for a result that never comes
        out.put(traceback.format_exc())
    finally:
        connections.close_all()


def _timed(run: Callable[..., tuple[list[float], Any]], games: list[Any], recording: Recording) -> tuple:
    """Every game replayed at once (one process each when more than one); (orders/s, latencies, ids)."""
    if len(games) == 1:
        before = time.perf_counter()
        latencies, game = run(recording, games[0])
        return len(latencies) / (time.perf_counter() - before), latencies, [game]
    context = multiprocessing.get_context("fork")
    start, out = context.Event(), context.Queue()
    connections.close_all()
    procs = [context.Process(target=_child, args=(run, (recording, g), start, out)) for g in games]
    for proc in procs:
        proc.start()
    before = time.perf_counter()
    start.set()
    results = [out.get(timeout=600) for _ in procs]
    if failed := [result for result in results if isinstance(result, str)]:
        raise RuntimeError(f"a client failed:\n{failed[0]}")
    elapsed = time.perf_counter() - before
    for proc in procs:
        proc.join()
    latencies = [lat for lats, _ in results for lat in lats]
    return len(latencies) / elapsed, latencies, [game for _, game in results]


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
                rate, lats, ids[side] = _timed(run, games, recording)
                rates.setdefault((side, clients), []).append(rate)
                if side == "ours":
                    latencies[clients] += lats
            _check_same(recording, ids["ours"], ids["peer"])
    return _figures(recording, rounds, rates, latencies)


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

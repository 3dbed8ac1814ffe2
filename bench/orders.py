"""Orders through the whole service path, timed (`make bench`): submit_order from 1 and 4 clients,
loading a finished game's state, folding (replaying) real games' events, verifying their logs.

A real 4-player game is played once by a seeded bot through `submit_order` (the recording);
the timed runs then replay its orders, at the seqs they were decided on, on clones of that game
(same seed, so the same orders are legal and draw the same dice), so that the bot's choosing is
not timed and every run gives the service the same work.
"""

from __future__ import annotations

import multiprocessing
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections
from django.test.utils import override_settings

from bench.figures import Figure, raw_json_rows
from games import engine
from games.engine.commands import Command
from games.engine.simulation import players_to_act, random_legal_command
from games.eventstore import statecache
from games.eventstore.log_reading import collector_paused, load_engine_events
from games.eventstore.store import append_events
from games.eventstore.verification import verify_chain, verify_game
from games.models import Game, Seat, Snapshot
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order

RAW_ROWS = 100_000  # as many raw rows as the database ceiling reads

PLAYERS = [
    PlayerSpec("Ana", "ana@example.com", "athens"),
    PlayerSpec("Ben", "ben@example.com", "sparta"),
    PlayerSpec("Cleo", "cleo@example.com", "corinth"),
    PlayerSpec("Dion", "dion@example.com", "thebes"),
]


@dataclass(frozen=True)
class Recording:
    game_id: int
    opening_seq: int  # the log's head before the first order
    orders: list[tuple[Command, int]]  # each order with the seq it was decided on


def record_game(bot_seed: int = 1, players: int = 4, stop_after: int | None = None) -> Recording:
    """Play one whole game through submit_order with a seeded random bot; keep its orders.
    With `stop_after`, the bot stops after that many orders: a game still in progress."""
    game = create_game(PLAYERS[:players], name="bench recording", organiser=bench_organiser())
    seats = {seat.faction: seat for seat in game.seats.all()}
    bot = random.Random(bot_seed)
    orders: list[tuple[Command, int]] = []
    opening_seq = load_game(game).seq
    while True:
        loaded = load_game(game)
        waiting = players_to_act(loaded.state)
        if not waiting or len(orders) == stop_after:
            break
        faction = bot.choice(waiting)
        command = random_legal_command(loaded.state, faction, bot)
        assert command is not None, f"{faction} must act but has no legal order"
        submit_order(game, seats[faction], command, loaded.seq)
        orders.append((command, loaded.seq))
    return Recording(game.pk, opening_seq, orders)


def bench_organiser() -> Any:
    """As on the service, where games are made on the organiser pages: games with an organiser."""
    organiser, _ = get_user_model().objects.get_or_create(
        username="bench organiser", defaults={"first_name": "Olga"}
    )
    return organiser


def clone_game(recording: Recording, name: str = "bench clone", up_to_seq: int | None = None) -> Game:
    """A new game with the recording's seed, seats and opening (or log up to `up_to_seq`)."""
    template = Game.objects.get(pk=recording.game_id)
    game = Game.objects.create(
        name=name, seed=template.seed, language=template.language, organiser_id=template.organiser_id
    )
    for seat in template.seats.all():
        Seat.objects.create(
            game=game, faction=seat.faction, name=seat.name, email=seat.email, language=seat.language
        )
    events = load_engine_events(template, up_to_seq=up_to_seq or recording.opening_seq)
    append_events(game, 0, events, actor="organiser")
    return game


def replay_orders(game: Game, recording: Recording) -> list[float]:
    """Submit every recorded order to `game` (a clone); returns each order's latency in seconds."""
    seats = {seat.faction: seat for seat in game.seats.all()}
    latencies = []
    for command, seq in recording.orders:
        before = time.perf_counter()
        submit_order(game, seats[command.player], command, seq)
        latencies.append(time.perf_counter() - before)
    return latencies


def _client(recording: Recording, game_id: int, start: multiprocessing.synchronize.Event, out) -> None:
    connections.close_all()  # the parent's connection must not be shared: open our own
    game = Game.objects.get(pk=game_id)
    start.wait()
    out.put(replay_orders(game, recording))
    connections.close_all()


def bench_submit(recording: Recording, clients: int, state_cache: bool = True) -> list[Figure]:
    """Orders/s through submit_order: `clients` processes, each replaying the recording on its own
    game (different games: orders to one game are serialised by its row lock by design).
    `state_cache=False` runs one client with the state cache off (the figure before that tuning)."""
    games = [clone_game(recording, f"bench client {n}") for n in range(clients)]
    if clients == 1:
        started = time.perf_counter()
        with override_settings(STATE_CACHE_GAMES=1000 if state_cache else 0):
            latencies = replay_orders(games[0], recording)
        elapsed = time.perf_counter() - started
    else:
        context = multiprocessing.get_context("fork")
        start, out = context.Event(), context.Queue()
        connections.close_all()
        procs = [context.Process(target=_client, args=(recording, g.pk, start, out)) for g in games]
        for proc in procs:
            proc.start()
        started = time.perf_counter()
        start.set()
        latencies = [lat for _ in procs for lat in out.get(timeout=600)]
        elapsed = time.perf_counter() - started
        for proc in procs:
            proc.join()
    latencies.sort()
    orders = len(latencies)
    detail = f"{orders} orders of a 4-player game, {clients} process(es) on {clients} different game(s)"
    suffix = ("" if clients == 1 else f"_{clients}_clients") + ("" if state_cache else "_no_state_cache")
    return [
        Figure(f"orders_per_s{suffix}", orders / elapsed, "orders/s", detail),
        Figure(f"order_p50_ms{suffix}", statistics.median(latencies) * 1000, "ms"),
        Figure(f"order_p99_ms{suffix}", _p99(latencies) * 1000, "ms"),
    ]


def bench_engine(recording: Recording, repeat: int = 5) -> list[Figure]:
    """The engine alone on the recorded orders: each decided on its state and folded
    (engine.decide_recorded_with_state, as submit_order calls it), no database, no Django. Every
    order costs at least this much CPU on top of its round trips, which bounds the orders' ratio to
    the raw insert ceiling (bench.engine_bound)."""
    game = Game.objects.get(pk=recording.game_id)
    events = load_engine_events(game)
    states = {seq: engine.fold(events[:seq]) for _command, seq in recording.orders}
    runs = []
    for _ in range(repeat):
        before = time.perf_counter()
        for command, seq in recording.orders:
            engine.decide_recorded_with_state(states[seq], command, game.seed, position=seq + 1)
        runs.append((time.perf_counter() - before) / len(recording.orders))
    detail = (
        f"the engine alone: {len(recording.orders)} recorded orders each decided and folded on its"
        f" state, no database; median of {repeat}"
    )
    return [Figure("engine_ms_per_order", statistics.median(runs) * 1000, "ms", detail)]


def _p99(sorted_values: list[float]) -> float:
    return sorted_values[max(0, int(len(sorted_values) * 0.99) - 1)]


def bench_state_load(recording: Recording, repeat: int = 60) -> list[Figure]:
    """Load the finished recorded game's state: cold with its snapshots, cold without, and warm
    (this process's state cache). Cold loads clear the cache first."""
    game = Game.objects.get(pk=recording.game_id)
    events = load_engine_events(game)
    bare = clone_game(recording, "bench no snapshots", up_to_seq=len(events))
    assert not Snapshot.objects.filter(game=bare).exists()

    def timed(target: Game, cold: bool) -> list[float]:
        times = []
        for _ in range(repeat):
            if cold:
                statecache.clear()
            before = time.perf_counter()
            load_game(target)
            times.append(time.perf_counter() - before)
        return sorted(times)

    snapshots = Snapshot.objects.filter(game=game).count()
    figures = []
    for name, target, cold, what in (
        (
            "state_load_snapshots",
            game,
            True,
            f"{snapshots} snapshot(s): head, newest snapshot and the events after it in one query",
        ),
        ("state_load_no_snapshots", bare, True, "every event folded, loaded in one query"),
        ("state_load_cached", game, False, "per-process state cache: one head query"),
    ):
        times = timed(target, cold)
        detail = f"finished 4-player game, {len(events)} events, {what}"
        figures.append(Figure(f"{name}_p50_ms", statistics.median(times) * 1000, "ms", detail))
        figures.append(Figure(f"{name}_p99_ms", _p99(times) * 1000, "ms"))
    return figures


def bench_replay(recording: Recording, events: int = 10_000, repeat: int = 5) -> list[Figure]:
    """Replay speed: load and fold a 10,000-event log of real game events from the store, as
    `verifygame`/a rebuild/a cold load does. One game has ~450 events, so the log here is the
    recorded game's events followed by a second, third, ... copy, each starting from a fresh
    GameState (a real game's log folds to its end; the copies are whole games again).

    `verifygame` is timed alongside: the hash chain of the long log (--chain-only), and the whole
    check (chain, then every order replayed from the seed) of the recorded game itself.

    Each repeat also reads the database's 100,000 raw JSON rows (bench.raw_json_rows, as the
    ceiling does) right before the replay, so that the ratio of the two compares runs that saw the
    same load on the machine (other processes slow both alike)."""
    game = Game.objects.get(pk=recording.game_id)
    one_game = load_engine_events(game)
    copies = -(-events // len(one_game))
    long_game = Game.objects.create(name="bench replay", seed=game.seed)
    seq = 0
    for _ in range(copies):
        append_events(long_game, seq, one_game, actor="organiser")
        seq += len(one_game)
    total = seq

    def replay() -> None:
        # As log_reading.load_state folds a cold log: the collector paused across the decoding and the
        # fold, the decoded events dropped before it resumes (no young collection walks them).
        with collector_paused():
            loaded = load_engine_events(long_game)  # every event read and decoded ...
            for start in range(0, total, len(one_game)):
                engine.fold(loaded[start : start + len(one_game)])  # ... and every one folded
            del loaded

    def load_only() -> None:
        load_engine_events(long_game)

    def chain_only() -> None:
        assert verify_chain(long_game).ok

    def verify_recorded() -> None:
        assert verify_game(game).ok

    def timed(fn: Callable[[], None]) -> float:
        before = time.perf_counter()
        fn()
        return time.perf_counter() - before

    runs = {"replay": replay, "load": load_only, "chain": chain_only}
    times: dict[str, list[float]] = {"raw": [], "verify": [], **{name: [] for name in runs}}
    with raw_json_rows(RAW_ROWS) as read_raw:
        for _ in range(repeat):
            times["raw"].append(read_raw())
            for name, run in runs.items():
                times[name].append(timed(run))
            times["verify"].append(timed(verify_recorded))
    rate = {name: total / statistics.median(times[name]) for name in runs}
    detail = f"{total}-event log ({copies} copies of a real game), median of {repeat}"
    return [
        Figure("replay_events_per_s", rate["replay"], "events/s", detail + ", loaded and folded"),
        Figure("events_loaded_per_s", rate["load"], "events/s", detail + ", loaded only"),
        Figure("verifygame_chain_events_per_s", rate["chain"], "events/s", detail + ", hash chain re-hashed"),
        Figure(
            "verifygame_events_per_s",
            len(one_game) / statistics.median(times["verify"]),
            "events/s",
            f"the recorded game, {len(one_game)} events: chain, then each order replayed; median of {repeat}",
        ),
        Figure(
            "raw_json_rows_read_alongside_per_s",
            RAW_ROWS / statistics.median(times["raw"]),
            "rows/s",
            f"{RAW_ROWS} jsonb rows read and decoded as the ceiling is, once before each replay",
        ),
    ]

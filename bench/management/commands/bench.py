"""`manage.py bench`: the service's speed on PostgreSQL + Redis against the database's own ceiling.

One line per figure (with its target, where the issue sets one) and a JSON file. Writes into the
configured database, which `make bench` creates for the run and drops afterwards.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from bench.figures import (
    Figure,
    bench_appends,
    bench_database_ceiling,
    engine_bound,
    ratios,
    with_targets,
)

PARTS = ("ceiling", "appends", "orders", "load", "replay", "mail", "inbox", "backlog", "http", "bot", "scale")
DEFAULT_PARTS = PARTS[:-1]  # the scale bench seeds ~2 million events: `make bench-scale`


class Command(BaseCommand):
    help = "Time the service (orders, loads, replay, email delivery, HTTP) against the database's ceiling."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--appends", type=int, default=1000)
        parser.add_argument("--events", type=int, default=10_000)
        parser.add_argument("--emails", type=int, default=10_000)
        parser.add_argument("--peer-rounds", type=int, default=5)
        parser.add_argument("--only", nargs="*", choices=PARTS, default=list(DEFAULT_PARTS))
        # Seeded games of real length (~700 events finished): about 2 million events unless --scale-games.
        parser.add_argument("--scale-events", type=int, default=2_000_000)
        parser.add_argument("--scale-games", type=int, default=None)
        # The bot's games (bench/bot_strength.py): two-player games per opponent, and four-player games.
        parser.add_argument("--bot-games", type=int, default=200)
        parser.add_argument("--bot-games-4p", type=int, default=100)
        parser.add_argument("--json", dest="json_path", type=Path, default=Path("bench-results.json"))

    def handle(self, *args: object, **options: object) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("make bench measures PostgreSQL: set DATABASE_URL to a postgres:// URL")
        parts = set(options["only"])
        if parts & {"mail", "inbox", "backlog", "http", "orders"} and not settings.REDIS_URL:
            raise CommandError("make bench needs Redis (REDIS_URL) for the order, email and HTTP figures")
        started = time.perf_counter()
        figures: list[Figure] = []

        def add(new: list[Figure]) -> None:
            for figure in with_targets(new):
                self.stdout.write(figure.line())
            figures.extend(new)
            self.stdout.flush()

        add(bench_database_ceiling())
        if "appends" in parts:
            add(bench_appends(options["appends"]))
        recording = None
        if parts & {"orders", "load", "replay", "mail", "inbox", "http", "scale"}:
            from bench.orders import record_game

            before = time.perf_counter()
            recording = record_game()
            took = time.perf_counter() - before
            self.stdout.write(f"(recorded a 4-player game: {len(recording.orders)} orders, {took:.1f} s)")
        if "orders" in parts:
            from bench.orders import bench_engine, bench_submit
            from bench.versus_peer import bench_versus_peer

            add(bench_engine(recording))
            add(bench_submit(recording, 1, state_cache=False))  # before the state cache
            # orders_per_s (1 and 4 clients) in alternating rounds with the peer (bench/peer.py).
            add(bench_versus_peer(recording, options["peer_rounds"]))
        if "load" in parts:
            from bench.orders import bench_state_load

            add(bench_state_load(recording))
        if "replay" in parts:
            from bench.orders import bench_replay

            add(bench_replay(recording, options["events"]))
        if "mail" in parts:
            from bench.mail import bench_delivery, bench_game_delivery

            add(bench_delivery(options["emails"]))
            add(bench_game_delivery(recording))
        if "inbox" in parts:
            from bench.inbox_latency import bench_inbox_latency

            add(bench_inbox_latency(recording))
        if "backlog" in parts:
            from bench.mail_backlog import bench_game_backlog

            add(bench_game_backlog(options["emails"]))
        if "http" in parts:
            from bench.http_load import bench_http

            add(bench_http(recording))
        if "scale" in parts:
            from bench.scale import bench_scale

            add(bench_scale(recording, options["scale_games"], options["scale_events"]))
        if "bot" in parts:
            from bench.bot_strength import bench_bot

            add(bench_bot(options["bot_games"], options["bot_games_4p"]))
        add(ratios(figures))
        add(engine_bound(figures))
        figures = with_targets(figures)
        self.stdout.write(f"(bench took {time.perf_counter() - started:.0f} s)")
        result = {
            "database": connection.vendor,
            "cpus": os.cpu_count(),
            "seconds": round(time.perf_counter() - started, 1),
            "figures": {figure.name: figure.as_dict() for figure in figures},
        }
        options["json_path"].write_text(json.dumps(result, indent=2) + "\n")
        self.stdout.write(f"written {options['json_path']}")

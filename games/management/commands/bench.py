"""`manage.py bench`: time the event store on PostgreSQL; one line per figure and a JSON file."""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from games.bench import bench_appends, bench_database_ceiling, bench_loads, ratios


class Command(BaseCommand):
    help = (
        "Time appends (one event per transaction) and loading a 10,000-event game. Writes into the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--appends", type=int, default=2000)
        parser.add_argument("--events", type=int, default=10_000)
        parser.add_argument("--json", dest="json_path", type=Path, default=Path("bench-results.json"))

    def handle(self, *args: object, appends: int, events: int, json_path: Path, **options: object) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("make bench measures PostgreSQL: set DATABASE_URL to a postgres:// URL")
        figures = bench_database_ceiling() + bench_appends(appends) + bench_loads(events)
        figures += ratios(figures)
        for figure in figures:
            self.stdout.write(figure.line())
        result = {
            "database": connection.vendor,
            "cpus": os.cpu_count(),
            "figures": {figure.name: figure.as_dict() for figure in figures},
        }
        json_path.write_text(json.dumps(result, indent=2) + "\n")
        self.stdout.write(f"written {json_path}")

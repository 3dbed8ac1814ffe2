"""Helpers for the race and fault tests: processes with their own database connections."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection, connections

from games.engine import Pass
from games.engine.commands import CommitCoins
from games.models import Event, Game
from games.reading.situation import load_game, must_act
from games.services.orders import GameMovedOn, submit_order

FORK = multiprocessing.get_context("fork")


def in_processes(count: int, target: Callable[..., Any], *args: Any) -> list[Any]:
    """Run target(index, barrier, *args) in `count` forked processes, each opening its own database
    connection (the parent's is closed before forking, so no socket is shared); returns their results."""
    connections.close_all()
    barrier, results = FORK.Barrier(count), FORK.Queue()

    def run(index: int) -> None:
        try:
            results.put((index, target(index, barrier, *args)))
        except BaseException as error:  # reported to the test, which fails with it
            results.put((index, f"{type(error).__name__}: {error}"))
        finally:
            connections.close_all()

    procs = [FORK.Process(target=run, args=(n,)) for n in range(count)]
    for proc in procs:
        proc.start()
    out = dict(results.get(timeout=300) for _ in procs)
    for proc in procs:
        proc.join(timeout=60)
    return [out[n] for n in range(count)]


def order_for_whoever_must_act(game_id: int) -> tuple[str, int, list[int] | None]:
    """Load the game, give the first owing player's default order at the seq loaded.
    Returns ("accepted", seq, new seqs), ("moved on", seq, None) or ("ended", seq, None)."""
    game = Game.objects.get(pk=game_id)
    loaded = load_game(game)
    owing = must_act(loaded.state)
    if not owing:
        return ("ended", loaded.seq, None)
    faction = owing[0]
    seat = game.seats.get(faction=faction)
    command = CommitCoins(faction) if loaded.state.phase == "winter_orders" else Pass(faction)
    try:
        result = submit_order(game, seat, command, loaded.seq)
    except GameMovedOn:
        return ("moved on", loaded.seq, None)
    return ("accepted", loaded.seq, [row.seq for row in result.events])


def log_seqs(game: Game) -> list[int]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))


def database_url() -> str:
    """The test database as a URL, for processes started by a test (they read DATABASE_URL)."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def celery_worker_process(
    record: Path, broker: str, name: str, queue: str | None = None, delay: float = 0.0
) -> subprocess.Popen:
    """A real `celery worker` (solo pool) on `broker` and the test database, sending through
    tests/reliability/recording_backend.py: one line per email in `record`, after `delay` seconds."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings",
        "DATABASE_URL": database_url(),
        "REDIS_URL": broker,
        "EMAIL_BACKEND": "tests.reliability.recording_backend.RecordingBackend",
        "AEGEA_MAIL_RECORD": str(record),
        "AEGEA_MAIL_DELAY": str(delay),
    }
    command = [sys.executable, "-m", "celery", "-A", "aegea_pbem", "worker", "--pool", "solo", "-n", name]
    command += ["--without-gossip", "--without-mingle", "--loglevel", "WARNING"]
    command += ["-Q", queue] if queue else []
    return subprocess.Popen(
        command, cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def recorded_keys(record: Path) -> list[str]:
    """The X-Aegea-Notification keys a celery_worker_process sent, one per email."""
    return record.read_text().split() if record.exists() else []

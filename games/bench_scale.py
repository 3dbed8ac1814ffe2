"""Scale (`make bench-scale`): the order latency on a database of thousands of real games' logs,
against the same orders on a nearly empty database, in the same run.

The seeded games are copies of the bench's recorded 4-player game (a real game played to its end
through submit_order): each copy gets a new game id, its own seats and summary row, and every event
is re-chained with hashes recomputed for its new game (verifygame passes on them). Rows go in by
COPY, a few thousand games per transaction.
"""

from __future__ import annotations

import statistics
import time
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from . import statecache
from .bench import Figure
from .bench_orders import Recording, clone_game, replay_orders
from .hashing import GENESIS_HASH, canonical_json, event_hash
from .models import Event, Game, GameSummary, Seat
from .store import SCHEMA_VERSION

BATCH_GAMES = 500


def _latency_p50(recording: Recording, name: str) -> float:
    statecache.clear()
    game = clone_game(recording, name)
    return statistics.median(replay_orders(game, recording)) * 1000


def seed_games(recording: Recording, games: int) -> int:
    """Copy the recorded game `games` times by COPY; returns the number of events written."""
    template = Game.objects.get(pk=recording.game_id)
    seats = list(template.seats.values_list("faction", "name", "email", "language"))
    rows = list(
        Event.objects.filter(game=template).order_by("seq").values_list("seq", "type", "payload", "actor")
    )
    payload_texts = [canonical_json(payload) for _, _, payload, _ in rows]
    base = timezone.now() - timedelta(days=365)
    written = 0
    for start in range(0, games, BATCH_GAMES):
        count = min(BATCH_GAMES, games - start)
        with transaction.atomic(), connection.cursor() as cursor:
            # Games, seats and summaries through the ORM (their columns' defaults live there); events by COPY.
            new_games = Game.objects.bulk_create(
                [
                    Game(name=f"scale {start + n}", seed=template.seed, status=Game.Status.ENDED)
                    for n in range(count)
                ]
            )
            ids = [game.pk for game in new_games]
            Seat.objects.bulk_create(
                [
                    Seat(game_id=game_id, faction=faction, name=name, email=email, language=language)
                    for game_id in ids
                    for faction, name, email, language in seats
                ]
            )
            raw = cursor.cursor  # psycopg's own cursor, for COPY
            columns = "game_id, seq, type, payload, actor, schema_version, created, prev_hash, hash"
            with raw.copy(f"COPY games_event ({columns}) FROM STDIN") as copy:
                for n, game_id in enumerate(ids):
                    created = base + timedelta(minutes=start + n)
                    prev = GENESIS_HASH
                    for (seq, event_type, payload, actor), text in zip(rows, payload_texts, strict=True):
                        digest = event_hash(
                            game_id=game_id,
                            seq=seq,
                            type=event_type,
                            payload=payload,
                            actor=actor,
                            schema_version=SCHEMA_VERSION,
                            created=created,
                            prev_hash=prev,
                        )
                        copy.write_row(
                            (game_id, seq, event_type, text, actor, SCHEMA_VERSION, created, prev, digest)
                        )
                        prev = digest
            GameSummary.objects.bulk_create(
                [
                    GameSummary(game_id=game_id, status="ended", last_seq=len(rows), updated=base)
                    for game_id in ids
                ]
            )
        written += count * len(rows)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return written


def bench_scale(recording: Recording, games: int, earlier: list[Figure]) -> list[Figure]:
    """Order latency (p50 of the recorded game's orders) before and after seeding `games` games."""
    empty_p50 = _latency_p50(recording, "scale before")
    started = time.perf_counter()
    events = seed_games(recording, games)
    seeded_in = time.perf_counter() - started
    total_games = Game.objects.count()
    total_events = Event.objects.count()
    seeded_p50 = _latency_p50(recording, "scale after")
    detail = f"{total_games} games, {total_events} events ({events} seeded by COPY in {seeded_in:.0f} s)"
    return [
        Figure("scale_empty_order_p50_ms", empty_p50, "ms", "nearly empty database"),
        Figure("scale_seeded_order_p50_ms", seeded_p50, "ms", detail),
        Figure("scale_order_latency_ratio", seeded_p50 / empty_p50, "x", "seeded / empty"),
    ]

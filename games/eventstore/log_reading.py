"""Reading the event log: a game's events, and its state folded from the newest snapshot.

Writing is games/eventstore/store.py; this module only reads, in as few round trips as the database allows.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

from django.db import connection

from games.engine.events import Event as EngineEvent
from games.eventstore.hashing import GENESIS_HASH
from games.eventstore.store import head
from games.models import Event, Game, Snapshot

S = TypeVar("S")


def load_events(game: Game, after_seq: int = 0, up_to_seq: int | None = None) -> list[Event]:
    """The game's stored events after `after_seq` (up to `up_to_seq`, inclusive), in seq order."""
    rows = Event.objects.filter(game=game, seq__gt=after_seq)
    if up_to_seq is not None:
        rows = rows.filter(seq__lte=up_to_seq)
    return list(rows.order_by("seq"))


# PostgreSQL hands a range of the log over as one row, one JSON array [type, payload, type,
# payload, ...] in seq order, which decodes in a single json.loads. Fetching and decoding row by row
# costs about twice the client time (psycopg's per-row work and json.loads' per-call overhead); the
# work done is the same: every event read and decoded. SEQ_MAX stands in for "no upper bound".
SEQ_MAX = 2**31 - 1  # PositiveIntegerField is a 4-byte integer on PostgreSQL
EVENTS_JSON = "'[' || string_agg(to_json(type)::text || ',' || payload::text, ',' ORDER BY seq) || ']'"
EVENTS_AGGREGATED = f"""
SELECT {EVENTS_JSON}
FROM games_event WHERE game_id = %(game)s AND seq > %(after)s AND seq <= %(up_to)s
"""
# load_state's one round trip: the head (at or before up_to_seq), the newest snapshot at or before
# it, and the events after that snapshot. One statement, so all three come from one moment.
SNAPSHOT_AND_TAIL = f"""
WITH head AS (
    SELECT seq, hash FROM games_event
    WHERE game_id = %(game)s AND seq <= %(up_to)s ORDER BY seq DESC LIMIT 1
), snapshot AS (
    SELECT seq, state FROM games_snapshot
    WHERE game_id = %(game)s AND seq <= %(up_to)s ORDER BY seq DESC LIMIT 1
)
SELECT (SELECT seq FROM head), (SELECT hash FROM head),
       (SELECT seq FROM snapshot), (SELECT state FROM snapshot), {EVENTS_JSON}
FROM games_event
WHERE game_id = %(game)s AND seq > COALESCE((SELECT seq FROM snapshot), 0) AND seq <= %(up_to)s
"""


def _json(value: Any) -> Any:
    # Django's database backends hand JSON columns over as text (the JSONField decodes it).
    return json.loads(value) if isinstance(value, str) else value


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a long log's payloads are decoded (and folded).

    Decoded JSON holds no reference cycles, yet the tens of thousands of new lists and dicts of a
    long log triggered passes over the whole process's heap, which found nothing and cost as much
    as the decoding itself; now one young collection passes over the new objects once, afterwards.
    A caller that folds the events and drops them before the pause ends spares that pass too: the
    objects are freed by their reference counts, and the collector never sees them (see load_state).
    Only a collector that was running is restarted (another thread may have paused it too; it then
    restarts when that thread is done).
    """
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def _engine_events(events_json: str | None) -> list[EngineEvent]:
    """Engine Events from EVENTS_JSON (NULL when the range is empty)."""
    if events_json is None:
        return []
    with collector_paused():
        items = iter(_json(events_json))
        return list(map(EngineEvent, items, items))  # pairs: type, payload


def load_engine_events(game: Game, after_seq: int = 0, up_to_seq: int | None = None) -> list[EngineEvent]:
    """Like load_events, as engine Events (type, payload): the fast path for folding."""
    params = {"game": game.pk, "after": after_seq, "up_to": SEQ_MAX if up_to_seq is None else up_to_seq}
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(EVENTS_AGGREGATED, params)
            return _engine_events(cursor.fetchone()[0])
    # Elsewhere (SQLite) row by row, in plain SQL: the ORM triples the client time.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT type, payload FROM games_event WHERE game_id = %(game)s AND seq > %(after)s"
            " AND seq <= %(up_to)s ORDER BY seq",
            params,
        )
        return [EngineEvent(event_type, _json(payload)) for event_type, payload in cursor.fetchall()]


@dataclass(frozen=True)
class Tail:
    """The log's events after `after_seq` (a state the reader has cached), as [seq, prev_hash, hash,
    type, payload] lists in seq order: read with the log's head, so that catching up costs no query."""

    after_seq: int
    events: list[list[Any]]


@dataclass(frozen=True)
class LoadedState(Generic[S]):
    state: S
    seq: int  # the last event folded in; 0 for an empty log
    snapshot_seq: int  # where folding started; 0 when no snapshot was used
    events_folded: int
    hash: str  # the hash of event `seq` (GENESIS_HASH for an empty log): with seq, the state's cache key


def load_state(
    game: Game,
    *,
    initial: Callable[[], S],
    fold_from: Callable[[S, Sequence[EngineEvent]], S],
    from_dict: Callable[[dict[str, Any]], S],
    up_to_seq: int | None = None,
) -> LoadedState[S]:
    """Fold the game's state from its newest snapshot (at or before `up_to_seq`) plus the events after it.

    The fold is passed in, so the store stays independent of the engine:
    `load_state(game, initial=GameState, fold_from=engine.fold_from, from_dict=GameState.from_dict)`.
    On PostgreSQL the head, the snapshot and the events after it come in one query.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                SNAPSHOT_AND_TAIL, {"game": game.pk, "up_to": SEQ_MAX if up_to_seq is None else up_to_seq}
            )
            head_seq, head_hash, snapshot_seq, snapshot_state, events_json = cursor.fetchone()
        snapshot = None if snapshot_seq is None else (snapshot_seq, _json(snapshot_state))
        decode = partial(_engine_events, events_json)
    else:
        head_seq, head_hash = head(game, up_to_seq)
        snapshots = Snapshot.objects.filter(game=game)
        if up_to_seq is not None:
            snapshots = snapshots.filter(seq__lte=up_to_seq)
        snapshot = snapshots.order_by("-seq").values_list("seq", "state").first()
        after = snapshot[0] if snapshot else 0
        decode = partial(load_engine_events, game, after_seq=after, up_to_seq=up_to_seq)
    if snapshot is None:
        start_seq, state = 0, initial()
    else:
        start_seq, state = snapshot[0], from_dict(snapshot[1])
    # Decoded, folded and dropped with the collector paused: the events die by their reference
    # counts before it resumes, so no young collection walks them (~33,000 objects for 10,000
    # events: a 10,000-event replay took 0.88 of the time, timed alternately in one process,
    # docs/operations.md). Past a snapshot (one per 100 events) there is little to spare; a log
    # whose snapshots were deleted is folded whole.
    with collector_paused():
        events = decode()
        folded = len(events)
        if events:
            state = fold_from(state, events)
        del events
    seq = start_seq + folded
    if seq != (head_seq or 0):  # only in a log with a gap (damaged; verifygame names it)
        head_seq, head_hash = head(game, seq)
    return LoadedState(state, seq, start_seq, folded, head_hash or GENESIS_HASH)

"""The event store: append a batch of events at an expected seq, load a game's log and state.

Appending is the only way events are written. It runs in one transaction that also runs
every registered projector (games/projections.py), so read models never disagree with the
log, and a failure anywhere leaves nothing half-written.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from .hashing import GENESIS_HASH, canonical_json, chain
from .models import Event, Game, Snapshot
from .projections import project

if TYPE_CHECKING:
    from .engine.events import Event as EngineEvent

SCHEMA_VERSION = 1
SEQ_CONSTRAINT = "games_event_unique_seq"

S = TypeVar("S")


class ConcurrencyError(Exception):
    """The game moved on: another append won the race for `expected_seq`. Nothing was written."""

    def __init__(self, game_id: int, expected_seq: int, actual_seq: int | None) -> None:
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
        super().__init__(
            f"game {game_id} has moved on: expected seq {expected_seq}, "
            f"found {'a concurrent append' if actual_seq is None else actual_seq}"
        )


class EventLike(Protocol):
    """What `append_events` accepts: games.engine.events.Event or anything with the same two fields."""

    @property
    def type(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...


def head(game: Game | int, up_to_seq: int | None = None) -> tuple[int, str]:
    """The (seq, hash) of the game's last event (at or before `up_to_seq`); (0, GENESIS_HASH) for none."""
    game_id = game if isinstance(game, int) else game.pk
    rows = Event.objects.filter(game_id=game_id)
    if up_to_seq is not None:
        rows = rows.filter(seq__lte=up_to_seq)
    row = rows.order_by("-seq").values_list("seq", "hash").first()
    return row if row is not None else (0, GENESIS_HASH)


# The hot path of every order, in one round trip; plain SQL because the ORM's version of this
# query costs several times as much client time. FOR UPDATE is left out where unsupported (SQLite,
# whose writers are serialised by BEGIN IMMEDIATE instead).
LOCK_WITH_HEAD = """
SELECT g.status,
       (SELECT e.seq FROM games_event e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1),
       (SELECT e.hash FROM games_event e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1)
FROM games_game g WHERE g.id = %s
"""


def _lock_with_head(game_id: int) -> tuple[str, int, str]:
    """Lock the Game row and read its status and the head (seq, hash) of its log, in one query."""
    sql = LOCK_WITH_HEAD + (" FOR UPDATE OF g" if connection.features.has_select_for_update_of else "")
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"game {game_id} does not exist")
    status, seq, digest = row
    return status, seq or 0, digest or GENESIS_HASH


def lock_head(game: Game) -> tuple[int, str]:
    """Lock the game row for the rest of the caller's transaction and read its log's head (seq,
    hash), in one query; `game.status` is refreshed. Hand the head to append_events (`locked=`) in
    the same transaction: the append then needs no lock and head query of its own."""
    game.status, seq, digest = _lock_with_head(game.pk)
    return seq, digest


def _validated(
    events: Iterable[EventLike], actor: str, expected_seq: int
) -> list[tuple[str, dict[str, Any]]]:
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int) or expected_seq < 0:
        raise ValueError(f"expected_seq must be an integer >= 0, not {expected_seq!r}")
    if not isinstance(actor, str) or len(actor) > 100:
        raise ValueError("actor must be a string of at most 100 characters")
    checked = []
    for index, event in enumerate(events):
        event_type, payload = getattr(event, "type", None), getattr(event, "payload", None)
        if not isinstance(event_type, str) or not 0 < len(event_type) <= 64:
            raise ValueError(f"event {index}: type must be a non-empty string of at most 64 characters")
        if not isinstance(payload, Mapping):
            raise ValueError(f"event {index} ({event_type}): payload must be a mapping")
        payload = dict(payload)
        canonical_json(payload)  # raises NotCanonical for floats and other unstorable values
        checked.append((event_type, payload))
    if not checked:
        raise ValueError("append_events needs at least one event")
    return checked


def _is_seq_conflict(error: IntegrityError) -> bool:
    diag = getattr(error.__cause__, "diag", None)
    if diag is not None and getattr(diag, "constraint_name", None):
        return diag.constraint_name == SEQ_CONSTRAINT
    text = str(error)
    return SEQ_CONSTRAINT in text or "games_event.game_id, games_event.seq" in text


def append_events(
    game: Game,
    expected_seq: int,
    events: Iterable[EventLike],
    actor: str = "",
    *,
    now: datetime | None = None,
    savepoint: bool = True,
    locked: tuple[int, str] | None = None,
) -> list[Event]:
    """Append `events` to `game`'s log after event `expected_seq` (0 for an empty log).

    One transaction: the Game row is locked, the log's head must be `expected_seq`, the
    events get seq expected_seq+1.., chained hashes and one creation time, and every
    projector sees them; `game.status` is refreshed from the locked row. Raises
    ConcurrencyError if another append got there first (also when the unique (game, seq)
    index catches a race the lock did not), ValueError or NotCanonical for bad input, and
    Game.DoesNotExist for an unknown game; in every failure nothing is written.
    `savepoint=False`: inside a caller's transaction that rolls back as a whole when this
    raises (submit_order), skip the savepoint and its two round trips. `locked`: the head the
    caller read with `lock_head` in the transaction it holds (submit_order).
    """
    if locked is not None and not transaction.get_connection().in_atomic_block:
        raise ValueError("append_events(locked=...) needs the transaction lock_head ran in")
    checked = _validated(events, actor, expected_seq)
    created = now or timezone.now()
    status_before = game.status
    try:
        with transaction.atomic(savepoint=savepoint):
            if locked is None:
                game.status, seq, prev_hash = _lock_with_head(game.pk)
            else:
                seq, prev_hash = locked
            if seq != expected_seq:
                raise ConcurrencyError(game.pk, expected_seq, seq)
            digests = chain(
                prev_hash,
                game_id=game.pk,
                first_seq=seq + 1,
                events=[(event_type, canonical_json(payload), actor) for event_type, payload in checked],
                schema_version=SCHEMA_VERSION,
                created=created,
            )
            rows = []
            for (event_type, payload), digest in zip(checked, digests, strict=True):
                seq += 1
                rows.append(
                    Event(
                        game=game,
                        seq=seq,
                        type=event_type,
                        payload=payload,
                        actor=actor,
                        schema_version=SCHEMA_VERSION,
                        created=created,
                        prev_hash=prev_hash,
                        hash=digest,
                    )
                )
                prev_hash = digest
            Event.objects.bulk_create(rows)
            project(game, rows)
    except BaseException as error:
        game.status = status_before  # projectors may have changed it in a transaction now undone
        if isinstance(error, IntegrityError) and _is_seq_conflict(error):
            raise ConcurrencyError(game.pk, expected_seq, None) from error
        raise
    return rows


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
    from .engine.events import Event as EngineEvent

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
    from .engine.events import Event as EngineEvent

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT type, payload FROM games_event WHERE game_id = %(game)s AND seq > %(after)s"
            " AND seq <= %(up_to)s ORDER BY seq",
            params,
        )
        return [EngineEvent(event_type, _json(payload)) for event_type, payload in cursor.fetchall()]


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


def save_snapshot(game: Game, seq: int, state: dict[str, Any]) -> Snapshot:
    """Store the folded state after event `seq`; a snapshot already there for that seq is kept."""
    last_seq, _ = head(game)
    if not 1 <= seq <= last_seq:
        raise ValueError(f"no event {seq} in game {game.pk} (last seq {last_seq}) to snapshot")
    snapshot, _ = Snapshot.objects.get_or_create(game=game, seq=seq, defaults={"state": state})
    return snapshot

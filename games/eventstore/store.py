"""The event store: append a batch of events at an expected seq; the log's head; snapshots.

Appending is the only way events are written. It runs in one transaction that also runs
every registered projector (games/eventstore/projections.py), so read models never disagree with the
log, and a failure anywhere leaves nothing half-written. Reading a log and folding a state
from it is games/eventstore/log_reading.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Protocol

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from aegea_pbem.sql_inserts import insert_rows
from games.eventstore.hashing import GENESIS_HASH, canonical_json, chain
from games.eventstore.projections import project
from games.models import Event, Game, Snapshot

SCHEMA_VERSION = 1
SEQ_CONSTRAINT = "games_event_unique_seq"


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


# The lock and head of an append that locks the game itself (submit_order locks with
# games/services/order_lock.py), in one round trip; plain SQL because the ORM's version of this query costs
# several times as much client time. FOR UPDATE is left out where unsupported (SQLite, whose
# writers are serialised by BEGIN IMMEDIATE instead).
# The head (seq, hash) of the log of the game whose id is the two parameters: two columns.
HEAD_OF_GAME = """(SELECT e.seq FROM games_event e WHERE e.game_id = %s ORDER BY e.seq DESC LIMIT 1),
       (SELECT e.hash FROM games_event e WHERE e.game_id = %s ORDER BY e.seq DESC LIMIT 1)"""
LOCK_WITH_HEAD = f"""
SELECT g.status, {HEAD_OF_GAME}
FROM games_game g WHERE g.id = %s
"""


def _lock_with_head(game_id: int) -> tuple[str, int, str]:
    """Lock the Game row and read its status and the head (seq, hash) of its log, in one query."""
    sql = LOCK_WITH_HEAD + (" FOR UPDATE OF g" if connection.features.has_select_for_update_of else "")
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id] * 3)
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"game {game_id} does not exist")
    status, seq, digest = row
    return status, seq or 0, digest or GENESIS_HASH


def _validated(
    events: Iterable[EventLike], actor: str, expected_seq: int
) -> list[tuple[str, dict[str, Any], str]]:
    """Each event's type, payload and the payload's canonical JSON (which the hash chain takes)."""
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
        # Raises NotCanonical for floats and other unstorable values.
        checked.append((event_type, payload, canonical_json(payload)))
    if not checked:
        raise ValueError("append_events needs at least one event")
    return checked


def is_seq_conflict(error: IntegrityError) -> bool:
    """Whether `error` is the unique (game, seq) index refusing a second event at a seq."""
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
    caller read with the game's row lock in the transaction it holds (submit_order,
    games/services/order_lock.py).
    """
    if locked is not None and not transaction.get_connection().in_atomic_block:
        raise ValueError("append_events(locked=...) needs the transaction the head was read and locked in")
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
                events=[(event_type, payload_json, actor) for event_type, _payload, payload_json in checked],
                schema_version=SCHEMA_VERSION,
                created=created,
            )
            rows = []
            for (event_type, payload, _json), digest in zip(checked, digests, strict=True):
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
            insert_rows(rows, returning_pk=True)
            project(game, rows)
    except BaseException as error:
        game.status = status_before  # projectors may have changed it in a transaction now undone
        if isinstance(error, IntegrityError) and is_seq_conflict(error):
            raise ConcurrencyError(game.pk, expected_seq, None) from error
        raise
    return rows


def snapshot_appended(game: Game, seq: int, state: dict[str, Any]) -> None:
    """save_snapshot for event `seq` that the caller has just appended in the transaction it holds
    (submit_order): one INSERT, with no head query; a snapshot already there for `seq` is kept."""
    insert_rows([Snapshot(game=game, seq=seq, state=state)], ignore_conflicts=True)


def save_snapshot(game: Game, seq: int, state: dict[str, Any]) -> Snapshot:
    """Store the folded state after event `seq`; a snapshot already there for that seq is kept."""
    last_seq, _ = head(game)
    if not 1 <= seq <= last_seq:
        raise ValueError(f"no event {seq} in game {game.pk} (last seq {last_seq}) to snapshot")
    snapshot, _ = Snapshot.objects.get_or_create(game=game, seq=seq, defaults={"state": state})
    return snapshot

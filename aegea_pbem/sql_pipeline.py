"""An order's writes sent without waiting for each answer: psycopg's pipeline mode, opted into.

submit_order's transaction waited for the database eight times: BEGIN, the lock, the events'
INSERT, three projector upserts, the outbox's INSERT, COMMIT, each a wakeup of both the web
process and its PostgreSQL backend. Inside `pipelined()` the INSERTs that `insert_rows` sends
under `unanswered()` go out without a wait; the block's end waits once for all of them. With
`pipelined_transaction()` the transaction's COMMIT goes out unanswered after them, in the same
wait. The order then waited three times (BEGIN, which psycopg waits for on its own, the lock,
and the writes with COMMIT): on the 1-client bench ~1 ms less per order than with eight waits, and
less CPU in both processes (docs/operations.md). Since the BEGIN goes out unanswered too
(`_begin_unanswered`), answered with the lock's rows, it waits twice.

Every other statement in the block is answered at once, as outside it: Django knows nothing of
pipelines, and an UPDATE's row count (on which `Model.save()` decides to INSERT), a SELECT's
description (`raw()`) or a statement's own error would otherwise be unknown when Django asks. So
only an unanswered INSERT's error comes late: at the next answered statement or at the block's
end, as Django's error class, and the transaction is aborted from that INSERT on. Two rules
follow for code inside a block:
- do not send unanswered what may fail in a way you mean to catch (the order path's unanswered
  INSERTs say ON CONFLICT, and submit_order turns the seq index's clash, wherever it is raised,
  into a look at the game again, as append_events does);
- do not catch a database error and carry on. COMMIT of an aborted transaction is a ROLLBACK
  that raises nothing, so an order that did would be told "accepted" and kept nowhere: the block
  raises at its end if its transaction is aborted, whatever was caught inside.
RETURNING rows of an unanswered INSERT are read after the block's wait (`after_sync`); in a
`pipelined_transaction()` that is after the COMMIT and before the transaction's on_commit hooks.

Only PostgreSQL has a pipeline; elsewhere, or with DB_PIPELINE=off (docs/operations.md), every
statement of the block is answered at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from psycopg import pq

_STATE = "_aegea_pipeline"


@dataclass
class _Pipeline:
    pipeline: Any  # psycopg's Pipeline
    unanswered: bool = False  # the statement being sent may go without a wait
    reads: list[Callable[[], None]] = field(default_factory=list)
    # A statement of the block raised, whether or not the caller caught it. libpq's transaction
    # status alone is not enough: when "pipeline aborted" is raised before the sync's
    # ReadyForQuery is read, the status is still ACTIVE, not INERROR, and the queued COMMIT would
    # end the aborted transaction as a silent ROLLBACK.
    failed: bool = False
    # INSERTs held back to go as one statement (`held`): (table, sql, params, cursor or None)
    held: list[tuple[str, str, list[Any], Any]] = field(default_factory=list)
    holding: tuple[str, bool] | None = None  # inside held(): the table, and whether it returns rows


@contextmanager
def pipelined_transaction(alias: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """transaction.atomic() around pipelined(), with the transaction's COMMIT sent after the
    block's unanswered statements and waited for with them: one wait fewer per order. An error of
    any of them (the COMMIT of a transaction aborted earlier is not run) rolls it all back, as in
    atomic(); on_commit hooks run after it commits, as there. Inside an outer transaction it is a
    savepoint, as atomic() is, and the outer one commits."""
    conn = connections[alias]
    commit = not conn.in_atomic_block
    with transaction.atomic(using=alias), pipelined(alias, commit=commit):
        yield


@contextmanager
def pipelined(alias: str = DEFAULT_DB_ALIAS, commit: bool = False) -> Iterator[None]:
    """Let the block's `unanswered()` statements on the connection `alias` go without a wait for
    each, and wait for them at the block's end (raising the first error among them). Use it inside
    the caller's transaction, which the error then rolls back; nested, it is the outer one.
    `commit`: the caller's transaction ends here, its COMMIT queued behind the block's statements
    (pipelined_transaction, which alone passes it, for an atomic() it opened itself)."""
    conn = connections[alias]
    if conn.vendor != "postgresql" or not settings.DB_PIPELINE or getattr(conn, _STATE, None) is not None:
        yield
        return
    conn.ensure_connection()
    # Django's error classes for the errors raised where the pipeline is waited for.
    with conn.wrap_database_errors, conn.connection.pipeline() as pipeline:
        _sent_at_syncs(pipeline)
        state = _Pipeline(pipeline)
        setattr(conn, _STATE, state)
        try:
            if commit:
                _begin_unanswered(conn.connection, pipeline)
            with conn.execute_wrapper(_answered_unless_unanswered(state, conn)):
                yield
                _send_held(state, conn)
                if commit:
                    _commit_unanswered(conn, state)
        except BaseException:
            state.held.clear()
            # Take the failed batch's answers here: psycopg's exit would raise on them again and
            # log a warning for every order that failed (a seq clash retried, say).
            with contextlib.suppress(Exception):
                pipeline.sync()
            raise
        finally:
            setattr(conn, _STATE, None)
    if conn.connection.info.transaction_status == pq.TransactionStatus.INERROR:
        raise DatabaseError("A statement failed in a pipelined transaction and its error was caught.")
    for read in state.reads:
        read()


def _sent_at_syncs(pipeline: Any) -> None:
    """Make `pipeline` send what is queued only when it is synced: psycopg sends each statement on
    its own as it is executed (its communicate flushes libpq's buffer before queuing the next one),
    so an order went out in seven sends (strace: BEGIN, the lock, its Sync, the held INSERTs,
    COMMIT, Sync, a Flush request), each a wakeup of the backend that reads it. Here the queued
    statements go into libpq's buffer, and PQpipelineSync, which flushes, sends them with their Sync:
    the order goes out in two sends, one per wait (BEGIN, the lock and Sync; the writes, COMMIT
    and Sync). What is answered, and when, does not change; nor do the errors, which come with the
    answers. The block's end, psycopg's exit, asks for no Flush after a Sync that was sent.

    Measured as `_begin_unanswered` was (one process, two clones in lockstep, the two ways
    alternating order by order), 7 rounds: 52.3 against 48.0 orders/s (median; median of the
    rounds' ratios 1.09, higher in all 7), client CPU 5.68 against 6.01 ms per order (lower in all
    7), PostgreSQL backend CPU 1.83 against 2.07 ms (lower in 5 of 7)."""
    pgconn, real = pipeline.pgconn, pipeline._communicate_gen

    def communicate() -> Any:
        queue, synced = pipeline.command_queue, False
        while queue:
            command = queue.popleft()
            command()  # libpq buffers it; a sync flushes the buffer
            synced = command == pgconn.pipeline_sync
        if synced:
            yield from real()  # the rest of a send that did not go out at once, and what came in

    def exit_gen() -> Any:
        try:
            pipeline._enqueue_sync()
            yield from pipeline._communicate_gen()
        finally:
            # A Flush request only if the Sync was not sent (an error before it), as psycopg asks.
            yield from pipeline._fetch_gen(flush=bool(pipeline.command_queue))

    pipeline._communicate_gen = communicate
    pipeline._exit_gen = exit_gen


def _begin_unanswered(pg: Any, pipeline: Any) -> None:
    """Send the transaction's BEGIN without waiting for it: it goes out now, and its answer comes
    with the block's first answered statement's (the order's lock). psycopg would send BEGIN before
    that statement and wait for it alone, a round trip of its own; once a BEGIN is on its way the
    connection is not idle, so psycopg sends none. If BEGIN fails, the next statement raises: as
    any statement of an aborted transaction, inside atomic(), which rolls back.

    Measured in one process replaying the bench's recorded game (208 orders) on two clones in
    lockstep, the two ways alternating order by order (so that the shared 2-core machine's load
    falls on both alike), 7 rounds: 129.4 against 123.1 orders/s (median of the rounds' ratios
    1.032, higher in 5 of 7), client CPU 5.35 against 5.42 ms per order. (Left in libpq's buffer
    rather than sent at once: 42.4 against 36.0 orders/s, median ratio 1.044 in 7 rounds, but
    strace showed BEGIN still went out in a send of its own until `_sent_at_syncs`, so read that
    as noise.)"""
    if pg.autocommit or pg.pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return  # not opened by atomic(), or already begun: psycopg's own rules hold
    _buffered_command(pg, pipeline, pg._get_tx_start_command())


def _buffered_command(pg: Any, pipeline: Any, command: bytes) -> None:
    """Put `command` (BEGIN, COMMIT) into libpq's buffer behind what psycopg queued (it leaves at
    the next sync, with the statements around it), with no answer to read but its status, as
    psycopg's own commands; not through a new psycopg cursor and its execute. For the COMMIT, in 7
    rounds measured as `_begin_unanswered` was: client CPU 5.89 against 6.04 ms per order (lower in
    all 7), orders/s within the noise (median ratio 1.006)."""
    if pipeline.command_queue:  # psycopg's queue first, in its order (_sent_at_syncs keeps it empty)
        pg.wait(pg._exec_command(command))
        return
    pg.pgconn.send_query_params(command, None)
    pipeline.result_queue.append(None)


def _commit_unanswered(conn: Any, state: _Pipeline) -> None:
    """Queue COMMIT behind the block's statements. Django's commit() at atomic()'s end then finds
    the transaction ended and psycopg sends nothing (Django still records it as the COMMIT); if a
    statement before it failed, the pipeline skips the COMMIT and the error is raised at the wait,
    inside atomic(), which rolls back."""
    if state.failed or conn.connection.info.transaction_status == pq.TransactionStatus.INERROR:
        raise DatabaseError("A statement failed in a pipelined transaction and its error was caught.")
    if conn.needs_rollback:
        return  # atomic() rolls it back
    # Not through Django's execute wrappers, which would record a second COMMIT and wait for this
    # one at once.
    _buffered_command(conn.connection, state.pipeline, b"COMMIT")


def _answered_unless_unanswered(state: _Pipeline, conn: Any) -> Callable[..., Any]:
    def execute(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if state.holding is not None and not many:
            table, returning = state.holding
            state.held.append((table, sql, list(params), context["cursor"].cursor if returning else None))
            return None
        try:
            _send_held(state, conn)  # whatever comes next is sent after the INSERTs held before it
            result = execute(sql, params, many, context)
            if not state.unanswered:
                with conn.wrap_database_errors:
                    state.pipeline.sync()
        except DatabaseError:
            state.failed = True
            raise
        return result

    return execute


@contextmanager
def unanswered(alias: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Inside `pipelined()`, the statements sent in this block are not waited for (outside one,
    they are, as usual). Only for statements whose answer nothing reads until the pipeline's end."""
    state = getattr(connections[alias], _STATE, None)
    if state is None:
        yield
        return
    state.unanswered = True
    try:
        yield
    finally:
        state.unanswered = False


@contextmanager
def held(table: str, returning: bool = False, alias: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Inside `pipelined()`, the INSERT into `table` executed in this block is held back, to be sent
    with the other held INSERTs as ONE statement (WITH a AS (INSERT ...), ... INSERT ...) before
    the block's next statement or at its end, unanswered (`returning`: it has RETURNING rows, read
    from its cursor via after_sync). Outside a pipeline it is sent, and answered, at once.

    One statement instead of four or five on the order path: each costs the client a round of
    psycopg's sending and the server a protocol message and an executor's start and end. Its errors
    come where the unanswered INSERTs' came (at the block's end). Only INSERTs into different
    tables, and at most one with RETURNING, go together (two INSERTs into one table in one
    statement would not see each other's rows for their ON CONFLICT): another starts a new batch."""
    conn = connections[alias]
    state = getattr(conn, _STATE, None)
    if state is None:
        yield
        return
    if any(t == table or (returning and c is not None) for t, _sql, _p, c in state.held):
        _send_held(state, conn)
    state.holding = (table, returning)
    try:
        yield
    finally:
        state.holding = None


def _send_held(state: _Pipeline, conn: Any) -> None:
    """Send the held INSERTs as one statement, unanswered: the one with RETURNING (else the last)
    as its main statement, on its cursor, the others as data-modifying WITH queries."""
    if not state.held:
        return
    held, state.held = state.held, []
    main = next((h for h in held if h[3] is not None), held[-1])
    others = [h for h in held if h is not main]
    sql = main[1]
    params = [p for h in others for p in h[2]] + main[2]
    if others:
        sql = "WITH " + ", ".join(f"held{n} AS ({h[1]})" for n, h in enumerate(others)) + " " + sql
    if main[3] is not None:
        cursor = main[3]  # psycopg's own cursor under Django's: no wrapper sees it again
    else:
        cursor = conn.connection.cursor()
        state.reads.append(cursor.close)
    with conn.wrap_database_errors:
        cursor.execute(sql, params)


def in_pipeline(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether `unanswered()` statements on the connection `alias` go without a wait now."""
    return getattr(connections[alias], _STATE, None) is not None


def after_sync(read: Callable[[], None], alias: str = DEFAULT_DB_ALIAS) -> None:
    """Inside `pipelined()`: call `read` once every statement sent in the block is answered (a
    cursor's rows are there then), before the block ends. Not called if the block fails."""
    state = getattr(connections[alias], _STATE, None)
    if state is None:
        raise RuntimeError("after_sync() needs a pipelined() block: outside one, read the rows now")
    state.reads.append(read)

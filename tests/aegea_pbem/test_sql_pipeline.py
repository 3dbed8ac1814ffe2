"""submit_order's statements pipelined (aegea_pbem/sql_pipeline.py): sent without waiting for each
answer, with the keys of inserted rows read at the end, and an error of any of them raised at the
pipeline's end as Django's error, rolling the order back."""

from __future__ import annotations

import contextlib
import logging

import pytest
from django.db import DatabaseError, IntegrityError, connection, connections, transaction
from django.test.utils import override_settings
from django.utils import timezone
from psycopg import pq
from psycopg._pipeline_base import BasePipeline

from aegea_pbem.sql_cursor import kept_cursor
from aegea_pbem.sql_inserts import insert_rows
from aegea_pbem.sql_pipeline import after_sync, in_pipeline, pipelined, pipelined_transaction
from games.engine import Pass
from games.models import Event, Game, Seat, SeatClock
from games.reading.situation import load_game
from games.services import orders
from games.services.orders import GameMovedOn, submit_order
from notifications.models import Outbox
from notifications.tasks import deliver_pending
from tests.order_loop_support import seats_to_act, two_player_game


def pipeline_on() -> bool:
    return connection.connection.pgconn.pipeline_status != pq.PipelineStatus.OFF


def game_with_its_seat_on_turn() -> tuple[Game, Seat, int]:
    game = two_player_game()
    (on_turn,) = seats_to_act(game)
    return game, on_turn, load_game(game).seq


def event_row(game: Game, seq: int) -> Event:
    return Event(
        game=game,
        seq=seq,
        type="Test",
        payload={"n": seq},
        actor="athens",
        schema_version=1,
        created=timezone.now(),
        prev_hash="0" * 64,
        hash=f"{seq:064d}",
    )


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_inserted_rows_get_their_keys_when_the_pipeline_is_answered_at_its_end():
    game = two_player_game()
    head = load_game(game).seq
    rows = [event_row(game, head + 1), event_row(game, head + 2)]
    with transaction.atomic(), pipelined():
        assert in_pipeline() and pipeline_on()
        insert_rows(rows, returning_pk=True)
        assert [row.pk for row in rows] == [None, None]  # not waited for: still on its way
    assert all(rows) and [Event.objects.get(pk=row.pk).seq for row in rows] == [head + 1, head + 2]
    assert not in_pipeline() and not pipeline_on()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_read_in_the_pipeline_sees_the_writes_sent_before_it():
    game = two_player_game()
    head = load_game(game).seq
    with transaction.atomic(), pipelined():
        insert_rows([event_row(game, head + 1)])
        assert Event.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True)[0] == head + 1


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_an_error_of_a_pipelined_statement_is_raised_at_the_end_as_djangos_and_rolls_all_back():
    game = two_player_game()
    head = load_game(game).seq
    clash = [event_row(game, head + 1), event_row(game, head)]  # seq `head` is taken
    reads: list[str] = []
    with pytest.raises(IntegrityError, match="games_event_unique_seq"), transaction.atomic(), pipelined():
        insert_rows([event_row(game, head + 2)])
        insert_rows(clash, returning_pk=True)  # no error here: nobody waited for it yet
        after_sync(lambda: reads.append("read"))
        reads.append("went on")
    assert reads == ["went on"]  # the rows of a failed pipeline are not read
    assert load_game(game).seq == head  # neither the rows before the clash nor after it
    with kept_cursor() as cursor:  # the connection and its kept cursor work on
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.django_db
def test_with_db_pipeline_off_each_statement_is_waited_for_and_raises_where_it_runs():
    game = two_player_game()
    head = load_game(game).seq
    off = override_settings(DB_PIPELINE=False)
    with off, pytest.raises(IntegrityError), transaction.atomic(), pipelined():
        assert not in_pipeline()
        rows = [event_row(game, head + 1)]
        insert_rows(rows, returning_pk=True)
        assert rows[0].pk is not None  # read at once
        insert_rows([event_row(game, head)])
        pytest.fail("the clash must be raised by the statement itself")
    assert load_game(game).seq == head


def test_after_sync_outside_a_pipeline_is_an_error():
    with pytest.raises(RuntimeError, match="pipelined"):
        after_sync(lambda: None)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_an_order_waits_for_its_lock_and_once_for_its_six_writes(monkeypatch):
    # The emails are sent by a worker after the order, not in its transaction: not run here.
    monkeypatch.setattr(deliver_pending, "apply_async", lambda **kwargs: None)
    game, on_turn, seq = game_with_its_seat_on_turn()
    sent: list[tuple[str, bool]] = []
    waits: list[int] = []  # each wait inside the pipeline, as the count of statements sent before it
    real_fetch_gen = BasePipeline._fetch_gen  # every wait for answers, at a sync or at the end

    def fetch_gen(self, *, flush):
        waits.append(len(sent))
        return real_fetch_gen(self, flush=flush)

    monkeypatch.setattr(BasePipeline, "_fetch_gen", fetch_gen)

    def watch(execute, sql, params, many, context):
        sent.append((sql.split(None, 1)[0], pipeline_on()))
        return execute(sql, params, many, context)

    ended_before_djangos_commit: list[bool] = []
    wrapper = connections["default"]  # `connection` is a proxy to it
    real_commit = type(wrapper)._commit

    def commit(self):
        status = self.connection.info.transaction_status
        ended_before_djangos_commit.append(status == pq.TransactionStatus.IDLE)
        return real_commit(self)

    monkeypatch.setattr(type(wrapper), "_commit", commit)
    with connection.execute_wrapper(watch):
        submit_order(game, on_turn, Pass(on_turn.faction), seq)
    # The events, the progress, the clocks, the seat record (docs/front-door.md "Reliability"),
    # the summary and the emails.
    assert sent == [("SELECT", True)] + [("INSERT", True)] * 6
    # The lock's rows (BEGIN was sent unanswered before it, and answered with it), then the
    # pipeline's end for all six writes and the COMMIT queued after them: two waits where there
    # were eight (three while psycopg waited for BEGIN on its own).
    assert waits == [1, 7]
    assert ended_before_djangos_commit == [True]  # so Django's commit() sends nothing
    assert load_game(game).seq > seq and not pipeline_on()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_seq_clash_the_lock_missed_is_looked_at_again_and_told_the_game_moved_on(monkeypatch, caplog):
    game, on_turn, before = game_with_its_seat_on_turn()
    submit_order(game, on_turn, Pass(on_turn.faction), before)
    after = load_game(game).seq
    real_lock, locks = orders.lock_game, []

    def stale_once(game_id: int, cached_seq: int | None = None):
        """The first lock reads the head as it was before the last order, as a lock that another
        order's commit slipped past would: the order is decided again on that head's (cached)
        state, and only the unique seq index finds the clash."""
        locked = real_lock(game_id, cached_seq)
        locks.append(locked.head)
        if len(locks) == 1:
            stale = Event.objects.get(game_id=game_id, seq=before)
            return orders.Locked(**{**locked.__dict__, "head": (stale.seq, stale.hash)})
        return locked

    monkeypatch.setattr(orders, "lock_game", stale_once)
    emails = Outbox.objects.count()
    status = game.status
    with pytest.raises(GameMovedOn), caplog.at_level(logging.WARNING, logger="psycopg"):
        submit_order(game, on_turn, Pass(on_turn.faction), before)
    assert not caplog.records  # the clash, raised inside the pipeline, is not raised again at its end
    assert len(locks) == 2  # looked again, with the real head: the order was decided on an old one
    assert load_game(game).seq == after and Outbox.objects.count() == emails
    assert game.status == status


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_seq_clash_raised_at_the_pipelines_end_is_looked_at_again(monkeypatch):
    game, on_turn, seq = game_with_its_seat_on_turn()
    real_decide_and_append, calls = orders._decide_and_append, []

    def clash_last_once(game, seat, command, before, locked, by):
        """The first time, the last statement of the order's pipeline clashes with the seq index."""
        calls.append(locked.head[0])
        result = real_decide_and_append(game, seat, command, before, locked, by)
        if len(calls) == 1:
            insert_rows([event_row(game, seq)])  # raised only where the pipeline is answered
        return result

    monkeypatch.setattr(orders, "_decide_and_append", clash_last_once)
    result = submit_order(game, on_turn, Pass(on_turn.faction), seq)
    assert calls == [seq, seq]  # rolled back whole, then decided again on the same head
    assert load_game(game).seq == result.seq > seq
    assert list(Event.objects.filter(game=game, seq__gt=seq).values_list("seq", flat=True)) == [
        event.seq for event in result.events
    ]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_an_order_failing_at_the_pipelines_end_leaves_the_callers_game_as_its_lock_read_it(monkeypatch):
    game, on_turn, seq = game_with_its_seat_on_turn()
    status = game.status
    real_decide_and_append = orders._decide_and_append

    def end_then_fail(game, seat, command, before, locked, by):
        result = real_decide_and_append(game, seat, command, before, locked, by)
        game.status = Game.Status.ENDED  # as the summary projector sets it on the game's last order
        insert_rows([SeatClock(game=game, faction=seat.faction)])  # a second clock: not the seq index
        return result

    monkeypatch.setattr(orders, "_decide_and_append", end_then_fail)
    with pytest.raises(IntegrityError, match="seatclock"):
        submit_order(game, on_turn, Pass(on_turn.faction), seq)
    assert game.status == status != Game.Status.ENDED
    assert load_game(game).seq == seq


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_the_orms_statements_in_a_pipeline_are_answered_at_once():
    game = two_player_game()
    seat = game.seats.get(faction="athens")
    with transaction.atomic(), pipelined():
        assert Seat.objects.filter(pk=seat.pk).update(name="Anna") == 1  # its row count is known
        seat.name = "Ana B."
        seat.save()  # an UPDATE whose row count says the row exists: no INSERT after it
        (raw,) = Seat.objects.raw("SELECT id, name FROM games_seat WHERE id = %s", [seat.pk])
        assert raw.name == "Ana B."  # raw() needs the description at once
        with pytest.raises(IntegrityError), transaction.atomic():  # its own error, where it runs
            Seat.objects.create(game=game, faction="athens", name="Twin", email="t@example.com")
    assert Seat.objects.get(pk=seat.pk).name == "Ana B."
    assert game.seats.count() == 2


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_an_unanswered_inserts_error_comes_at_the_next_answered_statement():
    game = two_player_game()
    head = load_game(game).seq
    with pytest.raises(IntegrityError, match="games_event_unique_seq"), transaction.atomic(), pipelined():
        insert_rows([event_row(game, head)])
        Seat.objects.filter(game=game).count()  # answered: the clash before it is raised here
        pytest.fail("the clash must be raised by the next answered statement")
    assert load_game(game).seq == head


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_transaction_whose_errors_were_caught_inside_the_pipeline_fails_instead_of_committing_nothing():
    game = two_player_game()
    head = load_game(game).seq
    with pytest.raises(DatabaseError, match="caught"), transaction.atomic(), pipelined():
        insert_rows([event_row(game, head + 1)])
        insert_rows([event_row(game, head)])
        for _ in range(2):  # the clash, then "pipeline aborted"; psycopg has nothing left to raise
            with contextlib.suppress(DatabaseError):
                Seat.objects.filter(game=game).count()
        # Carrying on, COMMIT would be a silent ROLLBACK, with the order told it was accepted.
    assert load_game(game).seq == head


def other_connections_count(game: Game) -> int:
    """The game's events as a second connection sees them: only what is committed."""
    other = connection.copy()
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM games_event WHERE game_id = %s", [game.pk])
            return cursor.fetchone()[0]
    finally:
        other.close()


def committed_game() -> tuple[Game, int, int]:
    """A game, the seq of its head, and how many of its events are committed."""
    game = two_player_game()
    return game, load_game(game).seq, other_connections_count(game)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pipelined_transaction_commits_in_the_writes_wait_and_then_runs_its_on_commit_hooks():
    game, head, committed_before = committed_game()
    seen: list[str] = []
    rows = [event_row(game, head + 1)]
    with pipelined_transaction():
        insert_rows(rows, returning_pk=True)
        transaction.on_commit(lambda: seen.append(f"hook sees {other_connections_count(game)}"))
        after_sync(lambda: seen.append(f"read {rows[0].pk is not None}"))
        assert seen == [] and other_connections_count(game) == committed_before
    assert seen == ["read True", f"hook sees {committed_before + 1}"]
    assert connection.get_autocommit() and not connection.in_atomic_block
    assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pipelined_transactions_unanswered_begin_opens_one_transaction_for_all_its_statements():
    """BEGIN goes out unanswered (answered with the first answered statement): the statements after
    it still run in one transaction, so a row locked by the first stays locked until the COMMIT."""
    game, _head, _events = committed_game()
    with pipelined_transaction():
        assert connection.connection.info.transaction_status == pq.TransactionStatus.ACTIVE  # BEGIN sent
        with kept_cursor() as cursor:
            cursor.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
            cursor.execute("SELECT pg_current_xact_id()::text, now() = transaction_timestamp()")
            first = cursor.fetchone()
            cursor.execute("SELECT pg_current_xact_id()::text")
            assert cursor.fetchone()[0] == first[0] and first[1]
        other = connection.copy()
        try:  # the row stays locked after the statement that locked it: the transaction is open
            with pytest.raises(DatabaseError, match="could not obtain lock"), other.cursor() as peek:
                peek.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE NOWAIT", [game.pk])
        finally:
            other.close()
        assert connection.connection.info.transaction_status == pq.TransactionStatus.INTRANS


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pipelined_transaction_whose_write_fails_skips_its_commit_and_rolls_all_back():
    game, head, events = committed_game()
    hooks: list[str] = []
    with pytest.raises(IntegrityError, match="games_event_unique_seq"), pipelined_transaction():
        insert_rows([event_row(game, head + 1)])
        insert_rows([event_row(game, head)])  # the clash: the COMMIT queued after it is not run
        transaction.on_commit(lambda: hooks.append("ran"))
    assert hooks == [] and other_connections_count(game) == events
    assert connection.get_autocommit()
    with pipelined_transaction():  # the connection goes on
        insert_rows([event_row(game, head + 1)])
    assert other_connections_count(game) == events + 1


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pipelined_transaction_whose_error_was_caught_commits_nothing():
    game, head, events = committed_game()
    with pytest.raises(DatabaseError, match="caught"), pipelined_transaction():
        insert_rows([event_row(game, head + 1)])
        insert_rows([event_row(game, head)])
        for _ in range(2):  # the clash, then "pipeline aborted", each caught
            with contextlib.suppress(DatabaseError):
                Seat.objects.filter(game=game).count()
    assert other_connections_count(game) == events


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_pipelined_transaction_inside_another_is_a_savepoint_and_the_outer_one_decides():
    game, head, events = committed_game()
    with pytest.raises(RuntimeError, match="outer"), transaction.atomic():
        with pipelined_transaction():
            insert_rows([event_row(game, head + 1)])
        assert connection.connection.info.transaction_status == pq.TransactionStatus.INTRANS
        assert Event.objects.filter(game=game).count() == events + 1  # seen inside the outer one
        raise RuntimeError("the outer transaction fails")
    assert other_connections_count(game) == events


def sent_statements(monkeypatch) -> list[str]:
    """The SQL texts psycopg's cursors send from now on (below Django's wrappers)."""
    import psycopg

    sent: list[str] = []
    real = psycopg.Cursor.execute

    def execute(self, query, params=None, **kwargs):  # type: ignore[no-untyped-def]
        sent.append(str(query))
        return real(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", execute)
    monkeypatch.setattr(psycopg.ClientCursor, "execute", execute)
    return sent


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_inserts_into_different_tables_go_as_one_statement_with_the_returning_one_as_its_main(monkeypatch):
    game, seat, _seq = game_with_its_seat_on_turn()
    head = load_game(game).seq
    rows = [event_row(game, head + 1)]
    clock = SeatClock(game=game, faction="nobody", obligation="")
    sent = sent_statements(monkeypatch)
    with transaction.atomic(), pipelined():
        insert_rows(rows, returning_pk=True)
        insert_rows([clock])
    (statement,) = [s for s in sent if "INSERT" in s]
    assert statement.startswith("WITH held0 AS (INSERT INTO") and "RETURNING" in statement.rsplit(")", 1)[1]
    assert Event.objects.get(pk=rows[0].pk).seq == head + 1
    assert SeatClock.objects.filter(game=game, faction="nobody").exists()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_two_inserts_into_one_table_go_as_two_statements_so_that_the_second_sees_the_first(monkeypatch):
    game = two_player_game()
    head = load_game(game).seq
    sent = sent_statements(monkeypatch)
    with transaction.atomic(), pipelined():
        insert_rows([event_row(game, head + 1)])
        insert_rows([event_row(game, head + 1)], ignore_conflicts=True)  # the same seq: skipped
    assert len([s for s in sent if "INSERT" in s]) == 2
    assert Event.objects.filter(game=game, seq=head + 1).count() == 1


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_statement_after_held_inserts_is_sent_after_them_and_sees_their_rows():
    game = two_player_game()
    head = load_game(game).seq
    with transaction.atomic(), pipelined():
        insert_rows([event_row(game, head + 1)])
        insert_rows([SeatClock(game=game, faction="nobody", obligation="")])
        assert SeatClock.objects.filter(game=game, faction="nobody").count() == 1
        assert Event.objects.filter(game=game).order_by("-seq")[0].seq == head + 1

"""The order path's kept cursor: one per connection, recorded when Django records queries,
replaced when its connection is, and dropped by a statement that raises."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from aegea_pbem.sql_cursor import kept_cursor


def one(sql: str) -> object:
    with kept_cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_statements_on_one_connection_share_one_cursor_which_stays_open():
    with kept_cursor() as first:
        first.execute("SELECT 1")
    with kept_cursor() as second:
        second.execute("SELECT 2")
        assert second.fetchone() == (2,)
    assert second is first


@pytest.mark.django_db
def test_every_statement_is_recorded_while_django_records_queries():
    one("SELECT 1")
    with CaptureQueriesContext(connection) as captured:
        assert one("SELECT 41 + 1") == 42
        assert one("SELECT 7") == 7
    assert [query["sql"] for query in captured.captured_queries] == ["SELECT 41 + 1", "SELECT 7"]


@pytest.mark.postgresql  # SQLite's in-memory test database ignores close()
@pytest.mark.django_db(transaction=True)
def test_a_closed_connection_is_opened_again_with_a_new_cursor():
    with kept_cursor() as before:
        before.execute("SELECT 1")
    connection.close()
    with kept_cursor() as after:
        after.execute("SELECT 5")
        assert after.fetchone() == (5,)
    assert after is not before and after.cursor.connection is connection.connection


@pytest.mark.django_db(transaction=True)
def test_a_statement_that_raises_drops_the_kept_cursor_and_the_next_one_works():
    with kept_cursor() as before:
        before.execute("SELECT 1")
    with pytest.raises(DatabaseError), transaction.atomic(), kept_cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table")
    with kept_cursor() as after:
        after.execute("SELECT 3")
        assert after.fetchone() == (3,)
    assert after is not before

"""One kept cursor per database connection for the hand-written statements of the order path.

An order runs about eight statements of its own (aegea_pbem/sql_inserts.py, sql_selects.py, the
state and head reads), and a new cursor for each (Django's wrapper around a psycopg cursor, which
builds its own adapters map) was ~4% of a web process's Python time in the HTTP bench. A cursor
can run any number of statements, so `kept_cursor` keeps one per connection and hands it out
again while that connection lives. It does what `connection.cursor()` does before each use (the
health check, connecting if needed); it gives a fresh cursor whenever Django records queries
(DEBUG, assertNumQueries, CaptureQueriesContext), so every statement is still recorded; and a
statement that raises drops the kept cursor.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

_KEPT = "_aegea_kept_cursor"


@contextmanager
def kept_cursor(alias: str = DEFAULT_DB_ALIAS) -> Iterator[Any]:
    """A cursor for the connection `alias` of this thread, as `with connection.cursor()` gives one,
    but kept open for the connection's next statements instead of closed at the block's end."""
    conn = connections[alias]
    if conn.queries_logged:
        with conn.cursor() as cursor:
            yield cursor
        return
    conn.close_if_health_check_failed()
    conn.ensure_connection()
    kept = getattr(conn, _KEPT, None)
    # (sqlite3's cursors do not say whether they are closed; nothing here closes a kept one but a drop)
    if kept is None or kept.cursor.connection is not conn.connection or getattr(kept.cursor, "closed", False):
        kept = conn.cursor()
        setattr(conn, _KEPT, kept)
    try:
        yield kept
    except BaseException:
        setattr(conn, _KEPT, None)
        kept.close()
        raise

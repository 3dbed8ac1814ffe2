"""INSERTs on every order's path, as plain SQL built once per shape instead of by the ORM.

`QuerySet.bulk_create` compiles its statement on every call: for an order's few rows (its events,
the seat clocks it changed, its emails) that compiling costs more client time than the database
spends on them. `insert_rows` writes the same statement the ORM would, from each field's own
`pre_save` and `get_db_prep_save` (so JSON, times and auto_now_add come out as the ORM writes
them), and keeps the SQL per (model, columns, row count, conflict clause). PostgreSQL and SQLite
(3.35+) both take multi-row VALUES, ON CONFLICT and RETURNING.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models

from .sql_cursor import kept_cursor
from .sql_pipeline import after_sync, held, in_pipeline

_SQL: dict[tuple[Any, ...], str] = {}
MAX_PARAMETERS = 65_535  # PostgreSQL's wire protocol counts a statement's parameters in 16 bits
Preparer = Callable[[models.Model, Any], Any]
# An int of an integer field, a str of a text field, a bool of a boolean field, an aware datetime
# (or None) of a time field that is not auto_now(_add), and a dict or list of a JSON field are bound
# as the ORM binds them without the field's own preparation chain (get_prep_value, to_python and
# the checks that leave such values as they are), and so is None of an integer field: that
# preparation is the bulk of an INSERT's client time for an order's small rows. Anything else (a
# lazy string, a naive time, JSON of another type, None of other fields) is prepared by the field,
# as the ORM does.
_AUTO_TYPES = frozenset({"AutoField", "BigAutoField", "SmallAutoField"})
_INTEGER_TYPES = frozenset(
    {
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
    }
)
_TEXT_TYPES = frozenset({"CharField", "TextField"})


def insert_rows(
    rows: Sequence[models.Model],
    *,
    conflict: Sequence[str] = (),
    update: Sequence[str] = (),
    ignore_conflicts: bool = False,
    returning_pk: bool = False,
    increment: Sequence[str] = (),
    conflict_where: str = "",
) -> None:
    """INSERT `rows` (all of one model) in as few statements as the backend's parameter limit allows.

    A row whose auto primary key is unset gets one from the database (`returning_pk=True` reads it
    back onto the row; inside sql_pipeline.pipelined(), at the block's end). `conflict` + `update`:
    on a clash with those unique fields, update `update` (an upsert, as
    bulk_create(update_conflicts=True)); `increment`: on that clash, add the row's values of these
    fields to the stored ones (n = n + EXCLUDED.n: a counter kept with no read). `conflict_where`:
    the predicate of a partial unique index on `conflict`, as SQL (e.g. '"until_seq" IS NULL').
    `ignore_conflicts`: skip clashing rows.
    """
    if not rows:
        return
    model = type(rows[0])
    meta = model._meta
    auto_pk = isinstance(meta.pk, models.AutoField) and all(row.pk is None for row in rows)
    fields = [f for f in meta.concrete_fields if not (auto_pk and f is meta.pk)]
    conn = connections[DEFAULT_DB_ALIAS]  # the thread's connection, looked up once (not per attribute)
    ops = conn.ops
    # Django's PostgreSQL backend sets no batch size, but the protocol binds at most 65,535 parameters.
    size = max(1, min(ops.bulk_batch_size(fields, rows), MAX_PARAMETERS // len(fields)))
    returning = returning_pk and auto_pk and conn.features.can_return_rows_from_bulk_insert
    prepare = _preparers(tuple(fields))
    for start in range(0, len(rows), size):
        batch = rows[start : start + size]
        params = [prep(row, ops) for row in batch for prep in prepare]
        sql = _statement(
            model,
            fields,
            len(batch),
            tuple(conflict),
            (tuple(update), tuple(increment), conflict_where),
            ignore_conflicts,
            returning,
        )
        if returning and in_pipeline():
            # Its own cursor, read once the pipeline is answered: the kept cursor's next statement
            # would take the place of these rows, and reading them now would wait for them.
            cursor = conn.cursor()
            with held(meta.db_table, returning=True):  # sent with the block's other INSERTs
                cursor.execute(sql, params)
            after_sync(functools.partial(_read_pks, cursor, batch, close=True))
        else:
            with kept_cursor() as cursor:
                if returning:
                    cursor.execute(sql, params)
                    _read_pks(cursor, batch)
                else:
                    # Nothing reads its answer: inside pipelined(), held and sent unanswered with
                    # the block's other INSERTs as one statement.
                    with held(meta.db_table):
                        cursor.execute(sql, params)
        for row in batch:
            row._state.adding = False
            row._state.db = DEFAULT_DB_ALIAS


def _read_pks(cursor: Any, batch: Sequence[models.Model], close: bool = False) -> None:
    for row, (pk,) in zip(batch, cursor.fetchall(), strict=True):
        row.pk = pk
    if close:
        cursor.close()


@functools.cache
def _preparers(fields: tuple[models.Field, ...]) -> tuple[Preparer, ...]:
    """Per field, (row, connection.ops) -> the parameter the ORM would bind for it, as
    field.get_db_prep_save(field.pre_save(row, True), connection)."""
    return tuple(_preparer(field) for field in fields)


def _preparer(field: models.Field) -> Preparer:
    def by_the_field(row: models.Model, ops: Any) -> Any:
        return field.get_db_prep_save(field.pre_save(row, True), connection)

    target = field.target_field if field.is_relation else field  # a foreign key binds as its target
    internal, attname = target.get_internal_type(), field.attname
    if internal in _INTEGER_TYPES:

        def integer(row: models.Model, ops: Any) -> Any:
            value = getattr(row, attname)
            if type(value) is not int:
                # None is bound as None, as the field's chain gives it (a seat record's open until_seq).
                return None if value is None else by_the_field(row, ops)
            return ops.adapt_integerfield_value(value, internal)  # psycopg: one type per column (Int4)

        return integer
    if internal in _AUTO_TYPES:  # a primary key, or a foreign key to one

        def key(row: models.Model, ops: Any) -> Any:
            value = getattr(row, attname)
            return ops.validate_autopk_value(value) if type(value) is int else by_the_field(row, ops)

        return key
    if internal in _TEXT_TYPES:

        def text(row: models.Model, ops: Any) -> Any:
            value = getattr(row, attname)
            return value if type(value) is str else by_the_field(row, ops)

        return text
    if internal == "BooleanField":

        def boolean(row: models.Model, ops: Any) -> Any:
            value = getattr(row, attname)
            return value if type(value) is bool else by_the_field(row, ops)

        return boolean
    if internal == "DateTimeField" and not (field.auto_now or field.auto_now_add):

        def moment(row: models.Model, ops: Any) -> Any:
            value = getattr(row, attname)
            if value is None or (type(value) is datetime and value.tzinfo is not None):
                return ops.adapt_datetimefield_value(value)
            return by_the_field(row, ops)

        return moment
    if internal == "JSONField":
        encoder = field.encoder

        def json_value(row: models.Model, ops: Any) -> Any:
            value = getattr(row, attname)
            return (
                ops.adapt_json_value(value, encoder)
                if type(value) in (dict, list)
                else by_the_field(row, ops)
            )

        return json_value
    return by_the_field


def _statement(
    model: type[models.Model],
    fields: list[models.Field],
    count: int,
    conflict: tuple[str, ...],
    on_conflict: tuple[tuple[str, ...], tuple[str, ...], str],
    ignore_conflicts: bool,
    returning: bool,
) -> str:
    """The statement's SQL; `on_conflict` is (update, increment, conflict_where) of insert_rows."""
    key = (model, tuple(f.column for f in fields), count, conflict, on_conflict, ignore_conflicts, returning)
    sql = _SQL.get(key)
    if sql is None:
        update, increment, where = on_conflict
        quote = connection.ops.quote_name
        table = quote(model._meta.db_table)
        column = lambda name: quote(model._meta.get_field(name).column)  # noqa: E731
        marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = (
            f"INSERT INTO {table} ({', '.join(quote(f.column) for f in fields)})"
            f" VALUES {', '.join([marks] * count)}"
        )
        if update or increment:
            updates = ", ".join(
                [f"{column(name)} = EXCLUDED.{column(name)}" for name in update]
                + [f"{column(n)} = {table}.{column(n)} + EXCLUDED.{column(n)}" for n in increment]
            )
            target = ", ".join(column(name) for name in conflict)
            sql += f" ON CONFLICT ({target}){f' WHERE {where}' if where else ''} DO UPDATE SET {updates}"
        elif ignore_conflicts:
            sql += " ON CONFLICT DO NOTHING"
        if returning:
            sql += f" RETURNING {quote(model._meta.pk.column)}"
        _SQL[key] = sql
    return sql

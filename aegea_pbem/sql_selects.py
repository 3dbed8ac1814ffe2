"""A model's rows (with one related row each), in SQL written once per shape instead of by the ORM.

`Seat.objects.filter(...).select_related(...)` compiles its query on every call, which costs more
client time than the database spends on it (~0.8 ms a call). Every API call and opened link reads
a seat with its game, and every order reads its game's seats with their email preferences, so
`rows_with_related` writes the same query out once per process, from the models' fields (it keeps
in step with them), applies the converters the ORM would to each value read (SQLite's text times,
0/1 booleans) and caches the related row on each instance, as select_related does.
`model_rows` reads a model's instances from a query of one's own, as `Model.objects.raw` does,
without raw's per-call work of matching the cursor's columns to the model's fields.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import connections, models

from .sql_cursor import kept_cursor

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]
Part = tuple[type[models.Model], list[tuple[Any, list[Converter]]]]


def rows_with_related(
    model: type[M], related: str, where: Sequence[str], params: Sequence[Any], alias: str = "default"
) -> list[M]:
    """`model`'s rows whose fields `where` equal `params`, in the model's ordering, each with its
    `related` row cached: a forward foreign key (an INNER JOIN) or a reverse one-to-one (a LEFT
    JOIN; no related row caches None, so the accessor raises DoesNotExist, as after select_related)."""
    sql, parts, link = _query(model, related, tuple(where), alias)
    conn = connections[alias]
    with kept_cursor(alias) as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    found = []
    for row in rows:
        values = iter(row)
        own, other = (_instance(part, values, alias, conn) for part in parts)
        if other is not None and other.pk is None:
            other = None
        link.set_cached_value(own, other)
        found.append(own)
    return found


def model_rows(
    model: type[M], fields: Sequence[str], sql: str, params: Sequence[Any], alias: str = "default"
) -> list[M]:
    """`model`'s instances from `sql`, whose columns are the model's `fields` (attribute names, such
    as "game_id"), in that order; the ORM's converters apply to each value, as in raw()."""
    part = _part(model, tuple(fields), alias)
    conn = connections[alias]
    with kept_cursor(alias) as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    return [_instance(part, iter(row), alias, conn) for row in rows]


def joined_rows(
    models_: Sequence[type[models.Model]],
    sql: str,
    params: Sequence[Any],
    alias: str = "default",
    *,
    leading: int = 0,
) -> list[tuple[Any, ...]]:
    """Per row of `sql`: its first `leading` columns as they are, then one instance of each of
    `models_`, whose columns follow each model's concrete fields in turn (as `joined_columns` writes
    them); a model whose primary key column is NULL (an outer join found no row) gives None.
    Several tables read in one round trip."""
    layout = []  # per model: its part, the first and the end column, and where its primary key is
    start = leading
    for model in models_:
        concrete = model._meta.concrete_fields
        part = _part(model, tuple(field.attname for field in concrete), alias)
        layout.append((part, start, start + len(concrete), start + concrete.index(model._meta.pk)))
        start += len(concrete)
    conn = connections[alias]
    with kept_cursor(alias) as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    return [
        (
            *row[:leading],
            *(
                None if row[pk] is None else _instance(part, iter(row[first:end]), alias, conn)
                for part, first, end, pk in layout
            ),
        )
        for row in rows
    ]


def instance_from(model: type[M], values: Sequence[Any], alias: str = "default") -> M:
    """`model`'s instance from one row's `values` of its concrete fields (as `joined_columns` writes
    them), converted as the ORM would."""
    part = _part(model, tuple(field.attname for field in model._meta.concrete_fields), alias)
    return _instance(part, iter(values), alias, connections[alias])


def joined_columns(model: type[models.Model], table_alias: str, alias: str = "default") -> str:
    """`model`'s concrete columns, qualified by `table_alias`, for a query read by `joined_rows`."""
    quote = connections[alias].ops.quote_name
    return ", ".join(f"{table_alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


def model_select(
    model: type[models.Model], condition: str, alias: str = "default"
) -> tuple[tuple[str, ...], str]:
    """The fields and the SELECT of all `model`'s concrete fields WHERE `condition`, for model_rows."""
    quote = connections[alias].ops.quote_name
    fields = model._meta.concrete_fields
    columns = ", ".join(quote(field.column) for field in fields)
    sql = f"SELECT {columns} FROM {quote(model._meta.db_table)} WHERE {condition}"
    return tuple(field.attname for field in fields), sql


@functools.cache
def _part(model: type[models.Model], attnames: tuple[str, ...], alias: str) -> Part:
    conn = connections[alias]
    by_attname = {field.attname: field for field in model._meta.concrete_fields}
    fields = []
    for name in attnames:
        field = by_attname[name]
        col = field.get_col(model._meta.db_table)
        fields.append((field, [*conn.ops.get_db_converters(col), *field.get_db_converters(conn)]))
    return model, fields


@functools.cache
def _query(
    model: type[models.Model], related: str, where: tuple[str, ...], alias: str
) -> tuple[str, list[Part], Any]:
    conn = connections[alias]
    q = conn.ops.quote_name
    link = model._meta.get_field(related)
    other = link.related_model
    own_table, other_table = q(model._meta.db_table), q(other._meta.db_table)
    own_pk, other_pk = q(model._meta.pk.column), q(other._meta.pk.column)
    if link.concrete:  # a foreign key of `model`: every row has one
        join = f"INNER JOIN {other_table} ON {own_table}.{q(link.column)} = {other_table}.{other_pk}"
    else:  # the other model's one-to-one to this one: a row may have none
        join = f"LEFT JOIN {other_table} ON {other_table}.{q(link.field.column)} = {own_table}.{own_pk}"
    parts: list[Part] = []
    columns = []
    for part_model in (model, other):
        table = part_model._meta.db_table
        concrete = part_model._meta.concrete_fields
        parts.append(_part(part_model, tuple(field.attname for field in concrete), alias))
        columns += [f"{q(table)}.{q(field.column)}" for field in concrete]
    named = lambda name: model._meta.pk if name == "pk" else model._meta.get_field(name)  # noqa: E731
    conditions = " AND ".join(f"{own_table}.{q(named(name).column)} = %s" for name in where)
    order = ", ".join(
        f"{own_table}.{q(named(name.lstrip('-')).column)}" + (" DESC" if name[0] == "-" else "")
        for name in model._meta.ordering
    )
    sql = f"SELECT {', '.join(columns)} FROM {own_table} {join} WHERE {conditions}"
    return sql + (f" ORDER BY {order}" if order else ""), parts, link


def _instance(part: Part, values: Any, alias: str, conn: Any) -> Any:
    model, fields = part
    read = []
    for field, converters in fields:
        value = next(values)
        for convert in converters:
            value = convert(value, field, conn)
        read.append(value)
    return model.from_db(alias, [field.attname for field, _ in fields], read)

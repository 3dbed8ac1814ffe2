"""Two database roles: migrations run as the tables' owner, the web and workers as a role that is not.

The append-only trigger on the event table holds only against a role that cannot drop or disable
it: PostgreSQL lets a table's owner `ALTER TABLE ... DISABLE TRIGGER` and `TRUNCATE` whatever a
trigger says. So with `MIGRATE_DATABASE_URL` set, `manage.py migrate` connects as the owner it
names and then grants the role of `DATABASE_URL` exactly what the service does, nothing more
(docs/operations.md, "Two database roles"; the architecture's "Append-only for real").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import dj_database_url
from django.core.management.base import CommandError
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper

POSTGRESQL = "django.db.backends.postgresql"
DOCS = "docs/operations.md, 'Two database roles'"
# Tables the app role may read and add to but never change: the event log (games.Event), and the
# record of applied migrations, which only the owner's migrate writes.
INSERT_ONLY = ("games_event",)
READ_ONLY = ("django_migrations",)
# What the connection settings of the owner replace in the app's: who connects, and where (a
# migration may go straight to PostgreSQL while the app goes through PgBouncer); never which database.
CREDENTIALS = ("USER", "PASSWORD", "HOST", "PORT")


def owner_settings(app: dict[str, Any], migrate_url: str) -> dict[str, Any]:
    """The owner's credentials from MIGRATE_DATABASE_URL, refused with what to fix when they cannot
    migrate the app's database as another role (docs/operations.md, "Two database roles")."""
    if app["ENGINE"] != POSTGRESQL:
        raise CommandError("MIGRATE_DATABASE_URL needs a PostgreSQL DATABASE_URL: unset it for SQLite.")
    try:
        owner = dj_database_url.parse(migrate_url)
    except ValueError as error:
        raise CommandError(f"MIGRATE_DATABASE_URL is not a database URL: {error}") from None
    if owner["ENGINE"] != POSTGRESQL:
        raise CommandError("MIGRATE_DATABASE_URL must be a postgres:// URL.")
    if owner["NAME"] != app["NAME"]:
        raise CommandError(
            f"MIGRATE_DATABASE_URL names the database {owner['NAME']!r}, DATABASE_URL {app['NAME']!r}:"
            " both must name the same one."
        )
    if not app["USER"] or not owner["USER"]:
        raise CommandError("DATABASE_URL and MIGRATE_DATABASE_URL must each name their role (user@host).")
    if owner["USER"] == app["USER"]:
        raise CommandError(
            f"MIGRATE_DATABASE_URL and DATABASE_URL both connect as {app['USER']!r}: the owner of the"
            " tables must be another role than the web's and the workers'."
        )
    return {key: owner[key] for key in CREDENTIALS}


@contextmanager
def connected_as_owner(connection: BaseDatabaseWrapper, migrate_url: str) -> Iterator[str]:
    """Within it `connection` connects as the owner of MIGRATE_DATABASE_URL; yields the app's role.

    The credentials are swapped on the connection itself rather than a second alias, so that every
    statement of the migrate command (system checks, migrations' RunPython through any manager,
    post_migrate handlers) runs as the owner, in the owner's transaction.
    """
    settings = connection.settings_dict
    app_role = settings["USER"]
    saved = {key: settings[key] for key in CREDENTIALS}
    owner = owner_settings(settings, migrate_url)
    connection.close()
    settings.update(owner)
    try:
        yield app_role
    finally:
        connection.close()
        settings.update(saved)


def refuse_unlimited(connection: BaseDatabaseWrapper, app_role: str) -> None:
    """Refuse (CommandError, what to do) an app role no grant could limit: a superuser, a member of
    the owner's role, or the owner of a table here, each of which may do anything to a table, the
    event table's trigger included (docs/operations.md, "Two database roles")."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_user, rolsuper, pg_has_role(rolname, current_user, 'MEMBER')"
            " FROM pg_roles WHERE rolname = %s",
            [app_role],
        )
        row = cursor.fetchone()
        if row is None:
            raise CommandError(f"DATABASE_URL's role {app_role!r} does not exist: create it (as in {DOCS}).")
        owner, superuser, member = row
        if superuser:
            raise CommandError(
                f"DATABASE_URL's role {app_role!r} is a superuser: give it a role of its own ({DOCS})."
            )
        if member:
            raise CommandError(
                f"DATABASE_URL's role {app_role!r} is a member of {owner!r}: REVOKE {owner} FROM {app_role}."
            )
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
            " AND pg_get_userbyid(c.relowner) = %s",
            [app_role],
        )
        if owned := sorted(name for (name,) in cursor.fetchall()):
            raise CommandError(
                f"{app_role!r} owns {', '.join(owned)}, and a table's owner may do anything to it: as a"
                f" superuser, run REASSIGN OWNED BY {app_role} TO {owner} in this database ({DOCS})."
            )


def grant_app_role(connection: BaseDatabaseWrapper, app_role: str) -> None:
    """As the owner, give `app_role` on the current schema exactly what the service needs: read and
    write every table, except the event log (read and insert) and the migration record (read);
    never TRUNCATE, REFERENCES or TRIGGER, and nothing it did not get here (docs/operations.md,
    "Two database roles"). Run after every migrate, so tables of later migrations are covered."""
    quote = connection.ops.quote_name
    # One transaction: between its REVOKE and GRANT no running process of the app is refused.
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("SELECT current_schema()")
        (schema,) = cursor.fetchone()
        role, schema_name = quote(app_role), quote(schema)
        statements = [
            f"GRANT USAGE ON SCHEMA {schema_name} TO {role}",
            f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema_name} FROM {role}",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema_name} TO {role}",
        ]
        for table in INSERT_ONLY + READ_ONLY:
            statements.append(f"REVOKE ALL ON {quote(table)} FROM {role}")
            privileges = "SELECT, INSERT" if table in INSERT_ONLY else "SELECT"
            statements.append(f"GRANT {privileges} ON {quote(table)} TO {role}")
        for statement in statements:
            cursor.execute(statement)

"""`manage.py migrate`, run as the tables' owner when MIGRATE_DATABASE_URL is set.

Django's migrate, unchanged without MIGRATE_DATABASE_URL (the embedded SQLite default, the test
suite). With it, the default database is migrated over the owner's connection, and the role of
DATABASE_URL, which the web and the workers use, is then granted what they need on every table,
those of this release's migrations included (aegea_pbem/db_roles.py).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import DEFAULT_DB_ALIAS, connections

from aegea_pbem.db_roles import connected_as_owner, grant_app_role, refuse_unlimited


class Command(DjangoMigrate):
    def handle(self, *args: Any, **options: Any) -> None:
        """Migrate as the owner, then grant the app role (docs/operations.md, "Two database roles")."""
        if not settings.MIGRATE_DATABASE_URL or options["database"] != DEFAULT_DB_ALIAS:
            super().handle(*args, **options)
            return
        connection = connections[DEFAULT_DB_ALIAS]
        with connected_as_owner(connection, settings.MIGRATE_DATABASE_URL) as app_role:
            refuse_unlimited(connection, app_role)  # before migrating: a refusal changes nothing
            super().handle(*args, **options)
            if options["plan"] or options["check_unapplied"]:  # these change nothing, grants included
                return
            grant_app_role(connection, app_role)
            if options["verbosity"] >= 1:
                self.stdout.write(
                    f"Granted {app_role} the service's privileges (the event table: SELECT, INSERT)."
                )

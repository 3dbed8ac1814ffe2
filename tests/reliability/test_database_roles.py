"""Two database roles on PostgreSQL (docs/operations.md, "Two database roles").

Finding: the event table's owner is the app's own role. PostgreSQL lets a table's owner
`ALTER TABLE ... DISABLE TRIGGER` and `TRUNCATE` whatever its triggers say, so the append-only
trigger held against the service's code but not against the role the web and the workers connect
as: whoever ran SQL as that role could switch it off and rewrite the log. Here the tables belong
to a second role that only `manage.py migrate` uses (MIGRATE_DATABASE_URL), and the app role is
granted what the service does and no more.

Each test makes two roles and a database of its own on the suite's PostgreSQL server (its
DATABASE_URL must be a superuser's, or a role with CREATEROLE and CREATEDB), and drops them after.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

pytestmark = [pytest.mark.postgresql, pytest.mark.slow]

PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")


@dataclass(frozen=True)
class Scratch:
    """A database owned by `owner`, and `app`, a role of its own with no privilege there yet."""

    database: str
    owner: str
    app: str
    passwords: dict[str, str]

    def url(self, role: str | None = None, database: str | None = None) -> str:
        """postgres:// URL for `role` (default: the suite's own, an administrator) on this server."""
        server = settings.DATABASES["default"]
        user = role or server["USER"]
        password = self.passwords.get(user, server.get("PASSWORD") or "")
        credentials = f"{user}:{password}" if password else user
        host, port = server["HOST"] or "127.0.0.1", server["PORT"] or 5432
        return f"postgres://{credentials}@{host}:{port}/{database or self.database}"


@pytest.fixture
def scratch() -> Iterator[Scratch]:
    suffix = f"{os.getpid()}_{secrets.token_hex(3)}"
    owner, app = f"aegea_owner_{suffix}", f"aegea_app_{suffix}"
    made = Scratch(
        f"aegea_roles_{suffix}", owner, app, {owner: secrets.token_hex(12), app: secrets.token_hex(12)}
    )
    with psycopg.connect(made.url(database="postgres"), autocommit=True) as admin:
        for role in (owner, app):
            admin.execute(
                sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                    sql.Identifier(role), sql.Literal(made.passwords[role])
                )
            )
        admin.execute(
            sql.SQL("CREATE DATABASE {} OWNER {}").format(
                sql.Identifier(made.database), sql.Identifier(owner)
            )
        )
        try:
            yield made
        finally:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(made.database))
            )
            for role in (owner, app):
                admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


def run(scratch: Scratch, tmp_path: Path, *args: str, migrate_url: str = "") -> subprocess.CompletedProcess:
    """`python ARGS` with the app role's DATABASE_URL, and MIGRATE_DATABASE_URL when given."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "aegea_pbem.settings",
        "DATABASE_URL": scratch.url(scratch.app),
        "REDIS_URL": "",  # tasks run in the process: the probe's emails are sent by its own sweep
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "AEGEA_VAR_DIR": str(tmp_path),
    }
    env.pop("MIGRATE_DATABASE_URL", None)
    if migrate_url:
        env["MIGRATE_DATABASE_URL"] = migrate_url
    return subprocess.run(
        [sys.executable, *args], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=600
    )


def privileges(scratch: Scratch, table: str) -> set[str]:
    """The app role's privileges on `table`, as PostgreSQL checks them."""
    with psycopg.connect(scratch.url()) as admin:
        return {
            privilege
            for privilege in PRIVILEGES
            if admin.execute(
                "SELECT has_table_privilege(%s, %s, %s)", [scratch.app, table, privilege]
            ).fetchone()[0]
        }


def test_app_role_runs_the_service_and_cannot_alter_truncate_update_or_delete_the_event_table(
    scratch, tmp_path
):
    """The event table's owner is the app's own role (finding): after migrate as the owner, the app
    role gives orders through the service, and PostgreSQL refuses its UPDATE, DELETE, TRUNCATE and
    ALTER TABLE ... DISABLE TRIGGER of games_event; a later migration's table is granted too."""
    # Up to the migration before the last one, then the rest: its table must be granted as well.
    owner_url = scratch.url(scratch.owner)
    first = run(
        scratch, tmp_path, "manage.py", "migrate", "games", "0008", "--noinput", migrate_url=owner_url
    )
    assert first.returncode == 0, first.stderr
    assert privileges(scratch, "games_event") == {"SELECT", "INSERT"}
    rest = run(scratch, tmp_path, "manage.py", "migrate", "--noinput", migrate_url=owner_url)
    assert rest.returncode == 0, rest.stderr
    assert f"Granted {scratch.app}" in rest.stdout

    with psycopg.connect(scratch.url()) as admin:
        owners = admin.execute(
            "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    assert owners == [(scratch.owner,)]
    assert privileges(scratch, "games_event") == {"SELECT", "INSERT"}
    assert privileges(scratch, "django_migrations") == {"SELECT"}
    assert privileges(scratch, "games_deliveryproblem") == {"SELECT", "INSERT", "UPDATE", "DELETE"}

    out = tmp_path / "probe.json"
    probe = run(scratch, tmp_path, "-m", "tests.reliability.app_role_probe", str(out))
    assert probe.returncode == 0, probe.stderr
    report = json.loads(out.read_text())
    assert report["role"] == scratch.app
    assert report["orders"] == ["accepted"] * 4
    assert report["home page"] == 200
    assert report["summaries"] == 1 and report["rebuilt events"] >= report["events"] > 4
    assert report["outbox sent"] >= 2 and report["outbox not sent"] == 0
    refused = report["tampering"]
    assert set(refused) == {"update", "delete", "truncate", "disable trigger", "drop trigger"}
    for name, answer in refused.items():
        # 42501 insufficient_privilege: the role is refused, before the trigger is even asked.
        assert answer["sqlstate"] == "42501", (name, answer)
    assert "permission denied for table games_event" in refused["update"]["message"]
    assert "must be owner of table games_event" in refused["disable trigger"]["message"]
    assert report["events after"] == report["events"] and report["chain ok"]

    # The refusals are the role's: the owner itself may still disable the trigger (rolled back here).
    with psycopg.connect(scratch.url(scratch.owner)) as owner:
        owner.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
        owner.rollback()


def migrated(scratch: Scratch) -> bool:
    """Whether any migration ran in the scratch database (Django's record of them exists)."""
    with psycopg.connect(scratch.url()) as admin:
        return admin.execute("SELECT to_regclass('django_migrations')").fetchone() != (None,)


def test_migrate_refuses_owner_urls_and_app_roles_no_grant_could_limit(scratch, tmp_path):
    """MIGRATE_DATABASE_URL naming the app's own role or another database, an app role that is a
    member of the owner's, and an app role that owns a table (a deployment from before the two
    roles) are each refused before anything is migrated, saying what to do (docs/operations.md,
    "Two database roles")."""

    def refusal(owner_url: str) -> str:
        migrate = run(scratch, tmp_path, "manage.py", "migrate", "--noinput", migrate_url=owner_url)
        assert migrate.returncode != 0 and not migrated(scratch), migrate.stdout
        return migrate.stderr

    owner_url = scratch.url(scratch.owner)
    assert "must be another role" in refusal(scratch.url(scratch.app))
    assert "both must name the same one" in refusal(scratch.url(scratch.owner, database="postgres"))
    with psycopg.connect(scratch.url(), autocommit=True) as admin:
        app, owner = sql.Identifier(scratch.app), sql.Identifier(scratch.owner)
        admin.execute(sql.SQL("GRANT {} TO {}").format(owner, app))
        assert f"REVOKE {scratch.owner} FROM {scratch.app}" in refusal(owner_url)
        admin.execute(sql.SQL("REVOKE {} FROM {}").format(owner, app))
        admin.execute("CREATE TABLE games_left_over (id int)")
        admin.execute(sql.SQL("ALTER TABLE games_left_over OWNER TO {}").format(app))
        assert f"REASSIGN OWNED BY {scratch.app} TO {scratch.owner}" in refusal(owner_url)

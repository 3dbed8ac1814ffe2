"""Settings from the environment: the embedded default needs nothing; production refuses unsafe ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.aegea_pbem.support import ROOT, settings_with


def test_the_embedded_default_needs_no_environment(tmp_path):
    result = settings_with(tmp_path)

    shown = json.loads(result.stdout)
    assert shown["engine"] == "django.db.backends.sqlite3" and shown["db"] == str(tmp_path / "aegea.sqlite3")
    assert shown["eager"] is True and shown["broker"] == "memory://"
    assert shown["email"] == "django.core.mail.backends.filebased.EmailBackend"
    assert shown["mailbox"] == str(tmp_path / "mailbox")
    assert shown["debug"] is True


def test_database_redis_site_and_esp_come_from_the_environment(tmp_path):
    result = settings_with(
        tmp_path,
        DATABASE_URL="postgres://aegea@db.example.com:5432/aegea",
        REDIS_URL="redis://cache.example.com:6379/2",
        SITE_URL="https://play.example.com/",
        SECRET_KEY="s3cret-" * 8,  # a public SITE_URL refuses the embedded key and DEBUG
        DEBUG="0",
        EMAIL_BACKEND="anymail.backends.mailgun.EmailBackend",
        ANYMAIL_MAILGUN_API_KEY="key-123",
    )

    shown = json.loads(result.stdout)
    assert (shown["engine"], shown["db"]) == ("django.db.backends.postgresql", "aegea")
    assert shown["eager"] is False and shown["broker"] == "redis://cache.example.com:6379/2"
    assert shown["email"] == "anymail.backends.mailgun.EmailBackend"
    assert shown["anymail"] == {"MAILGUN_API_KEY": "key-123"}
    assert shown["site"] == "https://play.example.com" and "play.example.com" in shown["hosts"]


def test_production_refuses_the_default_secret_key(tmp_path):
    result = settings_with(tmp_path, AEGEA_PRODUCTION="1", DEBUG="0")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "refuses the embedded default key" in result.stderr


def test_production_refuses_debug_on(tmp_path):
    result = settings_with(tmp_path, AEGEA_PRODUCTION="1", SECRET_KEY="s3cret-" * 8, DEBUG="1")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "refuses DEBUG on" in result.stderr


def test_production_starts_with_its_own_key_and_debug_off_by_default(tmp_path):
    result = settings_with(tmp_path, AEGEA_PRODUCTION="1", SECRET_KEY="s3cret-" * 8)

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["debug"] is False


def test_outbox_keep_days_schedules_the_daily_pruning_unless_off(tmp_path):
    show = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'aegea_pbem.settings';"
        " from django.conf import settings as s;"
        " print(s.OUTBOX_KEEP_DAYS, 'games-prune-outbox' in s.CELERY_BEAT_SCHEDULE)"
    )
    environ = {"PATH": os.environ["PATH"], "AEGEA_VAR_DIR": str(tmp_path)}

    def run(**env: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", show], cwd=ROOT, env={**environ, **env}, capture_output=True, text=True
        )

    assert run().stdout.split() == ["30", "True"]
    assert run(OUTBOX_KEEP_DAYS="90").stdout.split() == ["90", "True"]
    assert run(OUTBOX_KEEP_DAYS="off").stdout.split() == ["None", "False"]
    refused = run(OUTBOX_KEEP_DAYS="-1")
    assert refused.returncode != 0 and "OUTBOX_KEEP_DAYS" in refused.stderr


def test_postgresql_binds_parameters_on_the_server_and_prepares_repeated_statements_unless_told_not_to(
    tmp_path,
):
    url = "postgres://aegea@db.example:5432/aegea"
    default = json.loads(settings_with(tmp_path, DATABASE_URL=url).stdout)
    assert default["db_options"] == {"server_side_binding": True, "prepare_threshold": 5}
    pooled = settings_with(tmp_path, DATABASE_URL=url, DB_PREPARE_THRESHOLD="off", DB_SERVER_SIDE_BINDING="0")
    assert json.loads(pooled.stdout)["db_options"] == {
        "server_side_binding": False,
        "prepare_threshold": None,
    }


def test_postgresql_keeps_the_placeholder_conversion_of_statements_with_many_parameters(tmp_path):
    """psycopg caches a statement's $n form only up to MAX_CACHED_STATEMENT_PARAMS parameters; the
    settings raise it above an order's event and email INSERTs (a psycopg upgrade that renames the
    constant fails here, not silently)."""
    script = (
        "import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'aegea_pbem.settings'\n"
        "from django.conf import settings\n"
        "settings.DATABASES\n"
        "import psycopg._queries as q\n"
        "print(q.MAX_CACHED_STATEMENT_PARAMS)\n"
    )
    environ = {"PATH": os.environ["PATH"], "AEGEA_VAR_DIR": str(tmp_path)}
    for url, expected in (("postgres://aegea@db.example:5432/aegea", "1000"), ("", "50")):
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**environ, "DATABASE_URL": url} if url else environ,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == [expected]


def test_messages_to_one_rival_are_capped_at_60_a_day_by_default_and_configurable(tmp_path):
    """RATE_LIMITS "messages" (games/services/message_caps.py) beside the other limits."""
    show = (
        "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'aegea_pbem.settings';"
        " from django.conf import settings as s; print(json.dumps(s.RATE_LIMITS.get('messages')))"
    )
    environ = {"PATH": os.environ["PATH"], "AEGEA_VAR_DIR": str(tmp_path)}

    def cap(**env: str) -> object:
        done = subprocess.run(
            [sys.executable, "-c", show], cwd=ROOT, env={**environ, **env}, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    assert cap() == [60, 86400]
    assert cap(RATE_LIMITS="orders=30/60,messages=100/86400") == [100, 86400]
    assert cap(RATE_LIMITS="off") is None


def test_sign_in_links_and_resets_are_limited_per_address_and_client_per_client_and_per_address_a_day(
    tmp_path,
):
    """The defaults docs/front-door.md "Sign-in" names (tests/web/test_frontdoor_mail_limits.py
    uses them): 5 an hour to one address from one client, 20 sign-in links and 20 resets an hour
    per client, 30 a day to one address."""
    show = (
        "import json, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'aegea_pbem.settings';"
        " from django.conf import settings as s; print(json.dumps(s.RATE_LIMITS))"
    )
    environ = {"PATH": os.environ["PATH"], "AEGEA_VAR_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", show], cwd=ROOT, env=environ, capture_output=True, text=True)

    limits = json.loads(done.stdout)
    assert limits["mailbox"] == [5, 3600] and limits["mailbox_day"] == [30, 86400]
    assert limits["signins"] == [20, 3600] and limits["resets"] == [20, 3600]
    assert limits["newlinks"] == [5, 3600]  # a seat's new link: per client, as it was

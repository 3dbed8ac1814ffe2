"""On PostgreSQL, refuse UPDATE and DELETE on games_event: the log is append-only for real.

SQLite (the embedded default) gets no trigger: there, append-only rests on the code paths
alone. TRUNCATE is left to the database owner (test runs empty tables with it).
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING
        MESSAGE = 'games_event is append-only: ' || TG_OP || ' refused',
        ERRCODE = 'restrict_violation';
END;
$$;
DROP TRIGGER IF EXISTS games_event_append_only ON games_event;
CREATE TRIGGER games_event_append_only
    BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_event_append_only ON games_event;
DROP FUNCTION IF EXISTS games_event_append_only();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(install, remove, elidable=False)]

"""What the web's and workers' database role can and cannot do, as its own process.

`python -m tests.reliability.app_role_probe OUT.json`, run by tests/reliability/test_database_roles.py
with DATABASE_URL naming the app role (not the tables' owner): creates a game, gives orders through
the service (events appended, read models projected, emails queued in the outbox and sent by the
sweep), runs each periodic task once as a worker would, signs an organiser in and opens the home
page (auth and session tables), rebuilds the read models, then tries each way of changing the
event log behind the store's back and writes what PostgreSQL answered to OUT.json. Settings:
aegea_pbem.settings from the environment the test passes.
"""

from __future__ import annotations

import json
import os
import sys

import django

# Each statement would change or unprotect the log of the game made here (%s: its id).
TAMPERING = {
    "update": "UPDATE games_event SET type = 'Forged' WHERE game_id = %s",
    "delete": "DELETE FROM games_event WHERE game_id = %s",
    "truncate": "TRUNCATE games_event CASCADE",
    "disable trigger": "ALTER TABLE games_event DISABLE TRIGGER games_event_append_only",
    "drop trigger": "DROP TRIGGER games_event_append_only ON games_event",
}


class Allowed(Exception):
    """Raised inside a statement's transaction when PostgreSQL ran it, so it is rolled back."""


def attempt(sql: str, game_id: int) -> dict[str, str]:
    """Run one tampering statement; what PostgreSQL answered (it is never committed)."""
    from django.db import DatabaseError, connection, transaction

    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [game_id] if "%s" in sql else None)
            raise Allowed
    except Allowed:
        return {"sqlstate": "", "message": "allowed"}
    except DatabaseError as error:
        return {"sqlstate": getattr(error.__cause__, "sqlstate", "") or "", "message": str(error).strip()}


def main(out: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aegea_pbem.settings")
    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    from games.eventstore.projections import rebuild_projections
    from games.eventstore.verification import verify_chain
    from games.models import Event, GameSummary
    from games.tasks import prune_outbox, send_digests, tick_deadlines
    from notifications.models import Outbox
    from notifications.services import deliver_outbox
    from notifications.tasks import sweep_inbound, sweep_outbox
    from tests.order_loop_support import two_player_game
    from tests.reliability.support import order_for_whoever_must_act

    game = two_player_game()
    outcomes = [order_for_whoever_must_act(game.pk)[0] for _ in range(4)]
    while deliver_outbox():  # the sweep sends what the orders queued
        pass
    for task in (tick_deadlines, send_digests, prune_outbox, sweep_inbound, sweep_outbox):
        task()
    browser = Client()
    browser.force_login(User.objects.create_user("organiser-probe", password=os.urandom(8).hex()))
    home = browser.get("/").status_code
    rebuilt = rebuild_projections()
    events = Event.objects.filter(game=game).count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        (role,) = cursor.fetchone()
    report = {
        "role": role,
        "orders": outcomes,
        "events": events,
        "home page": home,
        "summaries": GameSummary.objects.filter(game=game).count(),
        "rebuilt events": rebuilt.events,
        "outbox sent": Outbox.objects.filter(game_id=game.pk, status=Outbox.Status.SENT).count(),
        "outbox not sent": Outbox.objects.filter(game_id=game.pk).exclude(status=Outbox.Status.SENT).count(),
        "tampering": {name: attempt(sql, game.pk) for name, sql in TAMPERING.items()},
        "events after": Event.objects.filter(game=game).count(),
        "chain ok": verify_chain(game).ok,
    }
    with open(out, "w") as handle:
        json.dump(report, handle)


if __name__ == "__main__":
    main(sys.argv[1])

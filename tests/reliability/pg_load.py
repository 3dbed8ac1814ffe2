"""Order load for the PostgreSQL-restart fault test, run as its own process against a private cluster.

`python -m tests.reliability.pg_load OUT.json SECONDS`: creates a game, gives orders for whoever must
act until SECONDS have passed (riding out the restart: a lost connection is closed and the order
tried again), then sends every pending email once (the sweep) and writes what it saw to OUT.json.
Settings: aegea_pbem.settings from the environment the test passes (DATABASE_URL, EMAIL_BACKEND).
"""

from __future__ import annotations

import json
import os
import sys
import time

import django


def main(out: str, seconds: float) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aegea_pbem.settings")
    django.setup()
    from django.db import DatabaseError, connection

    from games.models import Event
    from games.verification import verify_chain
    from notifications.models import Outbox
    from notifications.services import deliver_outbox
    from tests.order_loop_support import two_player_game
    from tests.reliability.support import order_for_whoever_must_act

    game = two_player_game()
    with open(out + ".ready", "w"):  # the test restarts the server once orders are flowing
        pass
    accepted: list[list[int]] = []
    refused = database_errors = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            outcome, _, seqs = order_for_whoever_must_act(game.pk)
        except DatabaseError:
            database_errors += 1  # the server went away: this order was not accepted; try again
            connection.close()
            time.sleep(0.1)
            continue
        if outcome == "accepted":
            accepted.append(seqs)
        else:
            refused += 1
    while deliver_outbox():  # the sweep, once the database is back
        pass
    log = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    report = {
        "accepted": accepted,
        "refused": refused,
        "database_errors": database_errors,
        "log": log,
        "chain_ok": verify_chain(game).ok,
        "outbox": sorted(r.idempotency_key for r in Outbox.objects.filter(game_id=game.pk)),
        "pending": Outbox.objects.exclude(status=Outbox.Status.SENT).count(),
    }
    with open(out, "w") as handle:
        json.dump(report, handle)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))

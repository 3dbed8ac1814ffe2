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
    from django.db import Error, connection

    from games.eventstore.verification import verify_chain
    from games.models import Game
    from notifications.models import Outbox
    from notifications.services import deliver_outbox
    from tests.order_loop_support import two_player_game
    from tests.reliability.support import log_seqs, order_for_whoever_must_act

    games = [two_player_game()]
    with open(out + ".ready", "w"):  # the test restarts the server once orders are flowing
        pass
    accepted: dict[int, list[int]] = {}
    refused = database_errors = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            outcome, _, seqs = order_for_whoever_must_act(games[-1].pk)
            if outcome == "ended":  # a game of passes ends after ~80 orders: go on with a new one
                games.append(two_player_game())
        except Error:
            database_errors += 1  # the server went away: this order was not accepted; try again
            connection.close()
            time.sleep(0.1)
            continue
        if outcome == "accepted":
            accepted.setdefault(games[-1].pk, []).extend(seqs)
        elif outcome == "moved on":
            refused += 1
    while deliver_outbox():  # the sweep, once the database is back
        pass
    game_ids = [game.pk for game in Game.objects.all()]
    report = {
        "games": len(game_ids),
        "orders": sum(len(seqs) for seqs in accepted.values()),
        "refused": refused,
        "database_errors": database_errors,
        "missing": {g: sorted(set(seqs) - set(log_seqs(Game(pk=g)))) for g, seqs in accepted.items()},
        "gapless": all(
            log_seqs(Game(pk=g)) == list(range(1, len(log_seqs(Game(pk=g))) + 1)) for g in game_ids
        ),
        "chains_ok": all(verify_chain(Game.objects.get(pk=g)).ok for g in game_ids),
        "outbox": sorted(r.idempotency_key for r in Outbox.objects.all()),
        "pending": Outbox.objects.exclude(status=Outbox.Status.SENT).count(),
    }
    with open(out, "w") as handle:
        json.dump(report, handle)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))

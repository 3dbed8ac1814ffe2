"""Shared helpers of tests/eventstore/ (and of the tests elsewhere that need them), so that no test
imports another test module.
"""

from __future__ import annotations

from games.eventstore.hashing import event_hash
from games.models import Event, Game
from tests.conftest import tamper


def rechain(game: Game, from_seq: int = 1) -> None:
    """Recompute every hash from `from_seq` on, as a forger with database access would."""
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    prev = rows[from_seq - 2].hash if from_seq > 1 else "0" * 64
    for row in rows[from_seq - 1 :]:
        digest = event_hash(
            game_id=game.pk,
            seq=row.seq,
            type=row.type,
            payload=row.payload,
            actor=row.actor,
            schema_version=row.schema_version,
            created=row.created,
            prev_hash=prev,
        )
        tamper(
            "UPDATE games_event SET prev_hash = %s, hash = %s WHERE game_id = %s AND seq = %s",
            [prev, digest, game.pk, row.seq],
        )
        prev = digest

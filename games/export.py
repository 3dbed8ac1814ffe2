"""A game's log as a file (issue 7): `GET /games/<id>/export.json` and `manage.py exportgame`.

The format is documented in docs/export.md (version EXPORT_VERSION). Every event carries the
eight hashed fields and its hash, so tools/verify_export.py re-checks the chain with the
standard library alone. A player's or the organiser's export goes through engine.event_view,
the one redaction of the log: an event whose payload differs from the stored one is marked
"redacted" (its hash cannot be recomputed from what the reader got, H-SCREEN); once the game
has ended nothing is redacted (H-END). The operator's export is the full log.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from . import engine
from .hashing import format_created
from .models import Event, Game
from .situation import is_over

EXPORT_FORMAT = "aegeapolis-event-log"
EXPORT_VERSION = 1
OPERATOR = "operator"
ORGANISER = "organiser"


def _published_seed_hash(first: Event | None) -> str | None:
    if first is None:
        return None
    return first.payload.get("seed_hash") or first.payload.get("state", {}).get("seed_hash")


def export_game(game: Game, viewer: str | None, *, full: bool = False) -> dict[str, Any]:
    """The game's log for `viewer` (a faction, None for the organiser) or, with `full`, for the operator."""
    over = is_over(game)
    events = []
    rows = Event.objects.filter(game=game).order_by("seq")
    first = rows.first()
    for row in rows.iterator():
        payload = row.payload
        if not full:
            payload = engine.event_view(engine.Event(row.type, row.payload), viewer, over)["payload"]
        events.append(
            {
                "seq": row.seq,
                "type": row.type,
                "payload": payload,
                "actor": row.actor,
                "schema_version": row.schema_version,
                "created": format_created(row.created),
                "prev_hash": row.prev_hash,
                "hash": row.hash,
                "redacted": payload != row.payload,
            }
        )
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": {
            "id": game.pk,
            "name": game.name,
            "language": game.language,
            "status": game.status,
            "seed_hash": _published_seed_hash(first),
            "seed": game.seed if over else None,  # H-END: revealed with the game's last event
        },
        "viewer": OPERATOR if full else (viewer or ORGANISER),
        "exported": format_created(timezone.now()),
        "events": events,
    }

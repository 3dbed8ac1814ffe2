"""A game's log as a file (docs/export.md): `GET /games/<id>/export.json` and `manage.py exportgame`.

The format is documented in docs/export.md (version EXPORT_VERSION). Every event carries the
eight hashed fields and its hash, so tools/verify_export.py re-checks the chain with the
standard library alone. A player's or the organiser's export goes through engine.event_view,
the one redaction of the log: an event whose payload differs from the stored one is marked
"redacted" (its hash cannot be recomputed from what the reader got, H-SCREEN); once the game
has ended nothing is redacted (H-END). The operator's export is the full log.

Before the end a reader's export withholds every `hash` and `prev_hash` (H-SCREEN): a hash is
the SHA-256 of the whole stored event, so for a redacted event whose secret is small (the designs
of 2 coins drawn at income, a Mission hand, a sealed winter order's OrderGiven) anyone could hash
every candidate and find the one that matches; and each later hash chains to it. In their place
each event carries a `pin`: HMAC-SHA256 under the game's still secret seed of the event's hash,
which says nothing now and, once the seed is revealed, lets the reader check that the final log
is the one they were shown (tools/verify_export.py --pinned).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from django.utils import timezone

from games import engine
from games.engine.view import HIDDEN
from games.eventstore.hashing import format_created
from games.models import Event, Game
from games.reading.situation import is_over

EXPORT_FORMAT = "aegeapolis-event-log"
EXPORT_VERSION = 2  # 2: hashes withheld and pins given before the end
OPERATOR = "operator"
ORGANISER = "organiser"
PIN_LABEL = "aegeapolis-export-pin:"


def chain_pin(seed: str, event_hash: str) -> str:
    """The pin of an event (docs/export.md): HMAC-SHA256 (hex) under the seed of PIN_LABEL + its hash.

    Nobody can tell the hash from it without the seed; the label keeps it apart from the seed's
    other use, the draws (HMAC of "<position>:<counter>", engine/rng.py)."""
    return hmac.new(seed.encode(), (PIN_LABEL + event_hash).encode(), hashlib.sha256).hexdigest()


def _published_seed_hash(first: Event | None) -> str | None:
    if first is None:
        return None
    return first.payload.get("seed_hash") or first.payload.get("state", {}).get("seed_hash")


def export_game(game: Game, viewer: str | None, *, full: bool = False) -> dict[str, Any]:
    """The game's log for `viewer` (a faction, None for the organiser) or, with `full`, for the operator."""
    over = is_over(game)
    withheld = not full and not over  # H-SCREEN: the hashes would give the redacted payloads away
    events = []
    rows = Event.objects.filter(game=game).order_by("seq")
    first = rows.first()
    for row in rows.iterator():
        payload, actor = row.payload, row.actor
        if not full:
            payload = engine.event_view(engine.Event(row.type, row.payload), viewer, over)["payload"]
            if payload.get("player") == HIDDEN:
                actor = HIDDEN  # a private message's actor is its sender, hidden like its payload's
        event = {
            "seq": row.seq,
            "type": row.type,
            "payload": payload,
            "actor": actor,
            "schema_version": row.schema_version,
            "created": format_created(row.created),
            "prev_hash": None if withheld else row.prev_hash,
            "hash": None if withheld else row.hash,
            "redacted": payload != row.payload,
        }
        if withheld:
            event["pin"] = chain_pin(game.seed, row.hash)
        events.append(event)
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

"""Reading the log with every field its hash chain covers: what `manage.py verifygame` re-hashes.

games/eventstore/log_reading.py reads what folding needs (type, payload); re-hashing an event needs all of
seq, type, payload, actor, schema_version, created, prev_hash and hash. The same fast path: on
PostgreSQL a range of the log comes over as one JSON array, decoded by one json.loads with the
cycle collector paused (the ORM's row-by-row fetch and per-row JSONField decoding cost about
twice the client time for the same work).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import connection

from games.eventstore.hashing import format_created
from games.eventstore.log_reading import collector_paused
from games.models import Event, Game

# (seq, type, payload, actor, schema_version, created, prev_hash, hash): created is the text
# hashing.format_created makes of it (hashing.chain takes either form), or the datetime elsewhere.
HashedRow = tuple[int, str, dict[str, Any], str, int, datetime | str, str, str]
HASHED_FIELDS = ("seq", "type", "payload", "actor", "schema_version", "created", "prev_hash", "hash")

# The rows from `from` on, `limit` of them (LIMIT NULL is all), as one flat JSON array of eight
# items per event in seq order. The payload goes over as jsonb's own text, so json.loads yields
# exactly what the ORM's JSONField would (the same text, the same decoder: big integers stay
# integers, and canonical_json sorts the keys whatever order jsonb keeps them in). `created` goes
# over as whole microseconds since the epoch (numeric, so exact), not as PostgreSQL's text, whose
# form (time zone, trailing zeros, years before 1000) is not the one the hash was computed over.
HASHED_EVENTS = """
SELECT '[' || string_agg(
    seq::text || ',' || to_json(type)::text || ',' || payload::text || ',' || to_json(actor)::text
    || ',' || schema_version::text || ',' || (EXTRACT(EPOCH FROM created) * 1000000)::bigint::text
    || ',' || to_json(prev_hash)::text || ',' || to_json(hash)::text,
    ',' ORDER BY seq) || ']'
FROM (
    SELECT * FROM games_event WHERE game_id = %(game)s AND seq >= %(from)s ORDER BY seq LIMIT %(limit)s
) AS part
"""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def load_hashed_events(game: Game, from_seq: int = 1, limit: int | None = None) -> list[HashedRow]:
    """The game's stored events from `from_seq` on (the first `limit` of them), in seq order,
    with every field the hash chain covers; `created` as the hash has it."""
    if connection.vendor != "postgresql":
        # Elsewhere (SQLite, a developer's run) through the ORM: created stays a datetime.
        query = Event.objects.filter(game=game, seq__gte=from_seq).order_by("seq").values_list(*HASHED_FIELDS)
        return list(query if limit is None else query[:limit])
    with connection.cursor() as cursor:
        cursor.execute(HASHED_EVENTS, {"game": game.pk, "from": from_seq, "limit": limit})
        (events_json,) = cursor.fetchone()
    if events_json is None:  # an empty range
        return []
    with collector_paused():
        return _rows(json.loads(events_json))


def _rows(items: list[Any]) -> list[HashedRow]:
    """HASHED_EVENTS' flat array as rows, each time as the text the hash has of it."""
    # The events of one append share one time, so a log holds far fewer times than events:
    # each is formatted once.
    texts: dict[int, str] = {}
    rows = []
    fields = iter(items)
    for seq, event_type, payload, actor, version, micros, prev_hash, digest in zip(
        *[fields] * len(HASHED_FIELDS), strict=True
    ):
        text = texts.get(micros)
        if text is None:
            text = texts[micros] = format_created(EPOCH + timedelta(microseconds=micros))
        rows.append((seq, event_type, payload, actor, version, text, prev_hash, digest))
    return rows

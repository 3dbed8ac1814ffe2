"""games.eventstore.hashing.chain: the batch form of event_hash, shared by append_events and
the scale seeding."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

import pytest

from games.eventstore.hashing import GENESIS_HASH, NotCanonical, canonical_json, chain, event_hash

WHEN = datetime(2026, 11, 30, 8, 15, 9, 123456, tzinfo=UTC)
EVENTS = [
    ("Moved", {"to": "E5", "units": [3, 1], "note": 'Ἀθῆναι "quoted" \\ back\tslash\n'}, "athens"),
    ("Said", {"text": "\u2028 line separator, emoji 🏛"}, "sparta\\x"),
    ("Empty", {}, ""),
]


def documented_hash(game_id: int, seq: int, event_type: str, payload: dict, actor: str, prev: str) -> str:
    # The form docs/architecture.md documents, written out independently of games.eventstore.hashing.
    document = {
        "actor": actor,
        "created": "2026-11-30T08:15:09.123456Z",
        "game": game_id,
        "payload": payload,
        "prev_hash": prev,
        "schema_version": 1,
        "seq": seq,
        "type": event_type,
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_chain_gives_the_documented_hashes_each_chained_to_the_one_before():
    hashes = chain(
        GENESIS_HASH,
        game_id=7,
        first_seq=4,
        events=[(t, canonical_json(p), a) for t, p, a in EVENTS],
        schema_version=1,
        created=WHEN,
    )

    expected, prev = [], GENESIS_HASH
    for seq, (event_type, payload, actor) in enumerate(EVENTS, start=4):
        prev = documented_hash(7, seq, event_type, payload, actor, prev)
        expected.append(prev)
    assert hashes == expected


def test_event_hash_is_chain_of_one_with_created_as_text_or_time():
    fields = dict(game_id=9, seq=1, type="Moved", payload=EVENTS[0][1], actor="athens", schema_version=1)

    by_time = event_hash(created=WHEN, prev_hash=GENESIS_HASH, **fields)
    by_text = event_hash(created="2026-11-30T08:15:09.123456Z", prev_hash=GENESIS_HASH, **fields)

    assert by_time == by_text == documented_hash(9, 1, "Moved", EVENTS[0][1], "athens", GENESIS_HASH)


@pytest.mark.parametrize("field", ["type", "actor"])
def test_chain_refuses_text_without_a_canonical_form(field):
    event = {"type": "Moved", "actor": "athens"} | {field: "bad\x00text"}

    with pytest.raises(NotCanonical, match=f"\\$.{field}"):
        chain(
            GENESIS_HASH,
            game_id=1,
            first_seq=1,
            events=[(event["type"], "{}", event["actor"])],
            schema_version=1,
            created=WHEN,
        )

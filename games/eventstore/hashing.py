"""The hash chain of a game's log: canonical JSON and the hash of one event.

Pure Python without Django, so a stand-alone verifier can recompute the chain from an
export. The exact form is documented in docs/architecture.md ("The hash chain"); changing
anything here breaks every stored chain.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64


class NotCanonical(TypeError):
    """A value that has no canonical JSON form (floats, non-string keys, other types)."""


def _check_text(text: str, path: str) -> None:
    # PostgreSQL's jsonb cannot hold NUL, and lone surrogates have no UTF-8 form to hash.
    if "\x00" in text:
        raise NotCanonical(f"{path}: text contains a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NotCanonical(f"{path}: text is not valid Unicode") from None


def _check(value: Any, path: str) -> None:
    # Floats are refused: JSON numbers do not round-trip exactly through PostgreSQL's jsonb.
    if isinstance(value, str):
        _check_text(value, path)
        return
    if value is None or isinstance(value, (bool, int)):
        return
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonical(f"{path}: key {key!r} is not a string")
            _check_text(key, path)
            _check(item, f"{path}.{key}")
        return
    raise NotCanonical(
        f"{path}: {type(value).__name__} is not allowed in an event (use int, str, bool, list, dict)"
    )


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no whitespace, non-ASCII kept as UTF-8; only null/bool/int/str/list/dict."""
    _check(value, "$")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def format_created(created: datetime) -> str:
    """The event time as hashed: UTC, microseconds, e.g. 2026-11-30T08:15:09.123456Z."""
    if created.tzinfo is None:
        raise ValueError("event times must be timezone-aware")
    return created.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_hash(
    *,
    game_id: int,
    seq: int,
    type: str,
    payload: dict[str, Any],
    actor: str,
    schema_version: int,
    created: datetime | str,
    prev_hash: str,
) -> str:
    """sha256 (hex) of the canonical JSON of the event's fields and its predecessor's hash."""
    (digest,) = chain(
        prev_hash,
        game_id=game_id,
        first_seq=seq,
        events=[(type, canonical_json(payload), actor)],
        schema_version=schema_version,
        created=created,
    )
    return digest


def chain(
    prev_hash: str,
    *,
    game_id: int,
    first_seq: int,
    events: Iterable[tuple[str, str, str]],
    schema_version: int,
    created: datetime | str,
) -> list[str]:
    """The hashes of consecutive events from seq `first_seq` on, each chained to the one before
    (the first to `prev_hash`). An event is (type, its payload's canonical_json, actor).

    The document is assembled from its parts in the key order canonical_json would sort them
    into, so a payload serialised once (a batch, or the same log re-chained for another game)
    is not checked and dumped again for every hash; the result is byte for byte
    canonical_json(document) (tests/eventstore/test_store.py holds the documented example).
    """
    created_text = json.dumps(created if isinstance(created, str) else format_created(created))
    # The parts that are the same for every event of the call.
    game_part = f',"game":{int(game_id)},"payload":'
    version_part = f',"schema_version":{int(schema_version)},"seq":'
    hashes = []
    seq = first_seq
    quoted_prev = json.dumps(prev_hash)
    for event_type, payload_json, actor in events:
        actor_text, type_text = _quoted(actor, "actor"), _quoted(event_type, "type")
        document = (
            f'{{"actor":{actor_text},"created":{created_text}{game_part}{payload_json}'
            f',"prev_hash":{quoted_prev}{version_part}{int(seq)},"type":{type_text}}}'
        )
        digest = hashlib.sha256(document.encode("utf-8")).hexdigest()
        hashes.append(digest)
        quoted_prev = f'"{digest}"'  # hex needs no escaping
        seq += 1
    return hashes


@functools.lru_cache(maxsize=4096)
def _quoted(text: str, field: str) -> str:
    # Types and actors repeat across a log: each is checked and quoted once.
    _check_text(text, f"$.{field}")
    return json.dumps(text, ensure_ascii=False)

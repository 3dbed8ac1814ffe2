"""The hash chain of a game's log: canonical JSON and the hash of one event.

Pure Python without Django, so a stand-alone verifier can recompute the chain from an
export. The exact form is documented in docs/architecture.md ("The hash chain"); changing
anything here breaks every stored chain.
"""

from __future__ import annotations

import hashlib
import json
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
    document = {
        "actor": actor,
        "created": created if isinstance(created, str) else format_created(created),
        "game": game_id,
        "payload": payload,
        "prev_hash": prev_hash,
        "schema_version": schema_version,
        "seq": seq,
        "type": type,
    }
    return hashlib.sha256(canonical_json(document).encode("utf-8")).hexdigest()

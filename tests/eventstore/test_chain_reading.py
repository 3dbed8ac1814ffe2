"""The log as `verifygame` reads it (games/eventstore/chain_reading.py): every field the hash chain covers,
re-hashed byte for byte as the store hashed it, and a break named by its seq across batches."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from games.eventstore.chain_reading import HASHED_FIELDS, load_hashed_events
from games.eventstore.hashing import canonical_json, event_hash, format_created
from games.eventstore.store import append_events
from games.eventstore.verification import verify_chain, verify_game
from games.models import Event
from tests.conftest import Fact, tamper

# Key orders jsonb does not keep, integers beyond 64 bits (RandomnessDrawn's salts), text that
# JSON escapes, and a time with microseconds: what the store hashed must be what is re-hashed.
AWKWARD = [
    Fact('a "quoted" Ἀθῆναι type', {"zeta": 1, "alpha": {"b": 2, "a": [1, {"y": None, "x": True}]}}),
    Fact("Big", {"beyond_64_bits": 10**30, "negative": -(2**70), "bound": 2**64, "zero": 0}),
    Fact("Text", {"unicode": "☃ \u00e9 \U0001f600", "escapes": 'line\nbreak, "quote", \\ and \t', "": ""}),
    Fact("Empty", {}),
]
WITH_MICROSECONDS = datetime(2026, 3, 1, 9, 0, 0, 123450, tzinfo=UTC)
WHOLE_SECOND = datetime(2026, 3, 1, 9, 1, tzinfo=UTC)


@pytest.fixture
def awkward_log(game):
    append_events(game, 0, AWKWARD[:2], actor="athens", now=WITH_MICROSECONDS)
    append_events(game, 2, AWKWARD[2:], actor="Σπάρτη \"'", now=WHOLE_SECOND)
    return game


def test_every_field_reads_as_the_orm_reads_it_and_hashes_alike(awkward_log):
    orm = list(Event.objects.filter(game=awkward_log).order_by("seq").values_list(*HASHED_FIELDS))
    fast = load_hashed_events(awkward_log)

    assert len(fast) == len(orm) == 4
    for (seq, type_, payload, actor, version, created, prev, digest), row in zip(fast, orm, strict=True):
        assert (seq, type_, payload, actor, version, prev, digest) == row[:5] + row[6:]
        assert canonical_json(payload) == canonical_json(row[2])  # byte for byte, big integers and all
        assert created == format_created(row[5])
        recomputed = event_hash(
            game_id=awkward_log.pk,
            seq=seq,
            type=type_,
            payload=payload,
            actor=actor,
            schema_version=version,
            created=created,
            prev_hash=prev,
        )
        assert recomputed == digest
    assert [row[5] for row in fast] == ["2026-03-01T09:00:00.123450Z"] * 2 + [
        "2026-03-01T09:01:00.000000Z"
    ] * 2
    assert fast[1][2]["beyond_64_bits"] == 10**30 and fast[1][2]["negative"] == -(2**70)


def test_an_awkward_log_verifies_intact(awkward_log):
    assert verify_chain(awkward_log) == verify_chain(awkward_log, batch_size=1)
    assert verify_chain(awkward_log).ok and verify_chain(awkward_log).events == 4


def test_ranges_from_a_seq_and_past_the_end(game, awkward_log):
    assert [row[0] for row in load_hashed_events(game, from_seq=2, limit=2)] == [2, 3]
    assert [row[0] for row in load_hashed_events(game, from_seq=4)] == [4]
    assert load_hashed_events(game, from_seq=5) == []


@pytest.mark.parametrize(
    ("sql", "params", "seq", "reason"),
    [
        # A payload whose big integer is one more: the canonical JSON differs, so does the hash.
        (
            "UPDATE games_event SET payload = %s WHERE game_id = %s AND seq = 2",
            [json.dumps({**AWKWARD[1].payload, "beyond_64_bits": 10**30 + 1})],
            2,
            "hash does not match its content",
        ),
        (
            "UPDATE games_event SET hash = %s WHERE game_id = %s AND seq = 3",
            ["f" * 64],
            3,
            "hash does not match",
        ),
        ("UPDATE games_event SET prev_hash = %s WHERE game_id = %s AND seq = 4", ["e" * 64], 4, "prev_hash"),
        (
            "UPDATE games_event SET created = created + interval '1 microsecond'"
            " WHERE game_id = %s AND seq = 1",
            [],
            1,
            "hash does not match",
        ),
        ("DELETE FROM games_event WHERE game_id = %s AND seq IN (2, 3)", [], 2, "event 2 is missing"),
    ],
)
def test_tampering_is_named_by_its_seq_in_any_batch_size(awkward_log, sql, params, seq, reason):
    tamper(sql, [*params, awkward_log.pk])

    for batch_size in (1, 2, 5000):
        problem = verify_chain(awkward_log, batch_size=batch_size).problem
        assert (problem.seq, reason in problem.reason) == (seq, True), batch_size
    report = verify_game(awkward_log)  # the whole log in one read: the chain is checked first
    assert report.replay is None and report.problem.seq == seq and reason in report.problem.reason

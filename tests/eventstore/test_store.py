"""The event store: appends at an expected seq, hash chain, nothing half-written, loading."""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import UTC, datetime

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from games.eventstore import projections, store
from games.eventstore.hashing import GENESIS_HASH, NotCanonical
from games.eventstore.log_reading import load_events
from games.eventstore.projections import Projector
from games.eventstore.store import ConcurrencyError, append_events
from games.models import Event, Game, GameSummary
from tests.conftest import Fact, facts

NOW = datetime(2026, 11, 30, 8, 15, 9, 123456, tzinfo=UTC)


events = facts


def test_engine_events_are_appended_as_they_are(game):
    from games.engine.events import Event as EngineEvent

    (row,) = append_events(game, 0, [EngineEvent("GameStarted", {"seed_hash": "ab"})], now=NOW)

    assert (row.type, row.payload) == ("GameStarted", {"seed_hash": "ab"})


def test_first_event_gets_seq_1_and_chains_from_the_genesis_hash(game):
    (row,) = append_events(game, 0, events("GameStarted", seed_hash="ab"), actor="organiser", now=NOW)

    assert (row.seq, row.type, row.payload, row.actor) == (1, "GameStarted", {"seed_hash": "ab"}, "organiser")
    assert row.prev_hash == GENESIS_HASH
    assert Event.objects.get(game=game, seq=1).hash == row.hash


def test_event_hash_is_sha256_of_the_documented_canonical_json(game):
    (row,) = append_events(
        game, 0, events("Moved", to="E5", units=[3, 1], note="Ἀθῆναι"), actor="athens", now=NOW
    )

    document = {
        "actor": "athens",
        "created": "2026-11-30T08:15:09.123456Z",
        "game": game.pk,
        "payload": {"note": "Ἀθῆναι", "to": "E5", "units": [3, 1]},
        "prev_hash": "0" * 64,
        "schema_version": 1,
        "seq": 1,
        "type": "Moved",
    }
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert row.hash == hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def test_a_batch_gets_consecutive_seqs_one_time_and_chained_hashes(game):
    rows = append_events(game, 0, events("A", "B", "C"), now=NOW)

    assert [row.seq for row in rows] == [1, 2, 3]
    assert [row.prev_hash for row in rows[1:]] == [row.hash for row in rows[:-1]]
    assert {row.created for row in Event.objects.filter(game=game)} == {NOW}


def test_appending_at_a_stale_seq_raises_concurrency_error_and_writes_nothing(game, append):
    append(game, "A", "B")

    with pytest.raises(ConcurrencyError) as raised:
        append_events(game, 1, events("C"))

    assert (raised.value.expected_seq, raised.value.actual_seq) == (1, 2)
    assert list(Event.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]


def test_the_unique_seq_index_turns_a_race_the_lock_missed_into_concurrency_error(game, append, monkeypatch):
    append(game, "A")
    monkeypatch.setattr(store, "_lock_with_head", lambda game_id: ("new", 0, GENESIS_HASH))

    with pytest.raises(ConcurrencyError):
        append_events(game, 0, events("B"))

    assert Event.objects.filter(game=game).count() == 1


@pytest.mark.parametrize(
    "bad_events, message",
    [
        ([], "at least one event"),
        ([Fact("", {})], "type must be"),
        ([Fact("A", {}), Fact("B", {"ratio": 0.5})], "float is not allowed"),
        ([Fact("A", {1: "x"})], "is not a string"),
        ([Fact("A", {"when": NOW})], "datetime is not allowed"),
        ([Fact("A", {"name": "nul\x00"})], "NUL character"),
        ([Fact("A", {"name": "\ud800"})], "not valid Unicode"),
    ],
)
def test_bad_events_are_refused_with_a_clear_error_and_change_nothing(game, bad_events, message):
    with pytest.raises((ValueError, NotCanonical), match=message):
        append_events(game, 0, bad_events)

    assert not Event.objects.filter(game=game).exists()
    assert not GameSummary.objects.filter(game=game).exists()


def test_appending_to_an_unknown_game_is_refused(db):
    with pytest.raises(Game.DoesNotExist):
        append_events(Game(pk=424242), 0, events("GameStarted"))

    assert not Event.objects.exists()


def test_a_batch_failing_midway_leaves_nothing_half_written(game, append, monkeypatch):
    append(game, "GameStarted")

    def explode(game, rows):
        raise IntegrityError("a read model refused the batch")

    monkeypatch.setattr(
        projections, "PROJECTORS", [*projections.PROJECTORS, Projector("explode", explode, (), None)]
    )

    with pytest.raises(IntegrityError):
        append_events(game, 1, events("Moved", "Passed", "GameEnded"))

    assert list(Event.objects.filter(game=game).values_list("type", flat=True)) == ["GameStarted"]
    summary = GameSummary.objects.get(game=game)
    assert (summary.last_seq, summary.status) == (1, Game.Status.ACTIVE)
    assert game.status == Game.Status.ACTIVE  # not "ended": the GameEnded batch was undone


def test_a_failure_after_the_append_in_the_callers_transaction_undoes_it(game, append):
    with pytest.raises(RuntimeError), transaction.atomic():
        append(game, "GameStarted")
        raise RuntimeError("outbox write failed")

    assert not Event.objects.filter(game=game).exists()


def test_load_events_returns_the_log_in_seq_order_after_a_seq(game, append):
    append(game, "A", "B")
    append(game, "C", at=1)

    assert [row.type for row in load_events(game)] == ["A", "B", "C"]
    assert [row.seq for row in load_events(game, after_seq=1)] == [2, 3]
    assert [row.seq for row in load_events(game, after_seq=1, up_to_seq=2)] == [2]


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_two_appends_racing_at_the_same_seq_exactly_one_wins():
    game = Game.objects.create(name="race")
    append_events(game, 0, events("GameStarted"))
    rounds = 15
    for round_number in range(rounds):
        expected = 1 + round_number
        barrier = threading.Barrier(2)
        outcomes: dict[str, str] = {}

        def contender(name: str, expected: int, barrier: threading.Barrier, outcomes: dict[str, str]) -> None:
            try:
                barrier.wait()
                append_events(Game.objects.get(pk=game.pk), expected, events("Moved", by=name), actor=name)
                outcomes[name] = "won"
            except ConcurrencyError:
                outcomes[name] = "moved on"
            finally:
                connection.close()

        threads = [
            threading.Thread(target=contender, args=(name, expected, barrier, outcomes))
            for name in ("athens", "sparta")
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes.values()) == ["moved on", "won"], outcomes

    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, rounds + 2))  # no gap, no duplicate
    assert GameSummary.objects.get(game=game).last_seq == rounds + 1


@pytest.mark.postgresql
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE games_event SET payload = '{}' WHERE game_id = %s",
        "DELETE FROM games_event WHERE game_id = %s",
    ],
)
def test_update_and_delete_on_the_event_table_are_refused_by_postgresql(game, append, statement):
    append(game, "GameStarted", seed_hash="ab")

    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement, [game.pk])

    assert Event.objects.get(game=game).payload == {"seed_hash": "ab"}


@pytest.mark.postgresql
def test_an_append_of_more_events_than_one_statement_may_bind_is_written_whole(game):
    """PostgreSQL binds at most 65,535 parameters in one statement: an append of 8,000 events (nine
    columns each) once failed as a whole; it is written in as many statements as it needs."""
    rows = append_events(game, 0, events(*["Noted"] * 8000), actor="organiser", now=NOW)

    assert [row.seq for row in rows] == list(range(1, 8001))
    assert Event.objects.filter(game=game).count() == 8000
    assert load_events(game)[-1].hash == rows[-1].hash

"""Loading a real game's state and events (games/eventstore/store.py): on PostgreSQL the newest snapshot
and the events after it come in one query, and a range of the log as one aggregated row. Whatever the path,
the result must be exactly what folding every stored event (read as plain model rows) gives."""

from __future__ import annotations

import gc

import pytest

from games import engine
from games.engine.simulation import play_random_game
from games.eventstore import statecache
from games.eventstore.hashing import GENESIS_HASH
from games.eventstore.log_reading import load_engine_events, load_events, load_state
from games.eventstore.store import append_events, save_snapshot
from games.models import Event, Game
from games.reading.situation import load_game
from tests.conftest import Fact, tamper

pytestmark = pytest.mark.django_db

FACTIONS = ["athens", "sparta", "corinth", "thebes"]


@pytest.fixture(scope="module")
def played() -> list[engine.Event]:
    events, state = play_random_game(FACTIONS, "loading seed", bot_seed=3, check=False)
    assert state.phase == "ended" and len(events) > 300
    return events


def _snapshots_at(events: list) -> tuple[int, ...]:
    return (1, 60, 61, 200, len(events) - 1)  # the first event, consecutive seqs, the one before the last


def _stored(game: Game, events: list[engine.Event]) -> list[Event]:
    rows = []
    for start in range(0, len(events), 100):
        rows += append_events(game, start, events[start : start + 100], actor="organiser")
    return rows


def _folded_from_rows(game: Game, up_to_seq: int) -> dict:
    """The reference: every stored event up to `up_to_seq`, read through the ORM, folded from scratch."""
    rows = load_events(game, up_to_seq=up_to_seq)
    return engine.fold([engine.Event(row.type, row.payload) for row in rows]).to_dict()


def _load(game: Game, up_to_seq: int | None = None):
    return load_state(
        game,
        initial=engine.GameState,
        fold_from=engine.fold_from,
        from_dict=engine.GameState.from_dict,
        up_to_seq=up_to_seq,
    )


def test_snapshot_and_tail_give_the_state_of_a_full_fold_at_every_seq(game, played):
    _stored(game, played)
    last = len(played)
    for seq in _snapshots_at(played):
        save_snapshot(game, seq, engine.fold(played[:seq]).to_dict())

    for up_to in (1, 2, 59, 60, 61, 62, 150, 200, 201, last - 2, last - 1, last, None):
        loaded = _load(game, up_to)
        seq = up_to or last
        newest = max((s for s in _snapshots_at(played) if s <= seq), default=0)
        assert (loaded.seq, loaded.snapshot_seq, loaded.events_folded) == (seq, newest, seq - newest)
        assert loaded.state.to_dict() == _folded_from_rows(game, seq), f"state at seq {seq}"


def test_without_snapshots_every_event_is_folded(game, played):
    _stored(game, played)

    loaded = _load(game)

    last = len(played)
    assert (loaded.seq, loaded.snapshot_seq, loaded.events_folded) == (last, 0, last)
    assert loaded.state.to_dict() == _folded_from_rows(game, last)


def test_an_empty_log_loads_the_initial_state_and_no_events(game):
    loaded = _load(game)

    assert (loaded.seq, loaded.snapshot_seq, loaded.events_folded) == (0, 0, 0)
    assert loaded.state == engine.GameState()
    assert load_engine_events(game) == []


def test_engine_events_are_the_stored_rows_for_every_range(game, played):
    _stored(game, played)
    rows = load_events(game)
    last = len(played)

    for after, up_to in ((0, None), (0, last), (10, 20), (last - 1, None), (100, 101), (last, None), (5, 5)):
        expected = [(r.type, r.payload) for r in rows if r.seq > after and (up_to is None or r.seq <= up_to)]
        loaded = load_engine_events(game, after_seq=after, up_to_seq=up_to)
        assert [(e.type, e.payload) for e in loaded] == expected, (after, up_to)


def test_awkward_types_and_payloads_load_as_stored(game):
    # Types are any 1..64 characters: they travel as a PostgreSQL array, which quotes these.
    odd = [
        Fact('a "quoted", {braced} type', {"x": 1}),
        Fact("NULL", {}),
        Fact(" spaced ", {"text": 'line\nbreak, "quote" and \\ backslash'}),
        Fact("Ἀθῆναι", {"deep": [[{"a": [None, True, False, 0, -7, 10**15]}]], "empty": {}, "list": []}),
        Fact("x", {"unicode": "☃ \u00e9 \U0001f600", "comma": ",", "bracket": "]["}),
        # Integers beyond 64 bits are in real logs: RandomnessDrawn's salt draws have the bound 2**64.
        Fact("Big", {"beyond_64_bits": 10**30, "negative": -(2**70), "bound": 2**64}),
    ]
    append_events(game, 0, odd)

    assert [(e.type, e.payload) for e in load_engine_events(game)] == [(f.type, f.payload) for f in odd]
    assert [e.type for e in load_engine_events(game, after_seq=1, up_to_seq=3)] == ["NULL", " spaced "]


def test_loading_leaves_the_cycle_collector_as_it_found_it(game, played):
    _stored(game, played)
    assert gc.isenabled()
    load_engine_events(game)
    assert gc.isenabled()
    gc.disable()
    try:
        load_engine_events(game)
        assert not gc.isenabled()  # a caller's own pause is not ended by the store
    finally:
        gc.enable()


def test_a_fold_runs_with_the_collector_paused_and_resumes_it_even_when_it_fails(game, played):
    _stored(game, played)
    seen: list[bool] = []

    def fold_from(state, events):
        seen.append(gc.isenabled())
        return engine.fold_from(state, events)

    def failing(state, events):
        raise ValueError("a fold that breaks")

    loaded = load_state(
        game, initial=engine.GameState, fold_from=fold_from, from_dict=engine.GameState.from_dict
    )
    assert seen == [False] and gc.isenabled()
    assert loaded.state.to_dict() == _folded_from_rows(game, len(played))
    with pytest.raises(ValueError):
        load_state(game, initial=engine.GameState, fold_from=failing, from_dict=engine.GameState.from_dict)
    assert gc.isenabled()


@pytest.mark.postgresql
def test_on_postgresql_a_cold_state_loads_in_one_query_a_cached_one_after_one_head_query(
    game, played, django_assert_num_queries
):
    _stored(game, played)
    save_snapshot(game, 250, engine.fold(played[:250]).to_dict())
    last = len(played)
    statecache.clear()

    with django_assert_num_queries(1):  # the head, the snapshot and the events after it
        cold = load_game(game)
    with django_assert_num_queries(1):  # the head, found in the cache
        warm = load_game(game)
    with django_assert_num_queries(1):
        events = load_engine_events(game, after_seq=10)

    assert (cold.seq, cold.snapshot_seq, cold.events_folded) == (last, 250, last - 250)
    assert (warm.seq, warm.events_folded) == (last, 0)
    assert cold.state.to_dict() == warm.state.to_dict() == _folded_from_rows(game, last)
    assert len(events) == last - 10


def test_a_loaded_state_carries_the_hash_of_its_last_event(game, played):
    rows = _stored(game, played)
    save_snapshot(game, 100, engine.fold(played[:100]).to_dict())
    hashes = {row.seq: row.hash for row in rows}

    for up_to in (50, 100, 101, len(played), None):
        loaded = _load(game, up_to)
        assert loaded.hash == hashes[up_to or len(played)]
    statecache.clear()
    cold = load_game(game, up_to_seq=120)
    assert (cold.seq, cold.hash) == (120, hashes[120])
    assert statecache.get(game.pk, 120, hashes[120]) is not None  # cached under its own head
    assert _load(Game.objects.create(name="empty")).hash == GENESIS_HASH


def test_a_log_with_a_gap_loads_as_before_counting_the_events_folded(game):
    # Only tampering makes a gap (verifygame names it); loading must not hand out a mismatched key.
    rows = append_events(game, 0, [Fact("A", {"n": n}) for n in range(5)])
    tamper("DELETE FROM games_event WHERE game_id = %s AND seq = 2", [game.pk])

    loaded = load_state(game, initial=list, fold_from=lambda state, events: state + events, from_dict=list)

    assert (loaded.seq, loaded.events_folded) == (4, 4)
    assert loaded.hash == rows[3].hash  # the hash of seq 4, not of the head (seq 5)

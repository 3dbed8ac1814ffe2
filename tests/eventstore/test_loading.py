"""Loading state: from the newest snapshot plus the events after it, with a small fold of the tests' own.

The fold here counts coins: "Minted" adds, "Spent" subtracts. The engine's real fold is
passed to load_state the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import pytest

from games.eventstore.log_reading import load_state
from games.eventstore.store import append_events, save_snapshot, snapshot_appended
from tests.conftest import Fact


@dataclass
class Treasury:
    coins: int = 0
    history: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict) -> Treasury:
        return cls(**data)


folded: list[str] = []


def fold_from(state: Treasury, events: Sequence) -> Treasury:
    state = Treasury(state.coins, list(state.history))
    for event in events:
        folded.append(event.type)
        sign = 1 if event.type == "Minted" else -1
        state.coins += sign * event.payload["coins"]
        state.history.append(f"{event.type} {event.payload['coins']}")
    return state


def load(game, **kwargs):
    folded.clear()
    return load_state(game, initial=Treasury, fold_from=fold_from, from_dict=Treasury.from_dict, **kwargs)


def mint(game, expected_seq: int, *amounts: int) -> None:
    append_events(
        game, expected_seq, [Fact("Minted" if a > 0 else "Spent", {"coins": abs(a)}) for a in amounts]
    )


def test_an_empty_log_loads_the_initial_state(game):
    loaded = load(game)

    assert (loaded.state, loaded.seq, loaded.events_folded) == (Treasury(), 0, 0)


def test_without_a_snapshot_every_event_is_folded_in_seq_order(game):
    mint(game, 0, 5, -2, 4)

    loaded = load(game)

    assert loaded.state == Treasury(7, ["Minted 5", "Spent 2", "Minted 4"])
    assert (loaded.seq, loaded.snapshot_seq, loaded.events_folded) == (3, 0, 3)


def test_loading_starts_from_the_newest_snapshot_and_folds_only_what_follows(game):
    mint(game, 0, 5, -2)
    save_snapshot(game, 1, asdict(load(game, up_to_seq=1).state))
    save_snapshot(game, 2, asdict(load(game).state))
    mint(game, 2, 10)

    loaded = load(game)

    assert (loaded.snapshot_seq, loaded.events_folded, folded) == (2, 1, ["Minted"])
    folded.clear()
    assert loaded.state == fold_from(Treasury(), [*_facts(5, -2, 10)])


def test_state_as_of_an_earlier_seq_uses_only_snapshots_before_it(game):
    mint(game, 0, 5, -2, 4)
    save_snapshot(game, 3, asdict(load(game).state))

    loaded = load(game, up_to_seq=2)

    assert (loaded.state.coins, loaded.seq, loaded.snapshot_seq) == (3, 2, 0)


def test_a_snapshot_beyond_the_log_is_refused(game):
    mint(game, 0, 5)

    with pytest.raises(ValueError, match="no event 2"):
        save_snapshot(game, 2, {"coins": 5, "history": []})


def test_saving_a_snapshot_twice_keeps_the_first(game):
    mint(game, 0, 5)
    first = save_snapshot(game, 1, {"coins": 5, "history": ["Minted 5"]})

    again = save_snapshot(game, 1, {"coins": 999, "history": []})

    assert again.pk == first.pk and again.state["coins"] == 5


def test_a_snapshot_of_the_event_just_appended_is_one_insert_and_keeps_a_first_one(
    game, django_assert_num_queries
):
    """submit_order's snapshot (store.snapshot_appended): no head query, the same keep-the-first rule."""
    mint(game, 0, 5)
    with django_assert_num_queries(1):
        snapshot_appended(game, 1, {"coins": 5, "history": ["Minted 5"]})
    snapshot_appended(game, 1, {"coins": 999, "history": []})

    (kept,) = game.snapshots.all()
    assert (kept.seq, kept.state["coins"], kept.created is not None) == (1, 5, True)
    loaded = load(game)
    assert (loaded.snapshot_seq, loaded.events_folded, loaded.state.coins) == (1, 0, 5)


def _facts(*amounts: int) -> list[Fact]:
    return [Fact("Minted" if a > 0 else "Spent", {"coins": abs(a)}) for a in amounts]


def test_engine_events_load_with_their_payloads_as_stored(game):
    from games.engine.events import Event as EngineEvent
    from games.eventstore.log_reading import load_engine_events

    payload = {"to": "Ἀθῆναι", "units": [3, {"king": True}], "note": None}
    append_events(game, 0, [Fact("GameStarted", {}), Fact("Moved", payload), Fact("Passed", {})])

    assert load_engine_events(game) == [
        EngineEvent("GameStarted", {}),
        EngineEvent("Moved", payload),
        EngineEvent("Passed", {}),
    ]
    assert [event.type for event in load_engine_events(game, after_seq=1, up_to_seq=2)] == ["Moved"]

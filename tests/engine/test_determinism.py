"""Determinism: folding the log gives the state kept while playing, and a seed always gives the same game.

A small bot plays whole games with random legal orders (its own seeded random.Random; the
engine itself draws only from GameRng). The invariants of simulation.check_invariants are
checked after every event of the first run.
"""

from __future__ import annotations

import json

import pytest

from games.engine import Event, fold, fold_from
from games.engine.simulation import play_random_game

LINEUPS = [
    ["athens", "sparta"],
    ["sparta", "corinth", "thebes"],
    ["athens", "sparta", "corinth", "thebes"],
    ["thebes", "athens"],
    ["corinth", "athens", "thebes"],
]


def dumped(events: list[Event]) -> str:
    return json.dumps([e.to_dict() for e in events])


@pytest.mark.parametrize("seed", range(50))
def test_determinism_fold_equals_the_kept_state_and_a_seed_replays_byte_identically(seed: int) -> None:
    factions = LINEUPS[seed % len(LINEUPS)]
    events, kept = play_random_game(factions, f"determinism-{seed}", bot_seed=seed, check=True)
    assert kept.phase == "ended"
    assert fold(events).to_dict() == kept.to_dict()
    again, _ = play_random_game(factions, f"determinism-{seed}", bot_seed=seed, check=False)
    assert dumped(again) == dumped(events)


def test_determinism_folding_from_a_snapshot_equals_folding_from_the_start() -> None:
    events, kept = play_random_game(LINEUPS[2], "snapshot", bot_seed=1, check=False)
    middle = len(events) // 2
    snapshot = fold(events[:middle])
    assert fold_from(snapshot, events[middle:]).to_dict() == kept.to_dict()


def test_determinism_different_seeds_give_different_games() -> None:
    first, _ = play_random_game(LINEUPS[0], "one seed", bot_seed=3, check=False)
    second, _ = play_random_game(LINEUPS[0], "another seed", bot_seed=3, check=False)
    assert dumped(first) != dumped(second)


def test_determinism_events_are_plain_json() -> None:
    events, _ = play_random_game(LINEUPS[2], "plain", bot_seed=2, check=False)
    assert json.loads(dumped(events)) == [e.to_dict() for e in events]

"""Scenarios as the opening of a game: `scenario_loaded` and its event (manage.py loadscenario)."""

from __future__ import annotations

import json

import pytest

from games.engine import Recruit, ScenarioError, fold, scenario, scenario_loaded
from tests.engine.support import play

SPEC = {
    "players": {"athens": {"ap": 3}, "sparta": {"fp": 4}},
    "year": 429,
    "on_turn": "athens",
    "board": {
        "C3": {"owner": "athens", "phalanxes": 4, "king": True},
        "G3": {"owner": "sparta", "phalanxes": 6, "king": True},
        "D4": {"tile": "megara", "owner": "athens", "phalanxes": 1, "fortification_hp": [3, 2]},
    },
}


def test_a_scenario_event_folds_to_the_scenario_position() -> None:
    event = scenario_loaded(SPEC, seed_hash="ab" * 32)

    folded = fold([event])

    expected = scenario({**SPEC, "seed_hash": "ab" * 32}).to_dict()
    assert {**folded.to_dict(), "events_applied": 0} == expected
    assert folded.events_applied == 1
    # The payload is plain JSON, as the event store keeps it.
    assert json.loads(json.dumps(event.payload)) == event.payload


def test_a_game_started_from_a_scenario_goes_on_by_the_rules() -> None:
    state = fold([scenario_loaded(SPEC, seed_hash="cd" * 32)])

    events, after = play(state, Recruit("athens", space="C3", phalanxes=3))

    assert after.board["C3"].phalanxes == 7
    assert after.players["athens"].ap == 0
    assert after.player_on_turn == "sparta"
    assert events[0].type == "PhalanxesRecruited"


def test_an_impossible_scenario_is_refused_before_any_event_exists() -> None:
    with pytest.raises(ScenarioError, match="year"):
        scenario_loaded({**SPEC, "year": 400}, seed_hash="")

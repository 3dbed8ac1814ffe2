"""Shared helpers of tests/board/ (and of the tests elsewhere that need them), so that no test
imports another test module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from games import engine

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "board"


# Every faction, a Mint, stacked units with all three kinds of hero, damaged Fortifications,
# neutral garrisons with unminted coins, and trade links.
SIEGE: dict[str, Any] = {
    "players": {
        "athens": {"ap": 3, "fp": 2, "coins_behind_screen": {"owl": 2}},
        "sparta": {"fp": 4, "vp": 5, "coins_behind_screen": {"shield": 3}},
        "corinth": {},
        "thebes": {},
    },
    "year": 427,
    "board": {
        "C3": {"owner": "athens", "phalanxes": 4, "king": True, "navigators": 2},
        "D4": {"tile": "megara", "owner": "athens", "phalanxes": 12, "fortification_hp": [3, 1]},
        "G3": {"owner": "sparta", "phalanxes": 16, "king": True, "fortification_hp": [2]},
        "C7": {
            "owner": "corinth",
            "phalanxes": 5,
            "king": True,
            "builders": 3,
            "fortification_hp": [3, 3, 2, 3],
        },
        "G7": {"owner": "thebes", "phalanxes": 7, "king": True},
        "E5": {"tile": "delos", "phalanxes": 1, "unminted_coins": {"turtle": 2, "pegasus": 1}},
        "E3": {"tile": "halikarnassos", "phalanxes": 2},
        "H8": {"tile": "rhodos", "owner": "thebes", "phalanxes": 0},
        "B8": {"tile": "aegina", "owner": "corinth", "phalanxes": 2, "builders": 1},
    },
    "trade_links": [["C3", "D4"], ["G7", "H8"], ["B8", "C7"]],
}


def view_of(scenario: dict[str, Any], faction: str | None = "athens") -> dict[str, Any]:
    return engine.player_view(engine.scenario(scenario), faction)


def save(name: str, content: str | bytes) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content, encoding="utf-8")

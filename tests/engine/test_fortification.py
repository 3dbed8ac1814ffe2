"""Fortifications as worked examples with scripted dice (S-FORT, S-COMBAT-EMPTY).

Athens attacks from E3; Sparta's Native Polis is G3 (H-SETUP).
"""

from __future__ import annotations

from typing import Any

from games.engine.commands import Destination
from games.engine.fortification import absorb_hits, repaired
from tests.engine.support import ScriptedDice, game, move, play_move, units_at


def battle_of(events: list[Any]) -> dict[str, Any]:
    (battle,) = [e.payload for e in events if e.type == "BattleFought"]
    return battle


def test_s_fort_takes_the_attackers_hits_first() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 4},
            "G3": {"owner": "sparta", "phalanxes": 2, "fortification_hp": [3]},
        }
    )
    dice = ScriptedDice(1, 1, 6, 6, 1, 1, 2, 2, 6, 6, 6, 1)
    events, after = play_move(state, move("E3", Destination("G3", 4)), dice)
    attacks = [r for r in battle_of(events)["rounds"] if r["side"] == "attacker"]
    assert [(r["hits"], r["fortification_hits"], r["phalanx_hits"]) for r in attacks] == [
        (2, 2, 0),
        (3, 1, 2),
    ]
    assert [r["fortification_hp"] for r in attacks] == [[1], []]
    # the Fortification fell before the last defender: nothing is left to inherit
    assert after.board["G3"].fortification_hp == []
    assert units_at(after, "G3") == ("athens", 4, False, 0)


def test_s_fort_hits_spill_to_the_next_fortification_and_then_to_the_phalanxes() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 4},
            "G3": {"owner": "sparta", "phalanxes": 2, "fortification_hp": [3, 3]},
        }
    )
    dice = ScriptedDice(1, 1, 6, 6, 6, 6, 2, 2, 6, 6, 6, 6)
    events, after = play_move(state, move("E3", Destination("G3", 4)), dice)
    rounds = battle_of(events)["rounds"]
    # 4 hits: 3 destroy the first Fortification, the 4th lands on the next
    assert (rounds[1]["fortification_hits"], rounds[1]["fortification_hp"]) == (4, [2])
    # 4 hits: 2 destroy the second Fortification, 2 carry over to the phalanxes; none is wasted
    assert (rounds[3]["fortification_hits"], rounds[3]["phalanx_hits"]) == (2, 2)
    assert rounds[3]["fortification_hp"] == [] and rounds[3]["defender_phalanxes"] == 0
    assert after.board["G3"].owner == "athens" and after.players["sparta"].phalanx_supply == 60


def test_s_fort_hits_fill_one_fortification_at_a_time() -> None:
    assert absorb_hits([3, 3, 3], 2) == ([1, 3, 3], 2, 0)
    assert absorb_hits([3, 3], 4) == ([2], 4, 0)
    assert absorb_hits([3, 3], 7) == ([], 6, 1)
    assert absorb_hits([], 3) == ([], 0, 3)


def test_s_fort_a_damaged_fortification_is_repaired_after_the_combat() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 2},
            "G3": {"owner": "sparta", "phalanxes": 1, "fortification_hp": [3, 3]},
        }
    )
    # Sparta misses; Athens hits twice (first Fortification down to 1); Sparta hits;
    # Athens misses; Sparta hits the last attacker
    events, after = play_move(state, move("E3", Destination("G3", 2)), ScriptedDice(1, 6, 6, 5, 2, 4))
    battle = battle_of(events)
    assert battle["rounds"][-1]["fortification_hp"] == [1, 3]
    assert battle["winner"] == "defender" and battle["fortification_hp_after"] == [3, 3]
    assert after.board["G3"].fortification_hp == [3, 3]
    assert repaired([1, 2]) == [3, 3]


def test_s_fort_a_destroyed_fortification_is_not_repaired() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 4},
            "G3": {"owner": "sparta", "phalanxes": 1, "fortification_hp": [3, 3]},
        }
    )
    # Athens destroys the first and damages the second, then misses while Sparta hits each round
    dice = ScriptedDice(1, 6, 6, 6, 6, 6, 1, 1, 1, 6, 1, 1, 6, 1, 6)
    events, after = play_move(state, move("E3", Destination("G3", 4)), dice)
    battle = battle_of(events)
    attacks = [r for r in battle["rounds"] if r["side"] == "attacker"]
    assert [r["fortification_hp"] for r in attacks] == [[2], [2], [2], [2]]
    assert battle["winner"] == "defender"
    assert after.board["G3"].fortification_hp == [3]


def test_s_fort_alone_does_not_defend_and_is_inherited_intact() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 1},
            "G3": {"owner": "sparta", "phalanxes": 0, "fortification_hp": [3, 3]},
        }
    )
    events, after = play_move(state, move("E3", Destination("G3", 1)), ScriptedDice())
    assert [e.type for e in events] == ["UnitsMoved", "PolisConquered"]
    assert events[-1].payload["fortification_hp"] == [3, 3]
    assert units_at(after, "G3") == ("athens", 1, False, 0)
    assert after.board["G3"].fortification_hp == [3, 3]

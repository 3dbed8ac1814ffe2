"""Combat as worked examples with scripted dice: S-COMBAT, S-COMBAT-EMPTY, S-LOOT, H-HEROES, H-PIECES.

Athens' Native Polis is C3, Sparta's G3 (H-SETUP). Neutral Poleis have no owner.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.commands import Destination
from games.engine.movement import decide_move
from games.engine.rng import GameRng
from games.engine.state import GameState
from tests.engine.support import ScriptedDice, game, move, play_move, units_at


def battle_of(events: list[Any]) -> dict[str, Any]:
    (battle,) = [e.payload for e in events if e.type == "BattleFought"]
    return battle


def supply_and_board(state: GameState, faction: str) -> tuple[int, int]:
    on_board = sum(p.phalanxes for p in state.board.values() if p.owner == faction)
    return state.players[faction].phalanx_supply, on_board


def test_s_combat_defender_fires_first_then_the_attacker_alternating() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 2}, "E3": {"phalanxes": 2}})
    # garrison misses, Athens hits once, garrison hits once, Athens hits the last defender
    events, after = play_move(state, move("C3", Destination("E3", 2)), ScriptedDice(1, 2, 3, 1, 6, 4))
    battle = battle_of(events)
    assert [(r["side"], r["dice"], r["hits"]) for r in battle["rounds"]] == [
        ("defender", [1, 2], 0),
        ("attacker", [3, 1], 1),
        ("defender", [6], 1),
        ("attacker", [4], 1),
    ]
    assert [(r["attacker_phalanxes"], r["defender_phalanxes"]) for r in battle["rounds"]] == [
        (2, 2),
        (2, 1),
        (1, 1),
        (1, 0),
    ]
    assert battle["winner"] == "attacker" and battle["defender"] is None
    assert [e.type for e in events] == ["UnitsMoved", "BattleFought", "PolisConquered"]
    assert units_at(after, "E3") == ("athens", 1, False, 0)
    assert units_at(after, "C3") == ("athens", 0, False, 0)


def test_s_combat_five_or_more_phalanxes_still_roll_four_dice() -> None:
    state = game({"E3": {"owner": "athens", "phalanxes": 6}, "G3": {"owner": "sparta", "phalanxes": 5}})
    dice = ScriptedDice(*[1] * 4, *[1] * 4, *[1] * 4, *[6] * 4, 1, *[6] * 4)
    events, after = play_move(state, move("E3", Destination("G3", 6)), dice)
    rounds = battle_of(events)["rounds"]
    assert [len(r["dice"]) for r in rounds] == [4, 4, 4, 4, 1, 4]
    assert [r["defender_phalanxes"] for r in rounds] == [5, 5, 5, 1, 1, 0]
    # the last round had 4 hits for 1 defender: hits beyond the last phalanx end the combat
    assert rounds[-1]["hits"] == 4 and rounds[-1]["phalanx_hits"] == 1
    assert units_at(after, "G3") == ("athens", 6, False, 0)


def test_s_combat_a_three_to_six_is_a_hit_and_losses_are_removed_after_each_roll() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 4}, "E3": {"phalanxes": 4}})
    dice = ScriptedDice(1, 2, 3, 6, 4, 5, 2, 2, 5, 3)
    events, _ = play_move(state, move("C3", Destination("E3", 4)), dice)
    rounds = battle_of(events)["rounds"]
    assert [r["hits"] for r in rounds] == [2, 2, 0, 2]
    # after losing 2 in the first roll, Athens fires 2 dice, and so does the garrison after its losses
    assert [r["dice"] for r in rounds] == [[1, 2, 3, 6], [4, 5], [2, 2], [5, 3]]


def test_s_combat_an_attacker_wiped_out_in_the_defenders_round_never_fires() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 2, "king": True},
            "G3": {"owner": "sparta", "phalanxes": 3},
        }
    )
    # exactly three dice, all Sparta's: a die rolled for Athens would break the script
    events, after = play_move(state, move("E3", Destination("G3", 2, king=True)), ScriptedDice(3, 4, 5))
    battle = battle_of(events)
    assert [r["side"] for r in battle["rounds"]] == ["defender"]
    assert battle["rounds"][0]["phalanx_hits"] == 2
    assert battle["winner"] == "defender" and battle["defender_losses"] == 0
    assert [e.type for e in events] == ["UnitsMoved", "BattleFought"]
    # a failed attack leaves the defender's survivors on a Polis that stays theirs
    assert units_at(after, "G3") == ("sparta", 3, False, 0)
    assert units_at(after, "E3") == ("athens", 0, False, 0)


def test_s_combat_heroes_fall_with_their_last_phalanx_and_the_king_gives_his_killer_2_vp() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 1, "king": True, "navigators": 1},
            "G3": {"owner": "sparta", "phalanxes": 1, "king": True},
        }
    )
    events, after = play_move(
        state, move("E3", Destination("G3", 1, king=True, navigators=1)), ScriptedDice(6)
    )
    battle = battle_of(events)
    assert battle["heroes_lost"] == {
        "attacker": {"king": True, "navigators": 1, "builders": 0},
        "defender": {"king": False, "navigators": 0, "builders": 0},
    }
    assert battle["kings_killed"] == [{"faction": "athens", "killer": "sparta", "vp": 2}]
    assert not after.players["athens"].king_alive and after.players["sparta"].king_alive
    assert after.players["sparta"].vp == 2 and after.players["athens"].vp == 0
    assert units_at(after, "E3") == ("athens", 0, False, 0)


def test_s_combat_a_defending_king_falls_and_the_attacker_gains_2_vp() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 3, "king": True},
            "G3": {"owner": "sparta", "phalanxes": 1, "king": True, "navigators": 1},
        }
    )
    events, after = play_move(state, move("E3", Destination("G3", 3, king=True)), ScriptedDice(1, 6, 1, 1))
    assert battle_of(events)["kings_killed"] == [{"faction": "sparta", "killer": "athens", "vp": 2}]
    assert after.players["athens"].vp == 2 and not after.players["sparta"].king_alive
    # the winners stand on the conquered Polis with their King; Sparta's Navigator fell too
    assert units_at(after, "G3") == ("athens", 3, True, 0)


def test_s_combat_a_neutral_garrison_gives_nobody_vp_for_a_king() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 1, "king": True}, "D3": {"phalanxes": 1}})
    events, after = play_move(state, move("C3", Destination("D3", 1, king=True)), ScriptedDice(4))
    assert battle_of(events)["kings_killed"] == [{"faction": "athens", "killer": None, "vp": 0}]
    assert not after.players["athens"].king_alive
    assert [p.vp for p in after.players.values()] == [0, 0]


def test_h_pieces_fallen_phalanxes_return_to_their_supply_and_neutral_ones_vanish() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 5},
            "G3": {"owner": "sparta", "phalanxes": 2},
            "E4": {"phalanxes": 2},
        }
    )
    cmd = move("E3", Destination("G3", 3), Destination("E4", 2), order=("E4", "G3"))
    # E4: garrison hits once, Athens (1 left) hits once, garrison misses, Athens hits the last.
    # G3: Sparta hits twice, Athens (1 left) misses, Sparta hits the last.
    dice = ScriptedDice(6, 1, 3, 1, 5, 3, 5, 1, 2, 4)
    events, after = play_move(state, cmd, dice)
    assert [b.payload["winner"] for b in events if b.type == "BattleFought"] == ["attacker", "defender"]
    assert supply_and_board(after, "athens") == (59, 1)
    assert supply_and_board(after, "sparta") == (58, 2)
    assert units_at(after, "E4") == ("athens", 1, False, 0)


def test_s_combat_the_same_seed_rolls_the_same_battle() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 7}, "E3": {"phalanxes": 6}})
    cmd = move("C3", Destination("E3", 7))
    first = decide_move(state, cmd, GameRng("secret", 12))
    again = decide_move(state, cmd, GameRng("secret", 12))
    assert [e.to_dict() for e in first] == [e.to_dict() for e in again]
    assert all(1 <= d <= 6 for r in battle_of(first)["rounds"] for d in r["dice"])


# --- S-COMBAT-EMPTY --------------------------------------------------------------------------


def test_s_combat_empty_a_polis_without_phalanxes_falls_without_combat() -> None:
    state = game({"E3": {"owner": "athens", "phalanxes": 2}, "G3": {"owner": "sparta", "phalanxes": 0}})
    events, after = play_move(state, move("E3", Destination("G3", 2)), ScriptedDice())
    assert [e.type for e in events] == ["UnitsMoved", "PolisConquered"]
    assert events[1].payload["after_battle"] is False
    assert units_at(after, "G3") == ("athens", 2, False, 0)


def test_s_combat_empty_heroes_left_alone_are_captured() -> None:
    state = game(
        {
            "E3": {"owner": "athens", "phalanxes": 1},
            "G3": {"owner": "sparta", "phalanxes": 0, "king": True, "navigators": 1},
        }
    )
    events, after = play_move(state, move("E3", Destination("G3", 1)), ScriptedDice())
    conquered = events[-1].payload
    assert conquered["heroes_captured"] == {"king": True, "navigators": 1, "builders": 0}
    assert conquered["kings_killed"] == [{"faction": "sparta", "killer": "athens", "vp": 2}]
    assert units_at(after, "G3") == ("athens", 1, False, 0)
    assert after.players["athens"].vp == 2 and not after.players["sparta"].king_alive


# --- S-LOOT ------------------------------------------------------------------------------------


def coins_in_play(state: GameState) -> int:
    screens = sum(sum(p.coins_behind_screen.values()) for p in state.players.values())
    return (
        sum(state.bag.values()) + screens + sum(sum(p.unminted_coins.values()) for p in state.board.values())
    )


def test_s_loot_unminted_coins_go_behind_the_conquerors_screen() -> None:
    state = game(
        {"C3": {"owner": "athens", "phalanxes": 2}, "D3": {"unminted_coins": {"owl": 2, "turtle": 1}}},
        athens={"fp": 10, "coins_behind_screen": {"owl": 1}},
        sparta={},
    )
    events, after = play_move(state, move("C3", Destination("D3", 2)))
    assert events[-1].payload["loot"] == {"owl": 2, "turtle": 1}
    assert after.players["athens"].coins_behind_screen == {"owl": 3, "turtle": 1}
    assert after.board["D3"].unminted_coins == {}
    assert coins_in_play(after) == coins_in_play(state) == 48


def test_s_loot_is_taken_after_a_won_battle_and_not_after_a_lost_one() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 2},
        "D3": {"phalanxes": 1, "unminted_coins": {"pegasus": 2}},
    }
    state = game(board)
    events, won = play_move(state, move("C3", Destination("D3", 2)), ScriptedDice(1, 5, 2))
    assert events[-1].type == "PolisConquered" and events[-1].payload["loot"] == {"pegasus": 2}
    assert won.players["athens"].coins_behind_screen == {"pegasus": 2}
    events, lost = play_move(state, move("C3", Destination("D3", 2)), ScriptedDice(6, 1, 3))
    assert events[-1].type == "BattleFought" and events[-1].payload["winner"] == "defender"
    assert lost.board["D3"].unminted_coins == {"pegasus": 2}
    assert lost.players["athens"].coins_behind_screen == {}


@pytest.mark.parametrize("attackers", [1, 4, 9])
def test_s_combat_the_battle_ends_only_when_one_side_has_no_phalanxes(attackers: int) -> None:
    state = game(
        {"E3": {"owner": "athens", "phalanxes": attackers}, "G3": {"owner": "sparta", "phalanxes": 4}}
    )
    events, after = play_move(state, move("E3", Destination("G3", attackers)), GameRng("ends", attackers))
    battle = battle_of(events)
    last = battle["rounds"][-1]
    assert 0 in (last["attacker_phalanxes"], last["defender_phalanxes"])
    assert all(r["attacker_phalanxes"] and r["defender_phalanxes"] for r in battle["rounds"][:-1])
    assert supply_and_board(after, "athens")[0] + supply_and_board(after, "athens")[1] == 60


def test_s_builder_dies_with_its_army() -> None:
    state = game(
        {"C7": {"owner": "corinth", "phalanxes": 2, "builders": 1}, "D7": {"phalanxes": 2}},
        corinth={"fp": 1},
        sparta={},
    )
    # the garrison hits twice: Corinth's army falls before it fires, and its Builder with it
    events, after = play_move(
        state, move("C7", Destination("D7", 2, builders=1), player="corinth"), ScriptedDice(5, 6)
    )
    assert battle_of(events)["heroes_lost"]["attacker"] == {"king": False, "navigators": 0, "builders": 1}
    assert after.board["C7"].builders == 0 and after.board["D7"].owner is None

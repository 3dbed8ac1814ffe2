"""The Move action as examples: S-MOVE, S-MOVE-FREE, S-MOVE-NAV, S-MOVE-ORDER, S-MOVE-BUILDER, H-CONTROL.

Athens' Native Polis is C3, Sparta's G3, Corinth's C7 (H-SETUP). The helpers, shared with test_combat.py and
test_fortification.py, are in support.py.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from games.engine.commands import Destination, Move
from games.engine.events import RuleViolation
from games.engine.move_options import legal_moves
from games.engine.movement import battles_as_listed, decide_move, move_cost
from games.engine.rng import GameRng
from tests.engine.support import ScriptedDice, game, move, play_move, units_at

# --- S-MOVE ---------------------------------------------------------------------------------


def test_s_move_cost_is_units_over_four_rounded_up_times_distance() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 5}, "E5": {"owner": "athens"}})
    events, after = play_move(state, move("C3", Destination("E5", phalanxes=5)))
    # 5 units -> ceil(5/4) = 2, distance C3-E5 = 2 -> 4 FP
    assert move_cost(5, 2, 0) == 4
    assert events[0].type == "UnitsMoved" and events[0].payload["fp_paid"] == 4
    assert after.players["athens"].fp == 10 - 4
    assert units_at(after, "C3") == ("athens", 0, False, 0)
    assert units_at(after, "E5") == ("athens", 5, False, 0)


def test_s_move_spread_to_three_destinations_costs_only_the_farthest() -> None:
    state = game(
        {
            "C3": {"owner": "athens", "phalanxes": 8},
            "D3": {"owner": "athens"},
            "E5": {"owner": "athens", "phalanxes": 1},
            "C6": {"owner": "athens"},
        }
    )
    cmd = move("C3", Destination("D3", 2), Destination("E5", 3), Destination("C6", 3))
    events, after = play_move(state, cmd)
    # 8 units -> 2 groups of 4; the farthest destination, C6, is 3 away: 6 FP, not 2*1 + 2*2 + 2*3
    assert events[0].payload["fp_paid"] == 6 == move_cost(8, 3, 0)
    assert [after.board[s].phalanxes for s in ("C3", "D3", "E5", "C6")] == [0, 2, 4, 3]


def test_s_move_crosses_empty_spaces_without_trade_links() -> None:
    state = game({"A1": {"owner": "athens", "phalanxes": 1}, "I9": {"owner": "athens"}})
    assert state.trade_links == []
    _, after = play_move(state, move("A1", Destination("I9", 1)))
    assert after.board["I9"].phalanxes == 1 and after.players["athens"].fp == 10 - 8


def test_s_move_every_unit_ends_at_a_destination_and_pieces_are_kept() -> None:
    state = game(
        {"C3": {"owner": "athens", "phalanxes": 6, "king": True}, "D4": {"owner": "athens"}, "E3": {}}
    )
    events, after = play_move(state, move("C3", Destination("D4", 2, king=True), Destination("E3", 4)))
    on_board = sum(p.phalanxes for p in after.board.values() if p.owner == "athens")
    assert on_board == 6 and after.players["athens"].phalanx_supply + on_board == 60
    assert units_at(after, "D4") == ("athens", 2, True, 0)
    assert units_at(after, "E3") == ("athens", 4, False, 0)
    assert [e.type for e in events] == ["UnitsMoved", "PolisConquered"]
    assert json.loads(json.dumps([e.to_dict() for e in events])) == [e.to_dict() for e in events]


def test_s_move_units_arriving_at_an_own_polis_just_join() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 3}, "D3": {"owner": "athens", "phalanxes": 2}})
    events, after = play_move(state, move("C3", Destination("D3", 3)))
    assert events[0].payload["destinations"][0]["arrival"] == "join"
    assert len(events) == 1 and units_at(after, "D3") == ("athens", 5, False, 0)


def test_s_move_fourth_destination_is_refused() -> None:
    board = {"C3": {"owner": "athens", "phalanxes": 4}}
    board |= {s: {"owner": "athens"} for s in ("B2", "C2", "D2", "D3")}
    state = game(board)
    cmd = move("C3", *(Destination(s, 1) for s in ("B2", "C2", "D2", "D3")))
    with pytest.raises(RuleViolation) as refused:
        decide_move(state, cmd, ScriptedDice())
    assert refused.value.rule == "S-MOVE" and refused.value.params == {"count": 4}


ILLEGAL_BOARD: dict[str, dict[str, Any]] = {
    "C3": {"owner": "athens", "phalanxes": 3, "navigators": 1, "king": True},
    "D4": {"owner": "athens", "phalanxes": 1, "king": False},
    "E5": {"owner": "athens", "phalanxes": 1},
    "G3": {"owner": "sparta", "phalanxes": 2},
    "E3": {"phalanxes": 1},
    "C5": {"phalanxes": 1},
}

TWO_BATTLES = (Destination("E3", 1), Destination("C5", 1))  # two defended neutral Poleis

ILLEGAL_MOVES = [
    ("rival's Polis as origin", move("G3", Destination("E3", 1)), "S-MOVE"),
    ("empty space as origin", move("A1", Destination("C3", 1)), "S-MOVE"),
    ("wrong player", move("C3", Destination("D4", 1), player="sparta"), "S-MOVE"),
    ("no destination", move("C3"), "S-MOVE"),
    ("space without a Polis", move("C3", Destination("B2", 1)), "S-MOVE"),
    ("not a space", move("C3", Destination("Z9", 1)), "S-MOVE"),
    ("origin as destination", move("C3", Destination("C3", 1)), "S-MOVE"),
    ("four destinations", move("C3", *(Destination(s, 1) for s in ("D4", "E5", "E3", "C5"))), "S-MOVE"),
    ("destination twice", move("C3", Destination("D4", 1), Destination("D4", 1)), "S-MOVE"),
    ("more phalanxes than present", move("C3", Destination("D4", 4)), "S-MOVE"),
    ("more Navigators than present", move("C3", Destination("D4", 1, navigators=2)), "S-MOVE"),
    ("King not there", move("D4", Destination("E5", 1, king=True)), "S-MOVE"),
    ("zero units", move("C3", Destination("D4", 0)), "S-MOVE"),
    ("negative units", move("C3", Destination("D4", -1)), "H-ORDER"),
    ("King alone", move("C3", Destination("D4", 0, king=True)), "H-CONTROL"),
    ("Navigator alone", move("C3", Destination("D4", 0, navigators=1)), "H-HEROES"),
    ("not enough FP", move("C3", Destination("I9", 1)), "S-MOVE"),
    ("battle order names a wrong Polis", move("C3", Destination("E3", 1), order=("E5",)), "S-MOVE-ORDER"),
    ("no battle order for two battles", move("C3", *TWO_BATTLES), "S-MOVE-ORDER"),
    ("battle order names one twice", move("C3", *TWO_BATTLES, order=("E3", "E3")), "S-MOVE-ORDER"),
    ("battle order names an own Polis", move("C3", Destination("E3", 1), order=("E3", "D4")), "S-MOVE-ORDER"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "cmd", "rule"), ILLEGAL_MOVES, ids=[m[0] for m in ILLEGAL_MOVES])
def test_s_move_illegal_moves_are_refused_and_change_nothing(what: str, cmd: Move, rule: str) -> None:
    state = game(ILLEGAL_BOARD | {"I9": {"owner": "athens"}}, athens={"fp": 3}, sparta={})
    before = state.to_dict()
    with pytest.raises(RuleViolation) as refused:
        decide_move(state, cmd, ScriptedDice())
    assert refused.value.rule == rule
    assert refused.value.message_template % refused.value.params in refused.value.message
    assert state.to_dict() == before


def test_s_move_legal_moves_are_legal_affordable_and_bounded() -> None:
    state = game(ILLEGAL_BOARD | {"I9": {"owner": "athens"}}, athens={"fp": 3}, sparta={"fp": 0})
    moves = legal_moves(state, "athens")
    origins = {m.origin for m in moves}
    assert origins == {"C3", "D4", "E5"}
    assert {len(m.destinations) for m in moves} == {1, 2, 3}  # single and spread moves
    assert "I9" not in {d.space for m in moves for d in m.destinations}  # 6 away: beyond 3 FP
    # all of C3 (3 phalanxes, King, Navigator) to D4, and half of it (1 phalanx)
    assert Move("athens", "C3", (Destination("D4", 3, True, 1, 0),)) in moves
    assert Move("athens", "C3", (Destination("D4", 1),)) in moves
    for cmd in moves:
        decide_move(state, cmd, GameRng("any seed", 7))
    assert legal_moves(state, "sparta") == []  # Sparta has no FP


# --- S-MOVE-FREE ----------------------------------------------------------------------------


def test_s_move_free_the_king_is_not_counted() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 4, "king": True}, "E3": {"owner": "athens"}})
    events, after = play_move(state, move("C3", Destination("E3", 4, king=True)))
    # 4 phalanxes + King: still one group of 4 -> 1 x 2 = 2 FP
    assert events[0].payload["units_counted"] == 4 and events[0].payload["fp_paid"] == 2
    assert after.board["E3"].king and not after.board["C3"].king


def test_s_move_free_builders_ride_free() -> None:
    state = game(
        {"C7": {"owner": "corinth", "phalanxes": 4, "builders": 2}, "D7": {"owner": "corinth"}},
        corinth={"fp": 1},
        sparta={},
    )
    events, after = play_move(state, move("C7", Destination("D7", 4, builders=2), player="corinth"))
    assert events[0].payload["fp_paid"] == 1
    assert after.board["D7"].builders == 2 and after.players["corinth"].fp == 0


# --- S-MOVE-BUILDER ---------------------------------------------------------------------------


def test_s_move_builder_may_split_but_each_travels_with_a_phalanx() -> None:
    state = game(
        {"C7": {"owner": "corinth", "phalanxes": 2, "builders": 2}, "D7": {"owner": "corinth"}, "C8": {}},
        corinth={"fp": 1},
        sparta={},
    )
    split = move("C7", Destination("D7", 1, builders=1), Destination("C8", 1, builders=1), player="corinth")
    _, after = play_move(state, split)
    assert after.board["D7"].builders == 1 and after.board["C8"].builders == 1
    assert after.board["C8"].owner == "corinth"
    alone = move("C7", Destination("D7", 2, builders=1), Destination("C8", 0, builders=1), player="corinth")
    with pytest.raises(RuleViolation) as refused:
        decide_move(state, alone, ScriptedDice())
    assert refused.value.rule == "S-MOVE-BUILDER"


# --- S-MOVE-NAV and H-CONVERGENCE -------------------------------------------------------------


def test_s_move_nav_navigators_count_as_units_and_discount_last() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 3, "navigators": 2}, "E3": {"owner": "athens"}})
    events, after = play_move(state, move("C3", Destination("E3", 3, navigators=2)))
    # 5 units -> 2 groups x 2 spaces = 4, then -1 per Navigator = 2 (not (2 - 2) x 2 = 0)
    assert events[0].payload["fp_paid"] == 2 == move_cost(5, 2, 2)
    assert after.board["E3"].navigators == 2 and after.players["athens"].fp == 8


def test_s_move_nav_cost_never_below_zero() -> None:
    state = game(
        {"C3": {"owner": "athens", "phalanxes": 2, "navigators": 2}, "D3": {"owner": "athens"}},
        athens={"fp": 0},
        sparta={},
    )
    events, after = play_move(state, move("C3", Destination("D3", 2, navigators=2)))
    assert move_cost(4, 1, 2) == 0 and events[0].payload["fp_paid"] == 0
    assert after.players["athens"].fp == 0 and after.board["D3"].navigators == 2


def test_s_move_nav_only_navigators_in_the_moving_force_count() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 4, "navigators": 1}, "E3": {"owner": "athens"}})
    events, _ = play_move(state, move("C3", Destination("E3", 4)))
    assert events[0].payload["fp_paid"] == 2  # the Navigator stayed home: no discount


def test_h_convergence_nothing_between_the_distance_cost_and_the_navigator_discount() -> None:
    for units in range(1, 13):
        for distance in range(1, 9):
            for navigators in range(3):
                expected = max(0, math.ceil(units / 4) * distance - navigators)
                assert move_cost(units, distance, navigators) == expected


# --- S-MOVE-ORDER -------------------------------------------------------------------------------


def test_s_move_order_battles_are_fought_in_the_attackers_order() -> None:
    state = game(
        {"C3": {"owner": "athens", "phalanxes": 2}, "E3": {"phalanxes": 1}, "C5": {"phalanxes": 1}},
    )
    cmd = move("C3", Destination("E3", 1), Destination("C5", 1), order=("C5", "E3"))
    # C5 first: its garrison misses (1), Athens hits (6). Then E3: the garrison hits (3).
    events, after = play_move(state, cmd, ScriptedDice(1, 6, 3))
    battles = [e.payload for e in events if e.type == "BattleFought"]
    assert [b["space"] for b in battles] == ["C5", "E3"]
    assert [r["dice"] for r in battles[0]["rounds"]] == [[1], [6]]
    assert [r["dice"] for r in battles[1]["rounds"]] == [[3]]
    assert after.board["C5"].owner == "athens" and after.board["E3"].owner is None


def test_s_move_order_may_be_left_out_for_a_single_battle() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 2}, "E3": {"phalanxes": 1}, "D3": {}})
    events, _ = play_move(state, move("C3", Destination("E3", 1), Destination("D3", 1)), ScriptedDice(1, 5))
    assert [e.type for e in events] == ["UnitsMoved", "PolisConquered", "BattleFought", "PolisConquered"]


# --- H-CONTROL ----------------------------------------------------------------------------------


def test_h_control_a_polis_stays_yours_when_all_units_leave() -> None:
    state = game({"D4": {"owner": "athens", "phalanxes": 2}, "D5": {"owner": "athens"}})
    _, after = play_move(state, move("D4", Destination("D5", 2)))
    assert units_at(after, "D4") == ("athens", 0, False, 0)


def test_h_control_heroes_never_stay_alone_outside_the_native_polis() -> None:
    state = game(
        {"D4": {"owner": "athens", "phalanxes": 2, "king": True, "navigators": 1}, "D5": {"owner": "athens"}}
    )
    before = state.to_dict()
    for cmd in (
        move("D4", Destination("D5", 2, navigators=1)),  # the King stays alone
        move("D4", Destination("D5", 2, king=True)),  # the Navigator stays alone
    ):
        with pytest.raises(RuleViolation) as refused:
            decide_move(state, cmd, ScriptedDice())
        assert refused.value.rule == "H-CONTROL"
    assert state.to_dict() == before
    _, after = play_move(state, move("D4", Destination("D5", 1, king=True, navigators=1)))
    assert units_at(after, "D4") == ("athens", 1, False, 0)


def test_h_control_the_king_may_stay_alone_in_his_native_polis() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 2, "king": True}, "D4": {"owner": "athens"}})
    _, after = play_move(state, move("C3", Destination("D4", 2)))
    assert units_at(after, "C3") == ("athens", 0, True, 0)


def test_h_control_the_king_never_travels_alone() -> None:
    state = game({"C3": {"owner": "athens", "phalanxes": 2, "king": True}, "D4": {"owner": "athens"}})
    with pytest.raises(RuleViolation) as refused:
        decide_move(state, move("C3", Destination("D4", 0, king=True)), ScriptedDice())
    assert refused.value.rule == "H-CONTROL"


# --- through the engine facade ------------------------------------------------------------------


def test_s_move_order_survives_the_json_round_trip_and_the_facade() -> None:
    from games.engine import command_from_dict, decide, fold_from

    state = game(
        {
            "C3": {"owner": "athens", "phalanxes": 3},
            "E3": {"phalanxes": 1},
            "C5": {"phalanxes": 1},
            "G3": {"owner": "sparta", "phalanxes": 1},
        }
    )
    cmd = move("C3", Destination("E3", 2), Destination("C5", 1), order=("E3", "C5"))
    assert command_from_dict(json.loads(json.dumps(cmd.to_dict()))) == cmd
    before = state.to_dict()
    events = decide(state, cmd, GameRng("facade", 3))
    assert state.to_dict() == before
    assert [e.payload["space"] for e in events if e.type == "BattleFought"] == ["E3", "C5"]
    after = fold_from(state.copy(), events)
    assert after.player_on_turn == "sparta" and after.players["athens"].fp == 10 - 2


def test_s_move_order_the_battles_as_listed_are_the_defended_destinations_in_the_moves_order() -> None:
    """S-MOVE-ORDER: the order a player gives by listing (or tapping) their destinations: only the
    defended ones (another's Polis, a neutral one with phalanxes), in that order."""
    board = {
        "C3": {"owner": "athens", "phalanxes": 6},
        "D3": {"owner": "athens"},
        "B3": {},  # a neutral Polis without phalanxes: taken without a battle
        "E3": {"phalanxes": 1},
        "C5": {"phalanxes": 1},
    }
    state = game(board)
    listed = move("C3", *(Destination(space, 1) for space in ("C5", "D3", "B3", "E3")))
    assert battles_as_listed(state, listed) == ("C5", "E3")
    reversed_ = move("C3", Destination("E3", 3), Destination("C5", 3))
    assert battles_as_listed(state, reversed_) == ("E3", "C5")
    # Given as the battle order, it is the order the battles are fought in.
    ordered = move("C3", *reversed_.destinations, order=battles_as_listed(state, reversed_))
    events, _ = play_move(state, ordered, GameRng("battle order", 0))
    assert [e.payload["space"] for e in events if e.type == "BattleFought"] == ["E3", "C5"]

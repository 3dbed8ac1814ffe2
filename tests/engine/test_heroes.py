"""Heroes as examples: H-HEROES (hiring Navigators, the cap of 2, a fallen King's 2 VP)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Destination, Move, Recruit, RuleViolation, command_from_dict, legal_commands
from games.engine.data import NAVIGATOR_AP
from games.engine.state import GameState

from .support import only, play, refused, state_of, with_dice

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 3, "king": True, "navigators": 1},
    "G3": {"owner": "sparta", "phalanxes": 3},
    "F3": {"tile": "elis", "owner": "sparta", "phalanxes": 1, "king": True},
}


def game(board: dict[str, Any] | None = None, **athens: Any) -> GameState:
    return state_of(players={"athens": athens, "sparta": {"ap": 4}}, board=board or BOARD)


def test_h_heroes_a_navigator_is_hired_as_a_recruit_option_for_2_ap() -> None:
    events, after = play(game(ap=3), Recruit("athens", space="C3", phalanxes=0, navigators=1))
    recruited = only(events, "PhalanxesRecruited").payload
    assert NAVIGATOR_AP == 2 and (recruited["navigators"], recruited["ap"]) == (1, 2)
    assert after.board["C3"].navigators == 2 and after.players["athens"].ap == 1
    assert after.board["C3"].phalanxes == 3 and after.player_on_turn == "sparta"


def test_h_heroes_phalanxes_and_a_navigator_in_one_recruit() -> None:
    events, after = play(game(ap=5), Recruit("athens", space="C3", phalanxes=3, navigators=1))
    assert only(events, "PhalanxesRecruited").payload["ap"] == 3 + 2
    assert (after.board["C3"].phalanxes, after.board["C3"].navigators, after.players["athens"].ap) == (
        6,
        2,
        0,
    )


def test_h_heroes_at_most_two_navigators_each_in_play() -> None:
    # Athens starts with one: one more may be hired, not two
    refused(game(ap=9), Recruit("athens", space="C3", phalanxes=0, navigators=2), "H-HEROES")
    assert Recruit("athens", space="C3", phalanxes=0, navigators=1) in legal_commands(game(ap=9), "athens")
    full = game({**BOARD, "C3": {**BOARD["C3"], "navigators": 2}}, ap=9)
    refused(full, Recruit("athens", space="C3", phalanxes=0, navigators=1), "H-HEROES")
    assert not any(isinstance(c, Recruit) and c.navigators for c in legal_commands(full, "athens"))
    # Sparta has none: it may hire two at once (4 AP)
    state = state_of(players={"athens": {}, "sparta": {"ap": 4}}, board=BOARD, on_turn="sparta")
    _, after = play(state, Recruit("sparta", space="G3", phalanxes=0, navigators=2))
    assert after.board["G3"].navigators == 2 and after.players["sparta"].ap == 0


def test_h_heroes_a_lost_navigator_frees_its_place() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 3, "king": True, "navigators": 1},
        "D3": {"tile": "pylos", "owner": "athens", "phalanxes": 1, "navigators": 1},
        "E3": {"tile": "tegea", "phalanxes": 1},
        "G3": {"owner": "sparta", "phalanxes": 3},
    }
    state = game(board, ap=2, fp=2)
    refused(state, Recruit("athens", space="C3", phalanxes=0, navigators=1), "H-HEROES")
    attack = Move("athens", origin="D3", destinations=(Destination("E3", 1, navigators=1),))
    events, after = with_dice(state, attack, 6)  # the garrison kills the phalanx and the Navigator with it
    assert only(events, "BattleFought").payload["heroes_lost"]["attacker"]["navigators"] == 1
    after.turn_index = after.seat_order.index("athens")
    _, hired = play(after, Recruit("athens", space="C3", phalanxes=0, navigators=1))
    assert hired.board["C3"].navigators == 2


def test_h_heroes_a_hired_navigator_stands_where_the_king_stands_or_at_home() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 3},
        "D4": {"tile": "pylos", "owner": "athens", "phalanxes": 1, "king": True},
        "E4": {"tile": "tegea", "owner": "athens", "phalanxes": 1},
        "G3": {"owner": "sparta", "phalanxes": 3},
    }
    _, after = play(game(board, ap=2), Recruit("athens", space="D4", phalanxes=0, navigators=1))
    assert after.board["D4"].navigators == 1
    refused(game(board, ap=2), Recruit("athens", space="E4", phalanxes=0, navigators=1), "H-ACTIONS")


def test_h_heroes_hiring_needs_the_ap_and_an_empty_recruit_is_no_order() -> None:
    refused(game(ap=1), Recruit("athens", space="C3", phalanxes=0, navigators=1), "H-ACTIONS")
    _, after = play(game(ap=1, blanks=1), Recruit("athens", space="C3", phalanxes=0, navigators=1, blanks=1))
    assert (after.players["athens"].ap, after.players["athens"].blanks) == (0, 0)
    empty = {"kind": "recruit", "player": "athens", "space": "C3", "phalanxes": 0}
    with pytest.raises(RuleViolation) as caught:
        command_from_dict(empty)
    assert caught.value.rule == "H-ORDER"


def test_h_heroes_a_fallen_king_gives_his_killer_2_vp() -> None:
    # Athens attacks F3, where Sparta's King stands with one phalanx: the King falls, Athens gains 2 VP.
    state = game(ap=0, fp=3)
    attack = Move("athens", origin="C3", destinations=(Destination("F3", 3),))
    events, after = with_dice(state, attack, 1, 6, 1, 1)
    assert only(events, "BattleFought").payload["kings_killed"] == [
        {"faction": "sparta", "killer": "athens", "vp": 2}
    ]
    assert after.players["athens"].vp == 2 and not after.players["sparta"].king_alive


def test_h_heroes_a_king_captured_unguarded_gives_his_captor_2_vp() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 3},
        "D3": {"tile": "pylos", "owner": "sparta", "phalanxes": 0},
        "G3": {"owner": "sparta", "phalanxes": 1, "king": True},
        "H3": {"tile": "tegea", "owner": "athens", "phalanxes": 2},
    }
    capture_board = {**board, "G3": {"owner": "sparta", "phalanxes": 0, "king": True}}
    events, after = play(
        game(capture_board, fp=4), Move("athens", origin="H3", destinations=(Destination("G3", 1),))
    )
    assert only(events, "PolisConquered").payload["kings_killed"] == [
        {"faction": "sparta", "killer": "athens", "vp": 2}
    ]
    assert after.players["athens"].vp == 2

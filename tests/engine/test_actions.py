"""Recruit, Fortify and Pass as examples.

Rules: H-ACTIONS, H-PIECES, H-NATIVE-LOST, H-FACTION (Sparta), H-CONTROL.
"""

from __future__ import annotations

import pytest

from games.engine import Fortify, Pass, Recruit

from .support import only, play, refused, state_of, types

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4},
    "D4": {"tile": "elis", "owner": "athens", "phalanxes": 1, "king": True},
    "E4": {"tile": "pylos", "owner": "athens"},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    "F4": {"tile": "tegea", "owner": "sparta", "phalanxes": 1},
}


def game(athens: dict | None = None, sparta: dict | None = None, board: dict | None = None, **spec: object):
    players = {"athens": athens or {"ap": 5}, "sparta": sparta or {"ap": 5}}
    return state_of(players=players, board=board or BOARD, **spec)


def test_h_actions_recruit_in_the_native_polis_one_ap_per_phalanx() -> None:
    events, after = play(game(), Recruit("athens", space="C3", phalanxes=3))
    assert only(events, "PhalanxesRecruited").payload == {
        "player": "athens",
        "space": "C3",
        "phalanxes": 3,
        "navigators": 0,
        "ap": 3,
        "blanks": 0,
    }
    assert after.board["C3"].phalanxes == 7 and after.players["athens"].ap == 2
    assert after.players["athens"].phalanx_supply == 60 - 8 and after.player_on_turn == "sparta"


def test_h_actions_recruit_where_the_king_stands() -> None:
    _, after = play(game(), Recruit("athens", space="D4", phalanxes=2))
    assert after.board["D4"].phalanxes == 3 and after.players["athens"].ap == 3


def test_h_actions_recruit_nowhere_else() -> None:
    refused(game(), Recruit("athens", space="E4", phalanxes=1), "H-ACTIONS")  # own Polis, no King
    refused(game(), Recruit("athens", space="G3", phalanxes=1), "H-ACTIONS")  # a rival's Polis


def test_h_actions_recruit_needs_the_ap() -> None:
    refused(game(athens={"ap": 2}), Recruit("athens", space="C3", phalanxes=3), "H-ACTIONS")


def test_h_faction_sparta_recruits_two_phalanxes_per_ap_in_its_native_polis() -> None:
    state = game(on_turn="sparta")
    events, after = play(state, Recruit("sparta", space="G3", phalanxes=4))
    assert only(events, "PhalanxesRecruited").payload["ap"] == 2 and after.board["G3"].phalanxes == 8
    odd, _ = play(state, Recruit("sparta", space="G3", phalanxes=3))
    assert only(odd, "PhalanxesRecruited").payload["ap"] == 2  # an odd count rounds the AP up


def test_h_faction_sparta_pays_the_normal_rate_outside_its_native_polis() -> None:
    board = {
        **BOARD,
        "G3": {"owner": "sparta", "phalanxes": 4},
        "F4": {"tile": "tegea", "owner": "sparta", "phalanxes": 1, "king": True},
    }
    events, _ = play(game(board=board, on_turn="sparta"), Recruit("sparta", space="F4", phalanxes=3))
    assert only(events, "PhalanxesRecruited").payload["ap"] == 3


def test_h_pieces_recruits_come_only_from_the_supply_of_sixty() -> None:
    board = {**BOARD, "C3": {"owner": "athens", "phalanxes": 56}}
    state = game(athens={"ap": 9}, board=board)
    assert state.players["athens"].phalanx_supply == 3
    refused(state, Recruit("athens", space="C3", phalanxes=4), "H-PIECES")
    _, after = play(state, Recruit("athens", space="C3", phalanxes=3))
    assert after.players["athens"].phalanx_supply == 0


def test_h_actions_fortify_costs_three_ap_for_a_three_hp_fortification() -> None:
    events, after = play(game(), Fortify("athens", space="E4"))
    assert only(events, "FortificationBuilt").payload["ap"] == 3
    assert after.board["E4"].fortification_hp == [3] and after.players["athens"].ap == 2


def test_h_actions_fortifications_stack_on_one_polis() -> None:
    board = {**BOARD, "E4": {"tile": "pylos", "owner": "athens", "fortification_hp": [3, 3]}}
    _, after = play(game(board=board), Fortify("athens", space="E4"))
    assert after.board["E4"].fortification_hp == [3, 3, 3]


def test_h_actions_fortify_only_a_polis_you_control_with_three_ap() -> None:
    refused(game(), Fortify("athens", space="F4"), "H-ACTIONS")
    refused(game(), Fortify("athens", space="A1"), "H-ACTIONS")
    refused(game(athens={"ap": 2}), Fortify("athens", space="C3"), "H-ACTIONS")


def test_h_control_a_polis_you_left_empty_stays_yours_to_fortify() -> None:
    _, after = play(game(), Fortify("athens", space="E4"))  # E4 holds no unit of Athens
    assert after.board["E4"].owner == "athens"


def test_h_actions_pass_changes_nothing_but_the_turn() -> None:
    state = game()
    events, after = play(state, Pass("athens"))
    assert types(events) == ["PlayerPassed", "TurnBegan"]
    assert after.players == state.players and after.board == state.board


def test_h_native_lost_recruit_only_where_the_king_stands() -> None:
    board = {**BOARD, "C3": {"owner": "sparta", "phalanxes": 2}}
    state = game(board=board)
    refused(state, Recruit("athens", space="C3", phalanxes=1), "H-NATIVE-LOST")
    _, after = play(state, Recruit("athens", space="D4", phalanxes=1))
    assert after.board["D4"].phalanxes == 2


def test_h_native_lost_without_native_and_king_there_is_nowhere_to_recruit() -> None:
    board = {
        **BOARD,
        "C3": {"owner": "sparta", "phalanxes": 2},
        "D4": {"tile": "elis", "owner": "athens", "phalanxes": 1},
    }
    state = game(board=board, athens={"ap": 5, "king_alive": False})
    refused(state, Recruit("athens", space="D4", phalanxes=1), "H-ACTIONS")


@pytest.mark.parametrize(
    "command", [Recruit("athens", space="C3", phalanxes=1), Fortify("athens", space="C3"), Pass("athens")]
)
def test_h_year_only_the_player_on_turn_acts(command: object) -> None:
    refused(game(on_turn="sparta"), command, "H-YEAR")

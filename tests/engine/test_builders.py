"""Corinth's Builders as examples: S-BUILDER, S-BUILDER-FORT, S-MOVE-BUILDER, H-WINTER-ORDER.

Corinth's Native Polis is C7 (H-SETUP); D7, D8 and E8 are next to it or near it.
"""

from __future__ import annotations

from typing import Any

from games.engine import Destination, Move, Pass, RecruitBuilder, legal_commands
from games.engine.data import FACTIONS, MAX_BUILDERS
from games.engine.simulation import check_invariants
from games.engine.state import GameState

from .support import into_year, only, play, refused, state_of, types, with_dice


def corinth_game(board: dict[str, Any], on_turn: str = "corinth", **corinth: Any) -> GameState:
    players = {"corinth": {"fp": 5, **corinth}, "sparta": {"fp": 5}}
    return state_of(players=players, seat_order=["corinth", "sparta"], board=board, on_turn=on_turn)


def test_s_builder_recruit_costs_only_the_action_and_appears_in_the_native_polis() -> None:
    state = corinth_game(
        {"C7": {"owner": "corinth", "phalanxes": 2}, "G3": {"owner": "sparta", "phalanxes": 1}}
    )
    events, after = play(state, RecruitBuilder("corinth"))
    assert only(events, "BuilderRecruited").payload == {"player": "corinth", "space": "C7"}
    assert after.board["C7"].builders == 1
    assert (after.players["corinth"].ap, after.players["corinth"].fp) == (0, 5)  # nothing but the action
    assert after.player_on_turn == "sparta"


def test_s_builder_is_corinths_eighth_action_from_the_data_file() -> None:
    assert FACTIONS["corinth"].extra_actions == ("recruit_builder",)
    assert all(not FACTIONS[f].extra_actions for f in ("athens", "sparta", "thebes"))
    state = state_of(players=["athens", "sparta"])
    refused(state, RecruitBuilder("athens"), "S-BUILDER")
    assert not any(isinstance(c, RecruitBuilder) for c in legal_commands(state, "athens"))


def test_s_builder_sixth_refused_while_five_in_play_and_allowed_after_one_dies() -> None:
    board = {
        "C7": {"owner": "corinth", "phalanxes": 2, "builders": 3},
        "D7": {"tile": "elis", "owner": "corinth", "phalanxes": 1, "builders": 2},
        "E7": {"tile": "tegea", "owner": "sparta", "phalanxes": 3},
        "G3": {"owner": "sparta", "phalanxes": 1},
    }
    five = corinth_game(board)
    refused(five, RecruitBuilder("corinth"), "S-BUILDER")
    assert RecruitBuilder("corinth") not in legal_commands(five, "corinth")
    # Sparta takes D7: Corinth's one phalanx misses, Sparta hits; both Builders die with their army.
    _, after_pass = play(five, Pass("corinth"))
    attack = Move("sparta", origin="E7", destinations=(Destination("D7", 3),))
    events, after = with_dice(after_pass, attack, 1, 6, 1, 1)
    battle = only(events, "BattleFought").payload
    assert battle["heroes_lost"]["defender"] == {"king": False, "navigators": 0, "builders": 2}
    assert after.board["D7"].owner == "sparta" and after.board["D7"].builders == 0
    # three are in play now: the lost ones freed their slots
    events, again = play(after, RecruitBuilder("corinth"))
    assert types(events)[0] == "BuilderRecruited" and again.board["C7"].builders == 4


def test_s_builder_recruit_refused_while_a_rival_holds_the_native_polis() -> None:
    state = corinth_game(
        {
            "C7": {"owner": "sparta", "phalanxes": 2},
            "D7": {"tile": "elis", "owner": "corinth", "phalanxes": 1},
        }
    )
    refused(state, RecruitBuilder("corinth"), "S-BUILDER")


def test_s_builder_cap_is_an_invariant_of_every_state() -> None:
    state = corinth_game({"C7": {"owner": "corinth", "phalanxes": 6, "builders": MAX_BUILDERS + 1}})
    assert any("S-BUILDER" in problem for problem in check_invariants(None, state))
    assert check_invariants(None, corinth_game({"C7": {"owner": "corinth", "builders": MAX_BUILDERS}})) == []


# --- S-MOVE-BUILDER --------------------------------------------------------------------------


def test_s_move_builder_ordered_to_move_alone_is_refused() -> None:
    state = corinth_game({"C7": {"owner": "corinth", "phalanxes": 2, "builders": 1}, "D7": {"tile": "elis"}})
    alone = Move("corinth", origin="C7", destinations=(Destination("D7", 0, builders=1),))
    refused(state, alone, "S-MOVE-BUILDER")


def test_s_move_builder_never_stays_alone_outside_the_native_polis() -> None:
    board = {
        "C7": {"owner": "corinth", "phalanxes": 2, "builders": 1},
        "D7": {"tile": "elis", "owner": "corinth", "phalanxes": 1, "builders": 1},
        "D8": {"tile": "pylos", "owner": "corinth"},
    }
    state = corinth_game(board)
    refused(state, Move("corinth", origin="D7", destinations=(Destination("D8", 1),)), "S-BUILDER")
    # in its Native Polis a Builder may stand without a phalanx
    _, after = play(state, Move("corinth", origin="C7", destinations=(Destination("D8", 2),)))
    assert after.board["C7"].builders == 1 and after.board["C7"].phalanxes == 0


def test_s_move_builder_rides_free_and_splits_in_a_spread_move() -> None:
    board = {
        "C7": {"owner": "corinth", "phalanxes": 4, "builders": 2},
        "D7": {"tile": "elis", "owner": "corinth"},
        "D8": {"tile": "pylos", "owner": "corinth"},
    }
    split = Move(
        "corinth",
        origin="C7",
        destinations=(Destination("D7", 2, builders=1), Destination("D8", 2, builders=1)),
    )
    events, after = play(corinth_game(board, fp=1), split)
    assert events[0].payload["fp_paid"] == 1  # 4 phalanxes, 1 step; the Builders ride free
    assert (after.board["D7"].builders, after.board["D8"].builders) == (1, 1)


def test_s_move_builder_the_bots_offer_spread_moves_that_split_builders() -> None:
    board = {
        "C7": {"owner": "corinth", "phalanxes": 4, "builders": 2},
        "D7": {"tile": "elis", "owner": "corinth"},
        "D8": {"tile": "pylos", "owner": "corinth"},
        "C8": {"tile": "troizen", "owner": "corinth"},
    }
    moves = [c for c in legal_commands(corinth_game(board), "corinth") if isinstance(c, Move)]
    spreads = [m for m in moves if len(m.destinations) > 1]
    assert {len(m.destinations) for m in spreads} == {2, 3}
    for m in spreads:
        assert all(d.phalanxes >= 1 for d in m.destinations)
        assert sum(d.builders for d in m.destinations) == 2
        assert max(d.builders for d in m.destinations) == 1  # split, one to a group


# --- S-BUILDER-FORT --------------------------------------------------------------------------

FORT_BOARD = {
    "C7": {"owner": "corinth", "phalanxes": 2, "builders": 1},
    "D7": {"tile": "elis", "owner": "corinth", "phalanxes": 2, "builders": 2},
    "E8": {"tile": "pylos", "owner": "corinth", "phalanxes": 1, "builders": 1, "fortification_hp": [3]},
    "D8": {"tile": "tegea", "owner": "sparta", "phalanxes": 1},  # presses Corinth (S-REINF)
    "G3": {"owner": "sparta", "phalanxes": 1},
}


def test_s_builder_fort_each_builder_builds_one_fortification_every_winter() -> None:
    for year in (429, 430):  # after a scoring winter (430) and after a plain one (431)
        events, after = into_year(year, players={"corinth": {}, "sparta": {}}, board=FORT_BOARD)
        built = {
            e.payload["space"]: e.payload["fortifications"] for e in events if e.type == "BuildersFortified"
        }
        assert built == {"D7": 2, "E8": 1}
        assert after.board["D7"].fortification_hp == [3, 3]
        assert after.board["E8"].fortification_hp == [3, 3]  # stacks on the one already there
    _, after = into_year(430, players={"corinth": {"ap": 1, "fp": 1}, "sparta": {}}, board=FORT_BOARD)
    assert (after.players["corinth"].ap, after.players["corinth"].fp) == (1, 1)  # at no cost


def test_s_builder_fort_never_in_the_native_polis() -> None:
    events, after = into_year(430, players={"corinth": {}, "sparta": {}}, board=FORT_BOARD)
    assert "C7" not in {e.payload["space"] for e in events if e.type == "BuildersFortified"}
    assert after.board["C7"].fortification_hp == []


def test_h_winter_order_scoring_then_builders_then_reinforcement() -> None:
    events, _ = into_year(429, players={"corinth": {}, "sparta": {}}, board=FORT_BOARD)
    order = [t for t in types(events) if t in ("RankingScored", "BuildersFortified", "PhalanxesReinforced")]
    assert order == ["RankingScored"] * 3 + ["BuildersFortified"] * 2 + ["PhalanxesReinforced"]


def test_s_builder_army_destroyed_takes_the_builder_and_leaves_its_fortifications() -> None:
    # Winter: the Builder at D7 fortifies it. Next year its army attacks Elis's neighbour and falls.
    board = {
        "C7": {"owner": "corinth", "phalanxes": 2},
        "D7": {"tile": "elis", "owner": "corinth", "phalanxes": 1, "builders": 1},
        "E7": {"tile": "tegea", "phalanxes": 2},  # a neutral garrison
        "G3": {"owner": "sparta", "phalanxes": 1},
    }
    _, spring = into_year(430, players={"corinth": {"fp": 3}, "sparta": {}}, board=board)
    assert spring.board["D7"].fortification_hp == [3] and spring.player_on_turn == "corinth"
    attack = Move("corinth", origin="D7", destinations=(Destination("E7", 1, builders=1),))
    events, after = with_dice(spring, attack, 6, 1)  # the garrison fires first and wipes the army out
    assert only(events, "BattleFought").payload["heroes_lost"]["attacker"]["builders"] == 1
    assert sum(p.builders for p in after.board.values()) == 0
    assert after.board["D7"].fortification_hp == [3] and after.board["D7"].owner == "corinth"


def test_s_builder_dies_when_its_unguarded_native_polis_is_captured() -> None:
    board = {
        "C7": {"owner": "corinth", "phalanxes": 0, "builders": 2},
        "D7": {"tile": "elis", "owner": "sparta", "phalanxes": 2},
        "G3": {"owner": "sparta", "phalanxes": 1},
    }
    state = corinth_game(board, on_turn="sparta")
    events, after = play(state, Move("sparta", origin="D7", destinations=(Destination("C7", 1),)))
    assert only(events, "PolisConquered").payload["heroes_captured"]["builders"] == 2
    assert after.board["C7"].builders == 0

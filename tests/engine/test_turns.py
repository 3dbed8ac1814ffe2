"""The flow of the year as examples.

Rules: H-YEAR, S-TIME, S-WINTER, H-WINTER-ORDER, H-NATIVE-LOST (automatic passes).
"""

from __future__ import annotations

from games.engine import CommitCoins, Pass

from .support import into_year, play, state_of, types

THREE = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    "C7": {"owner": "corinth", "phalanxes": 4, "king": True},
}


def test_h_year_three_rounds_each_player_one_action_in_seat_order() -> None:
    state = state_of(
        players=["sparta", "athens", "corinth"], seat_order=["corinth", "athens", "sparta"], board=THREE
    )
    seen = []
    while state.year == 431:
        seen.append((state.action_round, state.player_on_turn))
        _, state = play(state, Pass(state.player_on_turn))
    assert seen == [(r, p) for r in (1, 2, 3) for p in ("corinth", "athens", "sparta")]
    assert state.year == 430  # 431's winter is not scored: the next year begins at once


def test_s_winter_the_winter_of_an_even_year_waits_for_sealed_orders() -> None:
    state = state_of(
        board=THREE, players=["athens", "sparta", "corinth"], year=430, action_round=3, on_turn="corinth"
    )
    events, after = play(state, Pass("corinth"))
    assert events[-1].type == "WinterBegan" and events[-1].payload == {"year": 430, "scoring": True}
    assert after.phase == "winter_orders" and after.player_on_turn is None


def test_s_winter_421_is_scored_and_ends_the_game() -> None:
    nothing = {"coins": {}, "blanks": 0}
    orders = {"athens": nothing, "corinth": nothing}
    state = state_of(
        board=THREE,
        players=["athens", "sparta", "corinth"],
        year=421,
        phase="winter_orders",
        winter_orders=orders,
    )
    events, after = play(state, CommitCoins("sparta"))
    assert [e.payload["ranking"] for e in events if e.type == "RankingScored"] == ["poleis", "coins", "mint"]
    assert types(events)[-1] == "GameEnded" and after.phase == "ended"


def test_h_winter_order_scoring_then_reinforcement_then_the_next_year() -> None:
    board = {**THREE, "D4": {"tile": "elis", "owner": "sparta", "phalanxes": 1}}  # presses Athens
    events, _ = into_year(429, players=["athens", "sparta", "corinth"], board=board)
    assert types(events) == [
        "WinterOrderSealed",
        "WinterOrdersRevealed",
        "RankingScored",
        "RankingScored",
        "RankingScored",
        "PhalanxesReinforced",
        "YearBegan",
        "IncomeReceived",
        "IncomeReceived",
        "IncomeReceived",
    ]


def test_h_winter_order_a_winter_without_scoring_still_reinforces() -> None:
    board = {**THREE, "D4": {"tile": "elis", "owner": "sparta", "phalanxes": 1}}
    events, after = into_year(430, players=["athens", "sparta", "corinth"], board=board)
    assert types(events) == ["PlayerPassed", "WinterBegan", "PhalanxesReinforced", "YearBegan"]
    assert after.board["C3"].phalanxes == 4 + 6


def test_h_native_lost_a_player_without_a_polis_passes_automatically() -> None:
    board = {
        "C3": {"owner": "sparta", "phalanxes": 3},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
        "C7": THREE["C7"],
    }
    state = state_of(players={"corinth": {}, "athens": {"king_alive": False}, "sparta": {}}, board=board)
    assert state.player_on_turn == "corinth"
    events, after = play(state, Pass("corinth"))
    assert [(e.type, e.payload.get("player")) for e in events] == [
        ("PlayerPassed", "corinth"),
        ("TurnBegan", "athens"),
        ("PlayerPassed", "athens"),
        ("TurnBegan", "sparta"),
    ]
    assert events[2].payload["automatic"] is True and after.player_on_turn == "sparta"


def test_h_native_lost_a_player_without_a_polis_still_scores_committed_coins() -> None:
    board = {"C3": {"owner": "sparta", "phalanxes": 3}, "G3": {"owner": "sparta", "phalanxes": 4}}
    state = state_of(
        players={"athens": {"coins_behind_screen": {"owl": 2}}, "sparta": {}},
        board=board,
        year=430,
        phase="winter_orders",
    )
    _, waiting = play(state, CommitCoins("sparta"))
    events, after = play(waiting, CommitCoins("athens", coins=(("owl", 2),)))
    coins = [e for e in events if e.type == "RankingScored" and e.payload["ranking"] == "coins"][0]
    assert coins.payload["vp"] == {"athens": 3}
    poleis = [e for e in events if e.type == "RankingScored" and e.payload["ranking"] == "poleis"][0]
    assert poleis.payload["vp"] == {"sparta": 3, "athens": 2}  # S-RANK: ranked with 0 Poleis, 2nd of 2
    assert after.players["athens"].vp == 3 + 2


def test_s_time_years_count_down_and_the_game_ends_after_421() -> None:
    events, after = into_year(421, players=["athens", "sparta"], board=THREE | {"C7": {"tile": "elis"}})
    assert after.year == 421 and after.phase == "actions"
    state = after
    while state.phase == "actions":
        _, state = play(state, Pass(state.player_on_turn))
    assert state.phase == "winter_orders" and state.year == 421

"""Winter as examples.

Rules: H-WINTER-ORDERS, S-WINTER, S-RANK, H-RANK, H-MINT, H-BAG, S-REINF, H-NATIVE-LOST, H-PIECES, H-END.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import CommitCoins, GameState, Pass, Recruit, player_view
from games.engine.winter import competition_places, rank_vp

from .support import into_year, only, play, refused, state_of, types

NATIVES = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    "C7": {"owner": "corinth", "phalanxes": 4, "king": True},
    "G7": {"owner": "thebes", "phalanxes": 4, "king": True},
}
FOUR = ["athens", "sparta", "corinth", "thebes"]


def winter(players: Any = None, board: dict | None = None, year: int = 430, **spec: Any) -> GameState:
    players = players or {"athens": {"coins_behind_screen": {"owl": 3, "turtle": 1}}, "sparta": {}}
    board = board or {s: p for s, p in NATIVES.items() if p["owner"] in players}
    return state_of(players=players, board=board, year=year, phase="winter_orders", **spec)


def score(state: GameState, orders: dict[str, dict[str, int]]) -> tuple[list, GameState]:
    """Every player sends their order (coins as {design: count}); returns the last decision's events."""
    events: list = []
    for faction in state.seat_order:
        events, state = play(
            state, CommitCoins(faction, coins=tuple(sorted(orders.get(faction, {}).items())))
        )
    return events, state


def ranking(events: list, name: str) -> dict[str, Any]:
    return [e.payload for e in events if e.type == "RankingScored" and e.payload["ranking"] == name][0]


def test_h_winter_orders_are_sealed_until_every_player_has_sent_one() -> None:
    state = winter()
    events, waiting = play(state, CommitCoins("athens", coins=(("owl", 2),)))
    assert types(events) == ["WinterOrderSealed"] and waiting.phase == "winter_orders"
    assert waiting.players["athens"].coins_behind_screen == {"owl": 3, "turtle": 1}  # not yet revealed
    assert player_view(waiting, "sparta")["winter_orders"] == {"athens": "submitted"}
    own = player_view(waiting, "athens")["winter_orders"]["athens"]
    assert (own["coins"], own["blanks"], own["mission_card"]) == ({"owl": 2}, 0, None)
    events, after = play(waiting, CommitCoins("sparta"))
    revealed = only(events, "WinterOrdersRevealed").payload["orders"]["athens"]
    assert (revealed["coins"], revealed["blanks"], revealed["mission_card"]) == ({"owl": 2}, 0, None)


def test_h_winter_orders_may_come_in_any_order() -> None:
    _, waiting = play(winter(), CommitCoins("sparta"))
    events, _ = play(waiting, CommitCoins("athens"))
    assert "WinterOrdersRevealed" in types(events)


def test_h_winter_orders_one_per_player_from_the_coins_behind_the_screen() -> None:
    refused(winter(), CommitCoins("athens", coins=(("owl", 4),)), "H-WINTER-ORDERS")
    refused(winter(), CommitCoins("athens", coins=(("pegasus", 1),)), "H-WINTER-ORDERS")
    refused(winter(), CommitCoins("athens", blanks=1), "H-WINTER-ORDERS")
    # One per player under rules version 2; from version 3 on a second seal replaces the first (H-TAKEBACK).
    _, waiting = play(winter(rules_version=2), CommitCoins("athens"))
    refused(waiting, CommitCoins("athens", coins=(("owl", 1),)), "H-WINTER-ORDERS")


def test_h_winter_orders_only_in_a_scoring_winter_and_no_actions_then() -> None:
    actions = state_of(players=["athens", "sparta"])
    refused(actions, CommitCoins("athens"), "H-WINTER-ORDERS")
    refused(winter(), Pass("athens"), "H-YEAR")
    refused(winter(), Recruit("athens", space="C3", phalanxes=1), "H-YEAR")


def test_h_bag_committed_coins_go_back_into_the_bag() -> None:
    players = {"athens": {"coins_behind_screen": {"owl": 3, "turtle": 1}}, "sparta": {}}
    state = winter(players=players, year=422)  # no Spring income follows in 421
    bag_before = dict(state.bag)
    _, after = score(state, {"athens": {"owl": 2, "turtle": 1}})
    assert after.players["athens"].coins_behind_screen == {"owl": 1}
    assert after.bag == {**bag_before, "owl": bag_before["owl"] + 2, "turtle": bag_before["turtle"] + 1}


def test_h_bag_committed_blanks_return_to_the_supply_not_the_bag() -> None:
    state = winter(players={"athens": {"blanks": 2}, "sparta": {}}, year=422)
    _, waiting = play(state, CommitCoins("athens", blanks=2))
    events, after = play(waiting, CommitCoins("sparta"))
    assert after.players["athens"].blanks == 0 and after.bag == state.bag
    assert ranking(events, "coins")["values"] == {"athens": 2}


def test_s_winter_the_three_rankings_run_poleis_then_coins_then_mint() -> None:
    events, _ = score(winter(), {"athens": {"owl": 1}})
    assert [e.payload["ranking"] for e in events if e.type == "RankingScored"] == ["poleis", "coins", "mint"]
    assert types(events).index("WinterOrdersRevealed") < types(events).index("RankingScored")


def test_s_rank_places_from_the_top_score_three_two_one_zero() -> None:
    board = {
        "C3": {"owner": "athens"},
        "D4": {"tile": "elis", "owner": "athens"},
        "E4": {"tile": "pylos", "owner": "athens"},
        "G3": {"owner": "sparta"},
        "F4": {"tile": "tegea", "owner": "sparta"},
        "C7": {"owner": "corinth"},
        "G7": {"owner": "corinth"},  # Corinth holds Thebes' Native Polis
        "H8": {"tile": "kos", "owner": "thebes"},
    }
    events, _ = score(winter(players=FOUR, board=board), {})
    poleis = ranking(events, "poleis")
    assert poleis["values"] == {"athens": 3, "sparta": 2, "corinth": 2, "thebes": 1}
    assert poleis["vp"] == {"athens": 3, "sparta": 2, "corinth": 2, "thebes": 0}


def test_s_rank_four_distinct_values_score_three_two_one_zero() -> None:
    assert competition_places({"a": 9, "b": 7, "c": 5, "d": 1}) == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert [rank_vp(p, 4) for p in (1, 2, 3, 4)] == [3, 2, 1, 0]


def test_s_rank_with_two_players_only_three_and_two() -> None:
    assert [rank_vp(p, 2) for p in (1, 2)] == [3, 2]
    state = winter(
        players={
            "athens": {"coins_behind_screen": {"owl": 3}},
            "sparta": {"coins_behind_screen": {"shield": 1}},
        }
    )
    events, after = score(state, {"athens": {"owl": 3}, "sparta": {"shield": 1}})
    assert ranking(events, "coins")["vp"] == {"athens": 3, "sparta": 2}
    assert ranking(events, "poleis")["vp"] == {"athens": 3, "sparta": 3}  # tied: both first


def test_s_rank_every_player_is_ranked_in_poleis_even_without_a_polis() -> None:
    # "one rank per player (...; in the Coin and Mint rankings, only players who commit coins are
    # ranked)": only those two rankings leave anybody out, so a player holding no Polis is ranked
    # in the Poleis ranking, with 0 Poleis.
    board = {"C3": {"owner": "athens"}, "G3": {"owner": "athens"}}  # Athens holds Sparta's Native Polis
    events, after = score(winter(players={"athens": {}, "sparta": {}}, board=board), {})
    poleis = ranking(events, "poleis")
    assert poleis["values"] == {"athens": 2, "sparta": 0}
    assert poleis["vp"] == {"athens": 3, "sparta": 2}  # 2 players: 3 VP / 2 VP
    assert after.players["sparta"].vp == 2
    board = {**NATIVES, "G3": {"owner": "athens"}, "G7": {"owner": "athens"}}
    events, _ = score(winter(players=FOUR, board=board), {})
    poleis = ranking(events, "poleis")
    assert poleis["places"] == {"athens": 1, "corinth": 2, "sparta": 3, "thebes": 3}
    assert poleis["vp"] == {"athens": 3, "corinth": 2, "sparta": 1, "thebes": 1}  # ties share the better rank


def test_s_rank_only_players_who_commit_coins_are_ranked_in_coins() -> None:
    players = {f: {"coins_behind_screen": {"turtle": 2}} for f in FOUR}
    events, after = score(winter(players=players), {"sparta": {"turtle": 1}, "thebes": {"turtle": 2}})
    coins = ranking(events, "coins")
    assert coins["places"] == {"thebes": 1, "sparta": 2} and coins["vp"] == {"thebes": 3, "sparta": 2}
    assert "athens" not in coins["vp"] and "corinth" not in coins["vp"]


def test_s_rank_only_players_who_commit_coins_are_ranked_in_mint() -> None:
    players = {
        "athens": {"coins_behind_screen": {"owl": 2}},
        "corinth": {"coins_behind_screen": {"pegasus": 1}},
        "sparta": {},
    }
    events, _ = score(winter(players=players), {"corinth": {"pegasus": 1}})
    assert ranking(events, "mint")["vp"] == {"corinth": 3}  # Athens holds an Owl Mint but committed nothing


def test_h_rank_ties_use_competition_ranking() -> None:
    assert competition_places({"a": 5, "b": 5, "c": 3}) == {"a": 1, "b": 1, "c": 3}
    assert [rank_vp(p, 3) for p in (1, 1, 3)] == [3, 3, 1]
    assert competition_places({"a": 5, "b": 3, "c": 3, "d": 1}) == {"a": 1, "b": 2, "c": 2, "d": 4}


def test_h_rank_tied_committers_share_the_better_rank_in_a_real_winter() -> None:
    players = {f: {"coins_behind_screen": {"turtle": 3}} for f in ("athens", "sparta", "corinth")}
    orders = {"athens": {"turtle": 3}, "sparta": {"turtle": 3}, "corinth": {"turtle": 1}}
    events, after = score(winter(players=players), orders)
    assert ranking(events, "coins")["vp"] == {"athens": 3, "sparta": 3, "corinth": 1}


def test_h_mint_counts_committed_coins_bearing_a_controlled_mints_design() -> None:
    board = {**NATIVES, "D4": {"tile": "aegina", "owner": "athens"}}  # Athens: Owl and Turtle Mints
    players = {
        "athens": {"coins_behind_screen": {"owl": 2, "turtle": 1, "shield": 4}},
        "thebes": {"coins_behind_screen": {"shield": 2}},
    }
    board = {s: p for s, p in board.items() if p["owner"] in players}
    events, _ = score(
        winter(players=players, board=board),
        {"athens": {"owl": 2, "turtle": 1, "shield": 4}, "thebes": {"shield": 2}},
    )
    mint = ranking(events, "mint")
    assert mint["values"] == {"athens": 3, "thebes": 2} and mint["vp"] == {"athens": 3, "thebes": 2}
    assert ranking(events, "coins")["values"] == {"athens": 7, "thebes": 2}


def test_h_mint_a_player_needs_a_mint_count_of_at_least_one() -> None:
    players = {
        "sparta": {"coins_behind_screen": {"owl": 2}},
        "athens": {"coins_behind_screen": {"pegasus": 1}},
    }
    events, _ = score(winter(players=players), {"sparta": {"owl": 2}, "athens": {"pegasus": 1}})
    assert ranking(events, "mint")["vp"] == {}  # Sparta has no Mint; Athens' Mint is an Owl Mint


def test_h_mint_blanks_never_count_for_the_mint() -> None:
    state = winter(players={"athens": {"blanks": 3}, "sparta": {}})
    _, waiting = play(state, CommitCoins("athens", blanks=3))
    events, _ = play(waiting, CommitCoins("sparta"))
    assert ranking(events, "mint")["values"] == {}


def test_s_rank_vp_are_added_to_the_players() -> None:
    _, after = score(winter(), {"athens": {"owl": 3}})
    # Poleis tied 1-1 (3 each), Coins: Athens alone 3, Mint: Athens alone (Owl Mint) 3.
    assert (after.players["athens"].vp, after.players["sparta"].vp) == (9, 3)


# --- S-REINF ---------------------------------------------------------------------------------


def reinforced(events: list) -> dict[str, int]:
    return {e.payload["player"]: e.payload["phalanxes"] for e in events if e.type == "PhalanxesReinforced"}


def test_s_reinf_rival_phalanxes_next_to_the_native_give_six_phalanxes_there() -> None:
    board = {**NATIVES, "D4": {"tile": "elis", "owner": "sparta", "phalanxes": 1}}
    events, after = into_year(429, players=FOUR, board=board)
    assert reinforced(events) == {"athens": 6} and after.board["C3"].phalanxes == 10


def test_s_reinf_exactly_once_however_many_rivals_and_tiles() -> None:
    board = {
        **NATIVES,
        "B2": {"tile": "elis", "owner": "sparta", "phalanxes": 5},
        "D2": {"tile": "pylos", "owner": "corinth", "phalanxes": 1},
        "D4": {"tile": "tegea", "owner": "thebes", "phalanxes": 2},
        "B4": {"tile": "kos", "owner": "sparta", "phalanxes": 1},
    }
    events, after = into_year(429, players=FOUR, board=board)
    assert reinforced(events) == {"athens": 6} and after.board["C3"].phalanxes == 4 + 6


def test_s_reinf_none_without_rival_phalanxes_next_door() -> None:
    board = {
        **NATIVES,
        "B2": {"tile": "elis", "phalanxes": 3},  # a neutral garrison is no rival
        "D2": {"tile": "pylos", "owner": "athens", "phalanxes": 2},  # own phalanxes
        "D4": {"tile": "tegea", "owner": "sparta"},  # a rival Polis, but no rival phalanx on it
        "E3": {"tile": "kos", "owner": "sparta", "phalanxes": 5},  # two spaces away
    }
    events, _ = into_year(429, players=FOUR, board=board)
    assert reinforced(events) == {}


def test_s_reinf_in_a_scoring_year_the_board_is_checked_after_scoring() -> None:
    board = {**NATIVES, "D4": {"tile": "elis", "owner": "sparta", "phalanxes": 1}}
    events, _ = into_year(429, players=FOUR, board=board)
    assert types(events).index("PhalanxesReinforced") > max(
        i for i, t in enumerate(types(events)) if t == "RankingScored"
    )


def test_s_reinf_whatever_the_government() -> None:
    board = {
        **NATIVES,
        "D4": {"tile": "elis", "owner": "sparta", "phalanxes": 1},
        "F4": {"tile": "kos", "owner": "athens", "phalanxes": 1},
    }
    players = {"athens": {"government": "tyranny"}, "sparta": {"government": "democracy"}}
    events, _ = into_year(
        430, players=players, board={s: p for s, p in board.items() if p["owner"] in players}
    )
    assert reinforced(events) == {"athens": 6, "sparta": 6}


def test_h_native_lost_no_reinforcement_while_a_rival_holds_the_native() -> None:
    board = {
        "C3": {"owner": "sparta", "phalanxes": 2},
        "D4": {"tile": "elis", "owner": "athens", "phalanxes": 1, "king": True},
        "C4": {"tile": "kos", "owner": "sparta", "phalanxes": 3},
        "G3": {"owner": "sparta"},
    }
    events, after = into_year(429, players=["athens", "sparta"], board=board)
    assert "athens" not in reinforced(events)


PRESSED = {**NATIVES, "D4": {"tile": "elis", "owner": "sparta", "phalanxes": 1}}


@pytest.mark.parametrize(("year", "on_native"), [(422, 58), (421, 60)])
def test_s_reinf_a_flat_six_whatever_the_supply_holds(year: int, on_native: int) -> None:
    """Finding: "you receive a flat 6 Phalanxes" (S-REINF), but H-PIECES cut the reinforcement to what the
    supply held (Athens got 2 in the 422 winter, none in 421). Now the 6 come from the reserve, never
    from the supply, so no supply cuts them (rules version 2)."""
    board = {**PRESSED, "C3": {"owner": "athens", "phalanxes": on_native}}
    events, after = into_year(year - 1, players=FOUR, board=board) if year > 421 else final_winter(board)
    assert reinforced(events)["athens"] == 6
    athens = after.players["athens"]
    assert after.board["C3"].phalanxes == on_native + 6
    assert athens.phalanx_supply == 60 - on_native  # the supply is not touched (H-PIECES)
    assert athens.phalanx_pieces == 66  # the faction owns 6 pieces more
    assert only(events, "PhalanxesReinforced").payload["from_reserve"] is True


def final_winter(board: dict) -> tuple[list, GameState]:
    """The scoring winter after 421, where S-REINF is checked after the scoring (then the game ends)."""
    events, state = score(winter(players=FOUR, board=board, year=421), {})
    return events, state


def test_s_reinf_all_sixty_pieces_on_the_board_still_bring_six_more() -> None:
    """Finding: with all 60 pieces on the board H-PIECES gave no reinforcement at all. From rules
    version 2 on the 6 join the faction's pieces: supply + board is then 66 (H-PIECES)."""
    board = {**PRESSED, "C3": {"owner": "athens", "phalanxes": 60}}
    _, after = into_year(429, players=FOUR, board=board)
    assert after.players["athens"].phalanx_pieces == 66
    assert after.players["athens"].phalanx_supply + after.board["C3"].phalanxes == 66


def test_h_rules_version_under_version_1_the_supply_still_cuts_the_reinforcement() -> None:
    """A game recorded under rules version 1 replays as it was played: there H-PIECES cut it."""
    board = {**PRESSED, "C3": {"owner": "athens", "phalanxes": 56}}
    events, after = into_year(430, players=FOUR, board=board, rules_version=1)
    assert reinforced(events) == {"athens": 4} and after.players["athens"].phalanx_supply == 0
    assert "from_reserve" not in only(events, "PhalanxesReinforced").payload
    assert after.players["athens"].phalanx_pieces == 60
    full = {**board, "C3": {"owner": "athens", "phalanxes": 60}}
    events, _ = into_year(430, players=FOUR, board=full, rules_version=1)
    assert reinforced(events) == {}


# --- H-END -----------------------------------------------------------------------------------


def final(players: dict, board: dict) -> tuple[list, GameState]:
    return score(winter(players=players, board=board, year=421), {})


def test_h_end_the_game_ends_after_the_421_winter_most_vp_wins() -> None:
    board = {"C3": {"owner": "athens"}, "G3": {"owner": "sparta"}}
    events, after = final({"athens": {"vp": 20}, "sparta": {"vp": 24}}, board)
    ended = only(events, "GameEnded")
    assert ended.payload["winners"] == ["sparta"] and after.winners == ["sparta"] and after.phase == "ended"
    assert "seed" in ended.payload and ended.payload["seed"] is None  # the service fills in the seed


def test_h_end_ties_on_vp_are_broken_by_poleis_then_screened_coins() -> None:
    board = {"C3": {"owner": "athens"}, "D4": {"tile": "elis", "owner": "athens"}, "G3": {"owner": "sparta"}}
    events, _ = final({"athens": {"vp": 20}, "sparta": {"vp": 21}}, board)  # Poleis: Athens +3, Sparta +2
    assert only(events, "GameEnded").payload["winners"] == ["athens"]
    board = {"C3": {"owner": "athens"}, "G3": {"owner": "sparta"}}
    players = {
        "athens": {"vp": 20, "coins_behind_screen": {"owl": 1}},
        "sparta": {"vp": 20, "coins_behind_screen": {"owl": 2}},
    }
    events, _ = final(players, board)
    assert only(events, "GameEnded").payload["winners"] == ["sparta"]


def test_h_end_a_full_tie_shares_the_win() -> None:
    events, _ = final(
        {"athens": {"vp": 5}, "sparta": {"vp": 5}}, {"C3": {"owner": "athens"}, "G3": {"owner": "sparta"}}
    )
    assert sorted(only(events, "GameEnded").payload["winners"]) == ["athens", "sparta"]


def test_h_end_no_order_is_taken_after_the_end_and_everything_is_shown() -> None:
    _, after = final(
        {"athens": {"coins_behind_screen": {"owl": 2}}, "sparta": {}}, {"C3": {"owner": "athens"}}
    )
    refused(after, Pass("athens"), "H-END")
    assert player_view(after, "sparta")["players"]["athens"]["coins_behind_screen"] == {"owl": 2}
    assert "deck" in player_view(after, None)


@pytest.mark.parametrize("year", [430, 428, 426, 424, 422, 421])
def test_s_winter_every_even_year_and_421_is_scored(year: int) -> None:
    state = state_of(players=["athens", "sparta"], year=year, action_round=3, on_turn="sparta")
    events, after = play(state, Pass("sparta"))
    assert events[-1].payload == {"year": year, "scoring": True} and after.phase == "winter_orders"

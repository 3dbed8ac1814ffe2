"""The bot's orders: legal to the end of whole games, deterministic, sensible in each phase (docs/bot.md)."""

from __future__ import annotations

from typing import Any

from games.bot import choose_order, sight_of
from games.engine import (
    AcceptOffer,
    ChooseTile,
    Command,
    CommitCoins,
    DeclineOffer,
    Fortify,
    GameRng,
    GameState,
    Move,
    NeutralTrade,
    Oracle,
    Recruit,
    RecruitBuilder,
    Reform,
    decide,
    legal_commands,
    new_game,
    scenario,
)
from games.engine.simulation import apply_checked, players_to_act
from tests.bot.support import positions


def _bot_game(factions: list[str], seed: str) -> tuple[GameState, dict[str, int]]:
    """A whole game of bots, every event checked against engine.simulation's invariants."""
    state = GameState()
    apply_checked(state, new_game({"factions": factions}, seed))
    kinds: dict[str, int] = {}
    position = len(state.seat_order)
    for _ in range(2000):
        waiting = players_to_act(state)
        if not waiting:
            break
        player = waiting[-1]
        order = choose_order(sight_of(state, player), position)
        listed = legal_commands(state, player)
        # Every order is the engine's own, or (a sealed winter order) a card redeemed with the rest committed.
        assert order in listed or (isinstance(order, CommitCoins) and order.mission_cards), order
        apply_checked(state, decide(state, order, GameRng(seed, position)))
        kinds[order.kind] = kinds.get(order.kind, 0) + 1
        position += 1
    return state, kinds


def test_h_end_bots_play_legal_orders_to_the_end_of_whole_games() -> None:
    state, kinds = _bot_game(["athens", "corinth"], "bots-1")
    assert state.phase == "ended" and state.winners
    assert {"expand", "move", "commit_coins", "recruit"} <= set(kinds), kinds


def test_the_bot_is_deterministic_given_its_seed() -> None:
    for index, (state, me) in enumerate(positions(["sparta", "thebes"], "again", every=11, limit=8)):
        first = choose_order(sight_of(state, me), index)
        assert choose_order(sight_of(state.copy(), me), index) == first
        assert first in legal_commands(state, me) or isinstance(first, CommitCoins)


def _choose(spec: dict[str, Any], me: str = "athens") -> Command:
    return choose_order(sight_of(scenario(spec), me), 7)


TWO = {"athens": {"ap": 2, "fp": 2}, "sparta": {"ap": 2, "fp": 2}}


def test_s_combat_it_does_not_attack_at_bad_odds() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 4, "king": True},
        "D4": {"tile": "megara", "owner": "athens", "phalanxes": 2},
        "E5": {"tile": "samos", "owner": "sparta", "phalanxes": 4, "fortification_hp": [3]},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    }
    order = _choose({"players": TWO, "board": board, "year": 429})
    assert not (isinstance(order, Move) and any(d.space == "E5" for d in order.destinations)), order


def test_s_combat_it_takes_a_weak_neutral_polis_with_a_strong_army() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 2, "king": True},
        "D4": {"tile": "megara", "owner": "athens", "phalanxes": 9},
        "E5": {"tile": "rhodos", "phalanxes": 1},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    }
    order = _choose({"players": TWO, "board": board, "year": 429})
    assert isinstance(order, Move) and order.origin == "D4", order
    assert any(d.space == "E5" and d.phalanxes >= 3 for d in order.destinations), order


def _offer(give: dict[str, Any], take: dict[str, Any]) -> dict[str, Any]:
    empty = {"ap": 0, "fp": 0, "blanks": 0, "coins": {}, "polis": None}
    sides = {"give": empty | give, "take": empty | take}
    return {"id": 1, "player": "sparta", "to": "athens", **sides, "year": 429}


def test_h_trade_it_accepts_a_clearly_favourable_offer_and_declines_a_bad_one() -> None:
    players = {"athens": {"ap": 2, "fp": 2}, "sparta": {"ap": 5, "fp": 2}}
    spec = {"players": players, "year": 429, "on_turn": "sparta"}
    good = _choose(spec | {"offers": [_offer({"ap": 4}, {"fp": 1})]})
    assert good == AcceptOffer("athens", offer=1)
    bad = _choose(spec | {"offers": [_offer({"ap": 1}, {"ap": 2, "fp": 2})]})
    assert bad == DeclineOffer("athens", offer=1)


def test_h_trade_it_accepts_screened_coins_offered_cheaply() -> None:
    # H-SCREEN: the coins a rival offers are shown to the seat it offers them to, and nothing more.
    players = {"athens": {"ap": 2, "fp": 2}, "sparta": {"ap": 5, "coins_behind_screen": {"owl": 3}}}
    spec = {"players": players, "year": 429, "on_turn": "sparta"}
    order = _choose(spec | {"offers": [_offer({"coins": {"owl": 3}}, {"fp": 1})]})
    assert order == AcceptOffer("athens", offer=1)


def test_h_trade_it_trades_with_a_rich_linked_neutral() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 4, "king": True},
        "C4": {"tile": "samos", "phalanxes": 3},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    }
    spec = {"players": ["athens", "sparta"], "board": board, "trade_links": [["C3", "C4"]], "year": 429}
    assert _choose(spec) == NeutralTrade("athens")


def test_h_winter_orders_it_commits_its_coins_and_redeems_a_combo_in_the_last_winter() -> None:
    players = {
        "athens": {
            "coins_behind_screen": {"owl": 2, "pegasus": 1, "shield": 1},
            "mission_cards": ["combo-1"],
        },
        "sparta": {},
    }
    order = _choose({"players": players, "year": 421, "phase": "winter_orders"})
    assert isinstance(order, CommitCoins) and order.mission_cards == ("combo-1",), order
    committed = sum(n for _, n in order.coins) + sum(n for _, n in order.card_coins)
    assert committed == 4


def test_s_exp_choice_it_keeps_the_richer_of_two_tiles() -> None:
    choice = {"player": "athens", "space": "D4", "tiles": ["melos", "delphi"]}
    spec = {"players": TWO, "year": 429, "phase": "choice", "pending_choice": choice}
    assert _choose(spec) == ChooseTile("athens", keep="delphi")


def test_h_year_it_passes_rather_than_throw_an_army_away() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 1, "king": True},
        "D4": {"tile": "samos", "owner": "sparta", "phalanxes": 8},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    }
    order = _choose({"players": {"athens": {}, "sparta": {}}, "board": board, "year": 422})
    assert not isinstance(order, Move), order


def test_h_actions_it_recruits_at_home_when_a_rival_army_stands_beside_it() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 1, "king": True},
        "D4": {"tile": "megara", "owner": "sparta", "phalanxes": 6},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    }
    order = _choose({"players": {"athens": {"ap": 4}, "sparta": {}}, "board": board, "year": 429})
    assert order == Recruit("athens", space="C3", phalanxes=4)


def test_s_fort_it_fortifies_a_polis_where_it_cannot_recruit_and_a_rival_army_can_reach() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 6, "king": True},
        "F6": {"tile": "samos", "owner": "athens", "phalanxes": 3},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
        "G7": {"tile": "megara", "owner": "sparta", "phalanxes": 5},
    }
    players = {"athens": {"ap": 3}, "sparta": {"fp": 2}}
    assert _choose({"players": players, "board": board, "year": 429}) == Fortify("athens", space="F6")


def test_s_builder_corinth_recruits_a_builder_with_nothing_better_to_do() -> None:
    order = _choose({"players": ["corinth", "sparta"], "year": 430}, me="corinth")
    assert order == RecruitBuilder("corinth")


def test_h_gov_it_reforms_to_the_government_whose_income_it_values_most() -> None:
    spec = {"players": {"sparta": {"government": "tyranny"}, "athens": {}}, "year": 430}
    assert _choose(spec, me="sparta") == Reform("sparta", government="democracy")


def test_h_missions_it_buys_a_mission_card_with_a_spare_coin() -> None:
    spec = {"players": {"athens": {"coins_behind_screen": {"owl": 2}}, "sparta": {}}, "year": 430}
    assert _choose(spec) == Oracle("athens", coin="owl")

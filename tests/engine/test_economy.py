"""Spring income and the coin bag, as examples: S-INC, S-BAG, H-BAG, H-CONTROL, H-FACTION (Thebes)."""

from __future__ import annotations

import pytest

from games.engine import GameRng
from games.engine.economy import add_coins, draw_from_bag, economy_coins, printed_income, spring_income

from .support import into_year, state_of, types

# Athens holds its Native Polis (1 AP, 3 FP, 1 coin, an Owl Mint) and Megara (1 AP, 1 FP, 1 coin,
# a Pegasus Mint); Sparta holds its Native Polis (3 AP, 1 FP, 1 coin). Troizen (1 AP) is neutral.
BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "D4": {"tile": "megara", "owner": "athens", "phalanxes": 1},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    "E5": {"tile": "troizen", "phalanxes": 1},
}


def incomes(events: list) -> dict[str, dict]:
    return {e.payload["player"]: e.payload for e in events if e.type == "IncomeReceived"}


@pytest.mark.parametrize("year", [429, 427, 425, 423])
def test_s_inc_spring_of_odd_years_pays_every_controlled_polis(year: int) -> None:
    events, state = into_year(year, players={"athens": {"ap": 1}, "sparta": {}}, board=BOARD)
    paid = incomes(events)
    assert (paid["athens"]["ap"], paid["athens"]["fp"], paid["athens"]["owed"]) == (2, 4, 2)
    assert (paid["sparta"]["ap"], paid["sparta"]["fp"], paid["sparta"]["owed"]) == (3, 1, 1)
    assert state.year == year and (state.players["athens"].ap, state.players["athens"].fp) == (3, 4)
    assert sum(state.players["athens"].coins_behind_screen.values()) == 2


def test_s_inc_the_first_spring_431_pays_too() -> None:
    from games.engine import fold, new_game

    events = new_game({"factions": ["athens", "sparta"]}, "seed")
    assert types(events)[:2] == ["GameStarted", "YearBegan"] and len(incomes(events)) == 2
    assert fold(events).players["athens"].fp == 2 + 3


@pytest.mark.parametrize("year", [430, 428, 426, 424, 422, 421])
def test_s_inc_no_income_in_even_years_and_never_in_421(year: int) -> None:
    events, state = into_year(year, board=BOARD)
    assert "YearBegan" in types(events) and state.year == year
    assert incomes(events) == {}


def test_s_inc_a_mint_pays_exactly_its_printed_coins_nothing_extra() -> None:
    state = state_of(board={"C3": {"owner": "athens"}, "D4": {"tile": "aegina", "owner": "athens"}})
    # Athens (Owl Mint, 1 coin) + Aegina (Turtle Mint, 1 coin): two coins, as printed.
    assert printed_income(state, "athens") == (1, 4, 2)


def test_s_inc_neutral_poleis_pay_nobody() -> None:
    state = state_of(board=BOARD)
    total = sum(sum(printed_income(state, f)) for f in ("athens", "sparta"))
    assert total == (2 + 4 + 2) + (3 + 1 + 1)


def test_h_control_a_polis_left_without_units_still_pays_its_controller() -> None:
    state = state_of(
        board={"C3": {"owner": "athens", "phalanxes": 4}, "D4": {"tile": "tegea", "owner": "athens"}}
    )
    assert printed_income(state, "athens") == (1 + 2, 3, 1)


def test_s_bag_every_coin_paid_is_drawn_blind_from_the_bag_even_for_corinth() -> None:
    # Corinth is a Pegasus Mint, but the bag holds only Turtles: Corinth gets Turtles.
    state = state_of(players=["corinth", "sparta"], board={"C7": {"owner": "corinth"}}, bag={"turtle": 5})
    events = spring_income(state, 429, GameRng("seed", 1))
    assert incomes(events)["corinth"]["coins"] == {"turtle": 2}


def test_s_bag_draws_are_random_and_follow_the_seed() -> None:
    bag = {"owl": 3, "pegasus": 3, "shield": 3, "turtle": 3}
    draws = [draw_from_bag(bag, 4, GameRng(f"seed-{i}", 1)) for i in range(20)]
    assert len({tuple(sorted(d.items())) for d in draws}) > 1
    assert all(sum(d.values()) == 4 for d in draws)
    assert draws[5] == draw_from_bag(bag, 4, GameRng("seed-5", 1))
    assert bag == {"owl": 3, "pegasus": 3, "shield": 3, "turtle": 3}  # the draw itself changes nothing


def test_h_bag_an_empty_bag_pays_nothing_but_ap_and_fp_still_come() -> None:
    events, state = into_year(429, board=BOARD, bag={})
    paid = incomes(events)
    assert paid["athens"]["coins"] == {} and paid["athens"]["owed"] == 2
    assert state.players["athens"].coins_behind_screen == {} and state.players["athens"].fp == 4


def test_h_bag_a_nearly_empty_bag_pays_what_it_holds_in_seat_order() -> None:
    events, _ = into_year(429, players=["athens", "sparta"], board=BOARD, bag={"shield": 1})
    paid = incomes(events)
    assert paid["athens"]["coins"] == {"shield": 1} and paid["sparta"]["coins"] == {}


def both(income: dict) -> dict[str, int]:
    """The Poleis' coins and the economy's of one income, together (as they go behind the screen)."""
    coins = dict(income["coins"])
    add_coins(coins, income["economy"]["coins"])
    return coins


THEBES = {"G7": {"owner": "thebes", "phalanxes": 4}, "G3": {"owner": "sparta", "phalanxes": 4}}


def test_s_inc_thebes_native_polis_pays_its_print_and_thebes_economy_the_extra_coin() -> None:
    """Finding: "what a Polis pays depends only on the resources printed on its tile" (S-INC), but
    Thebes' bonus coin was paid as its Native Polis paying 1 coin more than its print. Now the Polis
    pays its 2 printed coins and Thebes' own economy pays +1, apart in the event (rules version 2)."""
    state = state_of(players=["thebes", "sparta"], board=THEBES)
    assert printed_income(state, "thebes") == (1, 1, 2)  # the tile's print, nothing more
    assert economy_coins(state, "thebes") == 1
    events, after = into_year(429, players=["thebes", "sparta"], board=THEBES)
    paid = incomes(events)["thebes"]
    assert paid["owed"] == 2 and sum(paid["coins"].values()) == 2
    assert paid["economy"]["owed"] == 1 and sum(paid["economy"]["coins"].values()) == 1
    assert after.players["thebes"].coins_behind_screen == both(paid)
    assert "economy" not in incomes(events)["sparta"]


def test_s_bag_thebes_economy_coin_is_drawn_blind_from_the_bag_after_the_poleis_coins() -> None:
    """S-BAG: the economy's coin is a coin paid out, drawn at random from the bag like the others: one
    "coin" draw more, after the Polis's two, and an empty bag pays it nothing (H-BAG)."""
    rng = GameRng("thebes", 1)
    state = state_of(players=["thebes", "sparta"], board=THEBES)
    events = spring_income(state, 429, rng)
    thebes = next(e.payload for e in events if e.payload["player"] == "thebes")
    draws = [label for label, _, _ in rng.transcript]
    assert draws == ["coin"] * (2 + 1 + 1)  # Thebes' Polis, Thebes' economy, then Sparta's Polis
    assert sum(thebes["economy"]["coins"].values()) == 1
    dry = spring_income(state_of(players=["thebes", "sparta"], board=THEBES, bag={"owl": 2}), 429, rng)
    assert dry[0].payload["economy"] == {"coins": {}, "owed": 1} and dry[0].payload["coins"] == {"owl": 2}


def test_h_faction_the_economy_coin_is_thebes_own_not_the_conqueror_s() -> None:
    conquered = state_of(players=["thebes", "sparta"], board={"G7": {"owner": "sparta"}})
    assert printed_income(conquered, "sparta") == (1, 1, 2)  # the Polis pays its print to anyone
    assert economy_coins(conquered, "sparta") == 0 and economy_coins(conquered, "thebes") == 0


def test_h_rules_version_under_version_1_thebes_extra_coin_is_counted_with_the_poleis() -> None:
    """A game recorded under rules version 1 replays as it was played: the same coins, drawn in the
    same order, but counted into the Poleis' coins ("owed" 3) with no "economy" apart."""
    events, _ = into_year(429, players=["thebes", "sparta"], board=THEBES, rules_version=1)
    old = incomes(events)["thebes"]
    assert old["owed"] == 3 and sum(old["coins"].values()) == 3 and "economy" not in old
    events, _ = into_year(429, players=["thebes", "sparta"], board=THEBES)
    new = incomes(events)["thebes"]
    assert both(new) == old["coins"]  # the draws did not change, only whose income the third coin is

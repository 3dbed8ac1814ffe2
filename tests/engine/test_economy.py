"""Spring income and the coin bag, as examples: S-INC, S-BAG, H-BAG, H-CONTROL, H-FACTION (Thebes)."""

from __future__ import annotations

import pytest

from games.engine import GameRng
from games.engine.economy import draw_from_bag, printed_income, spring_income

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


def test_h_faction_thebes_native_polis_pays_one_extra_coin_to_thebes() -> None:
    state = state_of(
        players=["thebes", "sparta"], board={"G7": {"owner": "thebes"}, "G3": {"owner": "sparta"}}
    )
    assert printed_income(state, "thebes") == (1, 1, 2 + 1)
    conquered = state_of(players=["thebes", "sparta"], board={"G7": {"owner": "sparta"}})
    assert printed_income(conquered, "sparta") == (1, 1, 2)  # the bonus is Thebes' own

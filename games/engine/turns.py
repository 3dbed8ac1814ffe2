"""The flow of a year (S-TIME, H-YEAR, H-NATIVE-LOST, H-WINTER-ORDER).

A year is Spring (income in S-INC years), three action rounds in seat order, then Winter.
`follow_up(state, rng)` says what happens by itself next — a new year, an automatic pass,
the resolution of a winter — and returns [] while the game waits on a player.
"""

from __future__ import annotations

from typing import Any

from . import builders, data, missions, offers, winter
from .economy import controlled_poleis, is_income_year, spring_income
from .events import Event
from .fold import applies
from .rng import GameRng
from .state import GameState


def is_scoring_year(year: int) -> bool:
    """S-WINTER: the winters of 430, 428, 426, 424, 422 and 421 are scored."""
    return year in data.SCORING_YEARS


def begin_year(state: GameState, year: int, rng: GameRng) -> list[Event]:
    """H-YEAR, S-INC: a new year opens with Spring; income is paid in 431, 429, 427, 425, 423."""
    events = [Event("YearBegan", {"year": year})]
    if is_income_year(year):
        events += spring_income(state, year, rng)
    return events


def end_of_turn(state: GameState) -> list[Event]:
    """H-YEAR: the next player in seat order; after the last player's third action, Winter.

    H-MISSIONS: first the player whose turn ends claims every objective card they have met.
    """
    claims = missions.objectives_claimed(state, state.seat_order[state.turn_index])
    next_index = state.turn_index + 1
    if next_index < len(state.seat_order):
        return [*claims, _turn_began(state, state.action_round, next_index)]
    if state.action_round < data.ACTION_ROUNDS:
        return [*claims, _turn_began(state, state.action_round + 1, 0)]
    return [*claims, Event("WinterBegan", {"year": state.year, "scoring": is_scoring_year(state.year)})]


def _turn_began(state: GameState, action_round: int, turn_index: int) -> Event:
    player = state.seat_order[turn_index]
    return Event("TurnBegan", {"player": player, "action_round": action_round, "turn_index": turn_index})


def follow_up(state: GameState, rng: GameRng) -> list[Event]:
    """The automatic events that follow from `state`, or [] when a player must act (or the game is over).

    H-YEAR (the first Spring), H-NATIVE-LOST (automatic passes), H-WINTER-ORDERS (all orders
    in: S-WINTER scoring), H-WINTER-ORDER (reinforcement, then the next year), H-END.
    """
    lapsed = offers.lapsed_offers(state)  # H-TRADE: at the year's end, or once a side cannot pay
    if lapsed:
        return lapsed
    if state.phase == "setup":
        return begin_year(state, data.FIRST_YEAR, rng)
    if state.phase == "actions":
        player = state.seat_order[state.turn_index]
        if not controlled_poleis(state, player):
            # H-NATIVE-LOST: a player without a Polis passes every turn, so the game never waits.
            return [Event("PlayerPassed", {"player": player, "automatic": True}), *end_of_turn(state)]
        return []
    if state.phase == "winter_orders":
        if set(state.winter_orders) == set(state.seat_order):
            return winter.scoring(state)
        return []
    if state.phase == "winter":
        # H-WINTER-ORDER: (scoring done) -> Builders fortify -> reinforcement -> next year, or the end.
        events = builders.builders_fortify(state) + winter.reinforcements(state)
        if state.year == data.LAST_YEAR:
            return [*events, winter.game_ended(state)]
        return [*events, *begin_year(state, state.year - 1, rng)]
    return []


@applies("YearBegan")
def _year_began(state: GameState, payload: dict[str, Any]) -> None:
    state.year = payload["year"]
    state.phase = "actions"
    state.action_round = 1
    state.turn_index = 0


@applies("TurnBegan")
def _turn_began_applier(state: GameState, payload: dict[str, Any]) -> None:
    state.action_round = payload["action_round"]
    state.turn_index = payload["turn_index"]


@applies("WinterBegan")
def _winter_began(state: GameState, payload: dict[str, Any]) -> None:
    # H-WINTER-ORDERS: a scoring winter waits for every player's sealed order.
    state.phase = "winter_orders" if payload["scoring"] else "winter"
    state.winter_orders = {}

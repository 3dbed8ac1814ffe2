"""Positions for the bot's tests: taken from seeded games of random legal orders (engine.simulation)."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine import GameRng, GameState, decide, new_game
from games.engine.fold import apply_in_place
from games.engine.simulation import players_to_act, random_legal_command

Wanted = Callable[[GameState, str, int], bool]


Position = tuple[GameState, str]


def positions_where(factions: list[str], seed: str, wanted: Wanted, limit: int) -> list[Position]:
    """(state, a player who must act) wherever `wanted(state, player, orders so far)`, up to `limit`."""
    state = GameState()
    apply_in_place(state, new_game({"factions": factions}, seed))
    bot = random.Random(seed)
    found: list[Position] = []
    orders = 0
    while state.phase != "ended" and len(found) < limit:
        player = bot.choice(players_to_act(state))
        if wanted(state, player, orders):
            found.append((state.copy(), player))
        command = random_legal_command(state, player, bot)
        assert command is not None
        apply_in_place(state, decide(state, command, GameRng(seed, orders + 1)))
        orders += 1
    return found


def positions(factions: list[str], seed: str, every: int = 7, limit: int = 12) -> list[Position]:
    """(state, a player who must act) at every `every`-th order of a random game, up to `limit` of them."""
    return positions_where(factions, seed, lambda s, p, n: n % every == every - 1, limit)


def rival_sealed(state: GameState, player: str, orders: int) -> bool:
    """A rival has sealed a winter order (H-WINTER-ORDERS: what it commits is secret)."""
    return state.phase == "winter_orders" and bool(state.winter_orders)


def offers_open(state: GameState, player: str, orders: int) -> bool:
    """An offer is open (H-TRADE: its screened coins are known to its two sides only)."""
    return bool(state.offers)

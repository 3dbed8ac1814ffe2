"""The bot's opponents in the bench, and whole games between players (docs/bot.md "Measured strength").

Not the product: a uniformly random legal player, and a simple greedy player that takes the order with
the best immediate gain of its own VP and position after one step (decided with the engine in a world
sampled from its own Sight, as the bot does, so it never sees a secret or the real dice either).
A player is a function (state, faction, seed) -> Command; it is handed the game's state by the loop
below, and the bot's player passes on only the Sight of its seat.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games.bot import choose_order, determinise, sight_of
from games.engine import Command, GameRng, GameState, decide, legal_commands, new_game
from games.engine.fold import apply_in_place
from games.engine.simulation import apply_checked, players_to_act

Player = Callable[[GameState, str, int], Command]


def bot_player(state: GameState, faction: str, seed: int) -> Command:
    """The bot (games.bot): it sees only its seat's Sight."""
    return choose_order(sight_of(state, faction), seed)


def random_player(state: GameState, faction: str, seed: int) -> Command:
    """A uniformly random order out of engine.legal_commands."""
    return random.Random(seed).choice(legal_commands(state, faction))


def greedy_gain(state: GameState, faction: str) -> float:
    """The greedy player's one-step score: VP, Poleis, and a little for every resource and phalanx."""
    player = state.players[faction]
    owned = [p for p in state.board.values() if p.owner == faction]
    resources = player.ap + player.fp + player.blanks + sum(player.coins_behind_screen.values())
    return player.vp + len(owned) + 0.1 * resources + 0.1 * sum(p.phalanxes for p in owned)


def greedy_player(state: GameState, faction: str, seed: int) -> Command:
    """The order with the best immediate gain (greedy_gain) one step ahead, first listed on a tie."""
    world = determinise(sight_of(state, faction), seed)
    orders = legal_commands(world, faction)
    best, best_score = orders[0], float("-inf")
    for i, order in enumerate(orders):
        after = apply_in_place(world.copy(), decide(world, order, GameRng(f"greedy{seed}", i)))
        score = greedy_gain(after, faction)
        if score > best_score:
            best, best_score = order, score
    return best


@dataclass
class GameResult:
    winners: list[str]
    vp: dict[str, int]
    decisions_ms: list[float] = field(default_factory=list)  # the timed faction's decisions


def play_game(
    seats: dict[str, Player], seed: str, timed: str | None = None, check: bool = False, max_orders: int = 3000
) -> GameResult:
    """One whole game, `seats` in the given faction order; H-TRADE answers come before the turn's order.

    Each order is decided from GameRng(seed, its position), as the service does; each player draws
    its own choices from a seed derived from the game's seed and the position. With `check`, the engine's
    invariants are checked after every event (engine.simulation.apply_checked).
    """
    events = new_game({"factions": list(seats)}, seed)
    state = GameState()
    apply_checked(state, events, check)
    position, timings = len(events), []
    for _ in range(max_orders):
        waiting = players_to_act(state)
        if not waiting:
            break
        answering = [f for f in waiting if f != state.player_on_turn]
        faction = answering[0] if answering and state.phase != "winter_orders" else waiting[0]
        player_seed = random.Random(f"{seed}:{position}:{faction}").getrandbits(32)
        started = time.perf_counter()
        order = seats[faction](state, faction, player_seed)
        if faction == timed:
            timings.append((time.perf_counter() - started) * 1000)
        batch = decide(state, order, GameRng(seed, position + 1))
        apply_checked(state, batch, check)
        position += len(batch)
    if state.phase != "ended":
        raise RuntimeError(f"game {seed} did not end within {max_orders} orders")
    return GameResult(state.winners, {f: p.vp for f, p in state.players.items()}, timings)

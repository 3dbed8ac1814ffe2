"""The bot's order: every legal order looked at one step ahead and valued (docs/bot.md "The method").

From the Sight alone (sight.py) the bot builds one world consistent with it (`determinise`), lists the
seat's legal orders there (engine.legal_commands, plus a sealed winter order that redeems a card AND
commits the rest, which the engine's bounded list leaves out), decides each with the engine's own rules
and values the position after it (value.py). Orders that draw randomness are valued over a few draws
from the bot's seed; a Move with one battle is valued by the exact odds of that battle (odds.py): the
mean value of its sampled wins and of its sampled losses, weighed by the exact chance of each. The best
order wins; ties go to the first listed, so the choice is a function of the Sight and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine import (
    ChooseTile,
    Command,
    CommitCoins,
    Expand,
    GameRng,
    GameState,
    Move,
    Oracle,
    RuleViolation,
    decide,
    decide_recorded_with_state,
    legal_commands,
)
from games.engine.movement import battles_as_listed

from .odds import battle_odds
from .sight import Sight, determinise
from .value import WEIGHTS, Weights, advantage

SAMPLES = 2  # draws per order that draws a tile, a card or dice
BATTLE_SAMPLES = 2  # draws per Move with a battle, split into wins and losses
MAX_BATTLE_SAMPLES = 6

Valuer = Callable[[GameState, str], float]


def choose_order(sight: Sight, seed: int, weights: Weights = WEIGHTS) -> Command:
    """The bot's order for the seat of `sight` (H-YEAR, H-CHOICES, H-WINTER-ORDERS, H-TRADE): any order
    engine.legal_commands offers that seat, chosen from the Sight only and deterministic given `seed`.
    Raises ValueError when the seat need not act."""
    if not isinstance(sight, Sight):
        raise TypeError("a bot decides from a Sight (sight_of), never from the game's state")
    me = sight.faction
    world = determinise(sight, seed)
    candidates = [order for order in orders_to_weigh(world, me) if not _hopeless(world, order)]
    if not candidates:
        raise ValueError(f"{me} need not act now")
    if len(candidates) == 1:
        return candidates[0]
    rnd = random.Random(seed)

    def valuer(state: GameState, faction: str) -> float:
        return advantage(state, faction, weights)

    scored = [(_value_in_world(world, order, valuer, rnd), i) for i, order in enumerate(candidates)]
    best = max(scored, key=lambda vi: (vi[0], -vi[1]))
    return candidates[best[1]]


def _value_in_world(world: GameState, order: Command, valuer: Valuer, rnd: random.Random) -> float:
    """order_value, or -inf for an order the imagined world refuses (a guess about a hidden holding
    made it so): the bot then gives an order it knows to stand."""
    try:
        return order_value(world, order, valuer, rnd)
    except RuleViolation:
        return float("-inf")


def orders_to_weigh(world: GameState, me: str) -> list[Command]:
    """engine.legal_commands for the seat, and (H-WINTER-ORDERS) each winter card redeemed while every
    coin and Blank the card leaves is committed too."""
    orders = legal_commands(world, me)
    if world.phase != "winter_orders":
        return orders
    player = world.players[me]
    combined: list[Command] = []
    for order in orders:
        if isinstance(order, CommitCoins) and order.mission_cards:
            coins = dict(player.coins_behind_screen)
            for design, n in order.card_coins:
                coins[design] -= n
            rest = tuple(sorted((d, n) for d, n in coins.items() if n > 0))
            blanks = player.blanks - order.card_blanks
            combined.append(
                CommitCoins(me, rest, blanks, order.mission_cards, order.card_coins, order.card_blanks)
            )
    return orders + [o for o in combined if _is_legal(world, o)]


HOPELESS = 0.2  # S-COMBAT: a battle won less often than this is not worth weighing


def _hopeless(world: GameState, order: Command) -> bool:
    """A Move with a battle whose exact odds (odds.py) are below HOPELESS."""
    if not isinstance(order, Move):
        return False
    for space in battles_as_listed(world, order):
        polis = world.board[space]
        attacking = sum(d.phalanxes for d in order.destinations if d.space == space)
        if battle_odds(attacking, polis.phalanxes, tuple(polis.fortification_hp)).attacker_wins < HOPELESS:
            return True
    return False


def _is_legal(world: GameState, order: Command) -> bool:
    try:
        decide(world, order, GameRng("check", 0))
    except RuleViolation:
        return False
    return True


def _after(world: GameState, order: Command, rnd: random.Random) -> GameState:
    """The state after `order`, its draws from the bot's own seed (never the game's)."""
    return decide_recorded_with_state(world, order, "bot", rnd.getrandbits(32), "bot")[1]


def _draws(order: Command) -> bool:
    """Orders whose outcome depends on a draw: a tile (S-EXP), a card (H-ACTIONS Oracle), dice (S-COMBAT)."""
    if isinstance(order, ChooseTile):
        return order.second_source is not None
    return isinstance(order, (Expand, Oracle, Move))


def order_value(world: GameState, order: Command, valuer: Valuer, rnd: random.Random) -> float:
    """The order's value to its player one step ahead (module docstring)."""
    me = order.player
    battles = battles_as_listed(world, order) if isinstance(order, Move) else ()
    if len(battles) == 1:
        return _battle_value(world, order, battles[0], valuer, rnd)
    if not _draws(order) or (isinstance(order, Move) and not battles):
        return valuer(_after(world, order, rnd), me)
    values = [valuer(_after(world, order, rnd), me) for _ in range(SAMPLES)]
    return sum(values) / len(values)


def _battle_value(world: GameState, order: Move, space: str, valuer: Valuer, rnd: random.Random) -> float:
    """S-COMBAT: sampled outcomes of the Move, sorted into taken and not taken, weighed by exact odds."""
    me = order.player
    attacking = sum(d.phalanxes for d in order.destinations if d.space == space)
    polis = world.board[space]
    chance = battle_odds(attacking, polis.phalanxes, tuple(polis.fortification_hp)).attacker_wins
    won: list[float] = []
    lost: list[float] = []
    # Draw until both outcomes are seen (when both are likely) or the draws run out.
    for drawn in range(MAX_BATTLE_SAMPLES):
        if drawn >= BATTLE_SAMPLES and (won and lost or chance > 0.97 or chance < 0.03):
            break
        after = _after(world, order, rnd)
        (won if after.board[space].owner == me else lost).append(valuer(after, me))
    if not won or not lost:  # the odds are near 0 or 1: what was drawn is what happens
        return sum(won + lost) / len(won + lost)
    return chance * sum(won) / len(won) + (1 - chance) * sum(lost) / len(lost)

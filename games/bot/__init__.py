"""A bot player for a seat of AEGEAPOLIS: pure Python on top of the rules engine (docs/bot.md).

- `sight_of(state, faction) -> Sight`: what the seat may see (engine.player_view, H-SCREEN); a Sight
  refuses a view that shows a secret.
- `choose_order(sight, seed) -> Command`: the bot's order, one of the seat's legal orders, chosen from
  the Sight alone and deterministic given `seed` (choose.py: one step ahead with exact battle odds).
- `determinise(sight, seed) -> GameState`: one world consistent with the Sight, the hidden parts sampled.
- `battle_odds(attacking, defending, fortification_hp) -> Odds`: S-COMBAT's exact odds.

Imports only the engine and the standard library (the "bot-pure" contract in .importlinter).
"""

from __future__ import annotations

from .choose import choose_order
from .odds import Odds, battle_odds
from .sight import Sight, SightError, determinise, sight_of
from .value import WEIGHTS, Weights, advantage, worth

__all__ = [
    "WEIGHTS",
    "Odds",
    "Sight",
    "SightError",
    "Weights",
    "advantage",
    "battle_odds",
    "choose_order",
    "determinise",
    "sight_of",
    "worth",
]

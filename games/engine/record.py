"""The record of an order around its events: who ordered what, and every draw made for it.

Every decided batch in the log reads `OrderGiven, <the engine's events>, RandomnessDrawn`
(H-END: a final "GameEnded" comes after "RandomnessDrawn", so it stays the game's last event):
"OrderGiven" holds the command, so a verifier can decide it again on the state before it;
its seq is the batch's RNG position. "RandomnessDrawn" lists every draw of the batch's
GameRng (label, bound, value), so the draws can be recomputed from the seed without the rules.
A new game's opening ends with "RandomnessDrawn" at position 0 (docs/fairness.md); a gathered game's
"random" seats' factions are drawn apart, at position -1, and recorded in "FactionsDrawn" (seat_draw.py).
Both events change no state; `engine.decide_recorded` and `engine.opening_recorded` build the batches.
The opening and every "OrderGiven" name the rules version they are decided under (`rules_version`,
H-RULES-VERSION), so a verifier can tell a batch of older rules from a forged one.
"""

from __future__ import annotations

from typing import Any

from .commands import Command
from .events import Event
from .fold import applies
from .rng import GameRng
from .state import GameState
from .versions import RULES_VERSION, rules_version_of

ORDER_GIVEN = "OrderGiven"
RANDOMNESS_DRAWN = "RandomnessDrawn"
OPENING_POSITION = 0
# Who gave an order: the player themself, the system on their behalf (a default order after a
# deadline), or a simulation's bot.
ACTOR_KINDS = ("player", "system", "bot")


def order_given(command: Command, by: str = "player", rules_version: int = RULES_VERSION) -> Event:
    """The order as given, first in its batch (H-ORDER: the command as the engine reads it), with
    the rules version that decides it (H-RULES-VERSION)."""
    if by not in ACTOR_KINDS:
        raise ValueError(f"unknown actor kind {by!r}")
    payload = {
        "player": command.player,
        "command": command.to_dict(),
        "by": by,
        "rules_version": rules_version,
    }
    return Event(ORDER_GIVEN, payload)


def randomness_drawn(rng: GameRng) -> Event:
    """Every draw of `rng`, in order: [label, bound n, value in [0, n)]."""
    draws = [[label, n, value] for label, n, value in rng.transcript]
    return Event(RANDOMNESS_DRAWN, {"position": rng.position, "draws": draws})


def reveal_seed(event: Event, seed: str) -> Event:
    """H-END: the final event reveals the seed, so everyone can re-derive every draw."""
    if event.type == "GameEnded":
        return Event(event.type, {**event.payload, "seed": seed})
    return event


@applies(ORDER_GIVEN)
def _order_given(state: GameState, payload: dict[str, Any]) -> None:
    """The order's effects are the events after it; the order itself changes nothing but the rules
    version the game goes on under (H-RULES-VERSION: from a change on, the new one)."""
    state.rules_version = rules_version_of(payload)


@applies(RANDOMNESS_DRAWN)
def _randomness_drawn(state: GameState, payload: dict[str, Any]) -> None:
    """The draws are already written into the events they decided."""

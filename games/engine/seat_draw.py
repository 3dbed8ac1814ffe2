"""The "random" factions of a gathered game, drawn from the seed and recorded (H-SETUP, S-FAC).

A game that gathers its players by invitation (docs/front-door.md "Invitations") may have seats
that asked for a random faction. Before the opening, `draw_factions` draws them from the factions
nobody chose, sorted, one `randbelow` of GameRng(seed, SEAT_DRAW_POSITION) per random seat in
the order of their invitations, and returns the "FactionsDrawn" event that records it: the
factions chosen, how many seats asked for random, the factions the draw was from, the factions
drawn in order, and the draws ([label, n, value], as "RandomnessDrawn"). No address, no name:
the log is exported to the players; which invitation got which faction stays on the invitations.

`engine.opening_recorded` puts the event right after "GameStarted" (which must stay first: it
publishes the seed's hash); the replay (games/eventstore/replay.py) draws it again from the seed
with this very function, and tools/verify_export.py recomputes its draws without the rules
(docs/fairness.md). It changes no state. A game with no random seat has none, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import data
from .events import Event
from .fold import applies
from .rng import GameRng
from .setup import check_factions
from .state import GameState

FACTIONS_DRAWN = "FactionsDrawn"
# GameRng's position of the faction draw: no event's seq (positions are 0 for the opening, else
# the seq of an order), so it shares no draw with any batch.
SEAT_DRAW_POSITION = -1
FACTION = "faction"  # the draws' label


def draw_factions(chosen: Sequence[str], random_seats: int, seed: str) -> Event:
    """H-SETUP: `random_seats` factions drawn from those not in `chosen`, sorted, by GameRng(seed,
    SEAT_DRAW_POSITION): draw i picks index `randbelow(len(left))` of the factions left, in order.
    The "FactionsDrawn" event, whose payload["drawn"] goes to the random seats in their order.
    RuleViolation("S-FAC") when the seats are not 2 to 4 different known factions."""
    chosen = check_factions(list(chosen), random_seats, fewest_random=1)
    pool = sorted(set(data.FACTION_IDS) - set(chosen))
    rng = GameRng(seed, SEAT_DRAW_POSITION)
    left = list(pool)
    drawn = [left.pop(rng.randbelow(len(left), FACTION)) for _ in range(random_seats)]
    payload = {
        "chosen": sorted(chosen),
        "random_seats": random_seats,
        "pool": pool,
        "drawn": drawn,
        "position": SEAT_DRAW_POSITION,
        "draws": [[label, n, value] for label, n, value in rng.transcript],
    }
    return Event(FACTIONS_DRAWN, payload)


def seated_factions(event: Event) -> list[str]:
    """The factions of the game a "FactionsDrawn" event makes, sorted: those chosen and those drawn."""
    return sorted([*event.payload["chosen"], *event.payload["drawn"]])


@applies(FACTIONS_DRAWN)
def _factions_drawn(state: GameState, payload: dict[str, Any]) -> None:
    """The factions drawn are already the factions of "GameStarted"; the record changes nothing."""

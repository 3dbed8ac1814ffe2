"""A player's record of reliability (docs/front-door.md "Reliability"), folded from the log.

What one address's seats did, read from the events and nothing else: games played (a seat held
from the opening or from a hand-over on), games finished (the seat still held at GameEnded),
orders given in time (OrderGiven by the player), deadlines missed (DeadlinePassed: the server gave
the default order) and vacations taken (VacationTaken). Never a counter anyone keeps.

It is folded when it is read rather than kept as a read model on every append: an order's
statements are pinned (tests/services/test_order_path_queries.py) and a profile is read rarely.
The log names seats by faction, and a hand-over names no address (docs/long-games.md): so a seat's
present holder is credited from its last hand-over on, and what came before is their
predecessor's, who held that seat then and is no longer known by it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.engine.table import DEADLINE_PASSED, SEAT_HANDED_OVER, VACATION_TAKEN
from games.models import Event, Seat

OPENINGS = ("GameStarted", "ScenarioLoaded")
ORDER_GIVEN = "OrderGiven"
GAME_ENDED = "GameEnded"
READ = (*OPENINGS, ORDER_GIVEN, DEADLINE_PASSED, VACATION_TAKEN, SEAT_HANDED_OVER, GAME_ENDED)


@dataclass
class Reliability:
    games_played: int = 0
    games_finished: int = 0
    orders_in_time: int = 0
    deadlines_missed: int = 0
    vacations: int = 0

    @property
    def in_time_percent(self) -> int | None:
        """The share of the turns owed that were given in time, or None before any was owed."""
        owed = self.orders_in_time + self.deadlines_missed
        return round(100 * self.orders_in_time / owed) if owed else None


def fold_reliability(
    held: Iterable[tuple[int, str]], events: Iterable[tuple[int, str, dict[str, Any]]]
) -> Reliability:
    """The record of the seats `held` ((game id, faction)), from `events` ((game id, type, payload),
    each game's in seq order): pure, no database."""
    held = set(held)
    seats: dict[tuple[int, str], Reliability] = {}
    for game_id, kind, payload in events:
        key = (game_id, str(payload.get("player", "")))
        if kind in OPENINGS:
            for seat in held:
                if seat[0] == game_id:
                    seats[seat] = Reliability(games_played=1)
        elif kind == GAME_ENDED:
            for seat, record in seats.items():
                if seat[0] == game_id:
                    record.games_finished = 1
        elif key in held and kind == SEAT_HANDED_OVER:
            seats[key] = Reliability(games_played=1)  # the present holder's record starts here
        elif key in seats:
            record = seats[key]
            if kind == ORDER_GIVEN and payload.get("by") == "player":
                record.orders_in_time += 1
            elif kind == DEADLINE_PASSED:
                record.deadlines_missed += 1
            elif kind == VACATION_TAKEN:
                record.vacations += 1
    total = Reliability()
    for record in seats.values():
        total.games_played += record.games_played
        total.games_finished += record.games_finished
        total.orders_in_time += record.orders_in_time
        total.deadlines_missed += record.deadlines_missed
        total.vacations += record.vacations
    return total


def reliability_of(email: str) -> Reliability:
    """The record of every seat an address holds (case does not count), from those games' logs."""
    held = list(Seat.objects.filter(email__iexact=email.strip()).values_list("game_id", "faction"))
    if not held:
        return Reliability()
    events = (
        Event.objects.filter(game_id__in={game for game, _ in held}, type__in=READ)
        .order_by("game_id", "seq")
        .values_list("game_id", "type", "payload")
        .iterator()
    )
    return fold_reliability(held, events)

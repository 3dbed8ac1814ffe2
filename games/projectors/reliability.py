"""A player's record of reliability (docs/front-door.md "Reliability"), read from the seat records.

What one address's holdings of seats did: games played (a seat held from the opening or from a
hand-over on), games finished (the seat still held at GameEnded), orders given in time (OrderGiven
by the player, less those taken back), deadlines missed (DeadlinePassed: the server gave the
default order) and vacations taken (VacationTaken). Each holding's counts are the SeatRecord read
model, kept from the log by games/projectors/seat_records.py; whose holding it was is SeatHolder,
written by the services at the opening and at each hand-over. So a dropped player's misses before
the hand-over count against them, and their substitute is credited from the hand-over on. Never a
counter anyone keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Q, Sum

from games.models import SeatHolder, SeatRecord


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


def reliability_of(email: str) -> Reliability:
    """The sum of the records of every holding of a seat by an address (case does not count): one query."""
    held = SeatHolder.objects.filter(
        email__iexact=email.strip(),
        game_id=OuterRef("game_id"),
        faction=OuterRef("faction"),
        since_seq=OuterRef("since_seq"),
    )
    # A game counts once however many of its holdings the address held (a seat handed back to its
    # own player, say); the turns count in each.
    totals = SeatRecord.objects.filter(Exists(held)).aggregate(
        games_played=Count("game_id", distinct=True, filter=Q(played__gt=0)),
        games_finished=Count("game_id", distinct=True, filter=Q(finished__gt=0)),
        orders_in_time=Sum(F("orders_in_time") - F("orders_taken_back")),
        deadlines_missed=Sum("deadlines_missed"),
        vacations=Sum("vacations"),
    )
    return Reliability(**{name: total or 0 for name, total in totals.items()})

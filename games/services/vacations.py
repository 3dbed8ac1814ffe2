"""Vacations (docs/long-games.md): a player stops their own turn clock for some days; everyone sees it.

The limits, so that a vacation cannot stall a game indefinitely (docs/long-games.md):
- each player has a quota of days (DeadlineSettings.vacation_days, default 14) per 365 days:
  the days of every vacation that began in the 365 days before the new one ends, plus the new
  one, may not exceed the quota — so no stacking at the turn of a year either;
- a vacation begins now (never backdated), lasts 1 day to the quota, whole days;
- one at a time: no new vacation while one is running (it cannot be lengthened);
- only while the game is running.
So one player can hold a game up by at most the quota in any 365 days, and all players together
by at most players × quota; after that the deadlines run, and missed ones get default orders.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.engine.table import VACATION_TAKEN
from games.eventstore.store import ConcurrencyError, append_events
from games.models import Game, Seat, Vacation
from games.words.clock import recompute_deadlines, settings_for

YEAR = timedelta(days=365)


class VacationRefused(ValueError):
    """A vacation the limits do not allow; `message` is fit to show the player."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def days_left(seat: Seat, now: datetime | None = None, until: datetime | None = None) -> int:
    """The quota minus the days of vacations that began in the 365 days before `until` (default now)."""
    now = now or timezone.now()
    until = until or now
    taken = Vacation.objects.filter(game_id=seat.game_id, faction=seat.faction, start__gt=until - YEAR)
    return settings_for(seat.game_id).vacation_days - sum(v.days for v in taken)


def current_vacation(seat: Seat, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    return Vacation.objects.filter(
        game_id=seat.game_id, faction=seat.faction, start__lte=now, end__gt=now
    ).first()


def take_vacation(seat: Seat, days: int, now: datetime | None = None) -> Vacation:
    """Append "VacationTaken" for `seat` from now for `days` days, within the limits above.

    The seat's deadlines move by the time the vacation overlaps them (games/words/clock.py).
    """
    now = now or timezone.now()
    game = seat.game
    if game.status != Game.Status.ACTIVE:
        raise VacationRefused(_("Vacations can be taken only while the game is running."))
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise VacationRefused(_("A vacation lasts at least one whole day."))
    if current_vacation(seat, now) is not None:
        raise VacationRefused(_("You are on vacation already; a vacation cannot be lengthened."))
    end = now + timedelta(days=days)
    left = days_left(seat, now, until=end)
    if days > left:
        raise VacationRefused(
            _("You have %(left)s vacation days left in this year; %(days)s is too many.")
            % {"left": max(left, 0), "days": days}
        )
    payload = {"player": seat.faction, "days": days, "start": now.isoformat(), "end": end.isoformat()}
    for _attempt in range(5):
        head = game.events.order_by("-seq").values_list("seq", flat=True).first() or 0
        try:
            with transaction.atomic():
                row = append_events(
                    game, head, [engine.Event(VACATION_TAKEN, payload)], actor=seat.faction, now=now
                )[0]
                recompute_deadlines(game)
            return Vacation.objects.get(game=game, seq=row.seq)
        except ConcurrencyError:
            continue
    raise VacationRefused(_("The game is busy; please try again."))

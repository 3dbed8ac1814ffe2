"""Deadlines (docs/long-games.md): how long a player has, when the turn clock stands still, what is owed.

The clock arithmetic is pure: `deadline_after(start, hours, ...)` counts working time from
`start`, skipping the weekends (Saturday and Sunday in the organiser's time zone, when the game
says so) and the player's own vacations. The projector (games/projectors/seat_clocks.py)
keeps each seat's deadline in `SeatClock`; games/services/deadline_tick.py acts on it from Celery beat.

Times are counted in the game's zone but shown in the reader's: a seat that chose a zone
(`Seat.time_zone`) reads its deadlines, vacation and digest hour in it (`seat_zone`,
`deadline_text(..., reader=seat)`); the organiser and a seat that chose none read the game's.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from aegea_pbem.sql_selects import joined_columns, joined_rows, model_rows, model_select
from games.models import DeadlineSettings, Game, Seat, SeatClock, Vacation

Interval = tuple[datetime, datetime]
SETTINGS_FIELDS, SETTINGS_SQL = model_select(DeadlineSettings, "game_id = %s")
VACATION_FIELDS, VACATIONS_SQL = model_select(Vacation, 'game_id = %s AND "end" > %s')
# An order that opens an obligation needs both: one round trip. The game's row anchors the joins,
# so a game without settings or vacations still gives one row (of NULLs for what it lacks).
SETTINGS_AND_VACATIONS = f"""
SELECT {joined_columns(DeadlineSettings, "s")}, {joined_columns(Vacation, "v")}
FROM games_game g
LEFT JOIN games_deadlinesettings s ON s.game_id = g.id
LEFT JOIN games_vacation v ON v.game_id = g.id AND v."end" > %s
WHERE g.id = %s ORDER BY v.start"""
REMINDER = re.compile(r"^\s*(?:(?P<percent>\d{1,2})\s*%|(?P<hours>\d{1,3})\s*h)\s*$")


def settings_for(game: Game | int) -> DeadlineSettings:
    """The game's deadline settings, or the defaults (an unsaved row) when the organiser set none."""
    game_id = game if isinstance(game, int) else game.pk
    # SQL of our own (the model's converters still apply): orders that open an obligation read
    # this, and the ORM's .first() costs more than twice the client time.
    rows = model_rows(DeadlineSettings, SETTINGS_FIELDS, SETTINGS_SQL, [game_id])
    return rows[0] if rows else DeadlineSettings(game_id=game_id)


def settings_and_vacations(game_id: int, ending_after: datetime) -> tuple[DeadlineSettings, list[Vacation]]:
    """settings_for(game_id), and the game's vacations that end after `ending_after`, in one query."""
    settings, vacations = None, []
    since = connection.ops.adapt_datetimefield_value(ending_after)  # as the ORM binds it (SQLite: UTC text)
    for found, vacation in joined_rows(
        [DeadlineSettings, Vacation], SETTINGS_AND_VACATIONS, [since, game_id]
    ):
        settings = found
        if vacation is not None:
            vacations.append(vacation)
    return settings or DeadlineSettings(game_id=game_id), vacations


def time_zone(settings: DeadlineSettings) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(settings.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def valid_time_zone(name: str) -> bool:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


# The areas of the tz database's place names (its zone1970.tab): every zone a player lives in.
ZONE_AREAS = frozenset(
    ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic")
    + ("Australia", "Europe", "Indian", "Pacific")
)


@functools.cache
def player_time_zones() -> tuple[str, ...]:
    """The IANA zones a player may choose, sorted: the places ("Europe/London") and UTC. Not the
    legacy aliases ("GB", "W-SU", "US/Eastern", "Etc/GMT+1" — whose sign is the reverse of what it
    reads), nor "localtime" (this server's own clock) or "Factory" (tzdata's "not set")."""
    zones = (zone for zone in zoneinfo.available_timezones() if zone.split("/")[0] in ZONE_AREAS)
    return ("UTC", *sorted(zones))


def seat_zone(
    seat: Seat | None, game: Game | int, settings: DeadlineSettings | None = None
) -> zoneinfo.ZoneInfo:
    """The zone times are shown to `seat` in: the one its player chose, else the game's (also for
    `seat` None: the organiser). The game's settings are read only when needed (`settings`: the
    game's, when the caller has them already)."""
    if seat is not None and seat.time_zone and valid_time_zone(seat.time_zone):
        return zoneinfo.ZoneInfo(seat.time_zone)  # ZoneInfo caches its zones: no file read per call
    return time_zone(settings or settings_for(game))


@dataclass(frozen=True)
class ReminderPoint:
    """A moment before the deadline: a share of the time gone (`fraction`) or `hours` before it."""

    fraction: float | None = None
    hours: int | None = None

    def at(self, due_since: datetime, deadline: datetime) -> datetime:
        if self.fraction is not None:
            return due_since + (deadline - due_since) * self.fraction
        return deadline - timedelta(hours=self.hours or 0)


def parse_reminders(text: str) -> list[ReminderPoint]:
    """Read "50%,2h": a reminder when half the time is gone, and one 2 hours before the deadline.

    Raises ValueError naming the part that cannot be read.
    """
    points = []
    for part in filter(str.strip, text.split(",")):
        match = REMINDER.match(part)
        if match is None or (match["percent"] and not 0 < int(match["percent"]) < 100):
            raise ValueError(_('"%(part)s" is not a reminder: write e.g. "50%%" or "2h".') % {"part": part})
        if match["percent"]:
            points.append(ReminderPoint(fraction=int(match["percent"]) / 100))
        else:
            points.append(ReminderPoint(hours=int(match["hours"])))
    return points


def weekends(start: datetime, zone: zoneinfo.ZoneInfo) -> Iterator[Interval]:
    """Saturday 00:00 to Monday 00:00 in `zone`, from the weekend around `start` on."""
    local = start.astimezone(zone).date()
    saturday = local - timedelta(days=(local.weekday() - 5) % 7)
    while True:
        # In UTC: Python subtracts and adds two times of the same zone object on the wall clock,
        # so deadline_after would count a week with a clock change in it (Israel's and Egypt's on a
        # Friday) one hour long or short.
        begin = datetime.combine(saturday, time(0), zone).astimezone(UTC)
        yield begin, datetime.combine(saturday + timedelta(days=2), time(0), zone).astimezone(UTC)
        saturday += timedelta(days=7)


def deadline_after(
    start: datetime,
    hours: int,
    zone: zoneinfo.ZoneInfo,
    skip_weekends: bool = False,
    pauses: Iterable[Interval] = (),
) -> datetime:
    """`start` plus `hours` of running clock: the clock stands still in `pauses` (vacations) and,
    with `skip_weekends`, from Saturday 00:00 to Monday 00:00 in the organiser's time zone."""
    remaining = timedelta(hours=hours)
    stops = sorted((a, b) for a, b in pauses if b > start)
    week = weekends(start, zone) if skip_weekends else iter(())
    upcoming = next(week, None)
    now = start
    while True:
        while upcoming is not None and upcoming[1] <= now:
            upcoming = next(week, None)
        candidates = [s for s in stops if s[1] > now] + ([upcoming] if upcoming else [])
        pause = min(candidates, default=None)
        if pause is None or now + remaining <= pause[0]:
            return now + remaining
        if pause[0] > now:
            remaining -= pause[0] - now
        now = max(now, pause[1])


def obligation_key(phase: str, year: int, action_round: int) -> str:
    """What a seat owes now: its turn in a round of a year, or the sealed order of a scoring winter."""
    if phase == "winter_orders":
        return f"winter:{year}"
    return f"turn:{year}:{action_round}"


def seat_deadline(game_id: int, faction: str, due_since: datetime, winter: bool) -> datetime:
    """The deadline of an obligation that began at `due_since`, with the seat's vacations."""
    settings = settings_for(game_id)
    pauses = [
        (v.start, v.end) for v in Vacation.objects.filter(game_id=game_id, faction=faction, end__gt=due_since)
    ]
    hours = settings.winter_hours if winter else settings.turn_hours
    return deadline_after(due_since, hours, time_zone(settings), settings.skip_weekends, pauses)


def seat_deadlines(
    settings: DeadlineSettings,
    factions: list[str],
    due_since: datetime,
    winter: bool,
    vacations: Iterable[Vacation] | None = None,
) -> dict[str, datetime]:
    """seat_deadline for several seats owing the same obligation, with one query for their
    vacations however many they are (a sealed winter order is owed by every seat at once), or
    none when the caller read the game's `vacations` ending after `due_since` already."""
    pauses: dict[str, list[Interval]] = {faction: [] for faction in factions}
    if vacations is None:
        # Our own SQL for the same reason as settings_for; the factions are filtered here, not in SQL.
        since = connection.ops.adapt_datetimefield_value(due_since)  # as the ORM binds it (SQLite: UTC text)
        vacations = model_rows(Vacation, VACATION_FIELDS, VACATIONS_SQL, [settings.game_id, since])
    for v in vacations:
        if v.faction in pauses:
            pauses[v.faction].append((v.start, v.end))
    hours = settings.winter_hours if winter else settings.turn_hours
    zone = time_zone(settings)
    return {
        faction: deadline_after(due_since, hours, zone, settings.skip_weekends, pauses[faction])
        for faction in factions
    }


def recompute_deadlines(game: Game) -> None:
    """After the organiser changed the settings, or a vacation: every open deadline again.

    Under the game's row lock, as orders write the clocks: an order ending a turn meanwhile read the
    old settings, and recomputing from the clocks read before it committed gave the next turn the
    old hours and wrote a deadline onto the clock the order had just cleared."""
    with transaction.atomic():
        list(Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True))
        for clock in SeatClock.objects.filter(game=game, due_since__isnull=False):
            clock.deadline = seat_deadline(
                game.pk, clock.faction, clock.due_since, clock.obligation.startswith("winter")
            )
            clock.save(update_fields=["deadline"])


def deadline_text(
    deadline: datetime | None,
    game: Game | int,
    settings: DeadlineSettings | None = None,
    *,
    reader: Seat | None,
) -> str:
    """The deadline in its reader's zone (seat_zone), e.g. "2 Dec 2026, 18:00 (Europe/Berlin)",
    "2.12.2026, 18:00 (Europe/Berlin)" in German. `reader`: the seat it is shown to, None for the organiser
    (required, so that no time reaches a player in the game's zone by a forgotten argument).
    `settings`: the game's, when the caller has them already."""
    if deadline is None:
        return ""
    return zone_time(deadline, seat_zone(reader, game, settings))


def zone_time(moment: datetime, zone: zoneinfo.ZoneInfo) -> str:
    """`moment` on `zone`'s clock, in the active language's SHORT_DATETIME_FORMAT (aegea_pbem/formats),
    with the zone named: "2 Dec 2026, 18:00 (Europe/Berlin)", "2.12.2026, 18:00 (Europe/Berlin)"."""
    return f"{date_format(moment.astimezone(zone), 'SHORT_DATETIME_FORMAT')} ({zone.key})"


def reader_zone(game: Game | int, viewer: str | None) -> zoneinfo.ZoneInfo:
    """seat_zone of the seat playing `viewer` (a faction), or the game's for None (the organiser):
    for a text that names a time and knows its reader by faction (the history, the happenings)."""
    game_id = game if isinstance(game, int) else game.pk
    seat = Seat.objects.filter(game_id=game_id, faction=viewer).first() if viewer else None
    return seat_zone(seat, game)


def clock_of(game: Game, faction: str) -> SeatClock | None:
    return SeatClock.objects.filter(game=game, faction=faction).first()


def describe_settings(settings: DeadlineSettings) -> dict[str, Any]:
    return {
        "turn_hours": settings.turn_hours,
        "winter_hours": settings.winter_hours,
        "time_zone": time_zone(settings).key,
        "skip_weekends": settings.skip_weekends,
        "reminders": settings.reminders,
    }

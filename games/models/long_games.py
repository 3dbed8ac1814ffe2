"""Long games (docs/long-games.md): deadline settings, the clock per seat, vacations, mail preferences.

`DeadlineSettings` and `NotificationPreference` are settings people choose. `SeatClock` and
`Vacation` are read models: the projector in games/projectors/seat_clocks.py keeps them from
the log (times from the events, never the clock), so `rebuildprojections` gives the same rows.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .seats import Seat
from .store import Game


class DeadlineSettings(models.Model):
    """How long a player has for an order in one game. A game without a row uses the defaults."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="deadlines")
    turn_hours = models.PositiveIntegerField(
        _("hours per turn"), default=48, validators=[MinValueValidator(1), MaxValueValidator(24 * 30)]
    )
    winter_hours = models.PositiveIntegerField(
        _("hours for the sealed winter order"),
        default=72,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 30)],
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    skip_weekends = models.BooleanField(_("the clock stops on Saturdays and Sundays"), default=False)
    # Comma-separated points before the deadline: "50%" of the time gone, "2h" before it.
    reminders = models.CharField(_("reminders"), max_length=64, default="50%,2h")
    missed_turns_alert = models.PositiveSmallIntegerField(
        _("missed turns in a row before the organiser is told"), default=3, validators=[MinValueValidator(1)]
    )
    vacation_days = models.PositiveSmallIntegerField(
        _("vacation days per player and year"), default=14, validators=[MaxValueValidator(60)]
    )
    alert_organiser = models.BooleanField(_("mail the organiser about absent players"), default=True)

    class Meta:
        verbose_name = _("deadline settings")
        verbose_name_plural = _("deadline settings")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.turn_hours} h / {self.winter_hours} h"


class SeatClock(models.Model):
    """Read model, one row per seat: what it owes now, until when, and how many turns it missed in a row."""

    # Indexed by games_seatclock_one_per_seat (game, faction); a second index on game alone would
    # only cost every order's clock upsert one more index entry.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_clocks", db_index=False)
    faction = models.CharField(_("faction"), max_length=16)
    obligation = models.CharField(_("obligation"), max_length=64, blank=True, default="")  # "" owes nothing
    since_seq = models.PositiveIntegerField(_("owed since event"), null=True, blank=True)
    due_since = models.DateTimeField(_("owed since"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    missed_in_a_row = models.PositiveIntegerField(_("missed turns in a row"), default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "faction"], name="games_seatclock_one_per_seat")
        ]
        verbose_name = _("seat clock")
        verbose_name_plural = _("seat clocks")

    def __str__(self) -> str:
        return f"{self.game_id} {self.faction}: {self.obligation or '-'} until {self.deadline}"


class Vacation(models.Model):
    """Read model: a vacation a player took (event VacationTaken); their deadlines stand still meanwhile."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="vacations")
    faction = models.CharField(_("faction"), max_length=16)
    seq = models.PositiveIntegerField(_("event"))
    start = models.DateTimeField(_("from"))
    end = models.DateTimeField(_("until"))
    days = models.PositiveSmallIntegerField(_("days"))

    class Meta:
        ordering = ["game_id", "start"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="games_vacation_one_per_event")]
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")

    def __str__(self) -> str:
        return f"{self.game_id} {self.faction}: {self.start:%Y-%m-%d} +{self.days} d"


class NotificationPreference(models.Model):
    """What a player wants mailed (their language is `Seat.language`). No row: the defaults."""

    class Mode(models.TextChoices):
        MUST_ACT = "must_act", _("only when I must act")
        EVERY_TURN = "every_turn", _("after every turn")
        DIGEST = "digest", _("a daily digest")

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, primary_key=True, related_name="preference")
    mode = models.CharField(_("emails"), max_length=16, choices=Mode.choices, default=Mode.MUST_ACT)
    digest_hour = models.PositiveSmallIntegerField(
        _("digest hour"), default=18, validators=[MaxValueValidator(23)]
    )
    unsubscribed = models.BooleanField(_("no emails at all"), default=False)
    # Set when the player marked an email as spam (games/services/delivery_problems.py): only the emails
    # needed to play go out until the player saves their preferences again.
    essential_only = models.BooleanField(_("only the emails needed to play"), default=False)
    last_digest_on = models.DateField(null=True, blank=True)
    last_digest_seq = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return f"{self.seat_id}: {self.mode}"

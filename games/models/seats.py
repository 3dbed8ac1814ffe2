"""Seats: the people playing a game. A seat has no account; its signed links are its key."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .store import Game


class Seat(models.Model):
    """One player of one game: a faction, a name, an email address, a language and a time zone.

    `token_version` is part of every signed link (games/reading/links.py): raising it revokes all
    links issued to the seat so far.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    faction = models.CharField(_("faction"), max_length=16)
    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("email"))
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, default="en")
    # Until the player picks a language on their page, the page follows the browser's
    # Accept-Language; emails always use `language` (the organiser's choice until then).
    language_chosen = models.BooleanField(_("language chosen by the player"), default=False)
    # The IANA zone the player reads times in (deadlines, vacations, the digest's hour); blank
    # follows the game's (DeadlineSettings.time_zone), which alone counts the deadlines.
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    token_version = models.PositiveIntegerField(_("link version"), default=1)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["game_id", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "faction"], name="games_seat_one_per_faction")]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.name} ({self.faction}) in game {self.game_id}"


class GameProgress(models.Model):
    """Read model: where a game stands — year, phase, who must act, victory points.

    Kept by the projector in games/projectors/progress.py and rebuilt from the log alone.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="progress")
    year = models.PositiveIntegerField(_("year"))
    phase = models.CharField(_("phase"), max_length=16)
    action_round = models.PositiveSmallIntegerField(_("action round"), default=1)
    must_act = models.JSONField(_("must act"), default=list)  # factions owing an order now
    vp = models.JSONField(_("victory points"), default=dict)  # faction -> VP
    winners = models.JSONField(_("winners"), default=list)

    class Meta:
        verbose_name = _("game progress")
        verbose_name_plural = _("game progress")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.year} {self.phase}"

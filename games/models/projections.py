"""Read models: tables derived from the event log by projectors (games/projectors/).

Every row here can be deleted and rebuilt from the log alone (`manage.py rebuildprojections`).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .store import Game


class GameSummary(models.Model):
    """One row per game with events: its status, last seq and when it last changed.

    Later read models (year, phase, whose turn, VP) add their columns or tables through
    their own projectors.
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="summary")
    status = models.CharField(_("status"), max_length=16, choices=Game.Status.choices)
    last_seq = models.PositiveIntegerField(_("last seq"))
    # The created time of the last event, not the time of projecting: a rebuild gives the same row.
    updated = models.DateTimeField(_("updated"))

    class Meta:
        ordering = ["-updated"]
        verbose_name = _("game summary")
        verbose_name_plural = _("game summaries")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.status} @ {self.last_seq}"

"""The event store's tables: a Game, its append-only Event log, and state Snapshots.

Events are facts: written once by `games.eventstore.store.append_events`, never updated or deleted
(a PostgreSQL trigger refuses it, see migration 0002). Each event carries the hash of its
predecessor, so altering any row breaks the chain that `manage.py verifygame` checks.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_game_seed() -> str:
    """A fresh secret seed for the game's RNG; only its hash is published until the game ends."""
    return secrets.token_hex(32)


class Game(models.Model):
    class Status(models.TextChoices):
        NEW = "new", _("New")
        ACTIVE = "active", _("Active")
        ENDED = "ended", _("Ended")

    name = models.CharField(_("name"), max_length=200, blank=True, default="")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # A projection column: set from the log by the summary projector (games/projectors/summary.py).
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.NEW)
    seed = models.CharField(_("secret seed"), max_length=128, default=new_game_seed, editable=False)
    language = models.CharField(_("language"), max_length=8, default="en")
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organised_games",
    )

    class Meta:
        ordering = ["-id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.name or f"Game {self.pk}"


class Event(models.Model):
    """One fact in a game's log. `seq` counts from 1 without gaps; see docs/architecture.md for `hash`."""

    # PROTECT: a game with a history cannot be deleted (the trigger would refuse the cascade anyway).
    # No index of its own: the unique (game, seq) index serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    payload = models.JSONField(default=dict)
    actor = models.CharField(max_length=100, blank=True, default="")
    schema_version = models.PositiveSmallIntegerField(default=1)
    created = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="games_event_unique_seq"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="games_event_seq_positive"),
        ]
        # "What happened since my last turn" starts at the reader's last order (situation.happenings,
        # last_turn_start): with this, one index probe instead of scanning the game's events (~0.5 ms
        # per turn email at a game's end). Only orders are indexed, so appends pay little for it.
        indexes = [
            models.Index(
                fields=["game", "actor", "seq"],
                condition=models.Q(type="OrderGiven"),
                name="games_event_orders_idx",
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class Snapshot(models.Model):
    """The folded state of a game after event `seq`: derived data, a shortcut for loading."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="snapshots", db_index=False
    )  # unique_seq
    seq = models.PositiveIntegerField()
    state = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "-seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="games_snapshot_unique_seq")]

    def __str__(self) -> str:
        return f"snapshot {self.game_id}@{self.seq}"

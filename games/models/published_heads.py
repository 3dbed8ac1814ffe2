"""Published heads (docs/fairness.md, "Witnessed heads"; docs/operations.md "Published heads"): once a
day the head of every game whose log moved, appended to a public list that nothing rewrites (on
PostgreSQL a trigger refuses UPDATE and DELETE, as for the log itself)."""

from __future__ import annotations

from django.db import models


class PublishedHead(models.Model):
    day = models.DateField()
    game_id = models.BigIntegerField()  # a plain id: the list outlives a deleted game
    seq = models.IntegerField()
    pin = models.CharField(max_length=64)  # the pin of event `seq` (games/reading/log_head.py)
    published = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "game_id"], name="published_head_once_a_day")]
        ordering = ["id"]

    def line(self) -> str:
        """The public page's line: `2026-12-03 game=12; seq=431; pin=<64 hex digits>`."""
        return f"{self.day.isoformat()} game={self.game_id}; seq={self.seq}; pin={self.pin}"

"""Seat grants: the server's record of each browser a seat was opened in (games/services/seat_grants.py).

A browser that opens a seat's emailed link is given a grant; its seat cookie carries the grant's
random key, which is stored here only as its SHA-256, as is the random id of the browser holding it
(so sign-out can end that browser's grants: its seat cookies never reach /sign-out/). A request with
the cookie is admitted only while the grant is live: not revoked, not expired, and its seat still at
the link version it was granted under.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .seats import Seat


class SeatGrant(models.Model):
    """One browser's admission to one seat, until `expires` or until revoked (`revoked_at`)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="grants")
    key_hash = models.CharField(_("key (SHA-256)"), max_length=64, unique=True)
    browser_hash = models.CharField(_("browser (SHA-256)"), max_length=64, db_index=True)
    # The seat's link version when granted: a hand-over or a withdrawal of the links raises the
    # seat's, and every grant made before stops admitting (games/reading/links.py).
    token_version = models.PositiveIntegerField(_("link version"))
    created = models.DateTimeField(_("created"))
    last_used = models.DateTimeField(_("last used"))
    expires = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat grant")
        verbose_name_plural = _("seat grants")

    def __str__(self) -> str:
        return f"grant {self.pk} of seat {self.seat_id}"

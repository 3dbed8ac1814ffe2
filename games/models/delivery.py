"""Mail that does not reach a seat: the ESP's bounces, rejections and spam complaints.

One row per problem, not per report: the ESP reports every bounced email (and retries its
webhooks), but the organiser is told once per seat, address and problem, and the pages show the
problem until it is resolved (an email to the address arrived, the seat got another address, or
the player chose their emails again after a complaint). A problem belongs to the address it was
reported for: once the seat's address changes, it no longer concerns the seat.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .seats import Seat


class DeliveryProblem(models.Model):
    class Kind(models.TextChoices):
        UNDELIVERABLE = "undeliverable", _("emails are not arriving")
        COMPLAINT = "complaint", _("marked as spam")

    class Resolution(models.TextChoices):
        OPEN = "", _("open")
        DELIVERED = "delivered", _("a later email arrived")
        ADDRESS_CHANGED = "address-changed", _("the seat's address changed")
        PREFERENCES = "preferences", _("the player chose their emails again")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="delivery_problems")
    email = models.EmailField(_("address"))  # the address the failed email went to
    kind = models.CharField(_("problem"), max_length=16, choices=Kind.choices)
    event = models.CharField(_("ESP event"), max_length=16)  # bounced, rejected, complained
    description = models.TextField(_("what the mail server said"), blank=True, default="")
    first_at = models.DateTimeField(_("first reported"))
    last_at = models.DateTimeField(_("last reported"))
    # The latest email reported (its outbox row and when it was sent): a report about an email
    # sent before one that arrived is old news and opens nothing (see games/services/delivery_problems.py).
    outbox_id = models.BigIntegerField()
    sent_at = models.DateTimeField()
    reports = models.PositiveIntegerField(_("emails reported"), default=1)
    resolution = models.CharField(
        _("resolved"), max_length=16, choices=Resolution.choices, blank=True, default=""
    )
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    # When the email that arrived was sent, if an arrival resolved it.
    resolved_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["seat_id", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "email", "kind"],
                condition=models.Q(resolution=""),
                name="games_deliveryproblem_one_open",
            )
        ]
        verbose_name = _("delivery problem")
        verbose_name_plural = _("delivery problems")

    def __str__(self) -> str:
        return f"{self.seat_id} <{self.email}>: {self.kind} ({self.resolution or 'open'})"

"""The outbox: one row per email the game owes someone, written in the same transaction as the events.

The row is the truth of what must be delivered; Celery only carries the nudge. The unique
key (game, seq, seat, kind) makes every notification idempotent: writing it twice, running
the delivery task twice or on two workers never produces a second email.
"""

from __future__ import annotations

from django.db import models


class Outbox(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"

    # Plain ids, not foreign keys: the outbox stays a generic mail queue that games write into.
    # No index of its own: outbox_once_per_turn (game_id, seq, seat_id, kind) serves game lookups,
    # and every order's emails would maintain one more index.
    game_id = models.BigIntegerField()
    seq = models.IntegerField(help_text="The event seq the notification belongs to (the turn).")
    seat_id = models.BigIntegerField()
    # Free text, not choices: the kinds are the writing app's (registered in notifications/hooks.py,
    # checked by services.enqueue), so a new kind of email needs no migration here.
    kind = models.CharField(max_length=16)

    to_email = models.EmailField()
    language = models.CharField(max_length=8, default="en")
    # What to render when the row is delivered (notifications/services.py): the templates
    # emails/<template>*.txt/.html and their context, frozen in the reader's language when the
    # row was written, so the email tells the game as it stood then. A row with no template was
    # written rendered (rows from before migration 0005, and the mail bench's).
    template = models.CharField(max_length=32, blank=True, default="")
    context = models.JSONField(default=dict, blank=True)
    subject = models.CharField(max_length=255, blank=True, default="")  # set when sent, if rendered then
    body_text = models.TextField(blank=True, default="")
    body_html = models.TextField(blank=True, default="")
    reply_to = models.CharField(max_length=255, blank=True, default="")  # orders+<token>@INBOUND_DOMAIN
    headers = models.JSONField(default=dict, blank=True)  # e.g. List-Unsubscribe

    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    message_id = models.CharField(max_length=255, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game_id", "seq", "seat_id", "kind"], name="outbox_once_per_turn"
            ),
        ]
        indexes = [models.Index(fields=["status", "id"], name="outbox_pending_idx")]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.kind} game {self.game_id} seq {self.seq} -> {self.to_email} ({self.status})"

    @property
    def idempotency_key(self) -> str:
        return f"aegea-{self.kind}-{self.game_id}-{self.seq}-{self.seat_id}"


class InboundMail(models.Model):
    """One email received through the ESP's inbound webhook, and what became of it (docs/email-orders.md).

    The webhook stores it (the reply address, the text, the spam flag, the size) and a Celery
    task handles it; `outcome` stays "" until then, so a crash between the two loses nothing (the
    sweep picks it up). The ESP's message id is unique with the address it was sent to
    (`reply_to`): a webhook delivered twice is handled once, while one email to two seats' reply
    addresses, or a Message-ID another sender reused, is still handled at each address.
    The text is dropped once handled; `detail` keeps its first lines.
    """

    esp_message_id = models.CharField(max_length=255)
    recipient = models.CharField(max_length=255, blank=True, default="")  # the seat's email then
    reply_to = models.CharField(max_length=320, blank=True, default="")  # the address it was sent to
    seat_id = models.BigIntegerField(null=True, blank=True)
    game_id = models.BigIntegerField(null=True, blank=True)
    received = models.DateTimeField(auto_now_add=True)
    size = models.PositiveIntegerField(default=0)
    spam = models.BooleanField(default=False)
    text = models.TextField(blank=True, default="")
    html = models.TextField(blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    outcome = models.CharField(max_length=32, blank=True, default="")  # "" = waiting to be handled
    detail = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["received"], condition=models.Q(outcome=""), name="inbound_waiting")]
        constraints = [
            models.UniqueConstraint(fields=["esp_message_id", "reply_to"], name="inbound_once_per_address")
        ]

    def __str__(self) -> str:
        return f"inbound {self.id} for seat {self.seat_id}: {self.outcome}"

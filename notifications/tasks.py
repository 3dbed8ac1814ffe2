"""Celery tasks that carry the outbox to the mail server.

The task is only a nudge: the outbox rows are the truth, so a lost or duplicated task
changes nothing. `sweep_outbox` runs periodically (CELERY_BEAT_SCHEDULE) and delivers
whatever is still pending, e.g. after a Redis or worker outage.
"""

from __future__ import annotations

from celery import shared_task

from .services import deliver_outbox


@shared_task(name="notifications.deliver_pending", acks_late=True, ignore_result=True)
def deliver_pending() -> int:
    """Deliver the pending outbox rows (enqueued after commit by `services.enqueue`)."""
    return deliver_outbox()


@shared_task(name="notifications.sweep_outbox", ignore_result=True)
def sweep_outbox() -> int:
    """Periodic safety net: re-send every row still pending (architecture step 5)."""
    return deliver_outbox()


@shared_task(name="notifications.handle_inbound", acks_late=True, ignore_result=True)
def handle_inbound(inbound_id: int) -> str | None:
    """Handle one stored inbound email (docs/email-orders.md; enqueued by the webhook after commit)."""
    from .inbound import handle_waiting

    return handle_waiting(inbound_id)


@shared_task(name="notifications.sweep_inbound", ignore_result=True)
def sweep_inbound() -> int:
    """Periodic safety net: handle every inbound email a lost task or a crash left waiting."""
    from .inbound import sweep_inbound as sweep

    return sweep()

"""Inbound email (docs/email-orders.md): anymail's `inbound` signal, for every ESP's webhook, handled.

The ESP posts each received email to /anymail/<esp>/inbound/ (notifications/webhooks.py bounds
its size); anymail authenticates the post (ANYMAIL["WEBHOOK_SECRET"] basic auth, and the ESP's
own signature where it has one, e.g. Mailgun's MAILGUN_WEBHOOK_SIGNING_KEY) and fires the signal
with an AnymailInboundMessage. Here the recipient address is the only key:
orders+<token>@INBOUND_DOMAIN names the seat and what the reply is for, as the app's registered
inbound handler reads it (notifications/hooks.py; games/mail_hooks.py). The From header is never
trusted.

In the web request (`store_inbound`), only what is cheap and must not be lost:

- no valid token (forged, revoked, another domain): logged, nothing stored; the handler may
  answer a sender it trusts (games: a reply to a withdrawn address of a seat, from that seat's
  own stored address, gets the seat's current link, at most once an hour);
- the same email posted again (the ESP's retry): recognised by its message id together with the
  reply address it was sent to (one email to two seats' addresses, or a Message-ID reused by
  another sender, is no retry and is read at each address);
- otherwise an InboundMail row (address, text, spam flag, size) is committed and the task
  `notifications.handle_inbound` is nudged; the ESP gets its 200 at once.

Off the request (`handle_waiting`, in a Celery worker; `sweep_inbound` from beat for any row a
lost nudge or a crash left waiting), once per row under its row lock. Without Redis the nudge runs
eagerly, in the request right after its commit, and `manage.py eagerbeat` stands in for beat
(notifications/eager_beat.py):

- spam-flagged by the ESP, or larger than INBOUND_MAX_BYTES (1 MB; the answer names it): its text
  was not kept, and the handler is told why (games: nothing changes, a polite answer);
- otherwise the handler acts on it (games: the reply's own lines are an order or a message).

A crash while handling rolls the handling back and leaves the row waiting; after
MAX_ATTEMPTS it is given up ("failed") so one poisonous email cannot loop for ever, and the
sender is told that nothing changed.
"""

from __future__ import annotations

import contextvars
import hashlib
import logging
from datetime import timedelta
from typing import Any

from anymail.signals import AnymailInboundEvent, inbound
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.dispatch import receiver
from django.utils import timezone

from .hooks import Addressee, registered
from .models import InboundMail
from .webhook_errors import our_handler

log = logging.getLogger(__name__)
DEFAULT_MAX_BYTES = 1024 * 1024
MAX_ATTEMPTS = 5
TEXT_LIMIT = 100_000  # characters kept of a readable mail's text; an order is its first lines
# The size of the webhook post being handled, set by notifications/webhooks.py (the ESP's
# parsed JSON no longer tells it without rebuilding the whole message).
post_size: contextvars.ContextVar[int] = contextvars.ContextVar("inbound_post_size", default=0)


def _recipients(message: Any) -> list[str]:
    found = [message.envelope_recipient] if message.envelope_recipient else []
    for header in ("to", "cc"):
        found += [address.addr_spec for address in _addresses(message, header)]
    for header in ("Delivered-To", "X-Original-To"):
        found += [str(value) for value in message.get_all(header) or []]
    return found


def _addresses(message: Any, header: str) -> list[Any]:
    """The addresses of an address header ("to", "cc", "from_email"), parsed when first read; a
    header anymail cannot read (a garbled or forged Cc or From) names nobody: the reply is still
    read by its other recipients, not refused with a server error the ESP would retry for days."""
    try:
        value = getattr(message, header, None)
    except ValueError:  # anymail's AnymailInvalidAddress
        return []
    # from_email is one address, None, or (a From naming several senders) a list of them.
    return list(value) if isinstance(value, list) else [value] if value else []


def _size(event: AnymailInboundEvent) -> int:
    """How large the email was: the ESP's whole post (attachments included)."""
    request = event.esp_event
    if hasattr(request, "META"):
        return int(request.META.get("CONTENT_LENGTH") or 0)
    return post_size.get() or len(event.message.as_bytes())


def _message_id(event: AnymailInboundEvent, recipient: str, text: str) -> str:
    found = event.message.get("Message-ID") or event.event_id
    if found:
        return "".join(c for c in str(found) if c.isprintable())[:255]
    return "sha256:" + hashlib.sha256(f"{recipient}\n{text}".encode()).hexdigest()


def _limit() -> int:
    return int(getattr(settings, "INBOUND_MAX_BYTES", DEFAULT_MAX_BYTES))


@receiver(inbound, dispatch_uid="aegea-inbound-orders")
@our_handler
def store_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    """Keep a true reply durably and nudge a worker; nothing else happens in the web request."""
    message = event.message
    found = [(a, _addressee(a)) for a in _recipients(message)]
    address, key = next(((a, k) for a, k in found if k is not None), ("", None))
    if key is None:
        log.info("inbound %s mail without a valid reply token: ignored", esp_name)
        if handler := registered().inbound:
            senders = [sender.addr_spec for sender in _addresses(message, "from_email")]
            handler.answer_unaddressed(_recipients(message), senders)
        return
    size = _size(event)
    readable = size <= _limit() and not message.spam_detected
    # PostgreSQL text cannot hold NUL; a mail carrying one would otherwise end in a server error.
    text = (message.text or "").replace("\x00", "")[:TEXT_LIMIT] if readable else ""
    html = (message.html or "").replace("\x00", "")[:TEXT_LIMIT] if readable else ""
    record = InboundMail(
        esp_message_id=_message_id(event, key.email, message.text or ""),
        recipient=key.email,
        reply_to=address.strip()[:320],
        seat_id=key.seat_id,
        game_id=key.game_id,
        size=size,
        spam=bool(message.spam_detected),
        text=text,
        html=html,
    )
    with transaction.atomic():
        try:
            with transaction.atomic():
                record.save()
        except IntegrityError:
            log.info("inbound %s: message %s seen before: ignored", esp_name, record.esp_message_id)
            return
        transaction.on_commit(lambda: _nudge(record.pk))


def _addressee(address: str) -> Addressee | None:
    handler = registered().inbound
    return handler.addressee(address) if handler else None


def _nudge(inbound_id: int) -> None:
    """Ask a worker to handle the stored mail. It is committed already: if the broker is down, or
    the (eager) handling fails, the ESP still gets its 200 and the sweep handles the row later."""
    from .tasks import handle_inbound

    try:
        handle_inbound.delay(inbound_id)
    except Exception:  # the row waits for sweep_inbound; the webhook must answer 200 regardless
        log.exception("inbound %s: not handled now; the sweep will retry", inbound_id)


def handle_waiting(inbound_id: int) -> str | None:
    """Handle one stored mail once: its outcome, or None if it was handled (or is being handled)."""
    bumped = InboundMail.objects.filter(pk=inbound_id, outcome="").update(attempts=F("attempts") + 1)
    if not bumped:
        return None
    with transaction.atomic():
        record = (
            InboundMail.objects.select_for_update(skip_locked=True).filter(pk=inbound_id, outcome="").first()
        )
        if record is None:
            return None
        if record.attempts > MAX_ATTEMPTS:
            log.error("inbound %s failed %s times: given up", record.pk, MAX_ATTEMPTS)
            record.outcome = "failed"
            _tell_given_up(record)
        else:
            record.outcome, record.detail = _act(record)
        record.text = record.html = ""  # handled: the mail's text is not kept
        record.save(update_fields=["outcome", "detail", "text", "html"])
    return record.outcome


def _act(record: InboundMail) -> tuple[str, str]:
    """What the registered handler makes of the mail: (outcome, detail). Mail whose text was not
    kept is handed over with the reason, so the handler can tell the sender why."""
    handler = registered().inbound
    if handler is None:  # nobody registered to read it since the webhook stored it
        return "unhandled", ""
    unread = "spam" if record.spam else "too-large" if record.size > _limit() else ""
    return handler.handle(record, unread, _limit())


def _tell_given_up(record: InboundMail) -> None:
    """The sender hears that their mail was given up and nothing changed, if that answer itself
    can be made (what made the handling fail may make it fail too: then only the log tells)."""
    handler = registered().inbound
    if handler is None:
        return
    try:
        with transaction.atomic():
            handler.tell_given_up(record)
    except Exception:
        log.exception("inbound %s: the answer that it was given up failed too", record.pk)


def sweep_inbound(older_than: timedelta = timedelta(seconds=30)) -> int:
    """Handle every mail still waiting (a lost nudge, a crashed worker); returns how many."""
    waiting = InboundMail.objects.filter(outcome="", received__lt=timezone.now() - older_than)
    done = 0
    for inbound_id in waiting.order_by("id").values_list("id", flat=True)[:500]:
        try:
            done += handle_waiting(inbound_id) is not None
        except Exception:  # one bad mail must not stop the others; it stays waiting for the next sweep
            log.exception("inbound %s: handling failed; will retry", inbound_id)
    return done

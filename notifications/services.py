"""Outbox services: enqueue an email inside the caller's transaction, render and deliver it once.

`enqueue` is called by the game services in the same transaction that appends the events,
so a notification exists exactly when its turn does. It stores the template and its context
(frozen in the reader's language), not the rendered email: rendering three templates per email
was a third of an order's client time, and the worker that sends the email renders it instead
(docs/operations.md). `deliver_outbox` renders and sends pending rows through Django's email API (any
anymail ESP), one locked row at a time, so two workers or a task delivered twice never send the
same row twice; a row that fails to render counts a failed attempt, like a refused send.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from email.mime.base import MIMEBase
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, connection, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.functional import Promise

from aegea_pbem.sql_cursor import kept_cursor
from aegea_pbem.sql_inserts import insert_rows
from aegea_pbem.sql_selects import model_rows, model_select

from .hooks import LateParts, Stamp, check_kind, registered
from .models import Outbox
from .nudge import wake_a_worker

log = logging.getLogger(__name__)

DEFAULT_MAX_ATTEMPTS = 5


@dataclass(frozen=True)
class RenderedEmail:
    subject: str
    text: str
    html: str
    reply_to: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    inline: tuple[MIMEBase, ...] = ()  # images the HTML shows by cid: (the board picture)


def render_email(template: str, context: dict[str, Any], language: str) -> RenderedEmail:
    """Render templates/emails/<template>_subject.txt, .txt and .html in the reader's language."""
    with translation.override(language):
        subject = render_to_string(f"emails/{template}_subject.txt", context)
        text = render_to_string(f"emails/{template}.txt", context)
        html = render_to_string(f"emails/{template}.html", context)
    # A subject is one line: templates may end with a newline, headers may not contain one.
    return RenderedEmail(subject=" ".join(subject.split()), text=text, html=html)


def rendered(row: Outbox, images: bool = True) -> RenderedEmail:
    """The email an outbox row sends: its template rendered with its frozen context in its
    language, or the text stored in it when it was written rendered (no template); with the
    row's Reply-To and headers, or those the late hook signed for it, and the images the late hook
    gives its HTML (the board picture, also for a row written rendered). `images=False`: none, for a
    reader of its words only, which need not pay for drawing them."""
    late = LateParts()
    # What the context names but leaves to the sender to tell (the registered late_parts hook).
    if hook := registered().late_parts:
        with translation.override(row.language):
            late = hook(row, images)
    if not row.template:
        return RenderedEmail(
            row.subject, row.body_text, row.body_html, row.reply_to, row.headers, inline=late.inline
        )
    email = render_email(row.template, {**row.context, **late.context}, row.language)
    return replace(
        email,
        reply_to=late.reply_to or row.reply_to,
        headers={**row.headers, **late.headers},
        inline=late.inline,
    )


def frozen(context: dict[str, Any], language: str) -> dict[str, Any]:
    """`context` as the JSON the row stores, with lazy translations turned into text in `language`
    (as rendering then would have), so that rendering later gives the same email. Anything else
    that is not JSON (a date, a model) is refused: it would render differently from text."""
    with translation.override(language):
        return json.loads(json.dumps(context, default=_lazy_text))


def _lazy_text(value: Any) -> str:
    if isinstance(value, Promise):
        return str(value)
    raise TypeError(f"an email's context holds only JSON and lazy text, not {type(value).__name__}")


_batch: ContextVar[list[Outbox] | None] = ContextVar("outbox_batch", default=None)
# The stamps of a batch's rows by game: one order's emails are written at one moment, stamped once.
_batch_stamps: ContextVar[dict[int, Stamp] | None] = ContextVar("outbox_batch_stamps", default=None)


def _stamp(game_id: int) -> Stamp:
    """What the registered `stamp` hook adds to every row of `game_id` now (nothing without one)."""
    hook = registered().stamp
    if hook is None:
        return Stamp()
    stamps = _batch_stamps.get()
    if stamps is None:
        return hook(game_id)
    if game_id not in stamps:
        stamps[game_id] = hook(game_id)
    return stamps[game_id]


def enqueue(
    *,
    game_id: int,
    seq: int,
    seat_id: int,
    kind: str,
    to_email: str,
    language: str,
    template: str,
    context: dict[str, Any],
    reply_to: str = "",
    headers: dict[str, str] | None = None,
) -> Outbox:
    """Write one outbox row (once per game, seq, seat and kind) and nudge delivery after commit.

    Call it inside the transaction that creates the reason for the email: if that
    transaction rolls back, the email never existed. Inside `outbox_batch()` the row is only
    collected (and returned unsaved); the batch writes all its rows at its end. The email is
    rendered when it is sent (`rendered`), from `context` as it is now. A kind nobody registered
    (notifications/hooks.py) is refused with ValueError, before anything is written. The app's
    `stamp` hook adds what every email of the game carries as it is written (its context and headers).
    """
    check_kind(kind)
    stamp = _stamp(game_id)
    row = Outbox(
        game_id=game_id,
        seq=seq,
        seat_id=seat_id,
        kind=kind,
        to_email=to_email,
        language=language,
        template=template,
        context=frozen({**context, **stamp.context}, language),
        reply_to=reply_to,
        headers={**(headers or {}), **stamp.headers},
    )
    batch = _batch.get()
    if batch is not None:
        batch.append(row)
        return row
    try:
        with transaction.atomic():
            row.save(force_insert=True)
    except IntegrityError:
        # The same notification was written before: idempotent, keep the first.
        return Outbox.objects.get(game_id=game_id, seq=seq, seat_id=seat_id, kind=kind)
    _wake_after_commit()
    return row


@contextmanager
def outbox_batch() -> Iterator[list[Outbox]]:
    """Collect the rows `enqueue` writes inside the block and insert them in one statement at its
    end (an order mails several players: one round trip instead of a savepoint, an INSERT and a
    release per row). A row whose key exists already is skipped, as `enqueue` keeps the first;
    an exception inside the block writes nothing. Use it inside the caller's transaction."""
    rows: list[Outbox] = []
    token, stamps_token = _batch.set(rows), _batch_stamps.set({})
    try:
        yield rows
    finally:
        _batch.reset(token)
        _batch_stamps.reset(stamps_token)
    if rows:
        insert_rows(rows, ignore_conflicts=True)
        _wake_after_commit()


def _wake_after_commit() -> None:
    """One nudge per transaction is enough: the woken worker delivers every pending row, and a
    nudge is a round trip to the broker (several per order before). Django keeps the callbacks
    of the open transaction in `run_on_commit` (dropping those of a savepoint rolled back), so a
    nudge already there will run if and when this row is committed too."""
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(entry[1] is wake_a_worker for entry in connection.run_on_commit):
        return
    transaction.on_commit(wake_a_worker)


def _max_attempts() -> int:
    return int(getattr(settings, "OUTBOX_MAX_ATTEMPTS", DEFAULT_MAX_ATTEMPTS))


def _message(row: Outbox, email: RenderedEmail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=email.subject,
        body=email.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to_email],
        headers={**email.headers, "X-Aegea-Notification": row.idempotency_key},
        reply_to=[email.reply_to] if email.reply_to else None,
    )
    message.attach_alternative(email.html, "text/html")
    for part in email.inline:  # images the HTML shows by cid: (the board picture)
        message.attach(part)
        message.mixed_subtype = "related"
    # Anymail passes these to the ESP (for its dashboards and webhooks); other backends ignore them.
    message.tags = [row.kind]
    message.metadata = {"game": str(row.game_id), "seq": str(row.seq), "seat": str(row.seat_id)}
    return message


# An ESP's or SMTP server's refusal names the recipient ("Found inactive addresses: …", SMTP's
# {address: (550, …)}): the log tells the reason, not the player's address (docs/operations.md);
# the row's last_error keeps the whole text for the admin.
_ADDRESS = re.compile(r"[^\s<>()\[\]{}'\",;:@]+@[^\s<>()\[\]{}'\",;:@]+")


def _without_addresses(text: str) -> str:
    return _ADDRESS.sub("[address]", text)


def _deliver_next(after_id: int) -> int | None:
    """Lock the first pending row past `after_id` nobody else holds, send it, record the outcome.
    Returns its id. (A cursor, not a list of rows tried: the query stays the same size however
    many rows one call delivers.)"""
    with transaction.atomic():
        fields, claim = _claim_statement()
        found = model_rows(Outbox, fields, claim, [Outbox.Status.PENDING, after_id])
        if not found:
            return None
        row = found[0]
        row.attempts += 1
        try:
            email = rendered(row)  # a template or context that cannot render fails like a send
            # A connection per message: the file backend then writes one file per email (the local mailbox).
            message = _message(row, email)
            message.send(fail_silently=False)
        except Exception as exc:  # any ESP or SMTP failure: keep the row for the sweep
            log.warning("outbox %s: delivery failed: %s", row.id, _without_addresses(str(exc)))
            row.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            if row.attempts >= _max_attempts():
                row.status = Outbox.Status.FAILED
            _record(row, ("attempts", "last_error", "status"))
            return row.id
        row.status = Outbox.Status.SENT
        row.sent_at = timezone.now()
        row.last_error = ""
        status = getattr(message, "anymail_status", None)  # set by anymail backends only
        row.message_id = str(getattr(status, "message_id", "") or "")[:255]
        # The subject, for the admin's list and search; the bodies are not kept (they were half
        # the database's size), the template and context render them again.
        row.subject = email.subject[:255]
        _record(row, ("attempts", "last_error", "status", "sent_at", "message_id", "subject"))
        return row.id


# Each email's claim and outcome are plain SQL written once, run on the kept cursor: the ORM compiled
# the SELECT ... FOR UPDATE SKIP LOCKED and the UPDATE anew for every email, about a fifth of a
# worker's time on a game email (a profile of the mail bench).
@functools.cache
def _claim_statement() -> tuple[tuple[str, ...], str]:
    """The first pending row past an id that nobody else holds, locked (where the database locks rows:
    SQLite serialises its writers instead); its fields and the SELECT for model_rows."""
    lock = " FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update_skip_locked else ""
    return model_select(Outbox, "status = %s AND id > %s ORDER BY id LIMIT 1" + lock)


@functools.cache
def _update_statement(fields: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(Outbox._meta.get_field(name).column)} = %s" for name in fields)
    return f"UPDATE {quote(Outbox._meta.db_table)} SET {columns} WHERE {quote(Outbox._meta.pk.column)} = %s"


def _record(row: Outbox, fields: tuple[str, ...]) -> None:
    """Store the row's `fields` as row.save(update_fields=fields) does, each prepared by its field."""
    values = [
        Outbox._meta.get_field(name).get_db_prep_save(getattr(row, name), connection) for name in fields
    ]
    with kept_cursor() as cursor:
        cursor.execute(_update_statement(fields), [*values, row.pk])


def deliver_outbox(limit: int | None = None) -> int:
    """Send pending outbox rows; returns how many were attempted by this call.

    Each row is sent inside its own transaction holding the row lock
    (SELECT ... FOR UPDATE SKIP LOCKED), and only rows still pending are picked, so
    concurrent callers share the work and never send a row twice.
    """
    tried, last_id = 0, 0
    while limit is None or tried < limit:
        row_id = _deliver_next(last_id)
        if row_id is None:
            break
        tried, last_id = tried + 1, row_id
    return tried


def retry_failed(rows: Any) -> int:
    """Put failed rows back in the queue (e.g. after fixing the ESP settings); the next run sends them."""
    count = rows.filter(status=Outbox.Status.FAILED).update(status=Outbox.Status.PENDING, attempts=0)
    if count:
        _wake_after_commit()
    return count

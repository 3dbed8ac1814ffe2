"""What notifications asks of the app whose emails it carries, registered by that app as it starts.

notifications is a generic mail queue (the outbox) and inbound-mail store, and imports nothing of
the app that writes its rows and reads its replies (docs/architecture.md). That app (games, in its
AppConfig.ready(): games/mail_hooks.py) registers here, once, everything notifications needs to
know of it:

- `kinds`: the kinds of email it writes; `enqueue` refuses any other, so that a misspelt kind is
  an error where it is written, not a row nobody recognises. A kind is free text in the outbox,
  not a model choice: a new kind of email needs no notifications migration.
- `late_parts`: what an email tells only as it is sent (the worker calls it as it renders a row).
- `stamp`: what every email of a game carries as it is written, whatever its kind (the games app:
  the log's head, a witness the player keeps): context for its templates and headers.
- `inbound`: whom a reply address names, what a received mail does, and the answers to mail that
  names nobody any more or could not be handled (notifications/inbound.py keeps, de-duplicates
  and retries the mail; the handler decides what it means).
- `delivery_report`: what an ESP's bounce, complaint or delivery report does (tracking.py matches
  it to its sent row first).

With nothing registered the queue still works: rows of any kind, no late parts, every inbound
mail names nobody and is ignored, delivery reports are logged only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.mime.base import MIMEBase
from typing import Any

from .models import InboundMail, Outbox


@dataclass(frozen=True)
class LateParts:
    """What `late_parts` tells for a row as it is sent: context for its templates, its Reply-To and
    headers when the row left them to the sender (signed keys), and the images its HTML shows
    inline. One hook for all of it, so that what they tell of the game is read once for the email."""

    context: dict[str, Any] = field(default_factory=dict)
    reply_to: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    inline: tuple[MIMEBase, ...] = ()


@dataclass(frozen=True)
class Stamp:
    """What `stamp` adds to a row of a game as `enqueue` writes it: template context and headers."""

    context: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Addressee:
    """Whom an inbound address names: the seat, its game and the seat's address then."""

    seat_id: int
    game_id: int
    email: str


@dataclass(frozen=True)
class MailReport:
    """What the ESP said about one sent email to a seat (its outbox row, matched already)."""

    seat_id: int
    email: str  # the address the email went to
    event: str  # bounced, rejected, complained or delivered
    description: str
    outbox_id: int
    sent_at: datetime
    at: datetime  # when the ESP says it happened


@dataclass(frozen=True)
class InboundHandler:
    """The app's side of a received email (notifications/inbound.py calls each at its step).

    `addressee(address)`: whom a recipient address names, or None (forged, withdrawn, unknown).
    `answer_unaddressed(recipients, senders)`: a mail that names nobody; may answer a sender it trusts.
    `handle(mail, unread, max_bytes)`: act on a stored mail once; returns (outcome, detail). `unread`
    is why its text was not kept ("spam", "too-large" past `max_bytes`), else "".
    `tell_given_up(mail)`: its handling failed too often; tell the sender if it can.
    """

    addressee: Callable[[str], Addressee | None]
    answer_unaddressed: Callable[[list[str], list[str]], None]
    handle: Callable[[InboundMail, str, int], tuple[str, str]]
    tell_given_up: Callable[[InboundMail], None]


@dataclass(frozen=True)
class MailHooks:
    kinds: frozenset[str] = frozenset()
    late_parts: Callable[[Outbox, bool], LateParts] | None = None  # (row, with its images)
    stamp: Callable[[int], Stamp] | None = None  # by the row's game_id
    inbound: InboundHandler | None = None
    delivery_report: Callable[[MailReport], str] | None = None


_registered = MailHooks()


def register(hooks: MailHooks) -> None:
    """Set what notifications asks of its app (AppConfig.ready() calls it once; a second call,
    e.g. a test's, replaces the first)."""
    global _registered
    _registered = hooks


def registered() -> MailHooks:
    return _registered


def check_kind(kind: str) -> None:
    """Refuse a kind of email nobody registered: a registered kind, or one followed by "-<n>" (a
    reminder's point: "reminder-1"). With no kinds registered every kind is taken."""
    kinds = _registered.kinds
    base, _dash, number = kind.partition("-")
    if kinds and kind not in kinds and not (base in kinds and number.isdigit()):
        raise ValueError(f"no kind of email {kind!r} is registered (notifications.hooks.MailHooks.kinds)")

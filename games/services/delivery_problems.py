"""What the ESP reports about a seat's emails: bounces, rejections, spam complaints, deliveries.

notifications/tracking.py matches each tracking event to the outbox row it is about and calls
`record_report`; everything here runs under the seat's row lock, so the ESP's retries and two
webhooks for one seat at once open one problem, and the organiser hears of it once:

- bounced or rejected: an "undeliverable" problem for the seat's address (the organiser is
  mailed once per problem; the player page and the organiser's pages show it until resolved);
- complained (the player marked an email as spam): a "complaint" problem, the organiser is
  told, and the seat gets only the emails needed to play (mail/outbox.ESSENTIAL) until the player
  saves their email preferences again;
- delivered: an email sent no earlier than the bounced one arrived, so the address works again
  (a full mailbox emptied): the undeliverable problem is resolved. A bounce of an email sent
  before one that arrived is old news and opens nothing.

A report about an address the seat no longer has (handed over, corrected) changes nothing, and
`address_changed` resolves the old address's problems when the seat gets a new one.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.mail.outbox import mail_organiser
from games.models import DeliveryProblem, Game, NotificationPreference, Seat
from games.words.clock import settings_for
from games.words.names import faction_name
from notifications.hooks import MailReport

log = logging.getLogger(__name__)
Kind = DeliveryProblem.Kind
Resolution = DeliveryProblem.Resolution
PROBLEM_EVENTS = {"bounced": Kind.UNDELIVERABLE, "rejected": Kind.UNDELIVERABLE, "complained": Kind.COMPLAINT}
DESCRIPTION_LIMIT = 500


def record_report(report: MailReport) -> str:
    """Record one report; returns what came of it (for the log): opened, repeated, resolved,
    stale, old-address or nothing."""
    if report.event == "delivered" and not _open_undeliverable(report.seat_id):
        return "nothing"  # the common case (every email arrives), without the seat's lock
    with transaction.atomic():
        # The seat's row only (of=self): with select_related, FOR UPDATE locks the game's row too,
        # after the seat's, the reverse of a hand-over (game, then seat): the two deadlocked, and
        # every order of the game waited for the webhook.
        rows = Seat.objects.select_for_update(of=("self",)).select_related("game")
        seat = rows.filter(pk=report.seat_id).first()
        if seat is None or seat.email.strip().lower() != report.email.strip().lower():
            return "old-address"  # the seat has another address now: not its problem any more
        if report.event == "delivered":
            return _delivered(seat, report)
        kind = PROBLEM_EVENTS.get(report.event)
        if kind is None:
            return "nothing"
        open_problems = DeliveryProblem.objects.filter(seat=seat, email=seat.email, resolution="")
        current = open_problems.filter(kind=kind).first()
        if current is not None:
            return _repeated(current, report)
        if kind == Kind.UNDELIVERABLE and _arrived_since(seat, report):
            return "stale"
        problem = DeliveryProblem.objects.create(
            seat=seat,
            email=seat.email,
            kind=kind,
            event=report.event,
            description=report.description[:DESCRIPTION_LIMIT],
            first_at=report.at,
            last_at=report.at,
            outbox_id=report.outbox_id,
            sent_at=report.sent_at,
        )
        if kind == Kind.COMPLAINT:
            _essential_only(seat, True)
        _tell_organiser(seat.game, seat, problem)
    return "opened"


def _repeated(problem: DeliveryProblem, report: MailReport) -> str:
    """Another report of an open problem: the ESP's retry (same email) or a further email."""
    if report.outbox_id != problem.outbox_id:
        problem.reports += 1
    if report.sent_at >= problem.sent_at:  # the latest email's words are the ones to show
        problem.outbox_id, problem.sent_at, problem.event = report.outbox_id, report.sent_at, report.event
        problem.description = report.description[:DESCRIPTION_LIMIT] or problem.description
    problem.last_at = max(problem.last_at, report.at)
    problem.save(update_fields=["reports", "outbox_id", "sent_at", "event", "description", "last_at"])
    return "repeated"


def _arrived_since(seat: Seat, report: MailReport) -> bool:
    """Whether an email sent after the reported one is known to have arrived at this address."""
    return DeliveryProblem.objects.filter(
        seat=seat, email=seat.email, resolution=Resolution.DELIVERED, resolved_sent_at__gt=report.sent_at
    ).exists()


def _open_undeliverable(seat_id: int) -> bool:
    return DeliveryProblem.objects.filter(seat_id=seat_id, kind=Kind.UNDELIVERABLE, resolution="").exists()


def _delivered(seat: Seat, report: MailReport) -> str:
    resolved = DeliveryProblem.objects.filter(
        seat=seat, email=seat.email, kind=Kind.UNDELIVERABLE, resolution="", sent_at__lte=report.sent_at
    ).update(resolution=Resolution.DELIVERED, resolved_at=timezone.now(), resolved_sent_at=report.sent_at)
    return "resolved" if resolved else "nothing"


def address_changed(seat: Seat) -> None:
    """The seat was handed over: the old address's problems are no longer its own, and a spam
    complaint no longer holds (the hand-over starts the seat's preferences afresh)."""
    old_address = ~Q(email__iexact=seat.email) | Q(kind=Kind.COMPLAINT)
    DeliveryProblem.objects.filter(old_address, seat=seat, resolution="").update(
        resolution=Resolution.ADDRESS_CHANGED, resolved_at=timezone.now()
    )


def emails_chosen(seat: Seat) -> None:
    """The player chose their emails again (preferences saved, subscribed again): a spam complaint
    no longer holds back the emails they chose."""
    DeliveryProblem.objects.filter(seat=seat, kind=Kind.COMPLAINT, resolution="").update(
        resolution=Resolution.PREFERENCES, resolved_at=timezone.now()
    )
    _essential_only(seat, False)


def _essential_only(seat: Seat, value: bool) -> None:
    if value:
        NotificationPreference.objects.update_or_create(seat=seat, defaults={"essential_only": True})
    else:
        NotificationPreference.objects.filter(seat=seat).update(essential_only=False)


def _tell_organiser(game: Game, seat: Seat, problem: DeliveryProblem) -> None:
    """One email to the organiser per problem (its outbox key carries the problem's id), unless they
    turned the game's alerts off (the unsubscribe link in every alert)."""
    if not settings_for(game).alert_organiser:
        return
    names = {
        "game": game.name,
        "player": seat.name,
        "faction": faction_name(seat.faction),
        "email": seat.email,
        "description": problem.description or _("no reason given"),
    }
    with translation.override(game.language):
        if problem.kind == Kind.COMPLAINT:
            subject = _("%(player)s marked an email as spam · %(game)s") % names
            paragraphs = [
                _(
                    "%(player)s (%(faction)s) marked an email of this game to %(email)s as spam. The"
                    " server now sends them only the emails needed to play (their turns, offers to"
                    " answer, the end of the game); reminders, messages and updates stop until they"
                    " choose their emails again on their page."
                )
                % names,
                _(
                    "If they no longer want to play, you can hand the seat to a substitute on the"
                    " game's deadline page."
                ),
            ]
        else:
            subject = _("Emails to %(player)s are not arriving · %(game)s") % names
            paragraphs = [
                _(
                    "An email of this game to %(player)s (%(faction)s) at %(email)s could not be"
                    " delivered. The mail server said: %(description)s"
                )
                % names,
                _(
                    "Until this is fixed, %(player)s gets no turn emails and will get default orders"
                    " when deadlines pass. Check the address with them another way. To correct it,"
                    " hand the seat over to the same player with the right address on the game's"
                    " deadline page: the new address gets a new link, and the old links stop working."
                ),
                _(
                    "If the mailbox was only full, nothing needs doing: the warning goes away by itself"
                    " once an email to the address arrives."
                ),
            ]
        mail_organiser(game, seat, problem.kind, problem.pk, subject, paragraphs)
    log.info("seat %s: %s reported, organiser of game %s told", seat.pk, problem.kind, game.pk)

"""What games tells notifications (notifications/hooks.py), registered once in GamesConfig.ready().

notifications carries the game's emails and keeps its players' replies, and imports nothing of
games: the kinds of email the game writes, the parts an email tells only as it is sent, the reading
of a reply address and of a reply, and what an ESP's delivery report does are the game's, and are
handed to it here (docs/email-orders.md, docs/operations.md).

The functions registered call on their modules' attributes when they run (`replies.handle_reply`,
`delivery_problems.record_report`), not on names bound at start: a test that replaces one of them
replaces what notifications calls.
"""

from __future__ import annotations

from games.mail import frontdoor, turns
from games.mail.keys import read_reply_address, withdrawn_reply_seat
from games.reading.log_head import HEADER, log_head
from games.services import delivery_problems, fresh_links
from games.services.game_setup import same_address
from games.services.inbox import replies
from games.services.inbox.order_syntax import read_reply
from notifications.hooks import Addressee, InboundHandler, MailHooks, Stamp, register
from notifications.models import InboundMail

# Every kind of email the game writes; an outbox row's kind is one of these (a reminder's is
# "reminder-<n>", its point). For the kinds not named by an event seq the row's `seq` is told.
KINDS = frozenset(
    {
        "welcome",
        "turn",
        "ended",
        "offer",  # H-TRADE: a rival's trade offer to answer
        "reminder",  # before a deadline (mail/outbox.py); the kind names its point: "reminder-1"
        "missed",  # the deadline passed; a default order was given
        "absent",  # to the organiser: a seat missed several turns in a row
        "message",
        "reply",  # the answer to an email reply; `seq` is the InboundMail it answers
        "update",  # after another player's turn (preference "every turn")
        "digest",  # `seq` is the last seq it covers
        "vacation",
        "undeliverable",  # to the organiser, once per delivery problem; `seq` is its DeliveryProblem id
        "complaint",
        "link",  # a player asked for a new link (fresh_links.py); `seq` is the hour it was asked in
        # The answer to a reply sent to a withdrawn reply address (fresh_links.py), `seq` the hour too:
        # its own kind, so that a new link asked for in the same hour does not swallow it.
        "withdrawn",
        "taken_back",  # H-TAKEBACK: the order that made it your turn was taken back (mail/take_back.py)
    }
    | frontdoor.KINDS  # sign-in links and invitations (games/mail/frontdoor.py): their ids are no seat's
)


def register_with_notifications() -> None:
    """Hand notifications the game's kinds of email, late parts, inbound handler and delivery reports
    (docs/operations.md "Email through an ESP")."""
    register(
        MailHooks(
            kinds=KINDS,
            late_parts=lambda row, images: (
                frontdoor.late_parts(row) if row.kind in frontdoor.KINDS else turns.late_parts(row, images)
            ),
            stamp=stamp,
            inbound=InboundHandler(
                addressee=addressee,
                answer_unaddressed=answer_unaddressed,
                handle=handle_mail,
                tell_given_up=tell_given_up,
            ),
            delivery_report=lambda report: (
                "front-door"
                if frontdoor.is_front_door_row(report.outbox_id)
                else delivery_problems.record_report(report)
            ),
        )
    )


def stamp(game_id: int) -> Stamp:
    """Every email of a game carries the log's head as it is written, whatever its kind: in its footer
    (templates/emails/_log_head.*) and its X-Aegea-Log-Head header, a witness the player keeps
    (docs/fairness.md, "Witnessed heads")."""
    current = log_head(game_id)
    if current is None:
        return Stamp()
    return Stamp({"log_head": current.told()}, {HEADER: current.header})


def addressee(address: str) -> Addressee | None:
    """The seat a reply address of ours names while it is valid (mail_keys.read_reply_address;
    docs/email-orders.md "Orders by email")."""
    key = read_reply_address(address)
    return None if key is None else Addressee(key.seat.pk, key.seat.game_id, key.seat.email)


def answer_unaddressed(recipients: list[str], senders: list[str]) -> None:
    """A reply to an address of ours that was withdrawn since, from the seat's own stored address:
    the seat is told, at that address, that nothing changed, and gets its current link. From any
    other sender (the player a seat was handed from, a stranger, a From of several senders) nothing:
    the From header is not trusted to choose where an email goes (docs/email-orders.md "What comes
    back")."""
    for address in recipients:
        seat = withdrawn_reply_seat(address)
        if seat is not None and len(senders) == 1 and same_address(senders[0], seat.email):
            fresh_links.answer_withdrawn_reply(seat)
            return


def handle_mail(mail: InboundMail, unread: str, max_bytes: int) -> tuple[str, str]:
    """Act on one stored reply: (outcome, its first lines). A reply whose seat's links were withdrawn
    since it was stored is answered as one that came after; one not read (spam, too large) gets a
    polite refusal; otherwise its own lines are an order or a message (replies.handle_reply;
    docs/email-orders.md "What comes back")."""
    key = read_reply_address(mail.reply_to)
    if key is None:
        _answer_withdrawn_since(mail)
        return "revoked", ""
    if unread:
        replies.answer_refusal(key, mail.pk, unread, max_bytes)
        return unread, ""
    lines = read_reply(mail.text, mail.html or None)
    return replies.handle_reply(key, lines, mail.pk), "\n".join(list(filter(None, lines))[:5])[:2000]


def _answer_withdrawn_since(mail: InboundMail) -> None:
    """A reply stored while its address was good, whose seat's links were withdrawn before it was
    handled, gets the answer of a reply that came after (answer_unaddressed): nothing was changed,
    and the current link. Only while the seat is still at the address the mail was stored for (its
    links revoked, or handed over to the same address): a seat handed to another player is not
    mailed about a mail its new player did not write, nor its old player, who plays it no more."""
    seat = withdrawn_reply_seat(mail.reply_to)
    if seat is not None and same_address(mail.recipient, seat.email):
        fresh_links.answer_withdrawn_reply(seat)


def tell_given_up(mail: InboundMail) -> None:
    """The sender of a reply whose handling kept failing hears that nothing was changed
    (docs/operations.md "Email through an ESP")."""
    key = read_reply_address(mail.reply_to)
    if key is not None:
        replies.answer_refusal(key, mail.pk, "failed")

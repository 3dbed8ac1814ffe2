"""Orders and messages by email reply (docs/email-orders.md): what a reply to a game email does.

notifications/inbound.py authenticates the reply by its Reply-To token (games/mail/keys.py) and
hands it here with the text. An order reply is read (games/services/inbox/order_syntax.py) and
submitted through `submit_order` with the seq its email was sent at; the player gets an answer: the order was
accepted (and what happened), or why not (the game moved on, the rules refuse it, the line is
not an order) with the syntax help. A reply to a message email goes to that message's sender.
Nothing but a valid order changes the game.
"""

from __future__ import annotations

from django.db import transaction
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.translation import gettext as _

from games.engine import RuleViolation, command_from_dict
from games.mail.keys import ReplyKey
from games.mail.outbox import mail_seat
from games.mail.position import answer_position
from games.models import Game
from games.reading.situation import load_game, whose_turn
from games.services.inbox.card_syntax import resolve_card
from games.services.inbox.order_syntax import MessageOrder, OrderSyntaxError, help_lines, parse_order
from games.services.inbox.take_back_reply import is_take_back, take_back_by_reply, take_back_lines
from games.services.messages import MailedMessage, MessageRefused, send_mailed_message
from games.services.orders import GameEnded, GameMovedOn, OrderAlreadyGiven, submit_order
from games.words.names import faction_name
from games.words.narration import tell
from games.words.orders import violation_text
from games.words.position import choice_reply

# What the answer to a reply says in its subject: the order was carried out, the message sent, or
# nothing changed (unreadable, refused, too late); lambdas, so each is translated when it is sent.
ANSWER_SUBJECTS = {
    "accepted": lambda: _("%(faction)s: your order by email was carried out · %(game)s"),
    "sent": lambda: _("%(faction)s: your message was sent · %(game)s"),
    "unchanged": lambda: _("%(faction)s: your email changed nothing · %(game)s"),
}


def handle_reply(key: ReplyKey, lines: list[str], inbound_id: int) -> str:
    """Act on the reply's own lines; returns the outcome (for the InboundMail record)."""
    seat = key.seat
    with translation.override(seat.language):
        if key.kind == "m":
            return _message_reply(key, lines, inbound_id)
        if seat.game.status == Game.Status.ENDED:
            # Not "moved on, reply to order" nor the syntax: an ended game takes no order (a reply
            # to an old turn email or to the end email; messages are closed too, games/services/messages.py).
            _answer(key, inbound_id, [str(GameEnded.message)])
            return "ended"
        if not lines:
            _answer(key, inbound_id, [_("We found no order in your reply (only quoted text).")], help=True)
            return "no-order"
        if is_take_back(lines[0]):  # H-TAKEBACK
            outcome, paragraphs = take_back_by_reply(seat, key.seq)
            _answer(key, inbound_id, paragraphs)
            return outcome
        try:
            parsed = parse_order(lines[0], seat.faction)
            if isinstance(parsed, MessageOrder):
                text = "\n".join([parsed.text, *lines[1:]])
                _answer_sent(key, inbound_id, send_mailed_message(seat, parsed.to, text, (key.kind, key.ref)))
                return "message"
            neither = parsed.get("kind") == "choose_tile" and parsed["keep"] is None
            if neither and not parsed["discard_order"] and not parsed.get("second_source"):
                parsed = _neither_as_drawn(parsed, seat)
            if parsed.get("mission_cards"):  # a card named by kind: the copy in the player's hand
                parsed = resolve_card(parsed, load_game(seat.game).state.players[seat.faction].mission_cards)
            result = submit_order(seat.game, seat, command_from_dict(parsed), key.seq)
        except OrderSyntaxError as error:
            _answer(
                key,
                inbound_id,
                [_("Your order could not be read: %(error)s") % {"error": error.message}],
                help=True,
            )
            return "malformed"
        except MessageRefused as refused:
            _answer(key, inbound_id, [refused.message])
            return "refused"
        except RuleViolation as violation:
            _answer(
                key,
                inbound_id,
                [_("The rules refuse this order: %(error)s") % {"error": violation_text(violation)}],
                help=True,
            )
            return "rule-violation"
        except OrderAlreadyGiven:
            _answer(
                key,
                inbound_id,
                [
                    _(
                        "You gave this order already, from this email or from the game's page: it was"
                        " accepted then, and it was not given a second time."
                    )
                ],
            )
            return "already-accepted"
        except GameEnded as ended:  # it ended while this order was decided
            _answer(key, inbound_id, [str(ended.message)])
            return "ended"
        except GameMovedOn:
            _answer(
                key,
                inbound_id,
                [
                    _(
                        "The game has moved on since the email you answered; nothing was changed."
                        " Reply to this email to give an order on the game as it stands now."
                    )
                ],
            )
            return "moved-on"
        lines_told = tell(result.events, seat.faction, result.state.phase == "ended", game=seat.game_id)
        _answer(
            key,
            inbound_id,
            [_("Your order was accepted: %(order)s") % {"order": lines[0]}, *take_back_lines(seat)],
            happened=lines_told,
            outcome="accepted",
        )
        return "accepted"


def _neither_as_drawn(parsed: dict, seat) -> dict:
    """ "keep neither": both tiles go to the discard pile in the order the turn email named them (the
    order they were drawn); "neither Milet Naxos" names another order."""
    pending = load_game(seat.game).state.pending_choice
    if pending is None or pending.player != seat.faction:
        # Without this, the order's shape check answered "list both tiles", as if a choice waited.
        raise RuleViolation("S-EXP-CHOICE", "There is no tile choice waiting for you.")
    return parsed | {"discard_order": list(pending.tiles)}


def _message_reply(key: ReplyKey, lines: list[str], inbound_id: int) -> str:
    if not lines:
        _answer(key, inbound_id, [_("Your reply held no text of its own, so no message was sent.")])
        return "no-order"
    try:
        sent = send_mailed_message(key.seat, key.ref, "\n".join(lines), (key.kind, key.ref))
    except MessageRefused as refused:
        _answer(key, inbound_id, [refused.message])
        return "refused"
    _answer_sent(key, inbound_id, sent)
    return "message"


def _answer_sent(key: ReplyKey, inbound_id: int, sent: MailedMessage) -> None:
    """H-SCREEN: the writer is told that the message left and shown exactly what left, and where what
    was left out began: without it the replier never knew whether the reply arrived, nor what of it
    a rival now reads, nor why a sentence of theirs that repeats an email was cut."""
    paragraphs = [_("Your message was sent.")]
    if sent.left_out:
        paragraphs.append(
            _(
                "It ends where your email repeats one you were sent, as a mail client puts the email"
                " answered below the words: from “%(start)s …” on, nothing was sent."
            )
            % {"start": sent.left_out}
        )
    to = ", ".join(str(faction_name(f)) for f in sent.event.payload["to"])
    paragraphs.append(_("Sent to %(to)s:") % {"to": to})
    _answer(key, inbound_id, paragraphs, outcome="sent", quote=sent.event.payload["text"].splitlines())


def answer_refusal(key: ReplyKey, inbound_id: int, reason: str, max_bytes: int = 0) -> None:
    """A polite answer to a mail that was not read at all (spam-flagged, or larger than `max_bytes`,
    the INBOUND_MAX_BYTES it was measured against, named in the reader's units: "1.0 MB"), or
    whose handling failed until it was given up."""
    with translation.override(key.seat.language):
        texts = {
            "spam": _(
                "Your email was marked as spam by our mail provider, so it was not read."
                " Please send your order again as plain text."
            ),
            "too-large": _(
                "Your email was too large to be read (at most %(size)s)."
                " Please reply with your order as plain text, without attachments."
            )
            % {"size": filesizeformat(max_bytes)},
            "failed": _(
                "Your email could not be handled, so nothing was changed."
                " Please send your order again, or give it on the game's page."
            ),
        }
        _answer(key, inbound_id, [texts[reason]], help=True)


def _answer(
    key: ReplyKey,
    inbound_id: int,
    paragraphs: list[str],
    help: bool = False,
    happened: list[str] | None = None,
    outcome: str = "unchanged",
    quote: list[str] | None = None,
) -> None:
    seat = key.seat
    game = seat.game
    loaded = load_game(game)
    state = loaded.state
    position = answer_position(state, seat.faction, loaded.seq)
    if help and position.get("sealed") and not position.get("winter_cards"):
        # The page's winter order form lists the hand's winter cards, and the answer names them
        # (the screen and cards of answer_position); a refusal also says when there are none.
        paragraphs = [*paragraphs, _("You hold no winter Mission Card.")]
    if choice := choice_reply(state, seat.faction):  # the choice an Expand just drew is answered here
        paragraphs = [*paragraphs, choice]
    with transaction.atomic():
        mail_seat(
            game,
            seat,
            "reply",
            inbound_id,
            ANSWER_SUBJECTS[outcome]() % {"faction": faction_name(seat.faction), "game": game.name},
            # The quote follows the paragraphs: what introduces it ("Sent to Athens:") must come last.
            [whose_turn(loaded.state, seat.faction), *paragraphs]
            if quote
            else [*paragraphs, whose_turn(loaded.state, seat.faction)],
            reply_seq=loaded.seq,
            extra={
                "syntax_help": help_lines() if help else [],
                "happenings": happened or [],
                "quote": quote or [],
                **position,
            },
        )

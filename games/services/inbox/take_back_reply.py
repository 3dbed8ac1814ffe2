"""H-TAKEBACK by email (docs/email-orders.md): "TAKE BACK" replied to the email that confirmed an order
takes it back, as the page's button does; and the line of that email saying whether it can."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import RuleViolation
from games.models import Seat
from games.reading.take_back import take_back_offer
from games.services.take_back import take_back_order
from games.words.orders import violation_text

# The words of the reply, in any case, with or without a final full stop (English and German).
TAKE_BACK_WORDS = frozenset({"take back", "takeback", "take it back", "zurücknehmen", "zuruecknehmen"})


def is_take_back(line: str) -> bool:
    """Whether a reply's first line asks to take the last order back."""
    return " ".join(line.strip().rstrip(".!").lower().split()) in TAKE_BACK_WORDS


def take_back_by_reply(seat: Seat, seen_seq: int) -> tuple[str, list[str]]:
    """Take back the seat's order, seen in an email of the game at `seen_seq`: the outcome for the
    InboundMail record and the answer's paragraphs."""
    try:
        take_back_order(seat.game, seat, seen_seq)
    except RuleViolation as violation:
        text = _("Your order was not taken back: %(error)s") % {"error": violation_text(violation)}
        return "take-back-refused", [text]
    return "taken-back", [_("Your order was taken back. It is your turn again, as before it.")]


def take_back_lines(seat: Seat) -> list[str]:
    """The line of the email that confirms an order: "reply TAKE BACK" while it can be taken back,
    else the plain reason it stands (dice were rolled); nothing when it is not the game's last order."""
    offer = take_back_offer(seat.game_id, seat.faction)
    if offer is None:
        return []
    if offer.stands is None:
        return [
            _(
                "A wrong order? Reply TAKE BACK to this email to take it back, until the next order of"
                " the game is given."
            )
        ]
    return [
        _("This order can no longer be taken back: %(reason)s") % {"reason": violation_text(offer.stands)}
    ]

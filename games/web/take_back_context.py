"""What the player's page shows of H-TAKEBACK (templates/games/_take_back.html): "Take it back" after
the player's order while it can be taken back, else the plain reason it stands; and, in a scoring
winter, that a sealed order may be sealed again until the reveal."""

from __future__ import annotations

from typing import Any

from games.engine import command_from_dict
from games.models import Seat
from games.reading.situation import PlayerScreen
from games.reading.take_back import take_back_offer
from games.words.orders import command_label, violation_text


def take_back_context(seat: Seat, screen: PlayerScreen) -> dict[str, Any]:
    """The partial's context: `take_back` (a TakeBackOffer or None), `take_back_order` (that order in
    plain words, so the player knows which one the box is about), `take_back_reason`, `resealable`."""
    offer = take_back_offer(seat.game_id, seat.faction)
    state = screen.state
    return {
        "take_back": offer,
        "take_back_order": command_label(command_from_dict(offer.command)) if offer and offer.command else "",
        "take_back_reason": violation_text(offer.stands) if offer and offer.stands else "",
        "resealable": state.phase == "winter_orders"
        and seat.faction in state.winter_orders
        and bool(screen.legal),
    }

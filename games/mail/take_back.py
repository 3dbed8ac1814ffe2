"""The short notice an order taken back sends (H-TAKEBACK): to whoever that order had told it was
their turn, or had offered a trade, so a stale turn email does not leave them waiting for nothing."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation
from django.utils.translation import gettext as _

from games.engine import GameState
from games.mail.outbox import mail_seat
from games.models import Game, Seat
from games.reading.situation import must_act, whose_turn
from games.words.names import faction_name

KIND = "taken_back"


def told_by_the_order(after: GameState, restored: GameState) -> set[str]:
    """The factions the order taken back had told to act (its turn, or a trade offer to answer),
    which the position before it did not: `after` is the state after the order, `restored` after the
    take-back."""
    turned = set(must_act(after)) - set(must_act(restored))
    offered = {o.to for o in after.offers} - {o.to for o in restored.offers}
    return turned | offered


def notify_taken_back(
    game: Game, seats: Iterable[Seat], taker: str, after: GameState, restored: GameState, seq: int
) -> None:
    """H-TAKEBACK: "Sparta took back their order; you are not on turn yet" to every seat the order had
    told to act, in the seat's language; their old links show the game as it is now."""
    told = told_by_the_order(after, restored) - {taker}
    for seat in seats:
        if seat.faction not in told:
            continue
        with translation.override(seat.language):
            values = {"game": game.name, "player": faction_name(taker)}
            mail_seat(
                game,
                seat,
                KIND,
                seq,
                _("%(player)s took back their order · %(game)s") % values,
                [
                    _("%(player)s took back their order; you are not on turn yet.") % values,
                    _("The game's page shows the game as it is now, also from an older email's link."),
                    whose_turn(restored, seat.faction),
                ],
            )

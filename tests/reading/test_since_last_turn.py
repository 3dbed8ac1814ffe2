""" "Since your last turn" (docs/order-loop.md "Playing a turn"): from the reader's last turn on. An
answer to a trade offer (H-TRADE: any moment, no action) is not a turn, so it does not restart it."""

from __future__ import annotations

import pytest

from games.engine import AcceptOffer, Bundle, OfferTrade
from games.reading.history import default_since
from games.reading.situation import happenings, last_turn_start, load_game
from games.services.orders import submit_order
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def test_h_trade_answering_an_offer_keeps_what_happened_before_it_in_since_your_last_turn() -> None:
    game = two_player_game()
    offering = seats_to_act(game)[0]
    rival = game.seats.exclude(pk=offering.pk).get()
    offer = OfferTrade(offering.faction, to=rival.faction, give=Bundle(ap=1), take=Bundle(fp=1))
    submit_order(game, offering, offer, load_game(game).seq)
    before = last_turn_start(game, rival.faction)
    submit_order(game, rival, AcceptOffer(rival.faction, offer=1), load_game(game).seq)

    assert last_turn_start(game, rival.faction) == before == default_since(game, rival.faction)
    told = happenings(game, rival.faction)
    offered = [line for line in told if "made" in line and "trade offer" in line]
    accepted = [line for line in told if "accepted the trade offer" in line]
    assert offered and accepted, told

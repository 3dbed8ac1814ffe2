""" "Since your last turn" (docs/order-loop.md "Playing a turn"): from the reader's last turn on. An
answer to a trade offer (H-TRADE: any moment, no action) is not a turn, so it does not restart it; nor
is an order taken back (H-TAKEBACK), whose lines are left out for its take-back's."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import AcceptOffer, Bundle, OfferTrade, legal_commands
from games.models import Seat
from games.reading.history import default_since
from games.reading.situation import happenings, last_turn_start, load_game, since_last_turn
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from games.services.take_back import take_back_order
from games.words.names import faction_name
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


THREE = (
    PlayerSpec("Ana", "ana@example.com", "athens"),
    PlayerSpec("Ben", "ben@example.com", "sparta"),
    PlayerSpec("Cy", "cy@example.com", "corinth"),
)


def recruit(game) -> Seat:
    """The seat on turn recruits (H-ACTIONS), the first Recruit its legal orders offer."""
    (seat,) = seats_to_act(game)
    state = load_game(game).state
    order = next(c for c in legal_commands(state, seat.faction) if c.kind == "recruit")
    submit_order(game, seat, order, load_game(game).seq)
    return seat


def test_the_readers_own_order_is_not_told_back_to_them_but_what_it_brought_about_is() -> None:
    game = create_game(list(THREE))
    first = recruit(game)
    told = happenings(game, first.faction)
    (turn_line,) = told  # the next player's turn, which the order began; not the order itself
    assert "to play" in turn_line and faction_name(first.faction) not in turn_line, told


def test_h_takeback_an_order_taken_back_is_told_once_by_its_take_back_and_no_turn_is_told_twice() -> None:
    game = create_game(list(THREE))
    first = recruit(game)
    second = recruit(game)
    take_back_order(game, second, load_game(game).seq)
    recruit(game)  # the same player gives their order again
    third = recruit(game)

    for language, taken_back in (
        ("en", "%s took back their order: Recruit."),
        ("de", "%s hat seinen Befehl zurückgenommen: Rekrutieren."),
    ):
        with translation.override(language):
            told = happenings(game, first.faction)
            name = faction_name(second.faction)
        assert taken_back % name in told, told
        # The order taken back is told only by its take-back: once recruited, once a turn begun.
        recruited = [line for line in told if name in line and ("recruited" in line or "rekrutiert" in line)]
        assert len(recruited) == 1, told
        assert len(told) == len(set(told)), told
        assert not any(a == b for a, b in zip(told, told[1:], strict=False)), told
    assert third.faction != first.faction


def test_h_takeback_since_your_last_turn_starts_at_your_last_order_that_stands() -> None:
    game = create_game(list(THREE))
    first = recruit(game)
    second = recruit(game)
    take_back_order(game, second, load_game(game).seq)

    # The order taken back is no turn: the reader reads from the order before it on (here none: all of it).
    assert last_turn_start(game, second.faction) == 1
    told = happenings(game, second.faction)
    assert told[-1] == "You took back your order: Recruit.", told
    assert any(faction_name(first.faction) in line and "recruited" in line for line in told), told


def test_a_default_order_given_for_the_reader_is_told_to_them_since_they_did_not_choose_it() -> None:
    order = {"player": "athens", "command": {"kind": "pass", "player": "athens"}, "by": "system"}
    rows = [
        (7, "OrderGiven", order),
        (8, "PlayerPassed", {"player": "athens", "automatic": False}),
        (9, "TurnBegan", {"player": "sparta", "action_round": 1, "turn_index": 1}),
        (10, "RandomnessDrawn", {"position": 7, "draws": []}),
    ]
    assert [kind for _, kind, _ in since_last_turn(rows, "athens", 7)] == ["PlayerPassed", "TurnBegan"]
    given = [(7, "OrderGiven", {**order, "by": "player"}), *rows[1:]]
    assert [kind for _, kind, _ in since_last_turn(given, "athens", 7)] == ["TurnBegan"]

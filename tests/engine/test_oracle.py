"""The Oracle as examples. Rules: H-ACTIONS (Oracle: a Mission Card for 1 coin), H-BAG, H-SCREEN."""

from __future__ import annotations

import json

from games.engine import Oracle, event_view, player_view

from .support import only, play, refused, state_of

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}


def game(athens: dict | None = None, **spec: object):
    players = {"athens": athens or {"coins_behind_screen": {"owl": 2}}, "sparta": {}}
    return state_of(players=players, board=BOARD, **spec)


def test_h_actions_oracle_costs_one_coin_from_behind_the_screen_and_draws_a_card() -> None:
    state = game()
    events, after = play(state, Oracle("athens", coin="owl"))
    card = only(events, "MissionCardDrawn").payload["card"]
    athens = after.players["athens"]
    assert athens.coins_behind_screen == {"owl": 1} and athens.mission_cards == [card]
    assert after.bag["owl"] == state.bag["owl"] + 1  # H-BAG: the coin goes back into the bag
    assert card not in after.mission_deck and len(after.mission_deck) == len(state.mission_deck) - 1
    assert after.player_on_turn == "sparta"  # the Oracle is the turn's action


def test_h_actions_oracle_may_be_paid_with_a_blank() -> None:
    _, after = play(game({"blanks": 1}), Oracle("athens", coin="blank"))
    assert after.players["athens"].blanks == 0 and len(after.players["athens"].mission_cards) == 1


def test_h_actions_oracle_refused_without_the_coin() -> None:
    refused(game(), Oracle("athens", coin="turtle"), "H-ACTIONS")
    refused(game(), Oracle("athens", coin="blank"), "H-ACTIONS")


def test_h_actions_oracle_refused_when_the_deck_is_empty() -> None:
    refused(game(mission_deck=[]), Oracle("athens", coin="owl"), "H-ACTIONS")


def test_h_actions_oracle_only_on_your_turn() -> None:
    refused(game(on_turn="sparta"), Oracle("athens", coin="owl"), "H-YEAR")


def test_h_actions_oracle_the_drawn_card_and_the_coin_are_hidden_from_others() -> None:
    events, after = play(game(), Oracle("athens", coin="owl"))
    drawn = only(events, "MissionCardDrawn")
    card = drawn.payload["card"]
    assert event_view(drawn, "athens")["payload"]["card"] == card
    seen = json.dumps(event_view(drawn, "sparta")) + json.dumps(player_view(after, "sparta"))
    assert card not in seen and "owl" not in json.dumps(event_view(drawn, "sparta"))

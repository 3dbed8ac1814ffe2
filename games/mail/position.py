"""The player's position as an email tells it: what they hold, what orders cost and where they may
go, the reply words, and a sealed winter order's aids (H-SCREEN: their own screen and cards only).
The turn emails (turns.py) name it when they are written and tell it when they are sent
(late_parts); a notice one can order by replying to (outbox.py) and the answer to an email order
carry it too, so no reply is decided blind (docs/email-orders.md).
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from games.engine import GameState
from games.mail.keys import inbound_domain
from games.reading.situation import must_act
from games.words.names import coins_text
from games.words.position import (
    cards_lines,
    choice_reply,
    cost_line,
    holdings_line,
    order_reply,
    position_lines,
    reach_lines,
)
from games.words.syntax import winter_hand_words


def sealed_order_aids(state: GameState, faction: str) -> dict[str, Any]:
    """H-WINTER-ORDERS, H-SCREEN: what a sealed winter order is made of, for its owner's email only
    (the coins behind their screen, their Blanks, their winter Mission Cards and the words naming
    them in a reply), so that a player can order by reply without opening the page."""
    if state.phase != "winter_orders" or faction not in state.players:
        return {}
    player = state.players[faction]
    return {
        "screen_coins": coins_text(player.coins_behind_screen),
        "screen_blanks": player.blanks,
        # The words a reply names a card by only where a reply can give the order.
        "winter_cards": winter_hand_words(player.mission_cards, reply_words=bool(inbound_domain())),
    }


def secret_lines(state: GameState, faction: str, languages: tuple[str, ...]) -> list[str]:
    """H-SCREEN: the lines in which an email tells `faction` what only they may know (their AP, FP,
    Blanks, VP and screen, their Mission Cards, a sealed order's screen and winter cards), as the
    server renders them in each of `languages`: what a reply relayed to a rival must never carry."""
    if faction not in state.players:
        return []
    player = state.players[faction]
    sealed = {
        "sealed": True,
        "screen_coins": coins_text(player.coins_behind_screen),
        "screen_blanks": player.blanks,
        "winter_cards": winter_hand_words(player.mission_cards, reply_words=bool(inbound_domain())),
    }
    lines = []
    for language in languages:
        with translation.override(language):
            lines += [holdings_line(state, faction), *cards_lines(state, faction)]
            lines += render_to_string("emails/_position.txt", {"position": [], **sealed}).splitlines()
    return [line for line in lines if line.strip()]


def answer_position(state: GameState, faction: str, seq: int) -> dict[str, Any]:
    """The answer to an email order carries a Reply-To that orders on the game at `seq`: it tells
    the position there as the turn email would (H-SCREEN: the player's own), so that the next order
    is decided from it, not from an older email's holdings (H-TRADE: after an accepted offer); and,
    when the player owes the next order (H-YEAR: still on turn; S-EXP-CHOICE: a tile choice;
    H-WINTER-ORDERS: a sealed order), the reply that gives it, with the screen and winter cards of
    a sealed order. The answer to the year's last order comes after the sealed winter email: it
    must be enough to reply to."""
    if state.phase == "ended" or faction not in state.players:
        return {}
    owes = faction in must_act(state)
    sealed = owes and state.phase == "winter_orders"
    return {
        "position_of": {"viewer": faction, "up_to_seq": seq},
        "reply_hint": owes,
        "sealed": sealed,
        **(sealed_order_aids(state, faction) if sealed else {}),
    }


def position_told(state: GameState, faction: str) -> dict[str, Any]:
    """The position lines, costs and reach, and the reply words of `state` for `faction`."""
    on_turn = faction in must_act(state)
    lines = position_lines(state, faction)
    if on_turn and state.phase == "actions":  # what the orders cost, and where one may go
        lines += [cost_line(faction), *reach_lines(state, faction)]
    return {
        "position": lines,
        "choice_reply": choice_reply(state, faction),  # a tile choice: the reply
        "order_reply": order_reply(state, faction),  # else the order reply, on a Polis of the reader's
    }

"""Previews for the order forms (docs/order-loop.md): what an order would cost, computed by the engine.

The page asks before the player submits; the numbers come from the same rule code that will
judge the order (games/engine/movement.py), never from a copy of the rules in JavaScript.
"""

from __future__ import annotations

from typing import Any

from games.engine import Command, Expand, Fortify, GameState, Move, Recruit, RuleViolation, command_from_dict
from games.engine.actions import recruit_price
from games.engine.data import FORTIFY_AP
from games.engine.expansion import expand_cost
from games.engine.movement import plan_move


def preview_move_cost(state: GameState, command: Command | dict[str, Any]) -> int | RuleViolation:
    """The FP a Move would cost (S-MOVE, S-MOVE-FREE, S-MOVE-NAV), or the RuleViolation it breaks.

    `command` is a Move or its JSON form (H-ORDER: read with the same checks as a submitted
    order). The cost is the whole price before Blanks (S-BLANK); the Move is checked as
    `plan_move` checks it when it is submitted (origin yours, at most 3 destinations, the
    units there, heroes never alone, the FP and Blanks to pay, the battle order). Whether it
    is the player's turn is the order service's check, not the preview's. Changes nothing.
    """
    try:
        raw = command if isinstance(command, dict) else command.to_dict()
        move = command_from_dict(raw)
        if not isinstance(move, Move):
            return RuleViolation("H-ORDER", "Only a Move has a cost to preview.")
        return plan_move(state, move).cost
    except RuleViolation as violation:
        return violation


def order_cost(state: GameState, command: Command) -> tuple[int, str] | None:
    """What a legal order costs before Blanks (S-BLANK), as (amount, "AP" or "FP"), for the
    one-click suggestions, which are given without a form to show a preview in. None for an
    order without a price in points (Pass, Reform, Oracle, Trade, winter orders) or a price of 0.

    Move: S-MOVE, S-MOVE-FREE, S-MOVE-NAV (the engine's plan). Recruit: H-ACTIONS, H-FACTION,
    H-HEROES. Fortify: H-ACTIONS. Expand: S-EXP-CHOICE, S-EXP-LINK.
    """
    if isinstance(command, Move):
        cost = preview_move_cost(state, command)
        price = (cost if isinstance(cost, int) else 0, "FP")
    elif isinstance(command, Recruit):
        price = (recruit_price(command), "AP")
    elif isinstance(command, Fortify):
        price = (FORTIFY_AP, "AP")
    elif isinstance(command, Expand):
        price = (expand_cost(command.player, bool(command.second_source), bool(command.link_from)), "FP")
    else:
        return None
    return price if price[0] else None

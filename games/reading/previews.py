"""Previews for the order forms (docs/order-loop.md): what an order would cost, computed by the engine.

The page asks before the player submits; the numbers come from the same rule code that will
judge the order (engine.decide, games/engine/movement.py), never from a copy of the rules in
JavaScript. The words are games/words/order_previews.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import (
    Command,
    Expand,
    Fortify,
    GameState,
    Move,
    Recruit,
    RuleViolation,
    command_from_dict,
    decide_recorded,
    why_it_would_stand,
)
from games.engine.actions import recruit_per_ap, recruit_price
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


@dataclass(frozen=True)
class OrderPreview:
    """What an order would cost and do, as the engine judges it now (docs/order-loop.md "Previews").

    `cost`: (amount, "AP" or "FP") before Blanks, or None for an order without a price. `battles`,
    `conquests`, `joins`: a Move's destinations as the engine plans them (S-MOVE-ORDER: battles in
    the order they are fought). Nothing drawn: no tile, die or card of the real game.
    """

    command: Command
    cost: tuple[int, str] | None
    supply: int  # the player's AP or FP now (the unit of `cost`; FP when there is no cost)
    battles: tuple[str, ...] = ()
    conquests: tuple[str, ...] = ()
    joins: tuple[str, ...] = ()
    # H-TAKEBACK: why, once given, it could not be taken back (it draws or reveals), or None.
    stands: RuleViolation | None = None
    # A Recruit: the phalanxes 1 AP recruits where it recruits (H-FACTION: Sparta 2 in its Native
    # Polis), and how many more its AP would pay for (the cost rounds up; as many as the supply holds).
    per_ap: int = 1
    more_for_the_same: int = 0


def preview_order(state: GameState, command: Command) -> OrderPreview | RuleViolation:
    """The engine's judgement of `command` before it is sent (every order kind): the RuleViolation
    it would be refused with, or its cost and, for a Move, its plan (S-MOVE, S-MOVE-ORDER).

    The order is decided on a copy of the state with randomness of a seed that is not the game's
    (H-SCREEN, H-RNG: no draw of the game is made or shown), and only its legality and the
    engine's plan are kept, and whether, once given, it could be taken back (H-TAKEBACK: whether it
    draws or reveals does not depend on the seed): the preview changes nothing and tells nothing the
    order's own refusal would not. Whether it is the player's turn is the order service's check.
    """
    try:
        batch = decide_recorded(state, command, PREVIEW_SEED, position=state.events_applied)
        plan = plan_move(state, command) if isinstance(command, Move) else None
    except RuleViolation as violation:
        return violation
    cost = order_cost(state, command)
    player = state.players[command.player]
    supply = player.ap if cost and cost[1] == "AP" else player.fp
    stands = why_it_would_stand(batch)
    if isinstance(command, Recruit):
        per_ap = recruit_per_ap(command.player, command.space)
        paid_for = -command.phalanxes % per_ap  # the rest of the last AP's phalanxes
        more = min(paid_for, player.phalanx_supply - command.phalanxes)
        return OrderPreview(command, cost, supply, stands=stands, per_ap=per_ap, more_for_the_same=more)
    if plan is None:
        return OrderPreview(command, cost, supply, stands=stands)
    spaces = lambda ds: tuple(d.space for d in ds)  # noqa: E731
    return OrderPreview(
        command, cost, supply, spaces(plan.battles), spaces(plan.conquests), spaces(plan.joins), stands
    )


# A seed no game has (games' seeds are secret random strings): a preview's throwaway draws.
PREVIEW_SEED = "order-preview"


def stands_if_given(state: GameState, command: Command) -> RuleViolation | None:
    """H-TAKEBACK: why `command`, a legal order, could not be taken back once given (its preview's
    `stands`), or None. For the one-click suggested orders, which have no preview before the click."""
    preview = preview_order(state, command)
    # Not legal after all: its refusal, not a warning, is what the click will meet.
    return None if isinstance(preview, RuleViolation) else preview.stands

"""The Moves offered to bots and the order form: a bounded, representative set (S-MOVE, S-BLANK).

Single moves of everything or half of a Polis's phalanxes to each Polis in reach, and spread
moves of everything to 2 and 3 of the nearest Poleis (S-MOVE's spread, S-MOVE-BUILDER's
split). Every candidate is checked by `movement.plan_move`, so none is illegal.
"""

from __future__ import annotations

from itertools import combinations

from . import board
from .commands import Destination, Move
from .events import RuleViolation
from .movement import battles_as_listed, counted_units, move_cost, plan_move
from .payment import blanks_to_cover
from .state import GameState


def _with_payment(state: GameState, cmd: Move) -> Move | None:
    """`cmd` as a legal order, paying in Blanks only what the FP cannot (S-BLANK); None if illegal."""
    player = state.players[cmd.player]
    farthest = max(board.distance(cmd.origin, d.space) for d in cmd.destinations)
    navigators = sum(d.navigators for d in cmd.destinations)
    cost = move_cost(counted_units(cmd.destinations), farthest, navigators)
    blanks = blanks_to_cover(player.fp, player.blanks, cost)
    if blanks is None:
        return None  # cheap pre-check; plan_move below still has the last word
    battles = battles_as_listed(state, cmd)
    cmd = Move(cmd.player, cmd.origin, cmd.destinations, battles if len(battles) > 1 else (), blanks)
    try:
        plan_move(state, cmd)
    except RuleViolation:
        return None
    return cmd


def _spread(
    phalanxes: int, king: bool, navigators: int, builders: int, targets: tuple[str, ...]
) -> tuple[Destination, ...]:
    """Everything out of the origin, split over `targets` (S-MOVE's spread, S-MOVE-BUILDER): the
    phalanxes as evenly as may be, the King and Navigators with the first group, Builders dealt
    round the groups so that each rides with phalanxes."""
    k = len(targets)
    shares = [phalanxes // k + (1 if i < phalanxes % k else 0) for i in range(k)]
    builder_shares = [builders // k + (1 if i < builders % k else 0) for i in range(k)]
    return tuple(
        Destination(space, shares[i], king and i == 0, navigators if i == 0 else 0, builder_shares[i])
        for i, space in enumerate(targets)
    )


def legal_moves(state: GameState, player: str) -> list[Move]:
    """A bounded, representative set of legal Moves for bots and the UI (S-MOVE, S-BLANK).

    For each own Polis with a phalanx and each other Polis the player can afford to
    reach: everything there (phalanxes, heroes, Builders), and half of the phalanxes
    alone; and spread moves of everything to 2 and 3 of the nearest Poleis. A move the FP
    cannot pay is offered with the missing FP paid in Blanks. Every candidate is checked by
    `plan_move`, so none is illegal.
    """
    moves: list[Move] = []
    if player not in state.players:
        return moves
    for origin_space, origin in sorted(state.board.items()):
        if origin.owner != player or origin.phalanxes == 0:
            continue
        everything = (origin.phalanxes, origin.king, origin.navigators, origin.builders)
        half = (origin.phalanxes // 2, False, 0, 0)
        targets = sorted(state.board, key=lambda t: (board.distance(origin_space, t), t))[1:]
        candidates = [
            (Destination(target, *units),)
            for target in sorted(targets)
            for units in (everything, half)
            if units[0] > 0
        ]
        nearest = tuple(targets[:4])
        for k in (2, 3):
            if origin.phalanxes >= k:
                candidates += [_spread(*everything, group) for group in combinations(nearest, k)]
        for destinations in candidates:
            cmd = _with_payment(state, Move(player=player, origin=origin_space, destinations=destinations))
            if cmd is not None:
                moves.append(cmd)
    return moves

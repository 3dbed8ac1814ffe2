"""S-BLANK: paying an AP or FP cost partly in Blank coins, as the order says.

Every order that costs AP or FP (Move, the Expand upgrades, Recruit and hiring Navigators,
Fortify) carries `blanks`: how many of its points are paid in Blanks, 1 Blank for 1 AP or
1 FP. The rest is paid from the AP or FP supply. The player decides; the engine never
spends a Blank the order did not name.
"""

from __future__ import annotations

from .events import RuleViolation
from .state import Player


def check_blanks(player: Player, cost: int, blanks: int) -> None:
    """S-BLANK: the Blanks named must be in the player's supply and no more than the cost."""
    if blanks > player.blanks:
        raise RuleViolation(
            "S-BLANK", "You want to pay %(blanks)d Blanks but have only %(have)d.", blanks=blanks,
            have=player.blanks,
        )  # fmt: skip
    if blanks > cost:
        raise RuleViolation(
            "S-BLANK", "This costs only %(cost)d; you cannot pay %(blanks)d Blanks for it.", cost=cost,
            blanks=blanks,
        )  # fmt: skip


def short_of_points(rule: str, cost: int, unit: str, have: int, blanks: int) -> RuleViolation:
    """The refusal of an order whose points, after the Blanks named, are more than the supply holds."""
    return RuleViolation(
        rule,
        "This costs %(cost)d %(unit)s: %(blanks)d in Blanks leaves %(rest)d, but you have %(have)d %(unit)s.",
        cost=cost,
        unit=unit,
        blanks=blanks,
        rest=cost - blanks,
        have=have,
    )


def blanks_to_cover(points: int, blanks: int, cost: int) -> int | None:
    """The fewest Blanks that make `cost` payable with `points` AP/FP, or None if even all do not.

    Bots and the order form use it to offer orders that spend Blanks only when short, as the
    rulebook advises (a Blank is worth more than 1 AP or FP).
    """
    needed = max(0, cost - points)
    return needed if needed <= blanks else None

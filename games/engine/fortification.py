"""S-FORT: Fortifications soak up the attacker's hits first and are repaired after a combat.

A Polis keeps one entry per Fortification in `fortification_hp` (1..3 hit points left).
These helpers are pure: they take a list and return new values, so combat can record
every step in the event payload.
"""

from __future__ import annotations

from .data import FORTIFICATION_HP


def absorb_hits(fortification_hp: list[int], hits: int) -> tuple[list[int], int, int]:
    """Let the Fortifications take `hits` one Fortification at a time (S-FORT).

    Hits pile onto the first Fortification until it is destroyed, then spill onto the
    next; whatever is left after the last one falls carries over to the phalanxes, so
    no hit is wasted. Returns (remaining fortification_hp, hits the Fortifications
    took, hits left over for the phalanxes). Destroyed Fortifications are dropped.
    """
    remaining = list(fortification_hp)
    taken = 0
    while hits > 0 and remaining:
        blow = min(hits, remaining[0])
        remaining[0] -= blow
        hits -= blow
        taken += blow
        if remaining[0] == 0:
            remaining.pop(0)
    return remaining, taken, hits


def repaired(fortification_hp: list[int]) -> list[int]:
    """S-FORT: every Fortification that survived a combat is fully repaired at its end."""
    return [FORTIFICATION_HP for _ in fortification_hp]

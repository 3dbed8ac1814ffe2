"""The exact odds of one combat (S-COMBAT, S-FORT), for a bot weighing a battle before it orders it.

The combat rules leave nothing to judgement: the defender fires first, then the attacker, alternating;
one die per phalanx, at most 4; a 3–6 hits; the attacker's hits fill the Fortifications first, one at a
time, and spill over (engine.fortification.absorb_hits). So the chance of every outcome is a sum over
dice, computed here exactly (a round in which nobody hits repeats the same position, solved in closed
form), and memoised: a bot asks about the same few positions again and again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from games.engine.data import HIT_MIN, MAX_DICE
from games.engine.fortification import absorb_hits

_HIT = (7 - HIT_MIN) / 6  # a 3, 4, 5 or 6


@dataclass(frozen=True)
class Odds:
    """P(the attacker takes the Polis), and the phalanxes each side expects to keep."""

    attacker_wins: float
    attacker_left: float  # expected attacking phalanxes left (0 when the attack fails)
    defender_left: float  # expected defending phalanxes left (0 when the Polis falls)


@lru_cache(maxsize=4096)
def _hits(dice: int) -> tuple[float, ...]:
    """P(k hits) for k = 0..dice, with `dice` dice."""
    return tuple(comb(dice, k) * _HIT**k * (1 - _HIT) ** (dice - k) for k in range(dice + 1))


@lru_cache(maxsize=65536)
def _defender_fires(attacking: int, defending: int, forts: tuple[int, ...]) -> tuple[float, float, float]:
    """(P(attacker wins), E[attackers left], E[defenders left]) with the defender about to roll."""
    if attacking <= 0:
        return 0.0, 0.0, float(defending)
    if defending <= 0:
        return 1.0, float(attacking), 0.0
    probabilities = _hits(min(defending, MAX_DICE))
    # The attacker's round after a miss by the defender, except its own miss (which loops back here).
    after_miss = _attacker_fires_without_miss(attacking, defending, forts)
    miss_both = probabilities[0] * _hits(min(attacking, MAX_DICE))[0]
    totals = [probabilities[0] * v for v in after_miss]
    for k, p in enumerate(probabilities[1:], start=1):
        outcome = _attacker_fires(attacking - k, defending, forts)
        totals = [t + p * v for t, v in zip(totals, outcome, strict=True)]
    return tuple(t / (1 - miss_both) for t in totals)  # type: ignore[return-value]


def _attacker_fires(attacking: int, defending: int, forts: tuple[int, ...]) -> tuple[float, float, float]:
    if attacking <= 0:
        return 0.0, 0.0, float(defending)
    miss = _hits(min(attacking, MAX_DICE))[0]
    rest = _attacker_fires_without_miss(attacking, defending, forts)
    again = _defender_fires(attacking, defending, forts)
    return tuple(r + miss * a for r, a in zip(rest, again, strict=True))  # type: ignore[return-value]


def _attacker_fires_without_miss(
    attacking: int, defending: int, forts: tuple[int, ...]
) -> tuple[float, float, float]:
    """The attacker's round summed over 1+ hits (weighted by their chance); a miss is left to the caller."""
    totals = [0.0, 0.0, 0.0]
    for h, p in enumerate(_hits(min(attacking, MAX_DICE))[1:], start=1):
        left_forts, _, spill = absorb_hits(list(forts), h)
        outcome = _defender_fires(attacking, defending - min(spill, defending), tuple(left_forts))
        totals = [t + p * v for t, v in zip(totals, outcome, strict=True)]
    return tuple(totals)  # type: ignore[return-value]


def battle_odds(attacking: int, defending: int, fortification_hp: tuple[int, ...] = ()) -> Odds:
    """S-COMBAT, S-FORT, S-COMBAT-EMPTY: the exact odds of `attacking` phalanxes against `defending`
    phalanxes behind Fortifications with `fortification_hp`. No defender: the Polis falls unfought."""
    if defending <= 0:
        return Odds(1.0 if attacking > 0 else 0.0, float(attacking), 0.0)
    wins, attacker_left, defender_left = _defender_fires(attacking, defending, tuple(fortification_hp))
    return Odds(wins, attacker_left, defender_left)


@lru_cache(maxsize=65536)
def win_chance(attacking: int, defending: int, fortification_hp: tuple[int, ...] = ()) -> float:
    """battle_odds(...).attacker_wins, memoised: the evaluation asks it for every army and Polis in reach."""
    return battle_odds(attacking, defending, fortification_hp).attacker_wins

"""The exact odds of a combat (S-COMBAT, S-FORT) against the engine's own battles."""

from __future__ import annotations

from games.bot import battle_odds
from games.engine import GameRng
from games.engine.combat import fight
from games.engine.commands import Destination
from tests.engine.support import state_of


def test_s_combat_one_against_one_the_defender_firing_first_wins_three_times_in_four() -> None:
    # The defender hits 2/3 first; else the attacker 2/3; else again: (1/3 · 2/3) / (1 - 1/9) = 1/4.
    assert abs(battle_odds(1, 1).attacker_wins - 0.25) < 1e-12


def test_s_combat_empty_a_polis_without_phalanxes_falls_unfought() -> None:
    assert battle_odds(3, 0, (3, 3)).attacker_wins == 1.0


def test_s_fort_the_odds_match_the_engines_battles() -> None:
    for attacking, defending, forts in ((4, 2, ()), (6, 2, (3, 3)), (5, 3, (3,))):
        target = {
            "tile": "megara",
            "owner": "sparta",
            "phalanxes": defending,
            "fortification_hp": list(forts),
        }
        army = {"owner": "athens", "phalanxes": attacking, "king": True}
        state = state_of(board={"C3": army, "D4": target})
        fights = 3000
        won = sum(
            fight(state, "athens", "C3", Destination("D4", attacking), GameRng("odds", i)).payload["winner"]
            == "attacker"
            for i in range(fights)
        )
        exact = battle_odds(attacking, defending, forts).attacker_wins
        # Five standard deviations of a 3000-fight sample: a wrong formula lands far outside.
        assert abs(won / fights - exact) < 5 * (exact * (1 - exact) / fights) ** 0.5 + 1e-9

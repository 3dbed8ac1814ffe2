"""The bot's opponents and games in the bench (bench/bot_players.py, bench/bot_strength.py)."""

from __future__ import annotations

from bench.bot_players import greedy_player, play_game, random_player
from bench.bot_strength import p99
from bench.figures import targeted


def test_the_greedy_and_the_random_player_play_a_whole_game_keeping_every_invariant() -> None:
    result = play_game({"thebes": greedy_player, "athens": random_player}, "opponents", "thebes", check=True)
    assert result.winners and set(result.vp) == {"thebes", "athens"}
    assert result.decisions_ms and all(ms >= 0 for ms in result.decisions_ms)


def test_the_bot_figures_are_marked_against_strict_and_loose_targets() -> None:
    assert targeted("bot_win_rate_4p_vs_greedy", 0.25, "x", "> 0.25").met is False
    assert targeted("bot_win_rate_4p_vs_greedy", 0.26, "x", "> 0.25").met is True
    assert targeted("bot_decision_p99_ms", 1000.0, "ms", "<= 1000").met is True


def test_the_p99_of_a_hundred_decisions_is_the_99th() -> None:
    assert p99([float(ms) for ms in range(100, 0, -1)]) == 99.0
    assert p99([]) == 0.0

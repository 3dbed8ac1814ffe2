"""The bot's strength and speed (`make bench`, `--only bot`; docs/bot.md "Measured strength").

Two-player games against the uniformly random and the greedy player (bench/bot_players.py): each
pairing of factions is played twice on the same game seed, the bot playing either faction; the engine
draws the seat order from the seed alone (H-SETUP), so the bot sits first in one game of the two and
second in the other (the seats alternated). Four-player games: the bot and
three greedy players, the bot's faction going round. A game shared by several winners counts as a
share. Every bot decision is timed; the p99 is over all of them.
"""

from __future__ import annotations

import time
from itertools import combinations
from typing import TYPE_CHECKING

from bench.bot_players import Player, bot_player, greedy_player, play_game, random_player

FACTIONS = ("athens", "sparta", "corinth", "thebes")
if TYPE_CHECKING:
    from bench.figures import Figure

PAIRS = tuple(combinations(FACTIONS, 2))


def _share(faction: str, winners: list[str]) -> float:
    return 1 / len(winners) if faction in winners else 0.0


def two_player_games(opponent: Player, games: int, label: str, timings: list[float]) -> float:
    """The bot's share of wins over `games` two-player games against `opponent` (module docstring)."""
    won = 0.0
    for i in range(games):
        first, second = PAIRS[(i // 2) % len(PAIRS)]
        bot, other = (first, second) if i % 2 == 0 else (second, first)
        result = play_game({bot: bot_player, other: opponent}, f"bot-{label}-{i // 2}", timed=bot)
        won += _share(bot, result.winners)
        timings += result.decisions_ms
    return won / games if games else 0.0


def four_player_games(games: int, timings: list[float]) -> float:
    """The bot's share of wins over `games` games of the bot and three greedy players."""
    won = 0.0
    for i in range(games):
        bot = FACTIONS[i % len(FACTIONS)]
        seats = {f: bot_player if f == bot else greedy_player for f in FACTIONS}
        result = play_game(seats, f"bot-4p-{i}", timed=bot)
        won += _share(bot, result.winners)
        timings += result.decisions_ms
    return won / games if games else 0.0


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * 99 // 100) - 1)] if ordered else 0.0


def bench_bot(games: int = 200, games_4p: int = 100) -> list[Figure]:
    """bot_win_rate_vs_random, bot_win_rate_vs_greedy, bot_win_rate_4p_vs_greedy, bot_decision_p99_ms."""
    from bench.figures import Figure  # Django's: the figures module reads the event store too

    timings: list[float] = []
    figures = []
    for label, opponent in (("random", random_player), ("greedy", greedy_player)):
        started = time.perf_counter()
        rate = two_player_games(opponent, games, label, timings)
        took = time.perf_counter() - started
        detail = f"{games} two-player games, seats alternated, {took:.0f} s"
        figures.append(Figure(f"bot_win_rate_vs_{label}", rate, "x", detail))
    started = time.perf_counter()
    rate = four_player_games(games_4p, timings)
    took = time.perf_counter() - started
    figures.append(
        Figure("bot_win_rate_4p_vs_greedy", rate, "x", f"{games_4p} games, 1 bot + 3 greedy, {took:.0f} s")
    )
    figures.append(Figure("bot_decision_p99_ms", p99(timings), "ms", f"{len(timings)} decisions"))
    return figures

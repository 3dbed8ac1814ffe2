"""Games recorded across rules versions (H-RULES-VERSION), for the replay's tests."""

from __future__ import annotations

import copy
import random

from games import engine
from games.engine.simulation import players_to_act, random_legal_command
from games.eventstore.replay import LoggedEvent


def logged(events: list[engine.Event]) -> list[LoggedEvent]:
    """Events as a log holds them, numbered from 1 (copies: a test may forge them)."""
    return [LoggedEvent(seq, e.type, copy.deepcopy(e.payload)) for seq, e in enumerate(events, start=1)]


def game_across_a_change(
    before: int, factions: tuple[str, ...] = ("athens", "sparta"), seed: str = "7" * 64, bot_seed: int = 3
) -> tuple[list[LoggedEvent], int]:
    """A whole game of random legal orders as the service records it when the rules change while it
    runs: its opening and its orders until 426 BC under rules `before`, the rest under this engine's
    version (H-RULES-VERSION: a game goes on under the new version from the change on). Returns the
    log and the seq of the first order under the new rules."""
    bot = random.Random(bot_seed)
    events = engine.opening_recorded({"factions": list(factions)}, seed, before)
    state = engine.fold(events)
    change = 0
    while state.phase != "ended":
        player = bot.choice(players_to_act(state))
        command = random_legal_command(state, player, bot)
        assert command is not None, f"{player} must act but has no legal order"
        position = len(events) + 1
        version = before if state.year > 426 else engine.RULES_VERSION
        change = change or (position if version != before else 0)
        batch = engine.decide_recorded(state, command, seed, position, "bot", version)
        state = engine.fold_from(state, batch)
        events += batch
    return logged(events), change

"""Bots playing whole games through the real service path, checking invariants after every event.

Used by `manage.py simulate` (docs/operations.md "Measuring"); the bots' loop is the engine's
play_random_game, whose hook stores each batch. Each order goes the way a player's order goes:
the state is folded from the store, `engine.decide` draws from GameRng(game seed, next seq),
the events are appended to the event store (recorded as a player's order is, with "OrderGiven"
and "RandomnessDrawn", so `verifygame` replays them), and the state is folded on. After every single
event the engine's invariants are checked; at the end the state folded back from the store
must equal the state kept while playing.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from games import engine
from games.engine.data import OBJECTIVE_CARD_KINDS, WINTER_CARD_KINDS
from games.engine.simulation import InvariantBroken, play_random_game
from games.eventstore.store import append_events
from games.models import Game
from games.services.orders import load_game

TRADE_EVENTS = ("NeutralTraded", "OfferMade", "OfferAccepted", "OfferDeclined", "OfferLapsed")
BOT_ACTOR_PREFIX = "bot:"
FACTION_ORDER = ("athens", "sparta", "corinth", "thebes")


class SimulationFailed(Exception):
    """An invariant broke, or a replay disagreed; the message names the game, seq and rule."""


@dataclass
class SimulationReport:
    games: int = 0
    events: int = 0
    orders: int = 0
    seconds: float = 0.0
    winners: Counter[str] = field(default_factory=Counter)
    commands: Counter[str] = field(default_factory=Counter)  # orders given, by kind
    cards: Counter[str] = field(default_factory=Counter)  # Mission Cards scored, by kind (H-MISSIONS)
    trade: Counter[str] = field(default_factory=Counter)  # H-TRADE events: offers made, accepted, ...

    def count_events(self, events: list[engine.Event]) -> None:
        """Tally the Mission Cards scored (by card kind) and the trade events (by type)."""
        for event in events:
            if event.type in ("MissionCardRedeemed", "MissionCardClaimed"):
                self.cards[event.payload["kind"]] += 1
            elif event.type in TRADE_EVENTS:
                self.trade[event.type] += 1

    def never_seen(self) -> list[str]:
        """Order kinds and Mission Card kinds no bot ever played (the report should show none)."""
        kinds = set(engine.COMMAND_TYPES) | set(WINTER_CARD_KINDS) | set(OBJECTIVE_CARD_KINDS)
        return sorted(kinds - set(self.commands) - set(self.cards))

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0


def simulate_game(
    factions: list[str], bot: random.Random, report: SimulationReport, max_orders: int = 5000
) -> Game:
    """Play one game with random legal orders (H-CHOICES steps included) to its end.

    The engine's bot loop (engine.simulation.play_random_game) plays it; every batch is stored
    through the event store as it is decided, then the state folded back from the store must
    equal the one kept while playing.
    """
    game = Game.objects.create(name=f"simulation {'/'.join(factions)}")

    def store(
        faction: str | None, command: engine.Command | None, events: list[engine.Event], seq: int
    ) -> None:
        if command is None:  # the opening
            append_events(game, 0, events, actor="organiser")
        else:
            append_events(game, seq - 1, events, actor=BOT_ACTOR_PREFIX + str(faction))
            report.orders += 1
            report.commands[command.kind] += 1
        report.count_events(events)

    try:
        events, state = play_random_game(
            factions, game.seed, bot, max_orders=max_orders, recorded=True, on_batch=store
        )
    except InvariantBroken as broken:
        raise SimulationFailed(f"game {game.pk}{_where(broken)}: {broken}") from None
    replayed = load_game(game).state
    if replayed.to_dict() != state.to_dict():
        raise SimulationFailed(f"game {game.pk}: the state folded from the store differs from the one played")
    report.games += 1
    report.events += len(events)
    report.winners.update(state.winners)
    return game


def _where(broken: InvariantBroken) -> str:
    """seq 4 (UnitsMoved)" for the event that broke an invariant, " seq 4" before an order."""
    if not broken.seq:
        return ""
    return f" seq {broken.seq} ({broken.event_type})" if broken.event_type else f" seq {broken.seq}"


def simulate(games: int, players: int, seed: int) -> SimulationReport:
    """Play `games` whole games of `players` players; factions and bot choices come from `seed`."""
    if not 2 <= players <= 4:
        raise ValueError("a game has 2 to 4 players")
    bot = random.Random(seed)
    report = SimulationReport()
    started = time.perf_counter()
    for _ in range(games):
        factions = bot.sample(FACTION_ORDER, players)
        simulate_game(factions, bot, report)
    report.seconds = time.perf_counter() - started
    return report

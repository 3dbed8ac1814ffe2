"""The peer of `make bench`'s orders: the `eventsourcing` library doing only part of the job.

An `eventsourcing` Application (PostgreSQL) whose `Game` aggregate holds the engine's GameState.
Each order is what a Django team would write with the library, tuned as its documentation says:
`repository.get` (aggregate cache on, snapshots every 100 versions, as our state cache and
snapshots), `engine.decide_recorded` on the aggregate's state, one triggered aggregate event per
engine event (each folded onto the state), `save`. No row lock, hash chain, read models or outbox:
what it does not do is what our orders do on top.

The library is a bench-only dependency (bench/requirements.txt, installed by `make bench`); the
product never imports this module.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import JSONTranscoder, Transcoding

from games import engine
from games.engine import GameState
from games.engine.commands import Command

SNAPSHOT_EVERY = 100  # as games/services/orders.py snapshots


class Game(Aggregate):
    """A game as the library's aggregate: its seed and the engine's state, version = 1 + events."""

    class Started(Aggregate.Created):
        seed: str

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.state = GameState()

    class EngineEvent(Aggregate.Event):
        """One engine event (type and payload), folded onto the aggregate's state."""

        type: str
        payload: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            engine.fold_from(aggregate.state, [engine.Event(self.type, self.payload)])

    @property
    def seq(self) -> int:
        """The engine's log head: every version after the first is one engine event."""
        return self.version - 1

    def record(self, events: list[engine.Event]) -> None:
        for event in events:
            self.trigger_event(self.EngineEvent, type=event.type, payload=event.payload)


class GameStateAsDict(Transcoding):
    """Snapshots hold the aggregate's state: GameState as its plain dict."""

    type = GameState
    name = "game_state"

    def encode(self, obj: GameState) -> dict[str, Any]:
        return obj.to_dict()

    def decode(self, data: dict[str, Any]) -> GameState:
        return GameState.from_dict(data)


class PeerGames(Application):
    """The peer's application: games, snapshotted every SNAPSHOT_EVERY versions."""

    snapshotting_intervals = {Game: SNAPSHOT_EVERY}  # noqa: RUF012  (the library's class attribute)

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(GameStateAsDict())

    def start(self, seed: str, opening: list[engine.Event]) -> uuid.UUID:
        """A new game with its opening's events (as our clones start)."""
        game = Game(seed=seed)
        game.record(opening)
        self.save(game)
        return game.id

    def order(self, game_id: uuid.UUID, command: Command, expected_seq: int) -> int:
        """One order: get, decide on the aggregate's state, trigger one event per engine event,
        save. Returns the new head."""
        game = self.repository.get(game_id)
        if game.seq != expected_seq:
            raise RuntimeError(f"the peer's game is at {game.seq}, the order was decided on {expected_seq}")
        game.record(engine.decide_recorded(game.state, command, game.seed, position=game.seq + 1))
        self.save(game)
        return game.seq

    def folded(self, game_id: uuid.UUID) -> GameState:
        """The game's stored events (not its snapshots) folded from an empty state."""
        stored = self.events.get(game_id)
        return engine.fold(engine.Event(e.type, e.payload) for e in stored if isinstance(e, Game.EngineEvent))


def peer_env(create_tables: bool = True) -> dict[str, str]:
    """The library's settings: the configured PostgreSQL database, aggregate cache on, and no deep
    copy of the cached aggregate on each get (decide_recorded does not change the state it is
    given; a user tuning for speed turns the copy off, which only makes the peer faster).
    `create_tables=False` for the clients that run at once (their CREATE IF NOT EXISTS would race)."""
    params = connection.get_connection_params()
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": str(params.get("dbname") or connection.settings_dict["NAME"]),
        "POSTGRES_HOST": str(params.get("host") or "127.0.0.1"),
        "POSTGRES_PORT": str(params.get("port") or "5432"),
        "POSTGRES_USER": str(params.get("user") or "postgres"),
        "POSTGRES_PASSWORD": str(params.get("password") or ""),
        "POSTGRES_POOL_SIZE": "1",
        "AGGREGATE_CACHE_MAXSIZE": "1000",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        "CREATE_TABLE": "y" if create_tables else "n",
    }


@contextmanager
def peer_app(create_tables: bool = True) -> Iterator[PeerGames]:
    """A PeerGames on the configured database (its tables made unless `create_tables` is off), closed
    after."""
    saved = {key: os.environ.pop(key) for key in list(os.environ) if key.startswith("POSTGRES_")}
    app = PeerGames(env=peer_env(create_tables))
    try:
        yield app
    finally:
        app.close()
        os.environ.update(saved)

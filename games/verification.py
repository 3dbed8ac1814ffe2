"""Checking a game's log: the hash chain, and the replay of every order from the seed (verifygame).

The chain proves the stored events were not changed behind the store's back; the replay
(games/replay.py) proves that each batch is what the rules and the seed make of the order
that opened it, so even a re-rolled die with a recomputed chain is caught (docs/fairness.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from .hashing import GENESIS_HASH, event_hash
from .models import Event, Game
from .replay import LoggedEvent, ReplayReport, replay


@dataclass(frozen=True)
class ChainProblem:
    seq: int
    reason: str


@dataclass(frozen=True)
class ChainReport:
    game_id: int
    events: int
    problem: ChainProblem | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify_chain(game: Game, batch_size: int = 5000) -> ChainReport:
    """Walk the log in seq order: seqs 1, 2, 3... without gaps, each prev_hash the hash before it,
    each hash the recomputed one. Stops at the first event that breaks the chain."""
    expected_seq, prev_hash, checked = 1, GENESIS_HASH, 0
    fields = ("seq", "type", "payload", "actor", "schema_version", "created", "prev_hash", "hash")
    while True:
        rows = list(
            Event.objects.filter(game=game, seq__gte=expected_seq)
            .order_by("seq")
            .values_list(*fields)[:batch_size]
        )
        if not rows:
            return ChainReport(game.pk, checked, None)
        for seq, event_type, payload, actor, schema_version, created, stored_prev, stored_hash in rows:
            if seq != expected_seq:
                return ChainReport(
                    game.pk, checked, ChainProblem(expected_seq, f"event {expected_seq} is missing")
                )
            if stored_prev != prev_hash:
                return ChainReport(
                    game.pk, checked, ChainProblem(seq, "prev_hash does not match event before")
                )
            recomputed = event_hash(
                game_id=game.pk,
                seq=seq,
                type=event_type,
                payload=payload,
                actor=actor,
                schema_version=schema_version,
                created=created,
                prev_hash=stored_prev,
            )
            if recomputed != stored_hash:
                return ChainReport(game.pk, checked, ChainProblem(seq, "hash does not match its content"))
            checked += 1
            expected_seq, prev_hash = seq + 1, stored_hash


@dataclass(frozen=True)
class GameVerification:
    chain: ChainReport
    replay: ReplayReport | None  # None when the chain is already broken

    @property
    def ok(self) -> bool:
        return self.chain.ok and self.replay is not None and self.replay.ok

    @property
    def problem(self) -> ChainProblem | None:
        """The first bad event: the chain's, else the replay's."""
        if self.chain.problem is not None:
            return self.chain.problem
        if self.replay is not None and self.replay.problem is not None:
            return ChainProblem(self.replay.problem.seq, self.replay.problem.reason)
        return None


def verify_game(game: Game) -> GameVerification:
    """The hash chain, then the replay of the opening and of every order from the game's seed."""
    chain = verify_chain(game)
    if not chain.ok:
        return GameVerification(chain, None)
    rows = Event.objects.filter(game=game).order_by("seq").values_list("seq", "type", "payload")
    events = [LoggedEvent(seq, event_type, payload) for seq, event_type, payload in rows]
    return GameVerification(chain, replay(events, game.seed))

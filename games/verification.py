"""Recomputing a game's hash chain: the check behind `manage.py verifygame`."""

from __future__ import annotations

from dataclasses import dataclass

from .hashing import GENESIS_HASH, event_hash
from .models import Event, Game


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

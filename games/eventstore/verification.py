"""Checking a game's log: the hash chain, and the replay of every order from the seed (verifygame).

The chain proves the stored events were not changed behind the store's back; the replay
(games/eventstore/replay.py) proves that each batch is what the rules and the seed make of the order
that opened it, so even a re-rolled die with a recomputed chain is caught (docs/fairness.md).
A game recorded under an older rules version than the engine's is re-decided too, but a
difference the rules give is reported as not checked rather than as a forgery (H-RULES-VERSION);
whatever the version, every batch's draws are held against the seed and against the dice, coins,
tiles, cards and salts its events show, by the checks of tools/verify_export.py itself (they need
no rules), so a die forged in a batch the rules cannot check is still caught.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.eventstore.chain_reading import HashedRow, load_hashed_events
from games.eventstore.hashing import GENESIS_HASH, event_hash
from games.eventstore.replay import LoggedEvent, ReplayReport, replay
from games.models import Event, Game
from tools.verify_export import (
    MALFORMED,
    DrawChecker,
    Failed,
    Witness,
    batches,
    check_sealed_orders,
    check_take_backs,
    check_witnesses,
    pin,
)


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
    walk = _ChainWalk(game.pk)
    while True:
        # Batches bound the memory of `verifygame --all --chain-only` over long logs.
        rows = load_hashed_events(game, from_seq=walk.expected_seq, limit=batch_size)
        if not rows:
            return walk.report(None)
        problem = walk.check(rows)
        if problem is not None:
            return walk.report(problem)


@dataclass
class _ChainWalk:
    """Where a walk along the chain has got to: the seq and prev_hash the next event must have."""

    game_id: int
    expected_seq: int = 1
    prev_hash: str = GENESIS_HASH
    checked: int = 0

    def check(self, rows: Iterable[HashedRow]) -> ChainProblem | None:
        """Walk on through `rows` (the next events in seq order); the first break, if any."""
        # Locals in the loop, written back however it ends: a log has tens of thousands of events.
        game_id, expected_seq, prev_hash, checked = (
            self.game_id,
            self.expected_seq,
            self.prev_hash,
            self.checked,
        )
        try:
            for seq, event_type, payload, actor, schema_version, created, stored_prev, stored_hash in rows:
                if seq != expected_seq:
                    return ChainProblem(expected_seq, f"event {expected_seq} is missing")
                if stored_prev != prev_hash:
                    return ChainProblem(seq, "prev_hash does not match event before")
                recomputed = event_hash(
                    game_id=game_id,
                    seq=seq,
                    type=event_type,
                    payload=payload,
                    actor=actor,
                    schema_version=schema_version,
                    created=created,
                    prev_hash=stored_prev,
                )
                if recomputed != stored_hash:
                    return ChainProblem(seq, "hash does not match its content")
                checked += 1
                expected_seq, prev_hash = seq + 1, stored_hash
            return None
        finally:
            self.expected_seq, self.prev_hash, self.checked = expected_seq, prev_hash, checked

    def report(self, problem: ChainProblem | None) -> ChainReport:
        return ChainReport(self.game_id, self.checked, problem)


@dataclass(frozen=True)
class GameVerification:
    chain: ChainReport
    replay: ReplayReport | None  # None when the chain is already broken
    draws: ChainProblem | None = None  # the first draw that is not the seed's or not what its events show

    @property
    def ok(self) -> bool:
        """Everything checked and nothing wrong: the chain, the seed, the draws, every order re-decided."""
        return self.chain.ok and self.draws is None and self.replay is not None and self.replay.ok

    @property
    def not_checked(self) -> bool:
        """H-RULES-VERSION: chain, seed, draws and fold hold, but the game was recorded under older rules
        and their re-decision differs: maybe the rules' change, not a forgery (games/eventstore/replay.py)."""
        return self.chain.ok and self.draws is None and self.replay is not None and self.replay.not_checked

    @property
    def problem(self) -> ChainProblem | None:
        """The first bad event: the chain's, else the earlier of the draws' and the replay's (not a
        difference of older rules); at one seq the replay's, which names what the rules give."""
        if self.chain.problem is not None:
            return self.chain.problem
        found = [self.draws] if self.draws is not None else []
        if self.replay is not None and self.replay.problem is not None and self.replay.failed:
            found.insert(0, ChainProblem(self.replay.problem.seq, self.replay.problem.reason))
        return min(found, key=lambda problem: problem.seq, default=None)


def verify_game(game: Game) -> GameVerification:
    """The hash chain, then the replay of the opening and of every order from the game's seed."""
    # One read serves both: the log comes over once, and the replay sees the very events whose
    # chain was checked.
    rows = load_hashed_events(game)
    walk = _ChainWalk(game.pk)
    chain = walk.report(walk.check(rows))
    if not chain.ok:
        return GameVerification(chain, None)
    events = [LoggedEvent(seq, event_type, payload) for seq, event_type, payload, *_ in rows]
    del rows  # the hashes and times are not needed any more; the payloads live on in `events`
    return GameVerification(chain, replay(events, game.seed), draws_problem(events, game.seed))


def draws_problem(events: list[LoggedEvent], seed: str) -> ChainProblem | None:
    """tools/verify_export.py's checks of the draws, the sealed winter orders and the orders taken back:
    the first event whose draws are not the seed's or not the dice, tiles, coins, cards and salts
    its batch shows, or whose revealed order is not the one sealed; None when all hold."""
    logged = [{"seq": e.seq, "type": e.type, "payload": e.payload} for e in events]
    checker = DrawChecker(seed)
    try:
        for position, batch in batches(logged):
            try:
                checker.check(position, batch)
            except MALFORMED as error:  # a payload without the fields the server writes
                seq = batch[0]["seq"] if batch else 0
                return ChainProblem(seq, f"the draws cannot be held against this batch's events ({error!r})")
        check_sealed_orders(logged)
        check_take_backs(logged)  # H-TAKEBACK: each after its own order's batch, which drew nothing
    except Failed as failure:
        return ChainProblem(failure.seq, str(failure).removeprefix(f"seq {failure.seq}: "))
    except MALFORMED as error:
        sealed = [e["seq"] for e in logged if str(e["type"]).startswith("WinterOrder")]
        return ChainProblem(min(sealed, default=1), f"the sealed winter orders cannot be read ({error!r})")
    return None


def witnesses_problem(game: Game, witnesses: list[Witness]) -> tuple[ChainProblem | None, int]:
    """The log against the heads its players were told (docs/fairness.md, "Witnessed heads"): the
    first witnessed seq the log does not pass through (its pin, HMAC under the seed of the stored
    hash, is not the one witnessed), and how many heads of this game were checked. The same check
    as tools/verify_export.py --witness, on the database's log."""
    stored = Event.objects.filter(game=game).values_list("seq", "hash")
    pins = {seq: pin(game.seed, digest) for seq, digest in stored}
    try:
        checked, _others = check_witnesses(game.pk, pins, witnesses)
    except Failed as failure:
        return ChainProblem(failure.seq, str(failure).removeprefix(f"seq {failure.seq}: ")), 0
    return None, checked

"""The replay (verifygame's rules half) and the stand-alone verifier over a game with take-backs and
re-seals (H-TAKEBACK, docs/fairness.md): both pass the log as recorded and name a forged take-back."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from games import engine
from games.engine import CommitCoins, Pass, Recruit
from games.eventstore.replay import LoggedEvent, replay

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import verify_export  # noqa: E402  (the script itself, standard library only)

SEED = "take-back-verification"
FACTIONS = ["athens", "sparta", "thebes"]


class Log:
    """A game recorded as the service records it: batches from decide_recorded, take-backs from
    decide_take_back on the state before the batch."""

    def __init__(self) -> None:
        self.events = list(engine.opening_recorded({"factions": FACTIONS}, SEED))
        self.state = engine.fold(self.events)
        self.last: tuple[engine.GameState, list[engine.Event], int] | None = None

    def order(self, command: engine.Command) -> None:
        seq = len(self.events) + 1
        batch = engine.decide_recorded(self.state, command, SEED, seq)
        self.last = (self.state, batch, seq)
        self.events += batch
        self.state = engine.fold_from(self.state.copy(), batch)

    def take_back(self) -> None:
        assert self.last is not None
        before, batch, seq = self.last
        taken = engine.decide_take_back(before, self.state, batch, seq, batch[0].payload["player"])
        self.events.append(taken)
        self.state = engine.fold_from(self.state.copy(), [taken])
        self.last = None

    def logged(self) -> list[LoggedEvent]:
        return [
            LoggedEvent(seq, e.type, json.loads(json.dumps(e.payload)))
            for seq, e in enumerate(self.events, 1)
        ]

    def document(self) -> dict[str, Any]:
        """An export as a reader gets it before the end (hashes withheld), the seed passed apart."""
        events = [{"seq": e.seq, "type": e.type, "payload": e.payload} for e in self.logged()]
        return {"format": "aegeapolis-event-log", "version": 2, "game": {"id": 1}, "events": events}


def played() -> Log:
    """An order taken back by everyone in the first round of 431 and of 430, then a scoring winter
    with a sealed order sealed again."""
    log = Log()
    while log.state.phase == "actions":
        player = log.state.player_on_turn
        assert player is not None
        if log.state.action_round == 1:  # everyone recruits, takes it back, then passes
            native = next(s for s, p in log.state.board.items() if p.owner == player and p.king)
            log.order(Recruit(player, space=native, phalanxes=1))
            log.take_back()
        log.order(Pass(player))
    assert (log.state.phase, log.state.year) == ("winter_orders", 430)
    first, *others = log.state.seat_order
    log.order(CommitCoins(first, blanks=0))
    log.order(CommitCoins(first, blanks=0, coins=()))  # sealed again: the same order, a new salt
    for faction in others:
        log.order(CommitCoins(faction))
    assert log.state.phase == "actions" and log.state.year == 429
    return log


def test_h_takeback_a_game_with_take_backs_and_re_seals_replays_from_its_seed() -> None:
    log = played()
    report = replay(log.logged(), SEED)
    assert report.ok, report.problem
    taken = [e for e in log.events if e.type == engine.ORDER_TAKEN_BACK]
    sealed_again = [e for e in log.events if e.type == "WinterOrderSealed" and "supersedes" in e.payload]
    assert len(taken) == 6 and len(sealed_again) == 1
    assert report.orders == sum(1 for e in log.events if e.type in ("OrderGiven", "OrderTakenBack"))


def test_h_takeback_the_stand_alone_verifier_checks_take_backs_and_re_seals() -> None:
    proven = verify_export.verify(played().document(), SEED)
    assert "6 orders taken back, each right after it was given, drew nothing" in proven
    assert "3 sealed winter orders match their commitments" in proven


def test_h_takeback_a_take_back_after_the_next_order_fails_the_replay() -> None:
    log = Log()
    first = log.state.player_on_turn
    log.order(Pass(first))  # type: ignore[arg-type]
    before, batch, seq = log.last  # type: ignore[misc]
    taken = engine.decide_take_back(before, log.state, batch, seq, first)  # type: ignore[arg-type]
    log.order(Pass(log.state.player_on_turn))  # type: ignore[arg-type]
    log.events.append(taken)  # appended after the next order, as a forger would
    report = replay(log.logged(), SEED)
    assert report.failed and report.problem.seq == len(log.events)  # type: ignore[union-attr]
    assert "the take-back is not legal here: The game has moved on" in report.problem.reason  # type: ignore[union-attr]


def test_h_takeback_a_forged_restore_fails_the_replay() -> None:
    events = played().logged()
    index = next(i for i, e in enumerate(events) if e.type == engine.ORDER_TAKEN_BACK)
    payload = copy.deepcopy(events[index].payload)
    payload["restore"]["players"] = {"athens": {**payload["restore"]["players"].get("athens", {}), "vp": 9}}
    events[index] = LoggedEvent(events[index].seq, events[index].type, payload)
    report = replay(events, SEED)
    assert report.failed and report.problem.seq == events[index].seq  # type: ignore[union-attr]


def test_h_takeback_the_verifier_refuses_a_take_back_after_a_draw() -> None:
    document = played().document()
    events = document["events"]
    index = next(i for i, e in enumerate(events) if e["type"] == "OrderTakenBack")
    drawn = next(e for e in reversed(events[:index]) if e["type"] == "RandomnessDrawn")
    drawn["payload"]["draws"] = [["die", 6, 3]]
    with pytest.raises(verify_export.Failed, match="had drawn at random"):
        verify_export.check_take_backs(events)


def test_h_takeback_the_verifier_refuses_a_re_seal_over_no_seal() -> None:
    document = played().document()
    events = document["events"]
    resealed = next(e for e in events if "supersedes" in e["payload"])
    resealed["payload"]["supersedes"] = "0" * 64
    with pytest.raises(verify_export.Failed, match="supersedes no commitment"):
        verify_export.check_sealed_orders(events)

"""H-RULES-VERSION: games recorded under rules version 1 replay exactly as before version 2.

Version 2 let the seed win over three house rules (no Mission Card turns on Mints, S-INC; Thebes'
extra coin is its own economy, not its Native Polis paying more than its print, S-INC; the supply
never cuts a reinforcement, S-REINF). The engine still decides version 1 (engine.DECIDED_VERSIONS),
so a finished game of version 1, and a running one up to the change, is re-decided by the rules it
was played under, event for event; a forgery in it is caught as in a game of this version.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from games import engine
from games.eventstore.replay import LoggedEvent, replay
from tests.rules_version_support import game_across_a_change, logged

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "rules_version_1_game.json").read_text())


def version_1_game() -> list[LoggedEvent]:
    """The golden game's orders decided again by this engine under rules version 1."""
    seed, orders = GOLDEN["seed"], GOLDEN["orders"]
    events = engine.opening_recorded({"factions": GOLDEN["factions"]}, seed, 1)
    state = engine.fold(events)
    for command, by in orders:
        batch = engine.decide_recorded(state, engine.command_from_dict(command), seed, len(events) + 1, by, 1)
        state = engine.fold_from(state, batch)
        events += batch
    return logged(events)


def digest(log: list[LoggedEvent]) -> str:
    text = json.dumps(
        [[e.type, e.payload] for e in log], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_h_rules_version_a_game_of_version_1_is_decided_again_exactly_as_the_old_engine_recorded_it():
    """Finding (H-RULES-VERSION): raising the version must not turn finished games of version 1 into
    NOT CHECKED ones. The old engine's log (its SHA-256 in the fixture) comes out again byte for byte,
    with all three rules as they were then, and the replay checks it in full."""
    log = version_1_game()

    assert len(log) == GOLDEN["events"] and digest(log) == GOLDEN["sha256"]
    claimed = [e.payload for e in log if e.type == "MissionCardClaimed"]
    assert {"card": "objective-mints-1", "kind": "mints"}.items() <= claimed[0].items()  # version 1's card
    thebes = [e.payload for e in log if e.type == "IncomeReceived" and e.payload["player"] == "thebes"]
    assert thebes and all("economy" not in p for p in thebes)  # the extra coin counted with the Poleis
    report = replay(log, GOLDEN["seed"])
    assert report.ok and report.rules_versions == (1,) and report.orders == len(GOLDEN["orders"])


def test_h_rules_version_a_forged_batch_of_version_1_fails_it_is_not_excused_as_other_rules():
    log = version_1_game()
    forged = next(e for e in log if e.type == "RankingScored" and e.payload["vp"])
    forged.payload["vp"][next(iter(forged.payload["vp"]))] += 1

    report = replay(log, GOLDEN["seed"])

    assert report.failed and not report.not_checked and report.problem.seq == forged.seq
    assert report.problem.rules_version == 1


def test_h_rules_version_a_running_game_goes_on_under_version_2_and_replays_by_both():
    """A game running at the change: its orders up to it were decided by version 1 and are replayed by
    version 1; from its first order after the change it is played and replayed by version 2."""
    log, change = game_across_a_change(before=1, factions=("athens", "sparta", "corinth", "thebes"))
    thebes = [e for e in log if e.type == "IncomeReceived" and e.payload["player"] == "thebes"]
    before, after = [e for e in thebes if e.seq < change], [e for e in thebes if e.seq > change]
    assert before and after
    assert all("economy" not in e.payload for e in before)  # version 1: counted with the Poleis
    assert any(e.payload.get("economy", {}).get("owed") == 1 for e in after)  # version 2: Thebes' own

    report = replay(log, "7" * 64)
    assert report.ok and report.rules_versions == (1, engine.RULES_VERSION)

    early = next(e for e in log if e.type == "IncomeReceived" and e.seq < change)
    early.payload["ap"] += 1
    forged = replay(log, "7" * 64)
    assert forged.failed and forged.problem.seq == early.seq  # a version 1 part is checked in full too


def test_h_rules_version_an_order_of_a_version_1_game_given_now_is_decided_by_version_2():
    """The server decides every new order by its own rules: the state folded from a version 1 log
    plays version 1 until its next order, which names version 2 and is decided by it."""
    log = version_1_game()[:-60]
    state = engine.fold(engine.Event(e.type, e.payload) for e in log)
    assert state.rules_version == 1 and state.phase != "ended"
    player = next(iter(state.players))
    legal = engine.legal_commands(state, state.player_on_turn or player)
    batch = engine.decide_recorded(state, legal[0], GOLDEN["seed"], len(log) + 1)
    assert batch[0].payload["rules_version"] == engine.RULES_VERSION
    assert engine.fold_from(state, batch).rules_version == engine.RULES_VERSION

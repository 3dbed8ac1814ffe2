"""Re-deriving a game's log from its seed and its orders: the replay half of `manage.py verifygame`.

Pure Python over (seq, type, payload) triples, no Django, so it checks a database log and an
export alike. The opening must be exactly what `engine.opening_recorded` makes of the seat order
and the seed (a ScenarioLoaded opening draws nothing); every batch, from its "OrderGiven" up to
the next one, must be exactly what `engine.decide_recorded` makes of the state before it, the
order and GameRng(seed, seq of its OrderGiven). Any altered, missing, added, swapped or
re-rolled event shows up as the first seq where the stored log and the re-derived one differ
(docs/fairness.md). The table's events (engine/table.py) are no part of any batch.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import engine
from .engine import RuleViolation
from .engine.rng import seed_hash
from .engine.table import TABLE_EVENTS

OPENINGS = ("GameStarted", "ScenarioLoaded")


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    type: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class ReplayProblem:
    seq: int
    reason: str


@dataclass(frozen=True)
class ReplayReport:
    orders: int  # batches decided again
    draws: int  # draws re-derived from the seed
    problem: ReplayProblem | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def _same(expected: engine.Event, stored: LoggedEvent) -> bool:
    # Through JSON, as stored: the engine's tuples are the log's lists.
    dump = json.dumps
    return expected.type == stored.type and dump(expected.payload, sort_keys=True) == dump(
        stored.payload, sort_keys=True
    )


def _compare(
    expected: Sequence[engine.Event], stored: Sequence[LoggedEvent], first_seq: int
) -> ReplayProblem | None:
    """The first seq where the re-derived events and the stored ones part."""
    for index in range(max(len(expected), len(stored))):
        if index >= len(stored):
            return ReplayProblem(first_seq + index, f"event missing: the replay gives {expected[index].type}")
        found = stored[index]
        if index >= len(expected):
            return ReplayProblem(
                found.seq, f"{found.type} is not what the order's replay gives (nothing more)"
            )
        if expected[index].type != found.type:
            return ReplayProblem(
                found.seq, f"the replay gives {expected[index].type} here, the log has {found.type}"
            )
        if not _same(expected[index], found):
            return ReplayProblem(found.seq, f"{found.type}: the payload differs from the replay's")
    return None


def _seed_problem(events: Sequence[LoggedEvent], seed: str) -> ReplayProblem | None:
    first = events[0]
    if first.type not in OPENINGS:
        return ReplayProblem(first.seq, f"the log opens with {first.type}, not with a game's opening")
    published = first.payload.get("seed_hash") or first.payload.get("state", {}).get("seed_hash")
    if published != seed_hash(seed):
        return ReplayProblem(first.seq, "the seed does not match the seed_hash published in the first event")
    for event in events:
        if event.type == "GameEnded" and event.payload.get("seed") != seed:
            return ReplayProblem(event.seq, "the revealed seed is not the game's seed")
    return None


def _opening(events: Sequence[LoggedEvent], seed: str) -> list[engine.Event]:
    first = events[0]
    if first.type == "ScenarioLoaded":
        return [engine.Event(first.type, first.payload)]
    return engine.opening_recorded({"factions": list(first.payload["seat_order"])}, seed)


def replay(events: Sequence[LoggedEvent], seed: str) -> ReplayReport:
    """Decide the whole log again from `seed`; name the first event that differs (H-END, H-ORDER)."""
    # Table events (messages, vacations, deadlines, substitutes) are outside the rules: they change
    # no state, draw nothing, and may fall between batches; the hash chain alone vouches for them.
    events = [e for e in events if e.type not in TABLE_EVENTS]
    if not events:
        return ReplayReport(0, 0, None)
    problem = _seed_problem(events, seed)
    if problem:
        return ReplayReport(0, 0, problem)
    starts = [i for i, e in enumerate(events) if e.type == engine.ORDER_GIVEN] + [len(events)]
    try:
        opening = _opening(events, seed)
    except (KeyError, TypeError, ValueError, RuleViolation) as error:
        return ReplayReport(0, 0, ReplayProblem(events[0].seq, f"the opening cannot be replayed: {error}"))
    problem = _compare(opening, events[: starts[0]], events[0].seq)
    if problem:
        return ReplayReport(0, 0, problem)
    state = engine.fold(opening)
    draws = _draws(opening)
    for number, (start, end) in enumerate(zip(starts, starts[1:], strict=False)):
        given = events[start]
        try:
            command = engine.command_from_dict(given.payload["command"])
            expected = engine.decide_recorded(
                state, command, seed, position=given.seq, by=given.payload.get("by", "player")
            )
        except (KeyError, TypeError, ValueError) as error:
            return ReplayReport(number, draws, ReplayProblem(given.seq, f"the order cannot be read: {error}"))
        except RuleViolation as violation:
            return ReplayReport(
                number, draws, ReplayProblem(given.seq, f"the order is not legal here: {violation}")
            )
        problem = _compare(expected, events[start:end], given.seq)
        if problem:
            return ReplayReport(number, draws, problem)
        state = engine.fold_from(state, expected)
        draws += _draws(expected)
    return ReplayReport(len(starts) - 1, draws, None)


def _draws(events: Sequence[engine.Event]) -> int:
    return sum(len(e.payload["draws"]) for e in events if e.type == engine.RANDOMNESS_DRAWN)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m games.replay EXPORT.json [--seed SEED]`: the rules' half of the check for anyone
    holding an export of an ended game (docs/fairness.md); the engine only, no Django, no database."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m games.replay",
        description="Replay an AEGEAPOLIS export from its seed with the game's rules (docs/fairness.md).",
    )
    parser.add_argument("export", help="the export of an ended game (JSON)")
    parser.add_argument("--seed", help="the game's seed, if the export does not reveal it")
    args = parser.parse_args(argv)
    try:
        with open(args.export, encoding="utf-8") as handle:
            document = json.load(handle)
        events = [LoggedEvent(e["seq"], e["type"], e["payload"]) for e in document["events"]]
        seed = args.seed or document["game"].get("seed")
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"FAILED: {args.export} cannot be read as a game export ({error.__class__.__name__}: {error})")
        return 1
    if not seed:
        print("FAILED: the export carries no seed: the game has not ended (its seed is revealed at the end)")
        return 1
    if any(e.get("redacted") for e in document["events"]):
        print("FAILED: this export is redacted (hidden values read 'hidden'): take one after the game's end")
        return 1
    report = replay(events, seed)
    if report.problem is not None:
        print(f"FAILED at seq {report.problem.seq}: {report.problem.reason}")
        print(
            "In plain words: from this event on, the log is not what the rules make of the players'"
            " orders and the seed: an event was changed, added, removed or moved."
        )
        return 1
    print(
        f"OK: the rules, replayed from the seed, give exactly this log: {report.orders} orders and"
        f" {report.draws} draws"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

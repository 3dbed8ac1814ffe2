"""Re-deriving a game's log from its seed and its orders: the replay half of `manage.py verifygame`.

Pure Python over (seq, type, payload) triples, no Django, so it checks a database log and an
export alike. The opening must be exactly what `engine.opening_recorded` makes of the seat order
and the seed (a ScenarioLoaded opening draws nothing), with a gathered game's "FactionsDrawn" drawn
again from the seed and its factions those of the seat order; every batch, from its "OrderGiven" up to
the next one, must be exactly what `engine.decide_recorded` makes of the state before it, the
order and GameRng(seed, seq of its OrderGiven). Any altered, missing, added, swapped or
re-rolled event shows up as the first seq where the stored log and the re-derived one differ
(docs/fairness.md). The table's events (engine/table.py) are no part of any batch. An
"OrderTakenBack" (H-TAKEBACK) is decided again from the state before the batch it takes back.

The opening and every "OrderGiven" name the rules version they were decided under, and each is
decided again under that version when the engine still decides it (engine.DECIDED_VERSIONS: a game
recorded under version 1 replays exactly, event for event). A batch of a version the engine no
longer decides (or of none: recorded before the log named versions) may differ from the replay
because the rules changed, not because anyone forged it: such a difference is reported as NOT
CHECKED, once the seed and the fold of every stored event are checked; a wrong seed, a log that
does not fold, draws that are not the seed's, or a batch naming a version newer than this
engine's still fail (H-RULES-VERSION).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games import engine
from games.engine import RuleViolation
from games.engine.rng import seed_hash
from games.engine.table import TABLE_EVENTS

OPENINGS = ("GameStarted", "ScenarioLoaded")
BATCH_STARTS = (engine.ORDER_GIVEN, engine.ORDER_TAKEN_BACK)


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    type: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class ReplayProblem:
    seq: int
    reason: str
    by_rules: bool = True  # the rules give another event (False: the seed, the log's shape, the fold)
    rules_version: int | None = engine.RULES_VERSION  # named by the batch at `seq`; None: no version


@dataclass(frozen=True)
class ReplayReport:
    orders: int  # batches decided again (up to the problem, if any)
    draws: int  # draws re-derived from the seed
    problem: ReplayProblem | None
    rules_versions: tuple[int | None, ...] = (engine.RULES_VERSION,)  # those the batches name, in order

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def other_rules(self) -> bool:
        """H-RULES-VERSION: a batch replayed was recorded under another rules version than this engine's."""
        return any(version != engine.RULES_VERSION for version in self.rules_versions)

    @property
    def undecided_rules(self) -> bool:
        """H-RULES-VERSION: a batch was recorded under rules this engine no longer decides (0, or none)."""
        return any(version not in engine.DECIDED_VERSIONS for version in self.rules_versions)

    @property
    def not_checked(self) -> bool:
        """H-RULES-VERSION: the rules give another event than a batch recorded under rules this engine
        no longer decides: that may be the rules' change, so it proves nothing either way (seed and
        fold still hold). A batch of a version it decides is checked in full, whichever it is."""
        problem = self.problem
        return (
            problem is not None and problem.by_rules and problem.rules_version not in engine.DECIDED_VERSIONS
        )

    @property
    def failed(self) -> bool:
        """Something is wrong with the log itself: a forgery, whatever the rules version."""
        return self.problem is not None and not self.not_checked


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
        return ReplayProblem(
            first.seq, f"the log opens with {first.type}, not with a game's opening", by_rules=False
        )
    published = first.payload.get("seed_hash") or first.payload.get("state", {}).get("seed_hash")
    if published != seed_hash(seed):
        return ReplayProblem(
            first.seq, "the seed does not match the seed_hash published in the first event", by_rules=False
        )
    for event in events:
        if event.type == "GameEnded" and event.payload.get("seed") != seed:
            return ReplayProblem(event.seq, "the revealed seed is not the game's seed", by_rules=False)
    return None


def deciding(version: int | None) -> int:
    """H-RULES-VERSION: the rules a batch recorded under `version` is decided again by: its own, while the
    engine decides it; else (0, or none: before version 1) the oldest the engine decides, the nearest to
    the rules it was played under, as before version 2 (a difference is then NOT CHECKED)."""
    return version if version in engine.DECIDED_VERSIONS else engine.DECIDED_VERSIONS[0]


def _opening(events: Sequence[LoggedEvent], seed: str) -> list[engine.Event]:
    """The opening again from the seat order and the seed; a gathered game's "FactionsDrawn" drawn
    again from the seed by engine.draw_factions, from the factions chosen and the seats' number
    that it records (engine/seat_draw.py): what it drew is compared, not believed."""
    first = events[0]
    if first.type == "ScenarioLoaded":
        return [engine.Event(first.type, first.payload)]
    version = deciding(engine.rules_version_of(first.payload))
    setup_data = {"factions": list(first.payload["seat_order"])}
    stored = _factions_drawn(events)
    drawn = None
    if stored is not None:
        try:
            drawn = engine.draw_factions(stored.payload["chosen"], stored.payload["random_seats"], seed)
        except (KeyError, TypeError, ValueError, RuleViolation) as error:
            raise _UnreadableDraw(stored.seq) from error
    started, *rest = engine.opening_recorded(setup_data, seed, version, drawn)
    return [_as_recorded(started, first), *rest]


class _UnreadableDraw(Exception):
    """A "FactionsDrawn" whose factions chosen or number of random seats cannot be drawn from."""

    def __init__(self, seq: int) -> None:
        self.seq = seq
        super().__init__(seq)


def _factions_drawn(events: Sequence[LoggedEvent]) -> LoggedEvent | None:
    """The opening's "FactionsDrawn" (a gathered game with "random" seats), if any."""
    opening = next((i for i, e in enumerate(events) if e.type in BATCH_STARTS), len(events))
    return next((e for e in events[:opening] if e.type == engine.FACTIONS_DRAWN), None)


def _seated_problem(events: Sequence[LoggedEvent]) -> ReplayProblem | None:
    """H-SETUP: the game's factions (GameStarted's seat order) are those the players chose and those
    drawn for the "random" seats, as the opening's "FactionsDrawn" records them."""
    stored = _factions_drawn(events)
    if stored is None or engine.seated_factions(engine.Event(stored.type, stored.payload)) == sorted(
        events[0].payload["seat_order"]
    ):
        return None
    reason = "the game's factions (GameStarted) are not the factions chosen and drawn here"
    return ReplayProblem(stored.seq, reason, rules_version=engine.rules_version_of(events[0].payload))


def _as_recorded(expected: engine.Event, stored: LoggedEvent) -> engine.Event:
    """`expected` naming the rules version `stored` names (H-RULES-VERSION): the version is what the
    log says it is; the replay checks what the rules decided, and what a batch of other rules
    decided differently is not checked rather than different."""
    payload = {name: value for name, value in expected.payload.items() if name != "rules_version"}
    if "rules_version" in stored.payload:
        payload["rules_version"] = stored.payload["rules_version"]
    return engine.Event(expected.type, payload)


def replay(events: Sequence[LoggedEvent], seed: str) -> ReplayReport:
    """Decide the whole log again from `seed`; name the first event that differs (H-END, H-ORDER).

    For a game recorded under another rules version, a difference the rules give is not checked
    (ReplayReport.not_checked), provided every stored event folds."""
    # Table events (messages, vacations, deadlines, substitutes) are outside the rules: they change
    # no state, draw nothing, and may fall between batches; the hash chain alone vouches for them.
    events = [e for e in events if e.type not in TABLE_EVENTS]
    if not events:
        return ReplayReport(0, 0, None)
    report = ReplayReport(*_decide_again(events, seed))
    if report.not_checked:
        problem = _fold_problem(events)
        if problem:
            return ReplayReport(report.orders, report.draws, problem, report.rules_versions)
    return report


def _fold_problem(events: Sequence[LoggedEvent]) -> ReplayProblem | None:
    """H-RULES-VERSION: the stored events fold, one by one (events are facts, whatever rules decided them)."""
    state = engine.GameState()
    for event in events:
        try:
            engine.fold_from(state, [engine.Event(event.type, event.payload)])
        except Exception as error:  # whatever an applier raises, the event cannot be applied
            return ReplayProblem(event.seq, f"the log does not fold here: {error!r}", by_rules=False)
    return None


Versions = tuple[int | None, ...]


def _decide_again(
    events: Sequence[LoggedEvent], seed: str
) -> tuple[int, int, ReplayProblem | None, Versions]:
    """(orders decided again, draws, the first problem, the rules versions met) of a log without
    table events; a problem names the rules version of its batch (H-RULES-VERSION)."""
    version = engine.rules_version_of(events[0].payload)
    versions = [version]
    problem = _seed_problem(events, seed) or _newer_rules(events[0], version)
    if problem:
        return 0, 0, problem, (version,)
    # H-TAKEBACK: a take-back is decided again on its own, from the state before the batch it takes back.
    starts = [i for i, e in enumerate(events) if e.type in BATCH_STARTS] + [len(events)]
    try:
        opening = _opening(events, seed)
    except _UnreadableDraw as error:
        reason = f"the factions drawn cannot be drawn again: {error.__cause__}"
        return 0, 0, ReplayProblem(error.seq, reason, rules_version=version), (version,)
    except (KeyError, TypeError, ValueError, RuleViolation) as error:
        reason = f"the opening cannot be replayed: {error}"
        return 0, 0, ReplayProblem(events[0].seq, reason, rules_version=version), (version,)
    problem = _compare(opening, events[: starts[0]], events[0].seq) or _seated_problem(events)
    if problem:
        return 0, 0, replace(problem, rules_version=version), (version,)
    state = engine.fold(opening)
    draws = _draws(opening)
    last: tuple[engine.GameState, list[engine.Event], int] | None = None  # before, batch, order seq
    for number, (start, end) in enumerate(zip(starts, starts[1:], strict=False)):
        given = events[start]
        if given.type == engine.ORDER_TAKEN_BACK:
            problem, state = _take_back_again(given, events[start:end], state, last)
            if problem:
                return number, draws, replace(problem, rules_version=versions[-1]), tuple(versions)
            last = None  # the order before it was followed by the one taken back: it stands
            continue
        version = engine.rules_version_of(given.payload)
        if _goes_back(versions[-1], version):
            reason = (
                f"the order names {rules_named(version)} after {rules_named(versions[-1])}:"
                " a game goes on under newer rules, never older ones"
            )
            return number, draws, ReplayProblem(given.seq, reason, by_rules=False), tuple(versions)
        problem = _newer_rules(given, version)
        if problem:
            return number, draws, problem, (*versions, version)
        if version not in versions:
            versions.append(version)
        try:
            command = engine.command_from_dict(given.payload["command"])
            by = given.payload.get("by", "player")
            expected = engine.decide_recorded(state, command, seed, given.seq, by, deciding(version))
        except (KeyError, TypeError, ValueError) as error:
            reason = f"the order cannot be read: {error}"
            return number, draws, ReplayProblem(given.seq, reason, rules_version=version), tuple(versions)
        except RuleViolation as violation:
            reason = f"the order is not legal here: {violation}"
            return number, draws, ReplayProblem(given.seq, reason, rules_version=version), tuple(versions)
        expected = [_as_recorded(expected[0], given), *expected[1:]]
        problem = _compare(expected, events[start:end], given.seq)
        if problem:
            return number, draws, replace(problem, rules_version=version), tuple(versions)
        # Only a batch a take-back follows needs the state before it kept (a copy costs a pickle).
        taken_back = end < len(events) and events[end].type == engine.ORDER_TAKEN_BACK
        last = (state.copy(), expected, given.seq) if taken_back else None
        state = engine.fold_from(state, expected)
        draws += _draws(expected)
    return len(starts) - 1, draws, None, tuple(versions)


def _take_back_again(
    taken: LoggedEvent,
    stored: Sequence[LoggedEvent],
    state: engine.GameState,
    last: tuple[engine.GameState, list[engine.Event], int] | None,
) -> tuple[ReplayProblem | None, engine.GameState]:
    """H-TAKEBACK: the take-back decided again on the state before the batch it takes back (the last
    batch, just replayed), compared with the log; with the state after it."""
    if last is None:
        return ReplayProblem(taken.seq, "OrderTakenBack with no order right before it to take back"), state
    before, batch, order_seq = last
    try:
        expected = engine.decide_take_back(before, state, batch, order_seq, taken.payload["player"])
    except KeyError as error:
        return ReplayProblem(taken.seq, f"the take-back cannot be read: {error}"), state
    except RuleViolation as violation:
        return ReplayProblem(taken.seq, f"the take-back is not legal here: {violation}"), state
    expected = _as_recorded(expected, taken)
    problem = _compare([expected], stored, taken.seq)
    return problem, (state if problem else engine.fold_from(state, [expected]))


def _goes_back(newest: int | None, version: int | None) -> bool:
    """H-RULES-VERSION: whether an order names older rules than the opening or an order before it
    (or none after one that named a version). A game goes on under the new version from a change
    on, so this is no change of the rules but a log claiming older ones, maybe to have a forged
    batch reported NOT CHECKED rather than FAILED."""
    return newest is not None and (version is None or version < newest)


def _newer_rules(event: LoggedEvent, version: int | None) -> ReplayProblem | None:
    """H-RULES-VERSION: an opening or an order naming a newer rules version than this engine's, or a
    version no rules ever had (not a whole number, or below 0). No
    server running this code decided it, and none of an older version could have: a log claiming
    it is forged, or needs the project's code of that version to be checked; either way these rules
    cannot call it NOT CHECKED, which would let a forger relabel a forged batch to be let through."""
    named = event.payload.get("rules_version")
    if named is not None and (version is None or version < 0):
        # Logs from before versions name none, or 0; a value no server ever wrote (a text, a negative
        # number) is no older rules either, and calling it unknown would let it off as NOT CHECKED.
        what = "order" if event.type == engine.ORDER_GIVEN else "opening"
        reason = f"the {what} names rules version {named!r}, which is no rules version any server knows"
        return ReplayProblem(event.seq, reason, by_rules=False, rules_version=None)
    if version is None or version <= engine.RULES_VERSION:
        return None
    reason = (
        f"the {'order' if event.type == engine.ORDER_GIVEN else 'opening'} names {rules_named(version)},"
        f" newer than this engine's rules version {engine.RULES_VERSION}: these rules never decided it"
        " (only the project's code of that version, if it exists, can check it)"
    )
    return ReplayProblem(event.seq, reason, by_rules=False, rules_version=version)


def _draws(events: Sequence[engine.Event]) -> int:
    """The draws re-derived: every batch's, and a gathered game's faction draws (FactionsDrawn)."""
    drawing = (engine.RANDOMNESS_DRAWN, engine.FACTIONS_DRAWN)
    return sum(len(e.payload["draws"]) for e in events if e.type in drawing)


def rules_named(version: int | None) -> str:
    """A batch's rules version in a report (H-RULES-VERSION)."""
    if version is None:
        return "an unknown rules version (recorded before the log named versions)"
    return f"rules version {version}"


if __name__ == "__main__":  # `python -m games.eventstore.replay EXPORT.json` (docs/fairness.md)
    from games.eventstore.replay_report import main

    raise SystemExit(main())

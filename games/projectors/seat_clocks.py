"""The seat clocks (issue 6): each seat's current obligation and deadline, and its missed turns.

Runs after the progress projector (modules run in name order) and reads what it wrote: who must
act, in which phase, year and round (from the state the progress projector was given, when the
append has it, else from its row). Times come from the events: an obligation is owed since the
turn-flow event that opened it (TurnBegan, YearBegan, WinterBegan or a game's opening), so a
rebuild in any batches gives the same rows. "Ready" early resolution needs nothing here: when
everyone who must act has acted the engine moves on at once, and the next obligation's clock
starts at that event.

Every order runs this, so it costs few round trips: the clocks and the seats in one query, the
opening event from the batch when it is there, the deadline settings and vacations once for all
who owe, and the changed clocks in one upsert.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db.models import CharField, DateTimeField, IntegerField, Value

from ..engine.table import DEADLINE_PASSED, SEAT_HANDED_OVER, VACATION_TAKEN
from ..models import Event, Game, GameProgress, Seat, SeatClock, Vacation
from ..projections import projector

ORDER_GIVEN = "OrderGiven"  # issue 7's record of an order: {player, command, by}
OPENING_TYPES = ("GameStarted", "ScenarioLoaded", "YearBegan", "TurnBegan", "WinterBegan")
WRITTEN = ["obligation", "since_seq", "due_since", "deadline", "missed_in_a_row"]


@projector(read_models=[SeatClock, Vacation])
def seat_clocks(game: Game, events: Sequence[Event]) -> None:
    standing = _standing(game, events)
    if standing is None:
        return
    phase, year, action_round, must_act = standing
    from ..deadlines import obligation_key, seat_deadlines  # deadlines imports the models, as we do

    clocks, seated = _clocks_and_seats(game.pk)
    stored = {faction: _values(clock) for faction, clock in clocks.items()}
    for event in events:
        _count_missed(game, clocks, event)
        if event.type == VACATION_TAKEN:
            p = event.payload
            Vacation.objects.get_or_create(
                game_id=game.pk,
                seq=event.seq,
                defaults={
                    "faction": p["player"],
                    "start": datetime.fromisoformat(p["start"]),
                    "end": datetime.fromisoformat(p["end"]),
                    "days": p["days"],
                },
            )
    owing = set(must_act) if phase != "ended" else set()
    key = obligation_key(phase, year, action_round)
    opening = _opening(game, events) if owing else None
    deadlines = {}
    if opening is not None:
        deadlines = seat_deadlines(game.pk, sorted(owing), opening[1], key.startswith("winter"))
    changed = []
    for faction in sorted(set(clocks) | owing | seated):
        clock = clocks.get(faction) or SeatClock(game_id=game.pk, faction=faction)
        if faction in owing and opening is not None:
            clock.obligation, (clock.since_seq, clock.due_since) = key, opening
            clock.deadline = deadlines[faction]
        else:
            clock.obligation, clock.since_seq, clock.due_since, clock.deadline = "", None, None, None
        if stored.get(faction) != _values(clock):
            changed.append(clock)
    if changed:
        SeatClock.objects.bulk_create(
            changed, update_conflicts=True, unique_fields=["game", "faction"], update_fields=WRITTEN
        )


def _standing(game: Game, events: Sequence[Event]) -> tuple[str, int, int, list[str]] | None:
    """Phase, year, round and who must act after `events`: what the progress projector just wrote."""
    from ..situation import cached_state_after, must_act  # it imports the store, which imports us

    state = cached_state_after(game, events)  # the progress projector's state: no query
    if state is not None:
        return state.phase, state.year, state.action_round, must_act(state)
    progress = GameProgress.objects.filter(game_id=game.pk).first()
    if progress is None:
        return None
    return progress.phase, progress.year, progress.action_round, progress.must_act


def _clocks_and_seats(game_id: int) -> tuple[dict[str, SeatClock], set[str]]:
    """The game's clocks and its seated factions, in one round trip (a seat's row has no id)."""
    clock_rows = SeatClock.objects.filter(game_id=game_id).values_list("id", "faction", *WRITTEN)
    seat_rows = (
        Seat.objects.filter(game_id=game_id)
        .order_by()
        .values_list(
            Value(None, IntegerField()),
            "faction",
            Value("", CharField()),
            Value(None, IntegerField()),
            Value(None, DateTimeField()),
            Value(None, DateTimeField()),
            Value(0, IntegerField()),
        )
    )
    clocks: dict[str, SeatClock] = {}
    seated: set[str] = set()
    for row_id, faction, *values in clock_rows.union(seat_rows, all=True):
        if row_id is None:
            seated.add(faction)
        else:
            clocks[faction] = SeatClock(
                id=row_id, game_id=game_id, faction=faction, **dict(zip(WRITTEN, values, strict=True))
            )
    return clocks, seated


def _values(clock: SeatClock) -> tuple[Any, ...]:
    return tuple(getattr(clock, field) for field in WRITTEN)


def _opening(game: Game, events: Sequence[Event]) -> tuple[int, datetime] | None:
    """(seq, created) of the newest turn-flow event up to the batch's end: in the batch (most
    orders end a turn), else the newest before it."""
    for event in reversed(events):
        if event.type in OPENING_TYPES:
            return event.seq, event.created
    return (
        Event.objects.filter(game_id=game.pk, seq__lte=events[-1].seq, type__in=OPENING_TYPES)
        .order_by("-seq")
        .values_list("seq", "created")
        .first()
    )


def _count_missed(game: Game, clocks: dict[str, SeatClock], event: Event) -> None:
    """A missed deadline counts one more; the player's own order, or a substitute, starts again at 0.

    Whose order it was is read from "OrderGiven" (issue 7): `by` is "system" for a default order.
    """
    faction = event.payload.get("player") if isinstance(event.payload, dict) else None
    if not isinstance(faction, str):
        return
    clock = clocks.setdefault(faction, SeatClock(game_id=game.pk, faction=faction))
    if event.type == DEADLINE_PASSED:
        clock.missed_in_a_row += 1
    elif event.type == SEAT_HANDED_OVER or (
        event.type == ORDER_GIVEN and event.payload.get("by") == "player"
    ):
        clock.missed_in_a_row = 0

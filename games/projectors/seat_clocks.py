"""The seat clocks (docs/long-games.md): each seat's current obligation and deadline, and its missed turns.

Runs after the progress projector (modules run in name order) and reads what it wrote: who must
act, in which phase, year and round (from the state the progress projector was given, when the
append has it, else from its row). Times come from the events: an obligation is owed since the
turn-flow event that opened it (TurnBegan, YearBegan, WinterBegan or a game's opening), so a
rebuild in any batches gives the same rows. "Ready" early resolution needs nothing here: when
everyone who must act has acted the engine moves on at once, and the next obligation's clock
starts at that event.

Every order runs this, so it costs few round trips: the clocks and the seats in one query (none
when submit_order read them with its game's lock: games/services/order_lock.py), the opening event from
the batch when it is there, the deadline settings and vacations (one query) once for all whose
obligation is new, and the changed clocks in one upsert.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from aegea_pbem.sql_inserts import insert_rows
from aegea_pbem.sql_selects import model_rows, model_select
from games.engine.table import DEADLINE_PASSED, SEAT_HANDED_OVER, VACATION_TAKEN
from games.eventstore.projections import projector
from games.models import DeadlineSettings, Event, Game, GameProgress, Seat, SeatClock, Vacation
from games.reading.situation import cached_state_after, must_act
from games.words.clock import obligation_key, seat_deadlines, settings_and_vacations

ORDER_GIVEN = "OrderGiven"  # the log's record of an order (docs/export.md): {player, command, by}
OPENING_TYPES = ("GameStarted", "ScenarioLoaded", "YearBegan", "TurnBegan", "WinterBegan")
WRITTEN = ["obligation", "since_seq", "due_since", "deadline", "missed_in_a_row"]


@projector(read_models=[SeatClock, Vacation])
def seat_clocks(game: Game, events: Sequence[Event]) -> None:
    standing = _standing(game, events)
    if standing is None:
        return
    phase, year, action_round, must_act = standing
    clocks, seated = _clocks_and_seats(game.pk, events[0].seq - 1)
    stored = {faction: _values(clock) for faction, clock in clocks.items()}
    vacation = False
    for event in events:
        _count_missed(game, clocks, event)
        if event.type == VACATION_TAKEN:
            vacation = True
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
    in_batch = _opening_in(events)
    # A seat still owing the obligation it owed, opened by the same event, keeps its deadline:
    # that is a function of the opening time, the settings and the seat's vacations, and changing
    # either of those recomputes every open deadline (recompute_deadlines; a vacation in the batch
    # here). So most orders that do not end a turn need no opening, settings or vacations.
    kept = set() if vacation else {f for f in owing if _still_owing(clocks.get(f), key, in_batch)}
    opening = (in_batch or _opening_before(game, events)) if owing - kept else None
    deadlines, settings = {}, None
    if opening is not None:
        settings, vacations = _settings_and_vacations(game.pk, events[0].seq - 1, opening[1], vacation)
        winter = key.startswith("winter")
        deadlines = seat_deadlines(settings, sorted(owing - kept), opening[1], winter, vacations)
    changed, written = [], {}
    for faction in sorted(set(clocks) | owing | seated):
        clock = written[faction] = clocks.get(faction) or SeatClock(game_id=game.pk, faction=faction)
        if faction in kept:
            pass
        elif faction in owing and opening is not None:
            clock.obligation, (clock.since_seq, clock.due_since) = key, opening
            clock.deadline = deadlines[faction]
        else:
            clock.obligation, clock.since_seq, clock.due_since, clock.deadline = "", None, None, None
        if stored.get(faction) != _values(clock):
            changed.append(clock)
    if changed:
        insert_rows(changed, conflict=["game", "faction"], update=WRITTEN)
    last = events[-1]
    _written.set(Written((game.pk, last.seq, last.hash), written, settings))


@dataclass(frozen=True)
class Written:
    """The clocks (by faction) the projector left after a batch, and the deadline settings if it read them."""

    key: tuple[int, int, str]  # game, seq and hash of the batch's last event
    clocks: dict[str, SeatClock]
    settings: DeadlineSettings | None


_written: ContextVar[Written | None] = ContextVar("seat_clocks_written", default=None)


def written_after(game: Game, rows: Sequence[Event]) -> Written | None:
    """The clocks after the batch `rows` that this thread just appended, with no query (the order's
    emails show the deadlines); None when the projector did not see that batch."""
    found = _written.get()
    last = rows[-1]
    return found if found is not None and found.key == (game.pk, last.seq, last.hash) else None


def _standing(game: Game, events: Sequence[Event]) -> tuple[str, int, int, list[str]] | None:
    """Phase, year, round and who must act after `events`: what the progress projector just wrote."""
    state = cached_state_after(game, events)  # the progress projector's state: no query
    if state is not None:
        return state.phase, state.year, state.action_round, must_act(state)
    progress = GameProgress.objects.filter(game_id=game.pk).first()
    if progress is None:
        return None
    return progress.phase, progress.year, progress.action_round, progress.must_act


# One round trip, and SQL of our own: this runs on every order, and the ORM's union costs several
# times the client time. A seat's row has no id; the model's converters still apply (SQLite's
# datetimes).
CLOCK_FIELDS, CLOCKS = model_select(SeatClock, "game_id = %s")
# A seated faction as a clock row with no id, column for column (a new field breaks this loudly).
CLOCKS_AND_SEATS = f"""{CLOCKS}
UNION ALL
SELECT NULL, game_id, faction, '', NULL, NULL, NULL, 0 FROM games_seat WHERE game_id = %s"""


@dataclass(frozen=True)
class _ReadWithLock:
    """What submit_order read with its game's lock, in the transaction that appends after `key`."""

    key: tuple[int, int]  # the game and the seq appended after
    clocks: dict[str, SeatClock] | None  # by faction: all the game's clocks; None: not all
    seated: set[str]
    settings: DeadlineSettings | None  # None: the game has vacations, read with the settings here


# Per thread: what the order being appended read with its game's lock.
_read_with_lock: ContextVar[_ReadWithLock | None] = ContextVar("seat_clocks_read_with_lock", default=None)


@contextmanager
def read_with_lock(
    game: Game,
    seq: int,
    clocks: dict[str, SeatClock] | None,
    seats: Sequence[Seat],
    settings: DeadlineSettings,
    has_vacations: bool,
) -> Iterator[None]:
    """While submit_order appends after event `seq`, the projector starts from `clocks` (None: not
    all the game's clocks, so it reads them) and opens deadlines by `settings` with no vacations
    when the game had none (`has_vacations` False; a vacation taken in the batch is read anyway)."""
    read = _ReadWithLock(
        (game.pk, seq), clocks, {seat.faction for seat in seats}, None if has_vacations else settings
    )
    token = _read_with_lock.set(read)
    try:
        yield
    finally:
        _read_with_lock.reset(token)


def _read_before(game_id: int, after_seq: int) -> _ReadWithLock | None:
    read = _read_with_lock.get()
    return read if read is not None and read.key == (game_id, after_seq) else None


def _clocks_and_seats(game_id: int, after_seq: int) -> tuple[dict[str, SeatClock], set[str]]:
    """The game's clocks and its seated factions, as they were after event `after_seq`: read with the
    order's lock when submit_order is appending (read_with_lock), else here."""
    read = _read_before(game_id, after_seq)
    if read is not None and read.clocks is not None:
        return read.clocks, read.seated
    clocks: dict[str, SeatClock] = {}
    seated: set[str] = set()
    for row in model_rows(SeatClock, CLOCK_FIELDS, CLOCKS_AND_SEATS, [game_id, game_id]):
        if row.pk is None:
            seated.add(row.faction)
        else:
            clocks[row.faction] = row
    return clocks, seated


def _settings_and_vacations(
    game_id: int, after_seq: int, opening: datetime, vacation_in_batch: bool
) -> tuple[DeadlineSettings, list[Vacation]]:
    """The deadline settings and the vacations ending after `opening`: read with the order's lock
    when the game has no vacations (read_with_lock), else here (one query)."""
    read = _read_before(game_id, after_seq)
    if read is not None and read.settings is not None and not vacation_in_batch:
        return read.settings, []
    return settings_and_vacations(game_id, opening)


def _values(clock: SeatClock) -> tuple[Any, ...]:
    return tuple(getattr(clock, field) for field in WRITTEN)


def _still_owing(clock: SeatClock | None, key: str, in_batch: tuple[int, datetime] | None) -> bool:
    """The seat owed `key` after the last batch, and no newer turn-flow event opened it again.
    (Without one in this batch, the newest is the one its clock already names: every batch
    sets an owing seat's clock to the newest.)"""
    if clock is None or clock.obligation != key or clock.since_seq is None:
        return False
    return in_batch is None or in_batch[0] == clock.since_seq


def _opening_in(events: Sequence[Event]) -> tuple[int, datetime] | None:
    """(seq, created) of the batch's last turn-flow event: most orders that end a turn have one."""
    for event in reversed(events):
        if event.type in OPENING_TYPES:
            return event.seq, event.created
    return None


def _opening_before(game: Game, events: Sequence[Event]) -> tuple[int, datetime] | None:
    """(seq, created) of the newest turn-flow event before the batch."""
    return (
        Event.objects.filter(game_id=game.pk, seq__lt=events[0].seq, type__in=OPENING_TYPES)
        .order_by("-seq")
        .values_list("seq", "created")
        .first()
    )


def _count_missed(game: Game, clocks: dict[str, SeatClock], event: Event) -> None:
    """A missed deadline counts one more; the player's own order, or a substitute, starts again at 0.

    Whose order it was is read from "OrderGiven" (docs/export.md): `by` is "system" for a default order.
    """
    faction = event.payload.get("player") if isinstance(event.payload, dict) else None
    if not isinstance(faction, str):
        return
    clock = clocks.get(faction) or clocks.setdefault(faction, SeatClock(game_id=game.pk, faction=faction))
    if event.type == DEADLINE_PASSED:
        clock.missed_in_a_row += 1
    elif event.type == SEAT_HANDED_OVER or (
        event.type == ORDER_GIVEN and event.payload.get("by") == "player"
    ):
        clock.missed_in_a_row = 0

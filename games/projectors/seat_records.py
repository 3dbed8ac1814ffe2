"""The seat records (docs/front-door.md "Reliability"): what each holding of a seat did, from the log.

A holding begins at the game's opening (GameStarted or ScenarioLoaded, one per faction of its seat
order) or at a hand-over (SeatHandedOver), and ends at the seat's next hand-over. Its row counts
the orders its player gave (OrderGiven by "player") and took back (OrderTakenBack), the deadlines
it missed (DeadlinePassed: the
server gave the default order), the vacations taken (VacationTaken), and whether it still held the
seat at GameEnded. Which address held it is not in the log: games/models/reliability.py's
SeatHolder, which the services write, says so; games/projectors/reliability.py joins the two.

Every order runs this, and it reads nothing: an order's events add to the seat's present holding,
found by the partial unique index on (game, faction) of the rows with no `until_seq`, in one
upsert whose ON CONFLICT adds the counters (n = n + EXCLUDED.n). It is held with the order's other
INSERTs and sent in their one statement (aegea_pbem/sql_pipeline.py). A batch with a hand-over
then closes the seat's present holding (an UPDATE) and inserts the holdings it began.
The rows are a pure fold: the same whether the log comes in one batch or many.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from aegea_pbem.sql_inserts import insert_rows
from games.engine.table import DEADLINE_PASSED, SEAT_HANDED_OVER, VACATION_TAKEN
from games.eventstore.projections import projector
from games.models import Event, Game, SeatRecord

OPENINGS = ("GameStarted", "ScenarioLoaded")
ORDER_GIVEN = "OrderGiven"
ORDER_TAKEN_BACK = "OrderTakenBack"  # H-TAKEBACK: only the player who gave the order takes it back
GAME_ENDED = "GameEnded"
COUNTERS = ["played", "finished", "orders_in_time", "orders_taken_back", "deadlines_missed", "vacations"]
# The present holding's row: SeatRecord's partial unique index games_seatrecord_present.
PRESENT = '"until_seq" IS NULL'


@dataclass
class Holding:
    """What a batch of events did to one holding of a seat. `since_seq` None: the seat's present
    holding, begun before the batch (its row is found by the upsert, not read)."""

    faction: str
    since_seq: int | None
    until_seq: int | None = None
    played: int = 0
    finished: int = 0
    orders_in_time: int = 0
    orders_taken_back: int = 0
    deadlines_missed: int = 0
    vacations: int = 0


def fold_holdings(events: Iterable[tuple[int, str, Any]]) -> list[Holding]:
    """The holdings that `events` ((seq, type, payload) of one game, in seq order) begin, end or
    count, in the order first met: pure, no database."""
    present: dict[str, Holding] = {}
    met: list[Holding] = []

    def begin(faction: str, seq: int | None) -> Holding:
        holding = present[faction] = Holding(faction, seq, played=1 if seq is not None else 0)
        met.append(holding)
        return holding

    def current(faction: str) -> Holding:
        return present.get(faction) or begin(faction, None)

    for seq, kind, payload in events:
        if not isinstance(payload, dict):
            continue
        if kind in OPENINGS:
            for faction in _seat_order(kind, payload):
                if faction in present:  # a log that opens again (the bench's copies of a game)
                    present[faction].until_seq = seq
                begin(faction, seq)
            continue
        if kind == GAME_ENDED:
            for standing in payload.get("standings") or []:
                if isinstance(standing, dict) and isinstance(standing.get("player"), str):
                    current(standing["player"]).finished = 1
            continue
        faction = payload.get("player")
        if not isinstance(faction, str):
            continue
        if kind == SEAT_HANDED_OVER:
            current(faction).until_seq = seq
            begin(faction, seq)
        elif kind == ORDER_GIVEN and payload.get("by") == "player":
            current(faction).orders_in_time += 1
        elif kind == ORDER_TAKEN_BACK:  # H-TAKEBACK: the order taken back was not given after all
            current(faction).orders_taken_back += 1
        elif kind == DEADLINE_PASSED:
            current(faction).deadlines_missed += 1
        elif kind == VACATION_TAKEN:
            current(faction).vacations += 1
    return met


def _seat_order(kind: str, payload: dict[str, Any]) -> list[str]:
    """The factions an opening seats: GameStarted's seat order, or the loaded scenario's."""
    order = (
        payload.get("seat_order") if kind == "GameStarted" else (payload.get("state") or {}).get("seat_order")
    )
    return [faction for faction in order or [] if isinstance(faction, str)]


@projector(read_models=[SeatRecord])
def seat_records(game: Game, events: Sequence[Event]) -> None:
    met = fold_holdings((event.seq, event.type, event.payload) for event in events)
    if not met:
        return
    # The present holdings begun before the batch: added to in one upsert (an order's only
    # statement here). If a seat has no row (a log with no opening), it starts one at since_seq 0,
    # which no SeatHolder names.
    carried = [holding for holding in met if holding.since_seq is None]
    if carried:
        rows = [_row(game, holding, until_seq=None) for holding in carried]
        insert_rows(rows, conflict=["game", "faction"], conflict_where=PRESENT, increment=COUNTERS)
    # A hand-over closes the present holding: an UPDATE, since a proposed row with an until_seq is
    # not in the partial index the upsert finds the present one by. Hand-overs are not orders.
    for holding in carried:
        if holding.until_seq is not None:
            present = SeatRecord.objects.filter(game_id=game.pk, faction=holding.faction, until_seq=None)
            present.update(until_seq=holding.until_seq)
    # An opening with no holding of its faction before it in the batch ends the one a former batch
    # left present, if any: none in a real game, whose log opens once (so one UPDATE that finds
    # nothing when a game is made); a log of several games' copies (make bench) opens again.
    first: dict[str, Holding] = {}
    for holding in met:
        first.setdefault(holding.faction, holding)
    reopened: dict[int, list[str]] = {}
    for faction, holding in first.items():
        if holding.since_seq is not None:
            reopened.setdefault(holding.since_seq, []).append(faction)
    for seq, factions in reopened.items():
        SeatRecord.objects.filter(game_id=game.pk, faction__in=factions, until_seq=None).update(until_seq=seq)
    # Then the holdings the batch began, once the present ones are closed.
    begun = [_row(game, holding, holding.until_seq) for holding in met if holding.since_seq is not None]
    if begun:
        insert_rows(begun)


def _row(game: Game, holding: Holding, until_seq: int | None) -> SeatRecord:
    return SeatRecord(
        game_id=game.pk,
        faction=holding.faction,
        since_seq=holding.since_seq or 0,
        until_seq=until_seq,
        played=holding.played,
        finished=holding.finished,
        orders_in_time=holding.orders_in_time,
        orders_taken_back=holding.orders_taken_back,
        deadlines_missed=holding.deadlines_missed,
        vacations=holding.vacations,
    )

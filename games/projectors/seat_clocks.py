"""The seat clocks (issue 6): each seat's current obligation and deadline, and its missed turns.

Runs after the progress projector (modules run in name order) and reads its row: who must act,
in which phase, year and round. Times come from the events: an obligation is owed since the
turn-flow event that opened it (TurnBegan, YearBegan, WinterBegan or a game's opening), so a
rebuild in any batches gives the same rows. "Ready" early resolution needs nothing here: when
everyone who must act has acted the engine moves on at once, and the next obligation's clock
starts at that event.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..engine.table import DEADLINE_PASSED, SEAT_HANDED_OVER, VACATION_TAKEN
from ..models import Event, Game, GameProgress, Seat, SeatClock, Vacation
from ..projections import projector

ORDER_GIVEN = "OrderGiven"  # issue 7's record of an order: {player, command, by}
OPENING_TYPES = ("GameStarted", "ScenarioLoaded", "YearBegan", "TurnBegan", "WinterBegan")


@projector(read_models=[SeatClock, Vacation])
def seat_clocks(game: Game, events: Sequence[Event]) -> None:
    progress = GameProgress.objects.filter(game_id=game.pk).first()
    if progress is None:
        return
    from ..deadlines import obligation_key, seat_deadline  # deadlines imports the models, as we do

    clocks = {c.faction: c for c in SeatClock.objects.filter(game_id=game.pk)}
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
    owing = set(progress.must_act) if progress.phase != "ended" else set()
    key = obligation_key(progress.phase, progress.year, progress.action_round)
    opening = (
        Event.objects.filter(game_id=game.pk, seq__lte=events[-1].seq, type__in=OPENING_TYPES)
        .order_by("-seq")
        .values_list("seq", "created")
        .first()
    )
    seated = set(Seat.objects.filter(game_id=game.pk).values_list("faction", flat=True))
    for faction in sorted(set(clocks) | owing | seated):
        clock = clocks.get(faction) or SeatClock(game_id=game.pk, faction=faction)
        if faction in owing and opening is not None:
            clock.obligation, (clock.since_seq, clock.due_since) = key, opening
            clock.deadline = seat_deadline(game.pk, faction, clock.due_since, key.startswith("winter"))
        else:
            clock.obligation, clock.since_seq, clock.due_since, clock.deadline = "", None, None, None
        clock.save()


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

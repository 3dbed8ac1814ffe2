"""The per-game summary: status, last seq and when the game last changed."""

from __future__ import annotations

from collections.abc import Sequence

from games.eventstore.projections import projector, upsert
from games.models import Event, Game, GameSummary

# The only event types the summary reads; every other event just moves last_seq and updated.
# A game opened from a scenario (docs/scenarios.md) is under way from its one opening event.
STATUS_AFTER = {
    "GameStarted": Game.Status.ACTIVE,
    "ScenarioLoaded": Game.Status.ACTIVE,
    "GameEnded": Game.Status.ENDED,
}


def _reset_game_status() -> None:
    Game.objects.exclude(status=Game.Status.NEW).update(status=Game.Status.NEW)


@projector(read_models=[GameSummary], reset=_reset_game_status)
def game_summary(game: Game, events: Sequence[Event]) -> None:
    """Upsert the game's GameSummary; mirror a status change onto Game.status."""
    status = None
    for event in events:
        status = STATUS_AFTER.get(event.type, status)
    last = events[-1]
    row = GameSummary(game=game, status=status or Game.Status.NEW, last_seq=last.seq, updated=last.created)
    update_fields = ["last_seq", "updated"] + (["status"] if status else [])
    upsert(row, update_fields)
    if status and game.status != status:
        Game.objects.filter(pk=game.pk).update(status=status)
        game.status = status

"""The progress read model (docs/order-loop.md): year, phase, who must act and VP of each seated game."""

from __future__ import annotations

from collections.abc import Sequence

from games.eventstore.projections import projector, upsert
from games.models import Event, Game, GameProgress, Seat
from games.reading.situation import cached_state_after, load_game, must_act


@projector(read_models=[GameProgress])
def game_progress(game: Game, events: Sequence[Event]) -> None:
    """Fold the game up to the new events and upsert its GameProgress row.

    Only games with seats are played by the engine's rules; other logs (e.g. the store's
    own tests) have no progress to show.
    """
    # A state cached right before these events is an engine game's: then neither query is needed.
    state = cached_state_after(game, events)
    if state is None:
        if not Seat.objects.filter(game_id=game.pk).exists():
            return
        state = load_game(game, up_to_seq=events[-1].seq).state
    row = GameProgress(
        game=game,
        year=state.year,
        phase=state.phase,
        action_round=state.action_round,
        must_act=must_act(state),
        vp={f: state.players[f].vp for f in state.seat_order},
        winners=list(state.winners),
    )
    upsert(row, ["year", "phase", "action_round", "must_act", "vp", "winners"])

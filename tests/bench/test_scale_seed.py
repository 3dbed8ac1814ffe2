"""The scale bench's seeded games are honest copies: verifygame passes on them, and their read
models, snapshots and outbox rows are the template's under the copy's own ids and times."""

from __future__ import annotations

import pytest

from bench.orders import record_game
from bench.scale_seed import seed_games
from games.eventstore.projections import rebuild_projections
from games.eventstore.verification import verify_game
from games.models import Event, Game, GameProgress, GameSummary, Seat, SeatClock, Snapshot
from notifications.models import Outbox

# COPY and VACUUM: PostgreSQL only, outside a test transaction.
pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def read_models(game: Game) -> tuple:
    progress = GameProgress.objects.filter(game=game)
    progress = progress.values("year", "phase", "action_round", "must_act", "vp")
    clocks = SeatClock.objects.filter(game=game).order_by("faction")
    return (
        list(GameSummary.objects.filter(game=game).values_list("status", "last_seq")),
        list(progress),
        list(clocks.values_list("faction", "obligation", "since_seq", "missed_in_a_row")),
    )


def test_seeded_copies_verify_and_carry_the_templates_rows_under_their_own_ids():
    template = Game.objects.get(pk=record_game(bot_seed=5, stop_after=30).game_id)  # a game in progress

    written = seed_games([template], 3, batch=2)

    copies = list(Game.objects.exclude(pk=template.pk).order_by("pk"))
    events = Event.objects.filter(game=template).count()
    assert len(copies) == 3 and written == 3 * events
    for copy in copies:
        assert verify_game(copy).ok  # chain rehashed for the new id; every order replays from the seed
        assert copy.status == template.status == Game.Status.ACTIVE
        assert read_models(copy) == read_models(template)
        assert Snapshot.objects.filter(game=copy).count() == Snapshot.objects.filter(game=template).count()
        seats = dict(Seat.objects.filter(game=copy).values_list("id", "faction"))
        rows = Outbox.objects.filter(game_id=copy.pk)
        assert rows.count() == Outbox.objects.filter(game_id=template.pk).count() > 0
        assert {row.seat_id for row in rows} <= set(seats)
        assert {row.status for row in rows} == {Outbox.Status.SENT}
        shift = Event.objects.get(game=copy, seq=1).created - Event.objects.get(game=template, seq=1).created
        clock = SeatClock.objects.filter(game=copy).exclude(deadline=None).first()
        original = SeatClock.objects.get(game=template, faction=clock.faction)
        assert clock.deadline - original.deadline == shift  # times moved together
    # The projectors, run from the copied logs, give the rows that were copied.
    before = [read_models(game) for game in copies]
    rebuild_projections()
    assert [read_models(game) for game in copies] == before

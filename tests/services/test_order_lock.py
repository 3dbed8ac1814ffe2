"""An order's first statement (games/services/order_lock.py): the lock, the log's head, the seats to mail and
their clocks."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from aegea_pbem.sql_selects import rows_with_related
from games.eventstore.hashing import GENESIS_HASH
from games.eventstore.store import head
from games.models import Event, Game, NotificationPreference, Seat, SeatClock
from games.services.order_lock import lock_game
from tests.order_loop_support import two_player_game


@pytest.mark.django_db
def test_the_head_the_seats_with_their_preferences_and_the_clocks_come_in_one_query(
    django_assert_num_queries,
):
    game = two_player_game()
    ana, ben = game.seats.order_by("id")
    NotificationPreference.objects.create(seat=ben, mode="every_turn", digest_hour=7)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE)

    with django_assert_num_queries(1):
        locked = lock_game(game.pk)
        seats = locked.seats
        assert locked.game.status == Game.Status.ACTIVE  # the locked row's
        with pytest.raises(Seat.preference.RelatedObjectDoesNotExist):
            seats[0].preference  # noqa: B018 (Ana has none; known without a query)
        assert seats[1].preference.mode == "every_turn" and seats[0].game is locked.game

    assert locked.head == head(game)
    assert model_to_dict(locked.game) == model_to_dict(Game.objects.get(pk=game.pk))
    clocks = {clock.faction: clock for clock in SeatClock.objects.filter(game=game)}
    assert len(clocks) == 2 and set(locked.clocks) == set(clocks)
    for faction, clock in clocks.items():
        assert model_to_dict(locked.clocks[faction]) == model_to_dict(clock)
        assert locked.clocks[faction].pk == clock.pk and not locked.clocks[faction]._state.adding
    expected = rows_with_related(Seat, "preference", ["game"], [game.pk])
    assert [model_to_dict(s) for s in seats] == [model_to_dict(s) for s in expected]
    assert [s.pk for s in seats] == [ana.pk, ben.pk]
    assert model_to_dict(seats[1].preference) == model_to_dict(expected[1].preference)
    assert not any(seat._state.adding or seat.get_deferred_fields() for seat in seats)


@pytest.mark.django_db
def test_a_game_without_events_or_seats_has_the_genesis_head_and_no_seats_or_clocks():
    game = Game.objects.create(name="empty")
    locked = lock_game(game.pk)
    assert (locked.head, locked.seats, locked.clocks) == ((0, GENESIS_HASH), [], {})


@pytest.mark.django_db
def test_a_clock_without_a_seat_leaves_the_clocks_to_the_projector():
    """The clocks come joined to the seats: a clock of a faction with no seat would be missed, so
    then none are handed on (the seat-clock projector reads them all itself)."""
    game = two_player_game()
    SeatClock.objects.create(game=game, faction="thebes")
    locked = lock_game(game.pk)
    assert locked.clocks is None and len(locked.seats) == 2


@pytest.mark.django_db
def test_an_unknown_game_is_an_error():
    with pytest.raises(Game.DoesNotExist):
        lock_game(10**9)


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_the_game_row_stays_locked_until_the_orders_transaction_ends():
    """Another order cannot read the same head meanwhile: its lock waits (here: NOWAIT refuses)."""
    import psycopg
    from django.conf import settings
    from django.db import transaction

    game = two_player_game()
    db = settings.DATABASES["default"]
    other = psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"], autocommit=True
    )
    lock = "SELECT id FROM games_game WHERE id = %s FOR UPDATE NOWAIT"
    try:
        with transaction.atomic():
            lock_game(game.pk)
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute(lock, [game.pk])
        with other.transaction():
            assert other.execute(lock, [game.pk]).fetchone() == (game.pk,)  # released at commit
    finally:
        other.close()


@pytest.mark.django_db
def test_the_events_after_the_callers_cached_state_come_with_the_head(django_assert_num_queries):
    game = two_player_game()
    events = list(Event.objects.filter(game=game).order_by("seq"))
    cached = events[-3].seq

    with django_assert_num_queries(1):
        locked = lock_game(game.pk, cached)

    assert locked.tail is not None and locked.tail.after_seq == cached
    assert locked.tail.events == [[e.seq, e.prev_hash, e.hash, e.type, e.payload] for e in events[-2:]]
    assert lock_game(game.pk, events[-1].seq).tail is None  # the caller holds the head: nothing after it
    assert lock_game(game.pk).tail is None  # the caller holds nothing of the game

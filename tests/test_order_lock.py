"""An order's first statement (games/order_lock.py): the lock, the log's head and the seats to mail."""

from __future__ import annotations

import pytest
from django.forms.models import model_to_dict

from aegea_pbem.sql_selects import rows_with_related
from games.hashing import GENESIS_HASH
from games.models import Game, NotificationPreference, Seat
from games.order_lock import lock_head_and_seats
from games.store import head
from tests.order_loop_support import two_player_game


@pytest.mark.django_db
def test_the_head_and_the_seats_with_their_preferences_come_in_one_query(django_assert_num_queries):
    game = two_player_game()
    ana, ben = game.seats.order_by("id")
    NotificationPreference.objects.create(seat=ben, mode="every_turn", digest_hour=7)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE)

    with django_assert_num_queries(1):
        found_head, seats = lock_head_and_seats(game)
        assert game.status == Game.Status.ACTIVE  # refreshed from the locked row
        with pytest.raises(Seat.preference.RelatedObjectDoesNotExist):
            seats[0].preference  # noqa: B018 (Ana has none; known without a query)
        assert seats[1].preference.mode == "every_turn" and seats[0].game is game

    assert found_head == head(game)
    expected = rows_with_related(Seat, "preference", ["game"], [game.pk])
    assert [model_to_dict(s) for s in seats] == [model_to_dict(s) for s in expected]
    assert [s.pk for s in seats] == [ana.pk, ben.pk]
    assert model_to_dict(seats[1].preference) == model_to_dict(expected[1].preference)
    assert not any(seat._state.adding or seat.get_deferred_fields() for seat in seats)


@pytest.mark.django_db
def test_a_game_without_events_or_seats_has_the_genesis_head_and_no_seats():
    game = Game.objects.create(name="empty")
    assert lock_head_and_seats(game) == ((0, GENESIS_HASH), [])


@pytest.mark.django_db
def test_an_unknown_game_is_an_error():
    with pytest.raises(Game.DoesNotExist):
        lock_head_and_seats(Game(pk=10**9))


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
            lock_head_and_seats(game)
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute(lock, [game.pk])
        with other.transaction():
            assert other.execute(lock, [game.pk]).fetchone() == (game.pk,)  # released at commit
    finally:
        other.close()

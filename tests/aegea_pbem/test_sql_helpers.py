"""The order path's hand-written SQL (aegea_pbem/sql_inserts.py, sql_selects.py) writes and reads
exactly what the ORM's bulk_create and select_related would."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.forms.models import model_to_dict
from django.utils import timezone
from django.utils.translation import gettext_lazy

from aegea_pbem.sql_inserts import insert_rows
from aegea_pbem.sql_selects import model_rows, model_select, rows_with_related
from games.models import (
    DeadlineSettings,
    Event,
    NotificationPreference,
    Seat,
    SeatClock,
    SeatRecord,
    Vacation,
)
from games.projectors.seat_records import COUNTERS
from games.words.clock import settings_and_vacations
from notifications.models import Outbox
from tests.order_loop_support import two_player_game


@pytest.mark.django_db
def test_insert_rows_reads_back_as_the_orm_wrote_it_with_the_new_ids():
    game = two_player_game()
    head = Event.objects.filter(game=game).order_by("-seq").first()
    payload = {"big": 2**70, "text": 'Ü "quoted"', "nested": {"b": [1, None, True]}}
    rows = [
        Event(
            game=game,
            seq=head.seq + n,
            type="Test",
            payload=payload,
            actor="athens",
            schema_version=1,
            created=timezone.now(),
            prev_hash="0" * 64,
            hash=f"{n:064d}",
        )
        for n in (1, 2)
    ]
    insert_rows(rows, returning_pk=True)
    assert all(row.pk for row in rows) and not rows[0]._state.adding
    for row in rows:
        stored = Event.objects.get(pk=row.pk)
        assert model_to_dict(stored) == model_to_dict(row)
        assert stored.payload["big"] == 2**70 and stored.created == row.created


@pytest.mark.django_db
def test_an_upsert_updates_only_the_named_fields_and_ignore_conflicts_keeps_the_first_row():
    game = two_player_game()
    SeatClock.objects.filter(game=game).delete()
    insert_rows([SeatClock(game=game, faction="athens", obligation="turn:431:1", missed_in_a_row=2)])
    again = SeatClock(game=game, faction="athens", obligation="", missed_in_a_row=0)
    insert_rows([again], conflict=["game", "faction"], update=["obligation"])
    clock = SeatClock.objects.get(game=game, faction="athens")
    assert (clock.obligation, clock.missed_in_a_row) == ("", 2)

    def email(subject: str) -> Outbox:
        return Outbox(
            game_id=game.pk, seq=1, seat_id=1, kind="turn", to_email="a@example.com", subject=subject
        )

    insert_rows([email("first")], ignore_conflicts=True)
    insert_rows([email("second"), email("second")], ignore_conflicts=True)
    (row,) = Outbox.objects.filter(game_id=game.pk, seq=1, seat_id=1, kind="turn")
    assert row.subject == "first" and row.created is not None  # auto_now_add, as the ORM sets it


@pytest.mark.django_db
def test_an_upsert_on_a_partial_unique_index_adds_the_increments_to_the_stored_counts():
    """The seat records' upsert (games/projectors/seat_records.py): ON CONFLICT on the present
    holding's partial index adds to its counters; a closed holding of the seat is not touched."""
    game = two_player_game()
    SeatRecord.objects.filter(game=game).delete()
    SeatRecord.objects.create(
        game=game, faction="athens", since_seq=1, until_seq=9, played=1, orders_in_time=4
    )
    SeatRecord.objects.create(game=game, faction="athens", since_seq=9, played=1, orders_in_time=2)
    more = [
        SeatRecord(game=game, faction="athens", since_seq=0, orders_in_time=3, deadlines_missed=1),
        SeatRecord(game=game, faction="sparta", since_seq=0, vacations=1),  # no present row: a new one
    ]
    insert_rows(more, conflict=["game", "faction"], conflict_where='"until_seq" IS NULL', increment=COUNTERS)
    stored = SeatRecord.objects.filter(game=game).order_by("faction", "since_seq")
    assert [
        (r.faction, r.since_seq, r.played, r.orders_in_time, r.deadlines_missed, r.vacations) for r in stored
    ] == [
        ("athens", 1, 1, 4, 0, 0),
        ("athens", 9, 1, 5, 1, 0),
        ("sparta", 0, 0, 0, 0, 1),
    ]


@pytest.mark.django_db
def test_rows_with_related_equal_select_related_with_and_without_a_related_row(django_assert_num_queries):
    game = two_player_game()
    ana, ben = game.seats.order_by("id")
    NotificationPreference.objects.create(seat=ben, mode="every_turn", digest_hour=7)

    mine = rows_with_related(Seat, "preference", ["game"], [game.pk])
    orms = list(Seat.objects.filter(game=game).select_related("preference"))
    assert [model_to_dict(s) for s in mine] == [model_to_dict(s) for s in orms]
    assert Seat.preference.is_cached(mine[0]) and Seat.preference.is_cached(mine[1])
    with django_assert_num_queries(0):
        with pytest.raises(Seat.preference.RelatedObjectDoesNotExist):
            mine[0].preference  # noqa: B018 (Ana has none)
        assert model_to_dict(mine[1].preference) == model_to_dict(orms[1].preference)

    (seat,) = rows_with_related(Seat, "game", ["pk", "game"], [ben.pk, game.pk])
    assert Seat.game.is_cached(seat) and model_to_dict(seat.game) == model_to_dict(game)
    assert seat.game.created == game.created and seat.game.seed == game.seed
    assert rows_with_related(Seat, "game", ["pk", "game"], [ben.pk, game.pk + 1]) == []


@pytest.mark.django_db
def test_model_rows_read_every_field_as_the_orm_does_with_no_deferred_field(django_assert_num_queries):
    game = two_player_game()
    DeadlineSettings.objects.create(game=game, turn_hours=30, time_zone="Europe/Berlin", skip_weekends=True)
    start = timezone.now()
    end = start + timedelta(days=2)
    Vacation.objects.create(game=game, faction="athens", seq=1, start=start, end=end, days=2)
    for model, condition, params in (
        (DeadlineSettings, "game_id = %s", [game.pk]),
        (Vacation, "game_id = %s", [game.pk]),
        (SeatClock, "game_id = %s", [game.pk]),
    ):
        fields, sql = model_select(model, condition)
        with django_assert_num_queries(1):
            mine = model_rows(model, fields, sql, params)
        orms = list(model.objects.filter(game_id=game.pk))
        assert mine and [model_to_dict(r) for r in mine] == [model_to_dict(r) for r in orms]
        assert [r.pk for r in mine] == [r.pk for r in orms] and not mine[0].get_deferred_fields()
        assert all(not row._state.adding for row in mine)
    (vacation,) = model_rows(Vacation, *model_select(Vacation, "game_id = %s"), [game.pk])
    assert vacation.start == start and vacation.end.tzinfo is not None  # the converters applied


@pytest.mark.django_db
def test_settings_and_vacations_read_both_in_one_query_as_the_orm_would(django_assert_num_queries):
    game = two_player_game()
    start = timezone.now()
    with django_assert_num_queries(1):
        settings, vacations = settings_and_vacations(game.pk, start)
    assert settings._state.adding and settings.game_id == game.pk and settings.turn_hours == 48  # defaults
    assert vacations == []

    DeadlineSettings.objects.create(game=game, turn_hours=30, time_zone="Europe/Berlin", skip_weekends=True)
    over = Vacation.objects.create(
        game=game,
        faction="athens",
        seq=1,
        start=start - timedelta(days=3),
        end=start - timedelta(days=1),
        days=2,
    )
    later = Vacation.objects.create(
        game=game,
        faction="sparta",
        seq=3,
        start=start + timedelta(days=2),
        end=start + timedelta(days=4),
        days=2,
    )
    sooner = Vacation.objects.create(
        game=game, faction="athens", seq=2, start=start, end=start + timedelta(days=1), days=1
    )
    with django_assert_num_queries(1):
        settings, vacations = settings_and_vacations(game.pk, start)
    assert model_to_dict(settings) == model_to_dict(DeadlineSettings.objects.get(game=game))
    assert not settings._state.adding
    assert [v.pk for v in vacations] == [sooner.pk, later.pk]  # by start; the one over is left out
    assert over.pk not in [v.pk for v in vacations]
    assert model_to_dict(vacations[1]) == model_to_dict(later) and vacations[1].end == later.end


@pytest.mark.django_db
def test_insert_parameters_are_the_orms_also_where_the_field_is_skipped():
    """insert_rows binds ints, strs, bools, aware times (or None) and JSON dicts and lists without
    the field's own preparation: that must give what the ORM binds; anything else goes through
    the field."""
    from django.db import connection

    from aegea_pbem.sql_inserts import _preparer
    from games.models import Game, GameProgress, GameSummary

    game = two_player_game()
    rows = [
        *Event.objects.filter(game=game),
        *SeatClock.objects.filter(game=game),
        *Outbox.objects.filter(game_id=game.pk),
        *GameProgress.objects.filter(game=game),
        *GameSummary.objects.filter(game=game),
        SeatClock(game_id=game.pk, faction="athens", since_seq=None, missed_in_a_row=True),  # a bool
        *SeatRecord.objects.filter(game=game),  # an integer's None (the present holding's until_seq)
        SeatClock(game_id=str(game.pk), faction="sparta"),  # a key given as text
        Game(name=gettext_lazy("Game %(id)s"), language="en"),  # a lazy string
        GameProgress(game=game, vp={"athens": 1}, must_act=["athens"], winners=[]),  # JSON dicts, lists
        GameProgress(game=game, vp=None, must_act=("athens",), winners="x"),  # JSON of other kinds
        Event(game=game, seq=1, payload=[1, {"a": None}], created=datetime(1999, 3, 1, tzinfo=UTC)),
        *NotificationPreference.objects.filter(seat__game=game),  # bools
        NotificationPreference(seat=game.seats.first(), unsubscribed=1),  # a bool given as an int
    ]
    assert len(rows) > 5
    checked = {"DateTimeField": 0, "JSONField": 0, "BooleanField": 0, "other": 0}
    for row in rows:
        for field in type(row)._meta.concrete_fields:
            kind = field.get_internal_type()
            if kind == "DateTimeField" and (field.auto_now or field.auto_now_add):
                continue  # a new time on every call, in both
            mine = _preparer(field)(row, connection.ops)
            orms = field.get_db_prep_save(field.pre_save(row, True), connection)
            if hasattr(orms, "obj"):  # psycopg's Jsonb, new on each call: compare what it sends
                assert type(mine) is type(orms) and mine.obj is orms.obj, (type(row).__name__, field.name)
                assert mine.dumps(mine.obj) == orms.dumps(orms.obj)
            else:
                assert (mine, type(mine)) == (orms, type(orms)), (type(row).__name__, field.name)
            checked[kind if kind in checked else "other"] += 1
    assert checked["other"] > 40 and all(checked.values())

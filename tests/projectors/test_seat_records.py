"""The seat records (docs/front-door.md "Reliability"): each holding of a seat and what it did, a pure
fold of the log that a rebuild gives again, in one batch or many."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.forms.models import model_to_dict

from games.engine import Pass
from games.engine.commands import CommitCoins
from games.engine.data import FIRST_YEAR
from games.eventstore.log_reading import load_engine_events
from games.eventstore.projections import rebuild_projections
from games.eventstore.store import append_events
from games.models import Game, SeatHolder, SeatRecord
from games.projectors.reliability import Reliability, reliability_of
from games.projectors.seat_records import Holding, fold_holdings
from games.reading.situation import load_game
from games.services.deadline_tick import tick
from games.services.orders import submit_order
from games.services.substitutes import hand_over_seat
from games.services.vacations import take_vacation
from tests.order_loop_support import seats_to_act, two_player_game

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_a_hand_over_ends_one_holding_and_begins_the_next_which_the_game_end_finds():
    events = [
        (1, "GameStarted", {"seat_order": ["athens", "sparta"]}),
        (2, "OrderGiven", {"player": "athens", "by": "player"}),
        (3, "DeadlinePassed", {"player": "athens"}),
        (4, "OrderGiven", {"player": "athens", "by": "system"}),  # the default order: not the player's
        (5, "SeatHandedOver", {"player": "athens"}),
        (6, "OrderGiven", {"player": "athens", "by": "player"}),
        (7, "OrderGiven", {"player": "sparta", "by": "player"}),
        (8, "VacationTaken", {"player": "athens"}),
        (9, "GameEnded", {"standings": [{"player": "sparta"}, {"player": "athens"}]}),
    ]
    assert fold_holdings(events) == [
        Holding("athens", 1, until_seq=5, played=1, orders_in_time=1, deadlines_missed=1),
        Holding("sparta", 1, played=1, finished=1, orders_in_time=1),
        Holding("athens", 5, played=1, finished=1, orders_in_time=1, vacations=1),
    ]
    # Without the opening (a later batch): the counts go to the present holdings, whose seqs the
    # database knows (since_seq None), and a hand-over closes the present one.
    assert fold_holdings(events[4:6]) == [
        Holding("athens", None, until_seq=5),
        Holding("athens", 5, played=1, orders_in_time=1),
    ]


def test_h_takeback_an_order_taken_back_is_not_counted_as_given():
    events = [
        (1, "GameStarted", {"seat_order": ["athens", "sparta"]}),
        (2, "OrderGiven", {"player": "athens", "by": "player"}),
        (3, "OrderTakenBack", {"player": "athens", "order_seq": 2}),
        (4, "OrderGiven", {"player": "athens", "by": "player"}),  # the order given instead
    ]
    assert fold_holdings(events) == [
        Holding("athens", 1, played=1, orders_in_time=2, orders_taken_back=1),
        Holding("sparta", 1, played=1),
    ]
    assert fold_holdings(events[2:3]) == [Holding("athens", None, orders_taken_back=1)]  # a later batch


def _rows() -> list[dict]:
    ordered = SeatRecord.objects.order_by("game_id", "faction", "since_seq")
    return [model_to_dict(r, exclude=["id"]) for r in ordered]


@pytest.mark.django_db(transaction=True)  # the orders' pipelined upserts, as in production
def test_the_orders_records_equal_a_rebuild_in_one_batch_or_many():
    """A game played to its end with a missed deadline, a vacation and a hand-over of Athens half-way:
    the records the orders, the beat and the hand-over wrote are the ones the log gives again."""
    with time_machine.travel(T0, tick=False):
        game = two_player_game()
    now, handed_over = T0, None
    while (state := load_game(game).state).phase != "ended":
        seat = seats_to_act(game)[0]
        now += timedelta(hours=1)
        if state.year == FIRST_YEAR - 2 and handed_over is None:
            with time_machine.travel(now, tick=False):
                take_vacation(game.seats.get(faction="athens"), 1)
                hand_over_seat(game.seats.get(faction="athens"), "Cleo", "cleo@example.com")
            handed_over = load_game(game).seq
            continue
        if (
            state.year == FIRST_YEAR - 5
            and seat.faction == "athens"
            and not SeatRecord.objects.filter(deadlines_missed__gt=0)
        ):
            now += timedelta(days=5)
            with time_machine.travel(now, tick=False):
                assert tick().defaults
            continue
        command = CommitCoins(seat.faction) if state.phase == "winter_orders" else Pass(seat.faction)
        with time_machine.travel(now, tick=False):
            submit_order(game, seat, command, load_game(game).seq)
    live = _rows()
    athens = [row for row in live if row["faction"] == "athens"]
    assert [(r["since_seq"], r["until_seq"], r["played"], r["finished"]) for r in athens] == [
        (1, handed_over, 1, 0),
        (handed_over, None, 1, 1),
    ]
    assert athens[0]["vacations"] == 1 and athens[1]["deadlines_missed"] == 1
    assert all(row["orders_in_time"] > 0 for row in live)
    rebuild_projections()
    assert _rows() == live
    rebuild_projections(batch_size=3)
    assert _rows() == live
    # The holders: Ana from the opening until the hand-over, Cleo from it on.
    holders = list(SeatHolder.objects.filter(faction="athens").values_list("since_seq", "email"))
    assert holders == [(1, "ana@example.com"), (handed_over, "cleo@example.com")]
    first, second = athens
    assert reliability_of("ana@example.com") == Reliability(
        1, 0, first["orders_in_time"], first["deadlines_missed"], 1
    )
    assert reliability_of("cleo@example.com") == Reliability(1, 1, second["orders_in_time"], 1, 0)


def test_a_log_that_opens_again_ends_the_holdings_of_its_former_opening():
    # Not a real game (its log opens once), but a log the bench makes of a game's copies: each
    # opening ends the holdings the former one began.
    events = [
        (1, "GameStarted", {"seat_order": ["athens", "sparta"]}),
        (2, "OrderGiven", {"player": "athens", "by": "player"}),
        (3, "GameStarted", {"seat_order": ["athens", "sparta"]}),
        (4, "OrderGiven", {"player": "athens", "by": "player"}),
    ]
    assert fold_holdings(events) == [
        Holding("athens", 1, until_seq=3, played=1, orders_in_time=1),
        Holding("sparta", 1, until_seq=3, played=1),
        Holding("athens", 3, played=1, orders_in_time=1),
        Holding("sparta", 3, played=1),
    ]


@pytest.mark.django_db(transaction=True)
def test_copies_of_a_games_log_appended_to_one_game_keep_one_present_holding_per_seat():
    """As make bench's replay does: a whole game's events appended again and again to one game."""
    game = two_player_game()
    for seat in seats_to_act(game):
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    one_game = load_engine_events(game)
    copies = Game.objects.create(name="copies", seed=game.seed)
    seq = 0
    for _ in range(3):
        append_events(copies, seq, one_game, actor="organiser")
        seq += len(one_game)
    rows = [r for r in _rows() if r["game"] == copies.pk]
    assert [(r["faction"], r["until_seq"] is None) for r in rows if r["until_seq"] is None] == [
        ("athens", True),
        ("sparta", True),
    ]
    assert len(rows) == 6  # two seats, three openings
    live = _rows()
    rebuild_projections()
    assert _rows() == live

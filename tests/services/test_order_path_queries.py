"""What one order costs the database (docs/operations.md), pinned so that it does not creep back up.

Every order runs `submit_order`: load the state, decide, append, project, write the emails. Each
statement is work for the database, and each was a round trip until the order's writes were
pipelined (aegea_pbem/sql_pipeline.py; tests/aegea_pbem/test_sql_pipeline.py pins the order's waits): the
numbers below are the order path as tuned (about 30 per order before). A new statement on this
path must be worth its cost: change the expected lists here with a reason.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from games import engine
from games.engine import Pass
from games.engine.commands import CommitCoins
from games.engine.simulation import players_to_act, random_legal_command
from games.engine.state import GameState
from games.eventstore import statecache
from games.eventstore.log_reading import load_engine_events
from games.eventstore.projections import rebuild_projections
from games.models import DeadlineSettings, Game, GameProgress, GameSummary, SeatClock, SeatRecord
from games.reading.situation import load_game, must_act
from games.services.game_setup import create_game
from games.services.orders import submit_order
from games.services.vacations import take_vacation
from notifications.models import Outbox
from notifications.tasks import deliver_pending
from tests.order_loop_support import ANA, BEN, seats_to_act, two_player_game

TABLE = re.compile(r'(?:FROM|INTO|UPDATE)\s+"?(\w+)"?')


def statements(queries: list[dict]) -> list[str]:
    """Each statement as its verb and first table, e.g. "INSERT games_event"."""
    labels = []
    for query in queries:
        sql = query["sql"].strip()
        verb = sql.split(None, 1)[0].lstrip("(").upper()
        table = TABLE.search(sql)
        labels.append(f"{verb} {table[1]}" if table and verb not in ("BEGIN", "COMMIT") else verb)
    return labels


@pytest.fixture(autouse=True)
def nudges(monkeypatch) -> list[int]:
    """The Celery nudges sent; counted, not run (tests run tasks eagerly: the delivery's own
    queries would land in the order's count, where a worker process runs them in production)."""
    # Game ids repeat between tests on SQLite: another test's states of "game 1" must not crowd
    # this one's out of the per-process cache (it keeps each game's newest seqs).
    statecache.clear()
    sent: list[int] = []
    monkeypatch.setattr(deliver_pending, "apply_async", lambda **kwargs: sent.append(1))
    return sent


def order_statements(game, seat, command) -> list[str]:
    seq = load_game(game).seq  # the page the player ordered from loaded (and cached) the state
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        submit_order(game, seat, command, seq)
    return statements(queries.captured_queries)


@pytest.mark.django_db(transaction=True)  # real transactions: BEGIN and COMMIT are round trips too
def test_an_order_that_hands_the_turn_on_costs_nine_statements(nudges):
    game = two_player_game()
    (on_turn,) = seats_to_act(game)
    nudges.clear()
    done = order_statements(game, on_turn, Pass(on_turn.faction))
    assert done == [
        "BEGIN",
        # Lock the game row FOR UPDATE and read the head, the seats to mail with their email
        # preferences, their clocks and the game's deadline settings (order_lock.py): the cached
        # state of that head is the one the order is decided on, the append needs no head of its
        # own, and the seat-clock projector no clocks, and no settings or vacations for the next
        # player's new deadline when the game has no vacations (as here).
        "SELECT games_game",
        "INSERT games_event",  # the whole batch in one INSERT
        "INSERT games_gameprogress",  # upsert, from the state submit_order folded (no query)
        "INSERT games_seatclock",  # upsert of the clocks that changed (both players' here)
        # Upsert adding the order to the seat's present holding (docs/front-door.md "Reliability"):
        # no read, held with the other INSERTs and sent in their one statement, so no wait more.
        "INSERT games_seatrecord",
        "INSERT games_gamesummary",  # upsert
        # Every email of the order in one INSERT, to the seats read with the lock; the turn
        # email's "what happened" is read by the worker that sends it (happenings_when_sent).
        "INSERT notifications_outbox",
        "COMMIT",  # then one Celery nudge, however many emails
    ], done
    assert Outbox.objects.filter(kind="turn", seq=load_game(game).seq).count() == 1
    assert nudges == [1]


@pytest.mark.django_db(transaction=True)
def test_an_order_in_a_process_an_order_behind_reads_the_events_it_lacks_with_its_lock():
    """Two web processes take a game's orders in turn: the one whose cached state is an order behind
    folds the events read with the lock (the tail) and costs the same nine statements, no query of its
    own for them, and decides on the same state the log folds to."""
    game = two_player_game()
    (first,) = seats_to_act(game)
    behind = load_game(game).seq  # this process's page loaded (and cached) the state
    own_cache = statecache._games
    statecache._games = type(own_cache)()  # another web process, with a cache of its own, takes it
    try:
        taken = submit_order(game, first, Pass(first.faction), behind)
    finally:
        statecache._games = own_cache
    (next_faction,) = must_act(taken.state)
    second = game.seats.get(faction=next_faction)
    assert statecache.newest_seq(game.pk) == behind
    near_hits = statecache.stats["near_hits"]

    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        submit_order(game, second, Pass(second.faction), taken.seq)

    done = statements(queries.captured_queries)
    assert done[:3] == ["BEGIN", "SELECT games_game", "INSERT games_event"] and len(done) == 9, done
    assert statecache.stats["near_hits"] == near_hits + 1
    assert load_game(game).state.to_dict() == engine.fold(load_engine_events(game)).to_dict()


@pytest.mark.django_db(transaction=True)
def test_an_order_opens_a_deadline_by_the_settings_read_with_its_lock():
    game = two_player_game()
    DeadlineSettings.objects.create(game=game, turn_hours=5)
    (on_turn,) = seats_to_act(game)
    done = order_statements(game, on_turn, Pass(on_turn.faction))
    assert done.count("SELECT games_game") == 1 and len(done) == 9, done  # the lock; no settings query
    (next_seat,) = seats_to_act(game)
    clock = SeatClock.objects.get(game=game, faction=next_seat.faction)
    assert clock.deadline == clock.due_since + timedelta(hours=5)


@pytest.mark.django_db(transaction=True)
def test_seats_reading_their_own_time_zone_cost_the_order_no_query():
    """The turn email names the deadline in the seat's zone (Seat.time_zone), read with the seats
    under the lock: no query per email, however many seats chose a zone."""
    game = two_player_game()
    DeadlineSettings.objects.create(game=game, time_zone="Europe/Berlin")
    game.seats.update(time_zone="Europe/London")
    (on_turn,) = seats_to_act(game)
    done = order_statements(game, on_turn, Pass(on_turn.faction))
    assert len(done) == 9, done
    (turn,) = Outbox.objects.filter(game_id=game.pk, kind="turn", seq=load_game(game).seq)
    assert turn.context["deadline"].endswith("(Europe/London)")


@pytest.mark.django_db(transaction=True)
def test_with_a_vacation_on_record_an_order_reads_the_settings_and_vacations_itself():
    game = two_player_game()
    (on_turn,) = seats_to_act(game)
    (waiting,) = [seat for seat in game.seats.all() if seat != on_turn]
    take_vacation(waiting, 2)
    done = order_statements(game, on_turn, Pass(on_turn.faction))
    assert done.count("SELECT games_game") == 2 and len(done) == 10, (
        done
    )  # the lock, then settings and vacations
    clock = SeatClock.objects.get(game=game, faction=waiting.faction)
    assert clock.deadline > clock.due_since + timedelta(hours=48)  # the vacation stops the clock
    written = sorted(SeatClock.objects.filter(game=game).values_list("faction", "deadline"))
    rebuild_projections()
    assert sorted(SeatClock.objects.filter(game=game).values_list("faction", "deadline")) == written


@pytest.mark.django_db
@pytest.mark.parametrize(("cached_games", "copies_made"), [(1000, 0), (0, 1)])
def test_an_order_folds_onto_a_second_unpickling_of_its_cached_state_instead_of_a_copy(
    monkeypatch, settings, cached_games, copies_made
):
    settings.STATE_CACHE_GAMES = cached_games  # 0: no cache, so decide copies the state itself
    game = two_player_game()
    (on_turn,) = seats_to_act(game)
    seq = load_game(game).seq
    copies: list[int] = []
    copy = GameState.copy
    monkeypatch.setattr(GameState, "copy", lambda state: copies.append(1) or copy(state))
    submit_order(game, on_turn, Pass(on_turn.faction), seq)
    assert len(copies) == copies_made
    assert load_game(game).state.player_on_turn != on_turn.faction  # the order went through


@pytest.mark.django_db(transaction=True)
def test_an_order_in_an_organisers_game_costs_no_query_for_the_organiser():
    organiser = get_user_model().objects.create_user("olga", "olga@example.com", "pw", first_name="Olga")
    game = Game.objects.get(pk=create_game([ANA, BEN], organiser=organiser).pk)
    (on_turn,) = seats_to_act(game)
    done = order_statements(game, on_turn, Pass(on_turn.faction))
    assert "SELECT auth_user" not in done and len(done) == 9, done
    welcome = Outbox.objects.filter(game_id=game.pk, kind="welcome").first()
    assert welcome.context["organiser_name"] == "Olga"  # the welcome still names them


@pytest.mark.django_db(transaction=True)
def test_a_sealed_winter_order_while_others_still_owe_theirs_costs_eight_statements():
    game = two_player_game()
    while load_game(game).state.phase != "winter_orders":
        seat = seats_to_act(game)[0]
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    first = seats_to_act(game)[0]
    done = order_statements(game, first, CommitCoins(first.faction))
    assert done == [
        "BEGIN",
        "SELECT games_game",  # lock, head, seats, clocks and settings
        "INSERT games_event",
        "INSERT games_gameprogress",
        # The other seat still owes the same obligation: its deadline stands (no settings,
        # vacations); only the sealer's clock clears.
        "INSERT games_seatclock",
        "INSERT games_seatrecord",  # the sealed order counts for the seat's holder
        "INSERT games_gamesummary",  # nobody newly owes anything: no email, no outbox INSERT
        "COMMIT",
    ], done


@pytest.mark.django_db(transaction=True)
def test_read_models_written_by_the_orders_equal_a_rebuild_from_the_log():
    """The order path projects from the state submit_order folded and skips unchanged clocks and
    deadlines; a rebuild (one batch or many) from the log alone must give the same rows."""
    game = two_player_game()
    seats = {seat.faction: seat for seat in game.seats.all()}
    bot = random.Random(7)
    for _ in range(60):
        loaded = load_game(game)
        waiting = players_to_act(loaded.state)
        if not waiting:
            break
        faction = bot.choice(waiting)
        submit_order(game, seats[faction], random_legal_command(loaded.state, faction, bot), loaded.seq)

    def rows() -> list:
        return [
            [model_to_dict(r) for r in GameProgress.objects.all()],
            [model_to_dict(r) | {"updated": r.updated} for r in GameSummary.objects.all()],
            [
                model_to_dict(r, exclude=["id"]) | {"due_since": r.due_since}
                for r in SeatClock.objects.order_by("game_id", "faction")
            ],
            [model_to_dict(r, exclude=["id"]) for r in SeatRecord.objects.order_by("faction", "since_seq")],
        ]

    live = rows()
    assert any(clock["deadline"] for clock in live[2])
    assert sum(record["orders_in_time"] for record in live[3]) > 0
    rebuild_projections()
    assert rows() == live
    rebuild_projections(batch_size=3)
    assert rows() == live

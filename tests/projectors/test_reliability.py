"""A player's record of reliability (docs/front-door.md "Reliability"): a simulated history of orders
given and deadlines missed, and the figures the profile page shows of it."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model

from games.engine.simulation import players_to_act, random_legal_command
from games.projectors.reliability import fold_reliability, reliability_of
from games.reading.situation import load_game
from games.services.deadline_tick import tick
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from games.services.vacations import take_vacation

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def test_the_profile_counts_what_a_simulated_history_gave_and_missed(client):
    """Ana (athens) gives some orders and misses others at random; Ben (sparta) always gives his.
    Every figure on her profile page is the count of what happened."""
    with time_machine.travel(T0, tick=False):
        game = create_game(
            [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")],
            name="Slow",
        )
    seats = {s.faction: s for s in game.seats.all()}
    chance = random.Random(11)
    given = {"athens": 0, "sparta": 0}
    missed = 0
    now = T0
    for _ in range(14):
        loaded = load_game(game)
        waiting = players_to_act(loaded.state)
        if not waiting:
            break
        faction = waiting[0]
        if faction == "athens" and chance.random() < 0.4:
            now += timedelta(days=4)  # past every deadline: the beat gives the default order
            with time_machine.travel(now, tick=False):
                defaults = tick().defaults
            missed += sum(1 for _, f in defaults if f == "athens")
            assert all(f == "athens" for _, f in defaults)  # Ben is always in time
            continue
        now += timedelta(hours=1)
        with time_machine.travel(now, tick=False):
            submit_order(
                game, seats[faction], random_legal_command(loaded.state, faction, chance), loaded.seq
            )
        given[faction] += 1
    assert missed >= 1 and given["athens"] >= 1  # the seed gives both kinds
    take_vacation(seats["athens"], 1, now + timedelta(hours=1))
    ana = reliability_of("ANA@example.com")
    assert (ana.games_played, ana.games_finished, ana.vacations) == (1, 0, 1)
    assert (ana.orders_in_time, ana.deadlines_missed) == (given["athens"], missed)
    assert reliability_of("ben@example.com").orders_in_time == given["sparta"]
    user = get_user_model().objects.create_user("ana", email="ana@example.com")
    page = client.get(f"/players/{user.pk}/").content.decode()
    assert "<h1>Ana</h1>" in page and "ana@example.com" not in page
    assert f'<dd class="in-time">{given["athens"]} (' in page
    assert f'<dd class="missed">{missed}</dd>' in page


def test_a_substitute_is_credited_from_the_hand_over_and_a_finished_game_counts():
    events = [
        (1, "GameStarted", {}),
        (1, "OrderGiven", {"player": "athens", "by": "player"}),
        (1, "DeadlinePassed", {"player": "athens"}),
        (1, "OrderGiven", {"player": "athens", "by": "system"}),
        (1, "SeatHandedOver", {"player": "athens"}),
        (1, "OrderGiven", {"player": "athens", "by": "player"}),
        (1, "OrderGiven", {"player": "sparta", "by": "player"}),
        (1, "VacationTaken", {"player": "athens"}),
        (1, "GameEnded", {}),
    ]
    record = fold_reliability([(1, "athens")], events)
    assert (record.games_played, record.games_finished) == (1, 1)
    assert (record.orders_in_time, record.deadlines_missed, record.vacations) == (1, 0, 1)
    assert record.in_time_percent == 100

"""A player's record of reliability (docs/front-door.md "Reliability"): a simulated history of orders
given and deadlines missed, with a hand-over, and the figures the profile page shows of it."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model

from games.engine.simulation import players_to_act, random_legal_command
from games.models import Game, Seat
from games.projectors.reliability import Reliability, reliability_of
from games.reading.situation import load_game
from games.services.deadline_tick import tick
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from games.services.substitutes import hand_over_seat
from games.services.vacations import take_vacation

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def play(
    game: Game,
    steps: int,
    chance: random.Random,
    now: datetime,
    who: dict[str, str],
    tally: dict[str, Counter],
) -> datetime:
    """`steps` turns of `game` from `now`: Athens misses about 4 in 10 of its turns (the beat gives
    the default order), everyone else always orders in time. Each order given and deadline missed is
    counted in `tally` under the address that held the seat then (`who`: faction -> address)."""
    for _ in range(steps):
        loaded = load_game(game)
        waiting = players_to_act(loaded.state)
        if not waiting:
            break
        faction = waiting[0]
        if faction == "athens" and chance.random() < 0.4:
            now += timedelta(days=4)  # past every deadline: the beat gives the default order
            with time_machine.travel(now, tick=False):
                for _game, missed in tick().defaults:
                    tally[who[missed]]["missed"] += 1
            continue
        now += timedelta(hours=1)
        seat = Seat.objects.get(game=game, faction=faction)
        with time_machine.travel(now, tick=False):
            submit_order(game, seat, random_legal_command(loaded.state, faction, chance), loaded.seq)
        tally[who[faction]]["given"] += 1
    return now


def test_the_profiles_count_what_a_simulated_history_gave_and_missed_before_and_after_a_hand_over(client):
    """Ana (athens) gives some orders and misses others at random, and is replaced by Cleo, who
    does the same; Ben (sparta) always gives his. Each profile's figures are what its holder did:
    Ana's misses before the hand-over are hers, Cleo is credited from the hand-over on."""
    played: dict[str, Counter] = {
        e: Counter() for e in ("ana@example.com", "ben@example.com", "cleo@example.com")
    }
    with time_machine.travel(T0, tick=False):
        game = create_game(
            [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")],
            name="Slow",
        )
    chance = random.Random(11)
    who = {"athens": "ana@example.com", "sparta": "ben@example.com"}
    now = play(game, 10, chance, T0, who, played)
    take_vacation(Seat.objects.get(game=game, faction="athens"), 1, now + timedelta(hours=1))
    now += timedelta(days=2)
    with time_machine.travel(now, tick=False):
        hand_over_seat(Seat.objects.get(game=game, faction="athens"), "Cleo", "cleo@example.com")
    who["athens"] = "cleo@example.com"
    play(game, 12, chance, now, who, played)
    ana, cleo = played["ana@example.com"], played["cleo@example.com"]
    assert ana["missed"] >= 1 and ana["given"] >= 1 and cleo["missed"] >= 1 and cleo["given"] >= 1

    assert reliability_of("ANA@example.com") == Reliability(1, 0, ana["given"], ana["missed"], 1)
    assert reliability_of("cleo@example.com") == Reliability(1, 0, cleo["given"], cleo["missed"], 0)
    ben = played["ben@example.com"]
    assert reliability_of(" Ben@Example.com ") == Reliability(1, 0, ben["given"], ben["missed"], 0)
    for name, email, figures in [("Ana", "ana@example.com", ana), ("Cleo", "cleo@example.com", cleo)]:
        user = get_user_model().objects.create_user(name.lower(), email=email, first_name=name)
        page = client.get(f"/players/{user.pk}/").content.decode()
        assert f"<h1>{name}</h1>" in page and email not in page
        percent = round(100 * figures["given"] / (figures["given"] + figures["missed"]))
        assert f'<dd class="in-time">{figures["given"]} ({percent}' in page
        assert f'<dd class="missed">{figures["missed"]}</dd>' in page


def test_an_address_that_held_no_seat_has_an_empty_record():
    create_game(
        [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    )
    assert reliability_of("nobody@example.com") == Reliability()
    assert reliability_of("ana@example.com").in_time_percent is None  # nothing owed yet
    assert reliability_of("ana@example.com").games_played == 1


def test_a_seat_handed_back_to_its_own_player_is_one_game_played_with_every_turn_counted():
    game = create_game(
        [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    )
    chance, given = random.Random(1), Counter()

    def until_athens_ordered() -> None:
        while True:
            loaded = load_game(game)
            faction = players_to_act(loaded.state)[0]
            seat = Seat.objects.get(game=game, faction=faction)
            submit_order(game, seat, random_legal_command(loaded.state, faction, chance), loaded.seq)
            given[faction] += 1
            if faction == "athens":
                return

    until_athens_ordered()
    hand_over_seat(Seat.objects.get(game=game, faction="athens"), "Ana", "Ana@example.com")  # a new holding
    until_athens_ordered()
    record = reliability_of("ana@example.com")
    assert (record.games_played, record.orders_in_time) == (1, 2)
    assert reliability_of("ben@example.com").orders_in_time == given["sparta"]

"""Races between real processes, each with its own PostgreSQL connection (slow; .ci/run runs them).

Processes are forked after the test closes its connection, so each opens its own; Django is
already set up in the forked process (the same test settings and test database).
"""

from __future__ import annotations

import pytest
from django.db import connection

from games.engine.commands import CommitCoins
from games.eventstore.verification import verify_chain
from games.models import Event, Game
from games.reading.situation import load_game
from games.services.orders import GameMovedOn, submit_order
from notifications.models import Outbox
from tests.order_loop_support import play_until, seats_to_act, two_player_game
from tests.reliability.support import in_processes, log_seqs, order_for_whoever_must_act

pytestmark = [pytest.mark.slow, pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

PROCESSES = 8
ATTEMPTS = 12  # per process


def _keep_ordering(index: int, barrier, game_id: int) -> list[tuple[str, int, list[int] | None]]:
    barrier.wait()
    outcomes = []
    for _ in range(ATTEMPTS):
        outcomes.append(order_for_whoever_must_act(game_id))
    return outcomes


def test_eight_processes_ordering_one_game_lose_no_event_and_every_loser_hears_it_moved_on():
    game = two_player_game()
    opening = load_game(game).seq
    results = in_processes(PROCESSES, _keep_ordering, game.pk)

    assert all(isinstance(r, list) for r in results), results  # no process died of anything else
    outcomes = [o for r in results for o in r]
    assert len(outcomes) == PROCESSES * ATTEMPTS  # every attempt answered: accepted or moved on
    accepted = [o for o in outcomes if o[0] == "accepted"]
    moved_on = [o for o in outcomes if o[0] == "moved on"]
    assert accepted and moved_on  # the processes really raced
    seqs = log_seqs(game)
    assert seqs == list(range(1, len(seqs) + 1))  # no gap, no duplicate
    appended = sorted(s for o in accepted for s in o[2])
    assert appended == list(
        range(opening + 1, seqs[-1] + 1)
    )  # every event belongs to exactly one accepted order
    # Each accepted order was decided on the head it saw: no two orders decided on the same seq won.
    decided_on = [o[1] for o in accepted]
    assert len(decided_on) == len(set(decided_on))
    assert Event.objects.filter(game=game, type="PlayerPassed").count() + Event.objects.filter(
        game=game, type="WinterOrderSealed"
    ).count() == len(accepted)
    assert verify_chain(Game.objects.get(pk=game.pk)).ok
    # One email per turn, whatever the races: the outbox's unique key held.
    rows = list(Outbox.objects.filter(game_id=game.pk).values_list("seq", "seat_id", "kind"))
    assert len(rows) == len(set(rows))


def _seal_at_once(index: int, barrier, game_id: int, faction: str, seq: int) -> str:
    game = Game.objects.get(pk=game_id)
    seat = game.seats.get(faction=faction)
    barrier.wait()
    try:
        submit_order(game, seat, CommitCoins(faction), seq)
    except GameMovedOn:
        return "moved on"
    return "sealed"


def test_h_winter_orders_every_player_seals_at_the_same_instant_and_every_seal_is_taken():
    game = two_player_game()
    play_until(game, "winter_orders")
    seats = seats_to_act(game)
    seq = load_game(game).seq
    connection.close()
    outcomes = in_processes(len(seats), lambda i, b: _seal_at_once(i, b, game.pk, seats[i].faction, seq))

    assert outcomes == ["sealed"] * len(seats)
    assert Event.objects.filter(game=game, type="WinterOrderSealed").count() == len(seats)
    assert load_game(game).state.phase != "winter_orders"
    seqs = log_seqs(game)
    assert seqs == list(range(1, len(seqs) + 1))

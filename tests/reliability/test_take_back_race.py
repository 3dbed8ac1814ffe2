"""A take-back and the next player's order at the same instant (H-TAKEBACK), on real PostgreSQL
connections: exactly one of them is taken, the other is told so, and the log stays one chain."""

from __future__ import annotations

import threading

import pytest

import games.services.orders as orders
import games.services.take_back as take_back
from games.engine import Pass, RuleViolation
from games.eventstore.verification import verify_chain, verify_game
from games.models import Event
from games.reading.situation import load_game
from games.services.orders import GameMovedOn, submit_order
from games.services.take_back import take_back_order
from tests.order_loop_support import seats_to_act, two_player_game
from tests.race_support import captured, paused_in_load_game, race

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def ordered():
    """A game whose first player has passed: (game, that seat, the next seat, the seq both saw)."""
    game = two_player_game()
    (first,) = seats_to_act(game)
    second = game.seats.exclude(pk=first.pk).get()
    seq = submit_order(game, first, Pass(first.faction), load_game(game).seq).seq
    return game, first, second, seq


def contenders(game, first, second, seq, outcomes):
    return (
        captured(outcomes, "take_back", lambda: take_back_order(game, first, seq)),
        captured(outcomes, "order", lambda: submit_order(game, second, Pass(second.faction), seq)),
    )


def test_h_takeback_a_take_back_holding_the_lock_wins_and_the_next_order_hears_the_game_moved_on(monkeypatch):
    game, first, second, seq = ordered()
    held, release = paused_in_load_game(monkeypatch, take_back)
    outcomes: dict[str, object] = {}
    taking, ordering = contenders(game, first, second, seq, outcomes)
    race(taking, ordering, held, release)
    assert outcomes["take_back"].kind == "pass", outcomes  # type: ignore[union-attr]
    assert isinstance(outcomes["order"], GameMovedOn), outcomes
    assert seats_to_act(game) == [first]
    assert verify_chain(game).ok and verify_game(game).ok


def test_h_takeback_the_next_order_holding_the_lock_wins_and_the_take_back_is_refused(monkeypatch):
    game, first, second, seq = ordered()
    held, release = paused_in_load_game(monkeypatch, orders)
    outcomes: dict[str, object] = {}
    taking, ordering = contenders(game, first, second, seq, outcomes)
    race(ordering, taking, held, release)
    assert not isinstance(outcomes["order"], Exception), outcomes
    refusal = outcomes["take_back"]
    assert isinstance(refusal, RuleViolation) and "The game has moved on" in str(refusal), outcomes
    assert not Event.objects.filter(game=game, type="OrderTakenBack").exists()
    assert verify_chain(game).ok and verify_game(game).ok


@pytest.mark.parametrize("attempt", range(3))
def test_h_takeback_at_the_same_instant_exactly_one_wins(attempt):
    game, first, second, seq = ordered()
    outcomes: dict[str, object] = {}
    taking, ordering = contenders(game, first, second, seq, outcomes)
    start = threading.Barrier(2)
    threads = [threading.Thread(target=lambda w=w: (start.wait(), w())) for w in (taking, ordering)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    won = [key for key, outcome in outcomes.items() if not isinstance(outcome, Exception)]
    assert len(won) == 1, outcomes
    lost = outcomes["order" if won == ["take_back"] else "take_back"]
    assert isinstance(lost, (GameMovedOn, RuleViolation)), outcomes
    taken = Event.objects.filter(game=game, type="OrderTakenBack").count()
    given = Event.objects.filter(game=game, type="OrderGiven").count()
    assert (taken, given) == ((1, 1) if won == ["take_back"] else (0, 2))
    assert verify_chain(game).ok and verify_game(game).ok

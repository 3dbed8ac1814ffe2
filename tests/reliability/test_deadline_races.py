"""An order and a take-back racing the beat's default order at a deadline (docs/long-games.md,
H-TAKEBACK), on real PostgreSQL connections: whichever takes the game's row lock first is taken,
the other is refused (the player hears the game moved on) and the log never holds both.

tests/services/test_deadlines.py has the beat taking the lock first against an order; here the
player takes it first, the take-back races the default order both ways, and each pair starts at
the same instant a few times.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

import games.services.deadline_tick as deadline_tick
import games.services.orders as orders
import games.services.take_back as take_back
from games.engine import Pass, RuleViolation
from games.eventstore.verification import verify_chain, verify_game
from games.models import Event
from games.reading.situation import load_game
from games.services.deadline_tick import tick
from games.services.orders import GameMovedOn, submit_order
from games.services.take_back import take_back_order
from tests.order_loop_support import seats_to_act, two_player_game
from tests.race_support import captured, paused_in_load_game, race

pytestmark = [pytest.mark.postgresql, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday: 48-hour deadlines skip no weekend


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def of(game, kind: str, **payload):
    return Event.objects.filter(game=game, type=kind, **{f"payload__{k}": v for k, v in payload.items()})


def at_two_threads_at_once(first, second) -> None:
    start = threading.Barrier(2)
    threads = [threading.Thread(target=lambda w=w: (start.wait(), w())) for w in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)


# An order at the deadline's second.


def on_turn_at_the_deadline():
    """A game whose first player owes an order due at(48): (game, that seat, the seq they saw)."""
    with time_machine.travel(T0, tick=False):
        game = two_player_game(name="Photo finish")
    (player,) = seats_to_act(game)
    return game, player, load_game(game).seq


def test_deadline_the_players_order_holding_the_lock_is_taken_and_the_beat_gives_no_default(monkeypatch):
    """Keeps out a default order appended on top of the player's own, which would play their turn
    twice: the beat, waiting for the lock the order holds, finds the order owed no more."""
    game, player, seen = on_turn_at_the_deadline()
    order_holds, let_go = paused_in_load_game(monkeypatch, orders)
    outcomes: dict[str, object] = {}
    with time_machine.travel(at(48), tick=False):
        race(
            captured(outcomes, "player", lambda: submit_order(game, player, Pass(player.faction), seen)),
            captured(outcomes, "beat", lambda: tick(now=at(48)).defaults),
            order_holds,
            let_go,
        )
    assert not isinstance(outcomes["player"], Exception), outcomes
    assert outcomes["beat"] == [], outcomes
    given = of(game, "OrderGiven", player=player.faction)
    assert [e.payload["by"] for e in given] == ["player"]
    assert not of(game, "DeadlinePassed").exists()
    assert verify_chain(game).ok and verify_game(game).ok


@pytest.mark.parametrize("attempt", range(3))
def test_deadline_an_order_and_the_default_at_the_same_instant_only_one_is_in_the_log(attempt):
    """Keeps out both the player's order and the server's default order for one obligation."""
    game, player, seen = on_turn_at_the_deadline()
    outcomes: dict[str, object] = {}
    with time_machine.travel(at(48), tick=False):
        at_two_threads_at_once(
            captured(outcomes, "player", lambda: submit_order(game, player, Pass(player.faction), seen)),
            captured(outcomes, "beat", lambda: tick(now=at(48)).defaults),
        )
    assert not isinstance(outcomes["beat"], Exception), outcomes
    given = [e.payload["by"] for e in of(game, "OrderGiven", player=player.faction)]
    if outcomes["beat"]:
        assert isinstance(outcomes["player"], GameMovedOn), outcomes
        assert given == ["system"] and of(game, "DeadlinePassed").count() == 1
    else:
        assert not isinstance(outcomes["player"], Exception), outcomes
        assert given == ["player"] and not of(game, "DeadlinePassed").exists()
    assert of(game, "PlayerPassed", player=player.faction).count() == 1
    assert verify_chain(game).ok and verify_game(game).ok


# A take-back at the next player's deadline: the default order is "the next order of the game".


def ordered_before_the_next_deadline():
    """The first player passed at(1); the next player's deadline is at(49). (game, the first seat,
    the next seat, the seq the first player saw after ordering)."""
    with time_machine.travel(T0, tick=False):
        game = two_player_game(name="Second thoughts")
    (first,) = seats_to_act(game)
    with time_machine.travel(at(1), tick=False):
        seen = submit_order(game, first, Pass(first.faction), load_game(game).seq).seq
    (second,) = seats_to_act(game)
    return game, first, second, seen


def contenders(game, first, seen, outcomes):
    return (
        captured(outcomes, "take_back", lambda: take_back_order(game, first, seen)),
        captured(outcomes, "beat", lambda: tick(now=at(49)).defaults),
    )


def assert_one_of_the_two(game, first, second, outcomes) -> None:
    taken_back = of(game, "OrderTakenBack").count()
    defaults = of(game, "OrderGiven", player=second.faction, by="system").count()
    assert (taken_back, defaults) in ((1, 0), (0, 1)), outcomes
    if taken_back:
        assert outcomes["beat"] == [] and seats_to_act(game) == [first], outcomes
        assert not of(game, "DeadlinePassed").exists()
    else:
        assert outcomes["beat"] == [(game.pk, second.faction)], outcomes
        refusal = outcomes["take_back"]
        assert isinstance(refusal, RuleViolation) and "The game has moved on" in str(refusal), outcomes
    assert verify_chain(game).ok and verify_game(game).ok


def test_h_takeback_a_take_back_holding_the_lock_is_taken_and_the_next_players_default_is_not_given(
    monkeypatch,
):
    """Keeps out a default pass given to a player whose turn the take-back just took away."""
    game, first, second, seen = ordered_before_the_next_deadline()
    taking_holds, let_go = paused_in_load_game(monkeypatch, take_back)
    outcomes: dict[str, object] = {}
    taking, beat = contenders(game, first, seen, outcomes)
    with time_machine.travel(at(49), tick=False):
        race(taking, beat, taking_holds, let_go)
    assert outcomes["take_back"].kind == "pass", outcomes  # type: ignore[union-attr]
    assert_one_of_the_two(game, first, second, outcomes)
    assert of(game, "OrderTakenBack").exists()


def test_h_takeback_the_default_order_holding_the_lock_is_taken_and_the_take_back_is_refused(monkeypatch):
    """Keeps out a take-back of an order that is no longer the game's last: the default order came
    after it, and taking it back would undo a turn the server has already played on."""
    game, first, second, seen = ordered_before_the_next_deadline()
    beat_holds, let_go = paused_in_load_game(monkeypatch, deadline_tick)
    outcomes: dict[str, object] = {}
    taking, beat = contenders(game, first, seen, outcomes)
    with time_machine.travel(at(49), tick=False):
        race(beat, taking, beat_holds, let_go)
    assert_one_of_the_two(game, first, second, outcomes)
    assert not of(game, "OrderTakenBack").exists()


@pytest.mark.parametrize("attempt", range(3))
def test_h_takeback_a_take_back_and_the_default_at_the_same_instant_only_one_is_in_the_log(attempt):
    """Keeps out a log holding both the take-back and the next player's default order."""
    game, first, second, seen = ordered_before_the_next_deadline()
    outcomes: dict[str, object] = {}
    with time_machine.travel(at(49), tick=False):
        at_two_threads_at_once(*contenders(game, first, seen, outcomes))
    assert not isinstance(outcomes["beat"], Exception), outcomes
    assert_one_of_the_two(game, first, second, outcomes)

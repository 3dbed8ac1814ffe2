"""The per-process state cache (games/eventstore/statecache.py): a cached state is the state folded from the
log, and a state cached inside a transaction that rolled back is never served."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine
from games.eventstore import statecache
from games.eventstore.log_reading import load_engine_events
from games.models import Game
from games.reading.situation import load_game
from games.services.orders import submit_order
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def cold(game: Game) -> dict:
    return engine.fold(load_engine_events(game)).to_dict()


class RolledBack(Exception):
    pass


def test_a_cached_state_is_the_state_folded_from_the_log_and_comes_without_folding():
    game = two_player_game()
    statecache.clear()
    first = load_game(game)
    again = load_game(game)
    assert first.events_folded > 0 and again.events_folded == 0
    assert again.state.to_dict() == first.state.to_dict() == cold(game)
    again.state.year += 5  # a caller changing its copy changes nobody else's
    assert load_game(game).state.to_dict() == cold(game)


def test_a_state_cached_by_an_order_that_rolled_back_is_never_served():
    game = two_player_game()
    seat = seats_to_act(game)[0]
    loaded = load_game(game)
    legal = engine.legal_commands(loaded.state, seat.faction)
    other_order = next(c for c in legal if c.kind != "pass")
    pass_order = next(c for c in legal if c.kind == "pass")
    with pytest.raises(RolledBack), transaction.atomic():
        submit_order(game, seat, other_order, loaded.seq)  # its state is cached at the new head ...
        raise RolledBack
    assert load_game(game).seq == loaded.seq
    submit_order(game, seat, pass_order, loaded.seq)
    assert load_game(game).state.to_dict() == cold(game)  # ... and not served for another order's head


def test_state_cache_off_folds_every_time(settings):
    settings.STATE_CACHE_GAMES = 0
    game = two_player_game()
    statecache.clear()
    load_game(game)
    assert load_game(game).events_folded > 0


def test_another_logs_states_under_a_reused_game_id_are_not_served_and_do_not_crowd_it_out():
    game, other = two_player_game(), two_player_game()
    for _ in range(2):  # `other` runs past `game`'s head
        seat = seats_to_act(other)[0]
        submit_order(other, seat, engine.Pass(seat.faction), load_game(other).seq)
    statecache.clear()
    head = load_game(other)
    earlier = load_game(other, up_to_seq=head.seq - 1)
    statecache.clear()
    # What a process holds after `game`'s id named another log (SQLite reuses ids; so may a restore).
    for loaded in (head, earlier):
        statecache.put(game.pk, loaded.seq, loaded.hash, loaded.state)
    assert earlier.seq == head.seq - 1
    first = load_game(game)
    assert first.seq < earlier.seq and first.state.to_dict() == cold(game)
    again = load_game(game)
    assert again.events_folded == 0  # served from the cache: the other log's states left it
    assert again.state.to_dict() == cold(game)
    assert statecache.nearest(game.pk, head.seq + 1)[0] == first.seq


def test_a_cached_state_found_off_the_log_is_dropped():
    game, other = two_player_game(), two_player_game()
    seat = seats_to_act(game)[0]
    submit_order(game, seat, engine.Pass(seat.faction), load_game(game).seq)
    statecache.clear()
    start = load_game(other, up_to_seq=1)  # another log's first state, filed under `game` at seq 1
    statecache.clear()
    statecache.put(game.pk, start.seq, start.hash, start.state)
    assert load_game(game).state.to_dict() == cold(game)  # folded from the store, not from it
    assert statecache.get(game.pk, start.seq, start.hash) is None


def test_an_order_whose_lock_read_events_that_do_not_follow_its_cached_state_drops_that_state():
    """The tail read with the lock starts after the cached state's seq; when its first event does not
    chain onto the cached state's hash, that state is another log's, and the order folds from the store."""
    game, other = two_player_game(), two_player_game()
    seat, head_seq = seats_to_act(game)[0], load_game(game).seq
    statecache.clear()
    start = load_game(other, up_to_seq=1)  # another log's first state, filed under `game` at seq 1
    statecache.clear()
    statecache.put(game.pk, start.seq, start.hash, start.state)

    with CaptureQueriesContext(connection) as queries:
        submit_order(game, seat, engine.Pass(seat.faction), head_seq)

    assert not [q for q in queries.captured_queries if "AND seq >= " in q["sql"]]  # the tail, not a read
    assert statecache.get(game.pk, start.seq, start.hash) is None
    assert load_game(game).state.to_dict() == cold(game)

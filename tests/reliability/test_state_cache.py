"""The per-process state cache (games/statecache.py): a cached state is the state folded from the
log, and a state cached inside a transaction that rolled back is never served."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import engine, statecache
from games.models import Game
from games.orders import submit_order
from games.situation import load_game
from games.store import load_engine_events
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

"""The bot never sees a secret (H-SCREEN, H-MISSIONS, H-WINTER-ORDERS; docs/bot.md "Never sees a secret")."""

from __future__ import annotations

import random

import pytest

from games.bot import Sight, SightError, choose_order, determinise, sight_of
from games.engine import GameState, legal_commands
from games.engine.simulation import check_invariants
from tests.bot.support import offers_open, positions, positions_where, rival_sealed


def _hidden_permuted(state: GameState, me: str, seed: int) -> GameState:
    """`state` with everything `me` may not see changed: the rivals' screens (designs and counts) and
    hands, the bag, the order of the Polis and Mission decks, the rivals' sealed winter orders and the
    game's seed. What `me` sees stays as it was."""
    rnd = random.Random(seed)
    other = state.copy()
    rivals = [f for f in other.seat_order if f != me]
    coins = [d for d, n in other.bag.items() for _ in range(n)]
    for rival in rivals:
        screen = other.players[rival].coins_behind_screen
        coins += [d for d, n in screen.items() for _ in range(n)]
    rnd.shuffle(coins)
    for rival in rivals:
        take, coins = coins[: rnd.randint(0, len(coins))], coins
        coins = coins[len(take) :]
        other.players[rival].coins_behind_screen = {d: take.count(d) for d in set(take)}
    other.bag = {d: coins.count(d) for d in set(coins)}
    cards = other.mission_deck + [c for f in rivals for c in other.players[f].mission_cards]
    rnd.shuffle(cards)
    for rival in rivals:
        count = len(other.players[rival].mission_cards)
        other.players[rival].mission_cards, cards = cards[:count], cards[count:]
    other.mission_deck = cards
    rnd.shuffle(other.deck)
    for rival in rivals:
        if rival in other.winter_orders:
            other.winter_orders[rival] = {**other.winter_orders[rival], "blanks": 0, "coins": {}}
    other.seed_hash = f"{rnd.getrandbits(64):x}"
    return other


def _positions() -> list[tuple[GameState, str]]:
    """Every kind of moment, and those where a rival's sealed order or an offer's coins are hidden."""
    return (
        positions(["athens", "sparta", "thebes"], "sight", every=9, limit=10)
        + positions(["corinth", "thebes"], "winter", every=13, limit=4)
        + positions_where(["athens", "sparta", "corinth", "thebes"], "sealed", rival_sealed, limit=3)
        + positions_where(["athens", "sparta", "corinth", "thebes"], "offers", offers_open, limit=4)
    )


def test_h_screen_the_bots_order_is_the_same_whatever_it_may_not_see() -> None:
    checked = 0
    for index, (state, me) in enumerate(_positions()):
        permuted = _hidden_permuted(state, me, index)
        assert check_invariants(None, permuted) == []
        assert permuted.to_dict() != state.to_dict()
        assert choose_order(sight_of(permuted, me), index) == choose_order(sight_of(state, me), index)
        checked += 1
    assert checked >= 12


def test_h_screen_a_sight_refuses_a_view_that_shows_a_secret() -> None:
    ((state, me),) = positions(["athens", "sparta"], "refuse", every=5, limit=1)
    with pytest.raises(SightError):
        Sight(me, state.to_dict())
    with pytest.raises(TypeError):
        choose_order(state, 1)  # type: ignore[arg-type]


def test_h_screen_the_world_a_bot_imagines_keeps_every_invariant_and_what_it_sees() -> None:
    for index, (state, me) in enumerate(_positions()):
        world = determinise(sight_of(state, me), index)
        assert check_invariants(None, world) == []
        assert world.board == state.board and world.players[me] == state.players[me]
        assert len(world.deck) == len(state.deck) and sorted(world.deck) == sorted(state.deck)
        assert legal_commands(world, me) == legal_commands(state, me)

"""The state's copies (games/engine/state.py): pickled by position, and still deep and whole."""

from __future__ import annotations

import pickle

from games.engine.simulation import play_random_game
from games.engine.state import GameState, PendingChoice, Player, Polis, TradeOffer


def test_a_copy_of_a_played_state_equals_it_and_shares_nothing_mutable_with_it():
    _events, state = play_random_game(["athens", "sparta", "corinth"], seed="copy", bot_seed=3)
    state.pending_choice = PendingChoice("athens", "C3", ["t1", "t2"], link_from="C2", link_blanks=1)
    state.offers.append(TradeOffer(7, "athens", "sparta", {"ap": 1}, {"coins": {"owl": 1}}, 430))
    copy = state.copy()
    assert copy == state and copy.to_dict() == state.to_dict()

    space = next(iter(copy.board))
    copy.board[space].fortification_hp.append(3)
    copy.board[space].unminted_coins["owl"] = 99
    copy.players["athens"].coins_behind_screen["turtle"] = 42
    copy.players["athens"].mission_cards.append("x")
    copy.pending_choice.tiles.append("t3")
    copy.offers[0].give["ap"] = 5
    assert copy != state and state.to_dict() != copy.to_dict()
    assert state.board[space].unminted_coins.get("owl") != 99 and state.offers[0].give == {"ap": 1}


def test_every_part_of_the_state_pickles_to_an_equal_value_of_its_own_class():
    parts = [
        Polis(
            "A1",
            "t9",
            owner="sparta",
            phalanxes=2,
            king=True,
            navigators=1,
            builders=1,
            fortification_hp=[2, 1],
            unminted_coins={"owl": 1},
        ),
        Player(
            "thebes",
            ap=2,
            fp=1,
            blanks=3,
            vp=4,
            coins_behind_screen={"owl": 2},
            phalanx_supply=5,
            king_alive=False,
            government="democracy",
            mission_cards=["m1"],
        ),
        PendingChoice("athens", "B2", ["t1", "t2"], link_from="B1", link_blanks=2),
        TradeOffer(3, "athens", "thebes", {"fp": 1}, {"polis": "B2"}, 429),
        GameState(seed_hash="h", seat_order=["athens", "thebes"], year=429, phase="actions", winners=["x"]),
    ]
    for part in parts:
        again = pickle.loads(pickle.dumps(part, pickle.HIGHEST_PROTOCOL))
        assert type(again) is type(part) and again == part and again is not part

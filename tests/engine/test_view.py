"""What each player may see, as examples: H-SCREEN, H-WINTER-ORDERS (sealed), H-END (all revealed)."""

from __future__ import annotations

import json

from games.engine import Event, event_view, fold, new_game, player_view

from .support import state_of

SCREENS = {
    "athens": {
        "coins_behind_screen": {"owl": 2},
        "ap": 3,
        "fp": 1,
        "blanks": 1,
        "mission_cards": ["monopoly"],
    },
    "sparta": {"coins_behind_screen": {"shield": 1, "turtle": 4}, "ap": 5},
}


def test_h_screen_a_player_sees_only_their_own_screen() -> None:
    view = player_view(state_of(players=SCREENS), "athens")
    assert view["players"]["athens"]["coins_behind_screen"] == {"owl": 2}
    assert view["players"]["sparta"]["coins_behind_screen"] == "hidden"
    assert "turtle" not in json.dumps(view["players"]["sparta"])


def test_h_screen_ap_fp_and_blanks_are_public() -> None:
    view = player_view(state_of(players=SCREENS), "sparta")
    athens = view["players"]["athens"]
    assert (athens["ap"], athens["fp"], athens["blanks"]) == (3, 1, 1)


def test_h_screen_mission_cards_show_only_as_a_count_to_others() -> None:
    state = state_of(players=SCREENS)
    assert player_view(state, "athens")["players"]["athens"]["mission_cards"] == ["monopoly"]
    assert player_view(state, "sparta")["players"]["athens"]["mission_cards"] == 1


def test_h_screen_a_spectator_sees_no_screen_and_the_deck_only_as_a_count() -> None:
    state = fold(new_game({"factions": ["athens", "sparta", "thebes"]}, "seed"))
    view = player_view(state, None)
    assert all(p["coins_behind_screen"] == "hidden" for p in view["players"].values())
    assert "deck" not in view and view["deck_count"] == 31


def test_h_screen_unminted_coins_on_the_board_are_public() -> None:
    state = state_of(board={"C3": {"owner": "athens"}, "E5": {"tile": "delos", "unminted_coins": {"owl": 2}}})
    assert player_view(state, "sparta")["board"]["E5"]["unminted_coins"] == {"owl": 2}


def test_h_screen_the_bag_is_opaque_until_the_end() -> None:
    # With two players the bag's contents would give away the rival's screen exactly.
    state = state_of(players=SCREENS)
    assert player_view(state, "athens")["bag"] == "hidden"
    ended = state_of(players=SCREENS, phase="ended")
    assert player_view(ended, "athens")["bag"] == ended.bag


def test_h_screen_income_coins_in_the_history_show_only_to_their_owner() -> None:
    events = new_game({"factions": ["athens", "sparta"]}, "seed")
    income = next(e for e in events if e.type == "IncomeReceived" and e.payload["player"] == "athens")
    assert event_view(income, "athens")["payload"]["coins"] == income.payload["coins"]
    hidden = event_view(income, "sparta")["payload"]
    assert hidden["coins"] == "hidden" and (hidden["ap"], hidden["fp"]) == (1, 3)
    assert event_view(income, None)["payload"]["coins"] == "hidden"
    assert event_view(income, "sparta", game_over=True)["payload"]["coins"] == income.payload["coins"]


def test_h_winter_orders_a_sealed_order_in_the_history_shows_only_that_it_was_sent() -> None:
    sealed = Event("WinterOrderSealed", {"player": "athens", "coins": {"owl": 2}, "blanks": 0})
    assert event_view(sealed, "sparta")["payload"] == {"player": "athens", "order": "submitted"}
    assert event_view(sealed, "athens")["payload"]["coins"] == {"owl": 2}


def test_h_screen_the_board_view_is_the_board_every_player_sees_and_holds_no_screen() -> None:
    import random

    from games.engine import board_view
    from games.engine.simulation import play_random_game

    events, _ = play_random_game(["athens", "sparta", "corinth"], "board view", random.Random(4), check=False)
    state = fold(events[: len(events) // 2])
    board = board_view(state)
    for faction in ("athens", "sparta", "corinth", None):
        seen = player_view(state, faction)
        assert board["board"] == seen["board"] and board["trade_links"] == seen["trade_links"]
        assert (board["year"], board["phase"], board["bag"]) == (seen["year"], seen["phase"], "hidden")
    assert board["players"] == {"athens": {}, "sparta": {}, "corinth": {}}  # no screen, no card
    board["board"][next(iter(board["board"]))]["fortification_hp"].append(3)
    assert board_view(state) != board  # a copy: changing the view leaves the state alone

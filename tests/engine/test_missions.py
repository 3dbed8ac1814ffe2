"""Mission Cards as examples: dealt and hidden, winter cards in S-WINTER's order, objective cards.

Rules: H-SETUP (3 cards each), H-MISSIONS, S-WINTER (order, at most one card), S-BLANK (Blanks in
combos), H-SCREEN (hands secret until the end).
"""

from __future__ import annotations

import json
from typing import Any

from games.engine import CommitCoins, GameState, Pass, event_view, fold, new_game, player_view
from games.engine.data import MISSION_CARDS, mission_deck
from games.engine.missions import deck_of
from games.engine.simulation import check_invariants

from .support import only, play, refused, state_of, types

NATIVES = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}


def winter(
    athens: dict[str, Any], sparta: dict[str, Any] | None = None, board: dict | None = None
) -> GameState:
    return state_of(
        players={"athens": athens, "sparta": sparta or {}},
        board=board or NATIVES,
        year=422,  # no income follows (421 pays none), so screens after scoring show only the scoring
        phase="winter_orders",
    )


def redeem(card: str, spend: dict[str, int] | None = None, blanks: int = 0, **commit: Any) -> CommitCoins:
    """Athens' sealed order redeeming `card`, spending `spend` (and `blanks`) on it."""
    return CommitCoins(
        "athens",
        mission_cards=(card,),
        card_coins=tuple(sorted((spend or {}).items())),
        card_blanks=blanks,
        **commit,
    )


def scored(
    state: GameState, athens: CommitCoins, sparta: CommitCoins | None = None
) -> tuple[list, GameState]:
    _, state = play(state, athens)
    return play(state, sparta or CommitCoins("sparta"))


# --- H-SETUP and H-SCREEN ------------------------------------------------------------------------


def test_h_setup_each_player_is_dealt_three_mission_cards_and_the_rest_form_the_deck() -> None:
    state = fold(new_game({"factions": ["athens", "sparta", "thebes"]}, "deal"))
    hands = [state.players[f].mission_cards for f in state.seat_order]
    assert [len(h) for h in hands] == [3, 3, 3]
    assert sorted(state.mission_deck + sum(hands, [])) == sorted(deck_of(state.rules_version))
    assert check_invariants(None, state) == []


def test_h_missions_another_players_view_contains_none_of_my_card_ids() -> None:
    events = new_game({"factions": ["athens", "sparta", "thebes"]}, "secret hands")
    state = fold(events)
    mine = state.players["athens"].mission_cards
    for viewer in ("sparta", "thebes", None):
        seen = json.dumps(player_view(state, viewer)) + json.dumps([event_view(e, viewer) for e in events])
        assert not [card for card in mine if card in seen], viewer
        assert player_view(state, viewer)["players"]["athens"]["mission_cards"] == 3
    own = json.dumps([event_view(e, "athens") for e in events])
    assert all(card in own for card in mine)
    assert player_view(state, "athens")["players"]["athens"]["mission_cards"] == mine


def test_h_missions_the_undrawn_deck_is_secret_and_shown_only_as_a_count() -> None:
    state = fold(new_game({"factions": ["athens", "sparta"]}, "deck"))
    view = player_view(state, "athens")
    assert "mission_deck" not in view and view["mission_deck_count"] == 25 - 6


def test_h_end_hands_are_revealed_when_the_game_is_over() -> None:
    events = new_game({"factions": ["athens", "sparta"]}, "revealed")
    mine = fold(events).players["athens"].mission_cards
    assert all(card in json.dumps(event_view(events[0], "sparta", game_over=True)) for card in mine)


# --- S-WINTER: at most one card, in the rulebook's order --------------------------------------------


def test_s_winter_two_winter_cards_in_one_scoring_refused() -> None:
    state = winter({"mission_cards": ["coin-multiplier-1", "extra-scoring-1"]})
    two = CommitCoins("athens", mission_cards=("coin-multiplier-1", "extra-scoring-1"))
    refused(state, two, "S-WINTER")


def test_s_winter_second_coin_scoring_resolves_after_the_three_rankings() -> None:
    state = winter(
        {"mission_cards": ["second-coin-scoring-1"], "coins_behind_screen": {"owl": 2}},
        {"coins_behind_screen": {"turtle": 1}},
    )
    events, after = scored(
        state,
        redeem("second-coin-scoring-1", coins=(("owl", 2),)),
        CommitCoins("sparta", coins=(("turtle", 1),)),
    )
    rankings = [(e.payload["ranking"], e.payload.get("card")) for e in events if e.type == "RankingScored"]
    assert rankings == [
        ("poleis", None),
        ("coins", None),
        ("mint", None),
        ("coins", "second-coin-scoring-1"),
    ]
    redeemed = types(events).index("MissionCardRedeemed")
    assert redeemed > max(i for i, t in enumerate(types(events)) if t == "RankingScored" and i < redeemed)
    # Coins scored twice for all: Athens 3 + 3, Sparta 2 + 2; Poleis tie 3 each; Athens' Owl Mint 3.
    assert after.players["athens"].vp == 3 + 3 + 3 + 3 and after.players["sparta"].vp == 3 + 2 + 2
    assert "second-coin-scoring-1" in after.mission_discard


def test_s_winter_cards_that_act_first_resolve_before_the_rankings() -> None:
    state = winter(
        {"mission_cards": ["combo-1"], "coins_behind_screen": {"owl": 1, "pegasus": 1, "turtle": 1}}
    )
    events, _ = scored(state, redeem("combo-1", {"owl": 1, "pegasus": 1, "turtle": 1}))
    order = types(events)
    assert (
        order.index("WinterOrdersRevealed")
        < order.index("MissionCardRedeemed")
        < order.index("RankingScored")
    )


def test_h_missions_an_objective_card_is_not_redeemed_in_winter() -> None:
    refused(winter({"mission_cards": ["objective-poleis-1"]}), redeem("objective-poleis-1"), "H-MISSIONS")


def test_h_missions_a_card_not_in_hand_is_refused() -> None:
    refused(winter({"mission_cards": []}), redeem("coin-multiplier-1"), "H-MISSIONS")


# --- the winter kinds --------------------------------------------------------------------------------


def test_h_missions_monopoly_of_a_resource_scores_3_vp() -> None:
    board = {**NATIVES, "D4": {"tile": "tegea", "owner": "athens"}}  # Athens prints 1 + 2 AP, Sparta 3
    state = winter({"mission_cards": ["monopoly-fp-1", "monopoly-ap-1"]}, board=board)
    events, after = scored(state, redeem("monopoly-fp-1"))  # FP: Athens 3, Sparta 1
    assert only(events, "MissionCardRedeemed").payload["vp"] == 3
    assert after.players["athens"].mission_cards == ["monopoly-ap-1"]
    refused(state, redeem("monopoly-ap-1"), "H-MISSIONS")  # AP: 3 against 3 is no Monopoly


def test_h_missions_coin_multiplier_doubles_committed_coins_in_the_coin_ranking() -> None:
    state = winter(
        {"mission_cards": ["coin-multiplier-1"], "coins_behind_screen": {"turtle": 2}},
        {"coins_behind_screen": {"turtle": 3}},
    )
    events, _ = scored(
        state,
        redeem("coin-multiplier-1", coins=(("turtle", 2),)),
        CommitCoins("sparta", coins=(("turtle", 3),)),
    )
    coins = next(e for e in events if e.type == "RankingScored" and e.payload["ranking"] == "coins")
    assert coins.payload["values"] == {"athens": 4, "sparta": 3} and coins.payload["vp"]["athens"] == 3


def test_s_blank_combo_with_two_blanks_scores_two_less_and_its_coins_leave_with_the_card() -> None:
    state = winter(
        {"mission_cards": ["combo-1"], "coins_behind_screen": {"owl": 1, "shield": 2}, "blanks": 3}
    )
    events, after = scored(state, redeem("combo-1", {"owl": 1}, blanks=2))
    assert only(events, "MissionCardRedeemed").payload["vp"] == 4 - 2
    athens = after.players["athens"]
    assert athens.coins_behind_screen == {"shield": 2} and athens.blanks == 1
    assert after.bag["owl"] == state.bag["owl"] + 1 and "combo-1" in after.mission_discard


def test_h_missions_combo_needs_three_different_designs() -> None:
    state = winter({"mission_cards": ["combo-1"], "coins_behind_screen": {"owl": 2, "shield": 1}})
    refused(state, redeem("combo-1", {"owl": 2, "shield": 1}), "H-MISSIONS")
    refused(state, redeem("combo-1", {"owl": 1, "shield": 1}), "H-MISSIONS")  # only 2 coins


def test_h_missions_flush_of_four_scores_5_vp_and_needs_one_design() -> None:
    state = winter(
        {"mission_cards": ["flush-1"], "coins_behind_screen": {"owl": 4, "shield": 1}, "blanks": 1}
    )
    events, _ = scored(state, redeem("flush-1", {"owl": 4}))
    assert only(events, "MissionCardRedeemed").payload["vp"] == 5
    refused(state, redeem("flush-1", {"owl": 3, "shield": 1}), "H-MISSIONS")
    events, _ = scored(state, redeem("flush-1", {"owl": 3}, blanks=1))
    assert only(events, "MissionCardRedeemed").payload["vp"] == 4


def test_h_missions_card_coins_must_be_behind_the_screen_too() -> None:
    state = winter(
        {"mission_cards": ["combo-1"], "coins_behind_screen": {"owl": 1, "shield": 1, "turtle": 1}}
    )
    both = redeem("combo-1", {"owl": 1, "shield": 1, "turtle": 1}, coins=(("owl", 1),))
    refused(state, both, "H-WINTER-ORDERS")  # the same owl cannot be committed and spent on the card


def test_h_missions_extra_scoring_pays_the_poleis_rank_again() -> None:
    board = {**NATIVES, "D4": {"tile": "tegea", "owner": "athens"}}
    state = winter({"mission_cards": ["extra-scoring-1"]}, board=board)
    events, after = scored(state, redeem("extra-scoring-1"))
    assert only(events, "MissionCardRedeemed").payload["vp"] == 3  # 1st in Poleis, scored again
    assert after.players["athens"].vp == 3 + 3


# --- objective cards -----------------------------------------------------------------------------------

SIX = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    **{s: {"owner": "athens"} for s in ("D3", "D4", "C4", "B4", "B3")},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}


def test_h_missions_an_objective_is_claimed_at_the_end_of_the_owners_turn() -> None:
    state = state_of(players={"athens": {"mission_cards": ["objective-poleis-1"]}, "sparta": {}}, board=SIX)
    events, after = play(state, Pass("athens"))
    assert types(events) == ["PlayerPassed", "MissionCardClaimed", "TurnBegan"]
    assert only(events, "MissionCardClaimed").payload["vp"] == 3
    assert after.players["athens"].vp == 3 and after.players["athens"].mission_cards == []
    assert after.mission_discard == ["objective-poleis-1"]


def test_h_missions_an_objective_is_not_claimed_on_a_rivals_turn() -> None:
    state = state_of(
        players={"athens": {"mission_cards": ["objective-poleis-1"]}, "sparta": {}},
        board=SIX,
        on_turn="sparta",
    )
    events, after = play(state, Pass("sparta"))
    assert "MissionCardClaimed" not in types(events) and after.players["athens"].vp == 0


def test_h_missions_an_objective_not_yet_met_stays_in_hand() -> None:
    state = state_of(
        players={"athens": {"mission_cards": ["objective-poleis-1"]}, "sparta": {}}, board=NATIVES
    )
    events, after = play(state, Pass("athens"))
    assert "MissionCardClaimed" not in types(events) and after.players["athens"].mission_cards


def test_h_missions_holding_a_rival_native_polis_claims_its_objective() -> None:
    board = {
        "C3": {"owner": "athens", "phalanxes": 4, "king": True},
        "G3": {"owner": "athens", "phalanxes": 1},
    }
    board["E5"] = {"owner": "sparta", "phalanxes": 2, "king": True}
    state = state_of(
        players={"athens": {"mission_cards": ["objective-rival-native-1"]}, "sparta": {}}, board=board
    )
    events, _ = play(state, Pass("athens"))
    assert only(events, "MissionCardClaimed").payload["vp"] == 4


def test_h_missions_four_trade_links_claim_their_objective() -> None:
    board = {**SIX, "E3": {}, "E4": {}}
    links = [["C3", "D3"], ["D3", "E3"], ["D4", "E4"], ["B3", "B4"]]
    state = state_of(
        players={"athens": {"mission_cards": ["objective-trade-links-1"]}, "sparta": {}},
        board=board,
        trade_links=links,
    )
    events, _ = play(state, Pass("athens"))
    assert only(events, "MissionCardClaimed").payload["progress"] == 4


# Three Poleis that are Mints of Athens (its Native, Megara, Chalkis), without a Fortification; and the
# same with three Fortifications on them (two on Megara, one on Chalkis).
MINTS = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "D4": {"tile": "megara", "owner": "athens", "phalanxes": 1},
    "D3": {"tile": "chalkis", "owner": "athens", "phalanxes": 1},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}
FORTIFIED = {
    **MINTS,
    "D4": {**MINTS["D4"], "fortification_hp": [3, 3]},
    "D3": {**MINTS["D3"], "fortification_hp": [2]},
}


def claims(card: str, board: dict, **spec: Any) -> list:
    state = state_of(players={"athens": {"mission_cards": [card]}, "sparta": {}}, board=board, **spec)
    events, _ = play(state, Pass("athens"))
    return [e.payload for e in events if e.type == "MissionCardClaimed"]


def test_h_missions_no_card_of_the_deck_turns_on_mints() -> None:
    """Finding: "a Mint counts only for the Mint ranking in scoring" (S-INC), but the objective card
    objective-mints gave 3 VP for controlling 3 Mint Poleis. From rules version 2 on the deck deals the
    Fortifications objective in its place: 25 cards, none about Mints."""
    state = fold(new_game({"factions": ["athens", "sparta", "corinth", "thebes"]}, "no mints"))
    cards = state.mission_deck + [c for f in state.seat_order for c in state.players[f].mission_cards]
    assert len(cards) == 25 and not [c for c in cards if MISSION_CARDS[c].kind == "mints"]
    assert {"objective-fortifications-1", "objective-fortifications-2"} <= set(cards)
    assert check_invariants(None, state) == []


def test_h_missions_three_fortifications_on_your_poleis_claim_their_objective() -> None:
    assert claims("objective-fortifications-1", MINTS) == []  # three Mints are worth nothing here
    (claimed,) = claims("objective-fortifications-1", FORTIFIED)
    assert (claimed["kind"], claimed["vp"], claimed["progress"]) == ("fortifications", 3, 3)
    rival = {
        **FORTIFIED,
        "D3": {"tile": "chalkis", "owner": "sparta", "phalanxes": 1, "fortification_hp": [2]},
    }
    assert claims("objective-fortifications-1", rival) == []  # a rival's Fortification is not yours


def test_h_missions_a_mints_card_of_a_game_begun_under_version_1_asks_for_fortifications_now() -> None:
    """A game begun under rules version 1 goes on under version 2: the Mints card in a hand stays, but
    what it asks for is the Fortifications objective (data.REPLACED_CARDS); the claim names both."""
    assert claims("objective-mints-1", MINTS) == []
    (claimed,) = claims("objective-mints-1", FORTIFIED)
    assert claimed["card"] == "objective-mints-1" and claimed["counts_as"] == "objective-fortifications-1"
    assert (claimed["kind"], claimed["vp"]) == ("fortifications", 3)


def test_h_rules_version_under_version_1_the_mints_objective_is_dealt_and_claimed_as_it_was() -> None:
    """A game recorded under rules version 1 replays as it was played: its deck had the Mints objective,
    which three Mint Poleis claimed."""
    assert "objective-mints-1" in mission_deck(seed_wins=False)
    assert "objective-fortifications-1" not in mission_deck(seed_wins=False)
    state = fold(new_game({"factions": ["athens", "sparta"]}, "deal", rules_version=1))
    assert sorted(state.mission_deck + sum((p.mission_cards for p in state.players.values()), [])) == list(
        mission_deck(seed_wins=False)
    )
    (claimed,) = claims("objective-mints-1", MINTS, rules_version=1)
    assert (claimed["kind"], claimed["progress"], "counts_as" in claimed) == ("mints", 3, False)

"""Trade as examples: neutral trade, and transactions offered, accepted, declined and lapsed.

Rules: H-TRADE, S-FORT (a handed-over Polis keeps its Fortifications), S-BLANK (Blanks from
neutral trade; Blanks are tradable), H-PIECES, H-SCREEN (an offer's coins are known to its sides).
"""

from __future__ import annotations

import json
from dataclasses import asdict

from games.engine import (
    AcceptOffer,
    Bundle,
    CommitCoins,
    DeclineOffer,
    NeutralTrade,
    OfferTrade,
    Pass,
    Recruit,
    event_view,
    player_view,
)
from games.engine.simulation import check_invariants

from .support import only, play, refused, state_of, types

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "D3": {"tile": "tegea", "owner": "athens", "phalanxes": 2, "fortification_hp": [3, 2]},
    "E3": {"tile": "delos"},  # neutral: 0 AP, 1 FP, 2 coins
    "E4": {"tile": "argos"},  # neutral: 2 AP, 0 FP, 1 coin
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    "G5": {"tile": "samos", "owner": "sparta", "phalanxes": 1},
}
LINKS = [["D3", "E3"], ["D3", "E4"]]


def game(athens: dict | None = None, sparta: dict | None = None, **spec: object):
    players = {
        "athens": athens if athens is not None else {"ap": 3, "fp": 2, "coins_behind_screen": {"owl": 2}},
        "sparta": sparta if sparta is not None else {"ap": 2, "fp": 1, "coins_behind_screen": {"turtle": 1}},
    }
    spec.setdefault("board", BOARD)
    spec.setdefault("trade_links", LINKS)
    return state_of(players=players, **spec)


# --- neutral trade -------------------------------------------------------------------------------


def test_h_trade_neutral_trade_takes_printed_ap_and_fp_and_the_coins_as_blanks() -> None:
    events, after = play(game(), NeutralTrade("athens"))
    payload = only(events, "NeutralTraded").payload
    assert (payload["spaces"], payload["ap"], payload["fp"], payload["blanks"]) == (["E3", "E4"], 2, 1, 3)
    athens = after.players["athens"]
    assert (athens.ap, athens.fp, athens.blanks) == (3 + 2, 2 + 1, 3)
    assert after.bag == game().bag  # S-BLANK, H-BAG: Blanks come from the supply, not the bag
    assert after.player_on_turn == "sparta"


def test_h_trade_neutral_trade_once_per_polis_per_year() -> None:
    _, after = play(game(), NeutralTrade("athens"))
    assert after.neutral_trades["athens"] == {"E3": 431, "E4": 431}
    _, back = play(after, Pass("sparta"))
    refused(back, NeutralTrade("athens"), "H-TRADE")  # the same year: both Poleis are traded out
    next_year = game(neutral_trades={"athens": {"E3": 431, "E4": 431}}, year=430)
    events, _ = play(next_year, NeutralTrade("athens"))
    assert only(events, "NeutralTraded").payload["spaces"] == ["E3", "E4"]


def test_h_trade_a_polis_traded_with_is_skipped_but_a_new_link_trades_the_same_year() -> None:
    state = game(neutral_trades={"athens": {"E3": 431}})
    events, _ = play(state, NeutralTrade("athens"))
    assert only(events, "NeutralTraded").payload["spaces"] == ["E4"]


def test_h_trade_neutral_trade_needs_a_link_to_a_neutral_polis() -> None:
    refused(game(trade_links=[]), NeutralTrade("athens"), "H-TRADE")
    conquered = {
        **BOARD,
        "E3": {"tile": "delos", "owner": "sparta"},
        "E4": {"tile": "argos", "owner": "athens"},
    }
    refused(game(board=conquered), NeutralTrade("athens"), "H-TRADE")  # no link leads to a neutral


# --- transactions ----------------------------------------------------------------------------------


def offer(give: Bundle, take: Bundle, **state: object):  # type: ignore[no-untyped-def]
    """Athens offers Sparta `give` for `take`; returns the events and the state after it."""
    return play(game(**state), OfferTrade("athens", to="sparta", give=give, take=take))


def test_h_trade_an_offer_is_the_turns_action_and_nothing_is_paid_yet() -> None:
    events, after = offer(Bundle(ap=1), Bundle(fp=1))
    made = only(events, "OfferMade").payload
    assert (made["offer"], made["to"], made["year"]) == (1, "sparta", 431)
    assert after.players["athens"].ap == 3 and after.player_on_turn == "sparta"
    assert [o.id for o in after.offers] == [1] and after.next_offer_id == 2


def test_h_trade_accepting_off_turn_costs_no_action_and_exchanges_both_sides() -> None:
    _, made = offer(Bundle(ap=1, coins=(("owl", 1),)), Bundle(fp=1, coins=(("turtle", 1),)))
    _, sparta_on_turn = play(made, Pass("sparta"))  # back to Athens; Sparta answers off turn
    events, after = play(sparta_on_turn, AcceptOffer("sparta", offer=1))
    assert types(events) == ["OfferAccepted"] and after.player_on_turn == "athens"
    athens, sparta = after.players["athens"], after.players["sparta"]
    assert (athens.ap, athens.fp, athens.coins_behind_screen) == (2, 3, {"owl": 1, "turtle": 1})
    assert (sparta.ap, sparta.fp, sparta.coins_behind_screen) == (3, 0, {"owl": 1})
    assert after.offers == [] and check_invariants(None, after) == []


def test_h_trade_blanks_are_tradable() -> None:
    _, made = offer(Bundle(blanks=2), Bundle(ap=1), athens={"blanks": 2})
    _, after = play(made, AcceptOffer("sparta", offer=1))
    assert (after.players["athens"].blanks, after.players["sparta"].blanks) == (0, 2)


def test_h_trade_declined_offer_changes_nothing_hands() -> None:
    _, made = offer(Bundle(ap=1), Bundle(fp=1))
    events, after = play(made, DeclineOffer("sparta", offer=1))
    assert types(events) == ["OfferDeclined"] and after.offers == []
    assert after.players["athens"].ap == 3 and after.player_on_turn == "sparta"


def test_h_trade_only_the_rival_answers_and_only_an_open_offer() -> None:
    _, made = offer(Bundle(ap=1), Bundle(fp=1))
    refused(made, AcceptOffer("athens", offer=1), "H-TRADE")
    refused(made, AcceptOffer("sparta", offer=7), "H-TRADE")
    _, declined = play(made, DeclineOffer("sparta", offer=1))
    refused(declined, AcceptOffer("sparta", offer=1), "H-TRADE")


def test_s_fort_a_handed_over_polis_keeps_its_fortifications() -> None:
    _, made = offer(Bundle(polis="D3"), Bundle(ap=2))
    events, after = play(made, AcceptOffer("sparta", offer=1))
    d3 = after.board["D3"]
    assert d3.owner == "sparta" and d3.fortification_hp == [3, 2]
    assert d3.phalanxes == 0 and after.players["athens"].phalanx_supply == 60 - 4  # H-PIECES: back home
    assert only(events, "OfferAccepted").payload["phalanxes_returned"] == {"give": 2, "take": 0}
    assert check_invariants(None, after) == []


def test_h_trade_a_native_polis_or_one_with_heroes_is_not_handed_over() -> None:
    refused(game(), OfferTrade("athens", to="sparta", give=Bundle(polis="C3")), "H-TRADE")
    with_king = {**BOARD, "D3": {"tile": "tegea", "owner": "athens", "phalanxes": 1, "king": True}}
    with_king["C3"] = {"owner": "athens", "phalanxes": 4}
    refused(game(board=with_king), OfferTrade("athens", to="sparta", give=Bundle(polis="D3")), "H-TRADE")
    refused(game(), OfferTrade("athens", to="sparta", take=Bundle(polis="G3")), "H-TRADE")


def test_h_trade_an_offer_must_be_payable_by_its_maker_go_to_a_rival_and_say_something() -> None:
    refused(game(), OfferTrade("athens", to="sparta", give=Bundle(ap=4)), "H-TRADE")
    refused(game(), OfferTrade("athens", to="sparta", give=Bundle(coins=(("shield", 1),))), "H-TRADE")
    refused(game(), OfferTrade("athens", to="athens", give=Bundle(ap=1)), "H-TRADE")
    refused(game(), OfferTrade("athens", to="thebes", give=Bundle(ap=1)), "H-TRADE")
    refused(game(), OfferTrade("athens", to="sparta"), "H-TRADE")


def test_h_trade_an_accepted_offer_that_can_no_longer_be_paid_is_refused_whole() -> None:
    # Sparta is asked for 2 Turtles and 1 FP; it holds 1 Turtle. Nothing at all changes hands.
    _, made = offer(Bundle(ap=2), Bundle(fp=1, coins=(("turtle", 2),)))
    assert made.offers  # the rival's screen is not checked until they accept (H-SCREEN)
    error = refused(made, AcceptOffer("sparta", offer=1), "H-TRADE")
    assert "coins" in error.message
    assert made.players["athens"].ap == 3 and made.players["sparta"].fp == 1


def test_h_trade_an_offer_lapses_when_its_maker_can_no_longer_pay() -> None:
    _, made = offer(Bundle(ap=3), Bundle(fp=1))
    _, back = play(made, Pass("sparta"))
    events, after = play(back, Recruit("athens", space="C3", phalanxes=1))  # Athens spends 1 of its 3 AP
    lapsed = only(events, "OfferLapsed").payload
    assert (lapsed["offer"], lapsed["reason"]) == (1, "unpayable") and after.offers == []


def test_h_trade_an_offer_lapses_when_the_years_action_rounds_end() -> None:
    _, made = offer(Bundle(ap=1), Bundle(fp=1), action_round=3)
    events, after = play(made, Pass("sparta"))  # the last action of the year: winter begins
    assert types(events).index("WinterBegan") < types(events).index("OfferLapsed")
    assert only(events, "OfferLapsed").payload["reason"] == "deadline" and after.offers == []
    refused(after, AcceptOffer("sparta", offer=1), "H-TRADE")


def test_h_trade_no_offers_are_answered_in_winter() -> None:
    state = game(phase="winter_orders", year=430)
    refused(state, DeclineOffer("sparta", offer=1), "H-TRADE")
    play(state, CommitCoins("athens"))


def test_h_screen_an_offers_coins_are_known_to_its_two_sides_only() -> None:
    three = state_of(
        players={"athens": {"coins_behind_screen": {"owl": 2}}, "sparta": {}, "thebes": {}},
        board={**BOARD, "G7": {"owner": "thebes", "phalanxes": 4, "king": True}},
    )
    events, after = play(three, OfferTrade("athens", to="sparta", give=Bundle(coins=(("owl", 1),))))
    made = only(events, "OfferMade")
    assert event_view(made, "sparta")["payload"]["give"]["coins"] == {"owl": 1}
    assert "owl" not in json.dumps(event_view(made, "thebes"))
    assert "owl" not in json.dumps(player_view(after, "thebes")["offers"])
    assert player_view(after, "sparta")["offers"][0]["give"]["coins"] == {"owl": 1}


def test_h_trade_a_polis_awaiting_a_choice_expands_link_does_not_change_hands() -> None:
    _, made = offer(Bundle(polis="D3"), Bundle(ap=1))
    choosing = game(
        phase="choice",
        pending_choice={"player": "athens", "space": "D2", "tiles": ["elis", "pylos"], "link_from": "D3"},
        offers=[asdict(o) for o in made.offers],
    )
    refused(choosing, AcceptOffer("sparta", offer=1), "H-TRADE")

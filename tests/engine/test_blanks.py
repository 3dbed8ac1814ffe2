"""Blank coins as examples: S-BLANK (paying AP and FP, the Coin ranking but not the Mint ranking).

The order names how many Blanks pay its cost; the rest comes from the AP or FP supply.
"""

from __future__ import annotations

from typing import Any

from games.engine import (
    ChooseTile,
    CommitCoins,
    Destination,
    Expand,
    Fortify,
    Move,
    Recruit,
    legal_commands,
)
from games.engine.state import GameState

from .support import only, play, refused, state_of

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "E3": {"tile": "elis", "owner": "athens"},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}


def game(board: dict[str, Any] | None = None, **athens: Any) -> GameState:
    return state_of(players={"athens": athens, "sparta": {}}, board=board or BOARD)


def test_s_blank_pays_part_of_a_moves_fp() -> None:
    state = game(fp=1, blanks=3)
    move = Move("athens", origin="C3", destinations=(Destination("E3", 4, king=True),), blanks=1)
    events, after = play(state, move)  # 4 phalanxes 2 spaces: 2 FP, of them 1 in a Blank
    moved = only(events, "UnitsMoved").payload
    assert (moved["fp_paid"], moved["blanks"]) == (1, 1)
    assert (after.players["athens"].fp, after.players["athens"].blanks) == (0, 2)
    all_blanks = Move("athens", origin="C3", destinations=(Destination("E3", 4, king=True),), blanks=2)
    _, after = play(game(fp=0, blanks=2), all_blanks)
    assert (after.players["athens"].fp, after.players["athens"].blanks) == (0, 0)


def test_s_blank_a_move_short_of_fp_even_with_its_blanks_is_refused() -> None:
    move = Move("athens", origin="C3", destinations=(Destination("E3", 4),), blanks=1)
    refused(game(fp=0, blanks=1), move, "S-MOVE")


def test_s_blank_only_blanks_held_and_never_more_than_the_cost() -> None:
    move = Move("athens", origin="C3", destinations=(Destination("E3", 4),), blanks=2)
    refused(game(fp=2, blanks=1), move, "S-BLANK")  # holds one
    too_many = Move("athens", origin="C3", destinations=(Destination("E3", 4),), blanks=3)
    refused(game(fp=0, blanks=5), too_many, "S-BLANK")  # the move costs 2
    refused(game(ap=5, blanks=5), Recruit("athens", space="C3", phalanxes=1, blanks=2), "S-BLANK")


def test_s_blank_pays_recruiting_and_fortifying_ap() -> None:
    events, after = play(game(ap=1, blanks=2), Recruit("athens", space="C3", phalanxes=3, blanks=2))
    recruited = only(events, "PhalanxesRecruited").payload
    assert (recruited["ap"], recruited["blanks"]) == (1, 2)
    assert (after.players["athens"].ap, after.players["athens"].blanks, after.board["C3"].phalanxes) == (
        0,
        0,
        7,
    )
    events, after = play(game(ap=2, blanks=1), Fortify("athens", space="E3", blanks=1))
    assert (only(events, "FortificationBuilt").payload["ap"], after.players["athens"].ap) == (2, 0)
    assert after.players["athens"].blanks == 0 and after.board["E3"].fortification_hp == [3]
    refused(game(ap=1, blanks=1), Fortify("athens", space="E3", blanks=1), "H-ACTIONS")


def test_s_blank_pays_the_expand_upgrades_choice_first_then_the_link() -> None:
    # Sparta pays 1 FP for the Choice (Athens pays 0, H-FACTION) and 1 FP for the link.
    board = {"G3": {"owner": "sparta", "phalanxes": 4}, "C3": {"owner": "athens"}}
    state = state_of(
        players={"sparta": {"fp": 0, "blanks": 2}, "athens": {}}, board=board, seat_order=["sparta", "athens"]
    )
    expand = Expand("sparta", space="H3", source="deck", second_source="deck", link_from="G3", blanks=2)
    events, choosing = play(state, expand)
    drawn = only(events, "ChoiceTilesDrawn").payload
    assert (drawn["fp"], drawn["blanks"], drawn["link_blanks"]) == (0, 1, 1)
    assert choosing.players["sparta"].blanks == 1  # the link's Blank waits until the link is built
    events, after = play(choosing, ChooseTile("sparta", keep=drawn["tiles"][0]))
    link = only(events, "TradeLinkBuilt").payload
    assert (link["fp"], link["blanks"]) == (0, 1) and after.players["sparta"].blanks == 0
    # keep neither: no link is built, so its Blank is not spent
    _, after = play(choosing, ChooseTile("sparta", discard_order=tuple(drawn["tiles"])))
    assert after.players["sparta"].blanks == 1 and ["G3", "H3"] not in after.trade_links


def test_s_blank_a_plain_expand_costs_nothing_so_takes_no_blank() -> None:
    refused(game(blanks=1), Expand("athens", space="B3", source="deck", blanks=1), "S-BLANK")


def test_s_blank_committed_counts_for_coins_not_mint() -> None:
    # Athens holds its Owl Mint and commits 1 owl + 2 Blanks: 3 coins, but a Mint count of 1.
    spec = {
        "players": {
            "athens": {"blanks": 2, "coins_behind_screen": {"owl": 1}, "government": "oligarchy"},
            "sparta": {},
        },
        "board": {"C3": {"owner": "athens", "phalanxes": 1}, "G3": {"owner": "sparta", "phalanxes": 1}},
        "year": 430,
        "phase": "winter_orders",
        "winter_orders": {"sparta": {"coins": {}, "blanks": 0}},
    }
    events, after = play(state_of(**spec), CommitCoins("athens", coins=(("owl", 1),), blanks=2))
    rankings = {e.payload["ranking"]: e.payload for e in events if e.type == "RankingScored"}
    assert rankings["coins"]["values"] == {"athens": 3}
    assert rankings["mint"]["values"] == {"athens": 1}
    assert after.players["athens"].blanks == 0  # back to the supply (H-BAG)


def test_s_blank_a_blank_alone_ranks_in_coins_but_never_in_mint() -> None:
    spec = {
        "players": {"athens": {"blanks": 1}, "sparta": {}},
        "board": {"C3": {"owner": "athens", "phalanxes": 1}, "G3": {"owner": "sparta", "phalanxes": 1}},
        "year": 430,
        "phase": "winter_orders",
        "winter_orders": {"sparta": {"coins": {}, "blanks": 0}},
    }
    events, _ = play(state_of(**spec), CommitCoins("athens", blanks=1))
    rankings = {e.payload["ranking"]: e.payload for e in events if e.type == "RankingScored"}
    assert rankings["coins"]["vp"] == {"athens": 3} and rankings["mint"]["values"] == {}


def test_s_blank_the_bots_spend_blanks_only_where_ap_or_fp_fall_short() -> None:
    state = game({**BOARD, "D3": {"tile": "pylos", "owner": "athens"}}, fp=1, ap=0, blanks=3)
    commands = legal_commands(state, "athens")
    moves = [c for c in commands if isinstance(c, Move)]
    assert any(m.blanks for m in moves) and any(not m.blanks for m in moves)
    for m in moves:
        play(state, m)  # every one is legal
    fortify = [c for c in commands if isinstance(c, Fortify)]
    assert fortify and all(f.blanks == 3 for f in fortify)
    assert Recruit("athens", space="C3", phalanxes=3, blanks=3) in commands


def test_s_blank_fp_and_blanks_owed_for_a_pending_link_cannot_be_traded_away() -> None:
    from games.engine import AcceptOffer, Bundle, OfferTrade

    # Sparta offers 1 AP for 1 FP; Athens then orders a Choice Expand with a link, paying the
    # link's 1 FP later: while the choice waits, that FP is spoken for (S-EXP-LINK), so the offer
    # can no longer be paid and lapses; the link is paid in full when the tile is kept.
    board = {"C3": {"owner": "athens", "phalanxes": 4}, "G3": {"owner": "sparta", "phalanxes": 4}}
    state = state_of(
        players={"athens": {"fp": 1}, "sparta": {"ap": 1}}, board=board, seat_order=["sparta", "athens"]
    )
    offer = OfferTrade("sparta", to="athens", give=Bundle(ap=1), take=Bundle(fp=1))
    _, offered = play(state, offer)
    assert AcceptOffer("athens", offer=offered.offers[0].id) in legal_commands(offered, "athens")
    expand = Expand("athens", space="B3", source="deck", second_source="deck", link_from="C3")
    events, choosing = play(offered, expand)
    assert only(events, "OfferLapsed").payload["reason"] == "unpayable" and choosing.offers == []
    tiles = only(events, "ChoiceTilesDrawn").payload["tiles"]
    _, after = play(choosing, ChooseTile("athens", keep=tiles[0]))
    assert after.players["athens"].fp == 0 and ["B3", "C3"] in after.trade_links

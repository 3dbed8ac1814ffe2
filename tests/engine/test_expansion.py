"""Expand as examples.

Rules: S-EXP, S-EXP-CHOICE (with double-discard), S-EXP-LINK, H-EXP-LINK, H-NEUTRAL, H-CHOICES.
"""

from __future__ import annotations

import pytest

from games.engine import ChooseTile, Expand, GameRng, Pass, Recruit, RuleViolation, data, decide

from .support import only, play, refused, state_of, types

ATHENS_AND_SPARTA = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}


def game(deck: list[str] | None = None, discard: list[str] | None = None, **players: dict) -> object:
    spec: dict = {
        "players": players or {"athens": {"fp": 2}, "sparta": {"fp": 2}},
        "board": ATHENS_AND_SPARTA,
    }
    if deck is not None:
        spec["deck"] = deck
    if discard is not None:
        spec["discard"] = discard
    return state_of(**spec)


def test_s_exp_places_a_deck_tile_face_up_on_the_named_space() -> None:
    state = game(deck=["tegea", "elis"])
    events, after = play(state, Expand("athens", space="D4"))
    founded = only(events, "PolisFounded")
    assert founded.payload["space"] == "D4" and founded.payload["tile"] in ("tegea", "elis")
    assert after.board["D4"].tile_id == founded.payload["tile"]
    assert after.deck == [t for t in ("tegea", "elis") if t != founded.payload["tile"]]
    assert types(events)[-1] == "TurnBegan" and after.player_on_turn == "sparta"


def test_s_exp_the_deck_draw_is_random_from_the_seed() -> None:
    state = game()
    tiles = {
        only(play(state, Expand("athens", space="D4"), seed=f"s{i}")[0], "PolisFounded").payload["tile"]
        for i in range(10)
    }
    assert len(tiles) > 1


@pytest.mark.parametrize("space", ["B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"])
def test_s_exp_any_of_the_eight_neighbours_of_a_controlled_polis(space: str) -> None:
    _, after = play(game(deck=["tegea"]), Expand("athens", space=space))
    assert after.board[space].tile_id == "tegea"


def test_s_exp_the_space_must_be_next_to_a_polis_you_control() -> None:
    refused(game(), Expand("athens", space="E5"), "S-EXP")
    refused(game(), Expand("athens", space="F4"), "S-EXP")  # next to Sparta's Polis, not Athens'


def test_s_exp_the_space_must_be_empty() -> None:
    state = state_of(board={**ATHENS_AND_SPARTA, "D4": {"tile": "elis"}})
    assert "not empty" in str(refused(state, Expand("athens", space="D4"), "S-EXP"))


def test_s_exp_the_discard_pile_gives_only_its_top_tile() -> None:
    events, after = play(game(discard=["elis", "pylos"]), Expand("athens", space="D4", source="discard"))
    assert only(events, "PolisFounded").payload["tile"] == "pylos"
    assert after.discard == ["elis"]


def test_s_exp_an_empty_source_cannot_be_drawn_from() -> None:
    refused(game(deck=[]), Expand("athens", space="D4"), "S-EXP")
    refused(game(discard=[]), Expand("athens", space="D4", source="discard"), "S-EXP")


@pytest.mark.parametrize(
    ("deck", "discard", "second"),
    [(["tegea"], [], "discard"), (["tegea"], [], "deck")],
    ids=["deck then an empty discard pile", "two tiles from a deck of one"],
)
def test_s_exp_a_pile_too_small_for_the_order_is_refused_before_any_tile_is_drawn(
    deck: list[str], discard: list[str], second: str
) -> None:
    """No draw before the order is known to be legal: an order refused draws nothing from the seed."""
    state = game(deck=deck, discard=discard)
    rng = GameRng("example", 0)
    with pytest.raises(RuleViolation) as caught:
        decide(state, Expand("athens", space="D4", second_source=second), rng)
    assert caught.value.rule == "S-EXP"
    assert rng.transcript == []


def test_h_neutral_the_new_tile_is_a_neutral_polis_with_garrison_and_treasure() -> None:
    events, after = play(game(deck=["rhodos"]), Expand("athens", space="D4"))
    rhodos = data.TILES["rhodos"]
    polis = after.board["D4"]
    assert polis.owner is None and polis.phalanxes == rhodos.garrison == 3
    assert sum(polis.unminted_coins.values()) == rhodos.treasure == 2
    assert only(events, "PolisFounded").payload["treasure"] == polis.unminted_coins
    assert sum(after.bag.values()) == 48 - 2


def test_s_exp_choice_draws_a_second_tile_for_the_same_space_and_waits() -> None:
    state = game(deck=["tegea", "elis"])
    events, after = play(state, Expand("athens", space="D4", second_source="deck"))
    assert types(events) == ["ChoiceTilesDrawn"]
    assert after.phase == "choice" and sorted(after.pending_choice.tiles) == ["elis", "tegea"]
    assert after.deck == [] and "D4" not in after.board
    assert after.player_on_turn == "athens"


def test_s_exp_choice_keep_one_the_other_goes_face_up_on_the_discard_pile() -> None:
    _, waiting = play(
        game(deck=["tegea"], discard=["pylos"]), Expand("athens", space="D4", second_source="discard")
    )
    assert waiting.pending_choice.tiles == ["tegea", "pylos"]
    events, after = play(waiting, ChooseTile("athens", keep="pylos"))
    assert after.board["D4"].tile_id == "pylos" and after.discard == ["tegea"]
    assert after.phase == "actions" and after.player_on_turn == "sparta"
    assert types(events)[:2] == ["TilesDiscarded", "PolisFounded"]


def test_s_exp_choice_costs_one_fp_when_the_tiles_are_drawn() -> None:
    state = state_of(
        players={"sparta": {"fp": 1}, "athens": {}}, board=ATHENS_AND_SPARTA, deck=["tegea", "elis"]
    )
    _, waiting = play(state, Expand("sparta", space="F4", second_source="deck"))
    assert waiting.players["sparta"].fp == 0


def test_s_exp_choice_costs_athens_nothing_by_the_faction_data() -> None:
    assert data.FACTIONS["athens"].choice_cost_fp == 0
    state = game(deck=["tegea", "elis"], athens={"fp": 0}, sparta={})
    _, waiting = play(state, Expand("athens", space="D4", second_source="deck"))
    assert waiting.phase == "choice" and waiting.players["athens"].fp == 0


def test_s_exp_choice_without_the_fp_is_refused() -> None:
    state = state_of(players={"sparta": {"fp": 0}, "athens": {}}, board=ATHENS_AND_SPARTA)
    refused(state, Expand("sparta", space="F4", second_source="deck"), "S-EXP-CHOICE")


def test_s_exp_choice_double_discard_places_nothing_and_keeps_the_chosen_order() -> None:
    _, waiting = play(
        game(deck=["tegea", "elis"], discard=["pylos"]), Expand("athens", space="D4", second_source="deck")
    )
    first, second = waiting.pending_choice.tiles
    _, after = play(waiting, ChooseTile("athens", discard_order=(second, first)))
    assert after.discard == ["pylos", second, first]  # the last named lies on top
    assert "D4" not in after.board and after.player_on_turn == "sparta"
    _, other_way = play(waiting, ChooseTile("athens", discard_order=(first, second)))
    assert other_way.discard == ["pylos", first, second]


def test_s_exp_choice_double_discard_must_name_both_drawn_tiles() -> None:
    _, waiting = play(game(deck=["tegea", "elis"]), Expand("athens", space="D4", second_source="deck"))
    refused(waiting, ChooseTile("athens", discard_order=("tegea", "pylos")), "S-EXP-CHOICE")
    refused(waiting, ChooseTile("athens", keep="pylos"), "S-EXP-CHOICE")


def test_s_exp_choice_two_discard_draws_take_the_top_two_tiles() -> None:
    _, waiting = play(
        game(discard=["elis", "pylos", "tegea"]),
        Expand("athens", space="D4", source="discard", second_source="discard"),
    )
    assert waiting.pending_choice.tiles == ["tegea", "pylos"] and waiting.discard == ["elis"]


def test_s_exp_link_builds_a_trade_link_for_one_fp() -> None:
    events, after = play(game(deck=["tegea"]), Expand("athens", space="D4", link_from="C3"))
    assert only(events, "TradeLinkBuilt").payload == {
        "player": "athens",
        "spaces": ["C3", "D4"],
        "fp": 1,
        "blanks": 0,
    }
    assert after.trade_links == [["C3", "D4"]] and after.players["athens"].fp == 1


def test_s_exp_link_both_upgrades_stack_to_two_fp() -> None:
    state = state_of(
        players={"sparta": {"fp": 2}, "athens": {}}, board=ATHENS_AND_SPARTA, deck=["tegea", "elis"]
    )
    _, waiting = play(state, Expand("sparta", space="F4", second_source="deck", link_from="G3"))
    _, after = play(waiting, ChooseTile("sparta", keep="elis"))
    assert after.players["sparta"].fp == 0 and after.trade_links == [["F4", "G3"]]
    short = state_of(players={"sparta": {"fp": 1}, "athens": {}}, board=ATHENS_AND_SPARTA)
    refused(short, Expand("sparta", space="F4", second_source="deck", link_from="G3"), "S-EXP-CHOICE")


def test_s_exp_link_after_a_double_discard_no_link_and_no_fp() -> None:
    state = state_of(
        players={"sparta": {"fp": 2}, "athens": {}}, board=ATHENS_AND_SPARTA, deck=["tegea", "elis"]
    )
    _, waiting = play(state, Expand("sparta", space="F4", second_source="deck", link_from="G3"))
    events, after = play(waiting, ChooseTile("sparta", discard_order=("tegea", "elis")))
    assert "TradeLinkBuilt" not in types(events)
    assert after.trade_links == [] and after.players["sparta"].fp == 1


def test_s_exp_link_without_the_fp_is_refused() -> None:
    refused(game(athens={"fp": 0}, sparta={}), Expand("athens", space="D4", link_from="C3"), "S-EXP-LINK")


def test_h_exp_link_joins_the_new_polis_to_the_adjacent_polis_named() -> None:
    board = {**ATHENS_AND_SPARTA, "D3": {"tile": "elis", "owner": "athens", "phalanxes": 1}}
    state = state_of(players={"athens": {"fp": 1}, "sparta": {}}, board=board, deck=["tegea"])
    _, after = play(state, Expand("athens", space="E4", link_from="D3"))
    assert after.trade_links == [["D3", "E4"]]


@pytest.mark.parametrize("link_from", ["G3", "A1", "F6"])
def test_h_exp_link_must_name_an_adjacent_polis_of_yours(link_from: str) -> None:
    board = {**ATHENS_AND_SPARTA, "F6": {"tile": "elis", "owner": "athens", "phalanxes": 1}}
    state = state_of(players={"athens": {"fp": 2}, "sparta": {}}, board=board)
    refused(state, Expand("athens", space="D4", link_from=link_from), "H-EXP-LINK")


def test_h_choices_while_the_choice_waits_only_the_chooser_may_answer() -> None:
    _, waiting = play(game(deck=["tegea", "elis"]), Expand("athens", space="D4", second_source="deck"))
    refused(waiting, ChooseTile("sparta", keep="tegea"), "S-EXP-CHOICE")
    refused(waiting, Pass("sparta"), "S-EXP-CHOICE")
    refused(waiting, Recruit("athens", space="C3", phalanxes=1), "S-EXP-CHOICE")


def test_h_choices_a_tile_choice_cannot_be_answered_when_none_waits() -> None:
    refused(game(), ChooseTile("athens", keep="tegea"), "S-EXP-CHOICE")

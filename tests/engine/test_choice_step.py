"""The Choice decided after the first tile, as examples (rules version 3).

Rules: H-CHOICE-STEP, S-EXP-CHOICE, S-EXP-LINK, S-BLANK, H-CHOICES, H-RULES-VERSION.
"""

from __future__ import annotations

import pytest

from games.engine import ChooseTile, Expand, RuleViolation, command_from_dict, legal_commands
from games.engine.versions import CHOICE_STEP, RULES_VERSION

from .support import only, play, refused, state_of, types

ATHENS_AND_SPARTA = {
    "C3": {"owner": "athens", "phalanxes": 4, "king": True},
    "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
}


def game(deck=("tegea", "elis"), discard=("pylos", "naxos"), sparta_fp: int = 2, blanks: int = 0, **spec):
    """Sparta on turn with `sparta_fp` FP and `blanks` Blanks; `spec` adds to the scenario (rules_version)."""
    return state_of(
        players={"sparta": {"fp": sparta_fp, "blanks": blanks}, "athens": {"fp": 2}},
        board=ATHENS_AND_SPARTA,
        deck=list(deck),
        discard=list(discard),
        **spec,
    )


def first_tile(state, source: str = "deck", **order):
    events, waiting = play(state, Expand("sparta", space="F4", source=source, choice_step=True, **order))
    return events, waiting


def test_h_choice_step_is_rules_version_3() -> None:
    assert CHOICE_STEP == 3 and RULES_VERSION >= CHOICE_STEP


def test_h_choice_step_shows_the_first_tile_alone_and_waits_unpaid() -> None:
    events, waiting = first_tile(game())
    assert types(events) == ["FirstTileDrawn"]
    tile = only(events, "FirstTileDrawn").payload["tile"]
    assert waiting.phase == "choice" and waiting.pending_choice.tiles == [tile]
    assert waiting.player_on_turn == "sparta" and waiting.players["sparta"].fp == 2
    assert "F4" not in waiting.board and tile not in waiting.deck


def test_s_exp_choice_keep_first_places_it_and_pays_no_choice() -> None:
    _, waiting = first_tile(game(), source="discard")
    assert waiting.pending_choice.tiles == ["naxos"]  # the discard pile's top tile
    events, after = play(waiting, ChooseTile("sparta", keep="naxos"))
    assert types(events)[0] == "PolisFounded"
    assert after.board["F4"].tile_id == "naxos" and after.players["sparta"].fp == 2
    assert after.discard == ["pylos"] and after.pending_choice is None
    assert after.phase == "actions" and after.player_on_turn == "athens"


def test_h_choice_step_pay_for_second_from_the_deck() -> None:
    _, waiting = first_tile(game(deck=("tegea",)), source="discard")
    events, both = play(waiting, ChooseTile("sparta", second_source="deck"))
    assert types(events) == ["SecondTileDrawn"]
    assert both.pending_choice.tiles == ["naxos", "tegea"] and both.deck == []
    assert both.players["sparta"].fp == 1 and both.phase == "choice" and both.player_on_turn == "sparta"


def test_h_choice_step_pay_for_second_from_the_discard_pile_takes_the_tile_under_the_first() -> None:
    _, waiting = first_tile(game(), source="discard")
    _, both = play(waiting, ChooseTile("sparta", second_source="discard"))
    assert both.pending_choice.tiles == ["naxos", "pylos"] and both.discard == []
    assert both.players["sparta"].fp == 1


def test_s_exp_choice_after_the_step_keep_either_tile() -> None:
    _, waiting = first_tile(game(deck=("tegea",)), source="discard")
    _, both = play(waiting, ChooseTile("sparta", second_source="deck"))
    for kept, other in (("naxos", "tegea"), ("tegea", "naxos")):
        _, after = play(both, ChooseTile("sparta", keep=kept))
        assert after.board["F4"].tile_id == kept and after.discard == ["pylos", other]
        assert after.player_on_turn == "athens" and after.players["sparta"].fp == 1


def test_s_exp_choice_after_the_step_double_discard_in_the_chosen_order() -> None:
    _, waiting = first_tile(game(deck=("tegea",)), source="discard")
    _, both = play(waiting, ChooseTile("sparta", second_source="deck"))
    _, one_way = play(both, ChooseTile("sparta", discard_order=("tegea", "naxos")))
    assert one_way.discard == ["pylos", "tegea", "naxos"] and "F4" not in one_way.board
    _, other_way = play(both, ChooseTile("sparta", discard_order=("naxos", "tegea")))
    assert other_way.discard == ["pylos", "naxos", "tegea"] and other_way.player_on_turn == "athens"


def test_h_choice_step_not_enough_fp_for_the_second_tile_is_refused() -> None:
    _, waiting = first_tile(game(sparta_fp=0))
    refused(waiting, ChooseTile("sparta", second_source="deck"), "S-EXP-CHOICE")
    offered = legal_commands(waiting, "sparta")
    assert [c for c in offered if isinstance(c, ChooseTile)] == [
        ChooseTile("sparta", keep=waiting.pending_choice.tiles[0])
    ]


def test_h_choice_step_the_link_keeps_its_fp_so_the_choice_cannot_spend_it() -> None:
    state = state_of(
        players={"sparta": {"fp": 1}, "athens": {}},
        board={**ATHENS_AND_SPARTA, "G4": {"owner": "sparta", "phalanxes": 1}},
        deck=["tegea", "elis"],
    )
    _, waiting = play(state, Expand("sparta", space="F4", link_from="G4", choice_step=True))
    refused(waiting, ChooseTile("sparta", second_source="deck"), "S-EXP-CHOICE")
    _, after = play(waiting, ChooseTile("sparta", keep=waiting.pending_choice.tiles[0]))
    assert ["F4", "G4"] in after.trade_links and after.players["sparta"].fp == 0


def test_h_choice_step_a_blank_may_pay_the_second_tile() -> None:
    _, waiting = first_tile(game(sparta_fp=0, blanks=1))
    _, both = play(waiting, ChooseTile("sparta", second_source="deck", blanks=1))
    assert len(both.pending_choice.tiles) == 2 and both.players["sparta"].blanks == 0


def test_h_choice_step_keep_must_name_the_tile_seen_and_a_second_ask_comes_once() -> None:
    _, waiting = first_tile(game())
    refused(waiting, ChooseTile("sparta", keep="pylos"), "S-EXP-CHOICE")
    _, both = play(waiting, ChooseTile("sparta", second_source="deck"))
    refused(both, ChooseTile("sparta", second_source="discard"), "S-EXP-CHOICE")


def test_h_choice_step_only_the_chooser_answers() -> None:
    _, waiting = first_tile(game())
    refused(waiting, ChooseTile("athens", keep=waiting.pending_choice.tiles[0]), "S-EXP-CHOICE")


def test_h_choice_step_old_version_games_draw_both_tiles_at_once() -> None:
    """H-RULES-VERSION: under versions 1 and 2 the step does not exist, and an order of theirs is
    recorded exactly as it was (no new field in its JSON)."""
    for version in (1, 2):
        old = game(rules_version=version)
        refused(old, Expand("sparta", space="F4", choice_step=True), "S-EXP-CHOICE")
        assert not any(getattr(c, "choice_step", False) for c in legal_commands(old, "sparta"))
        events, _ = play(old, Expand("sparta", space="F4", second_source="deck"))
        assert types(events) == ["ChoiceTilesDrawn"]
    assert "choice_step" not in Expand("sparta", space="F4").to_dict()
    assert set(ChooseTile("sparta", keep="tegea").to_dict()) == {"kind", "player", "keep", "discard_order"}
    step = Expand("sparta", space="F4", choice_step=True)
    assert command_from_dict(step.to_dict()) == step


def test_h_choice_step_a_second_ask_with_a_keep_is_malformed() -> None:
    raw = {"kind": "choose_tile", "player": "sparta", "keep": "tegea", "second_source": "deck"}
    with pytest.raises(RuleViolation) as caught:
        command_from_dict(raw)
    assert caught.value.rule == "H-ORDER"

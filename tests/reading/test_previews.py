"""The Move cost preview the order page asks for: the engine's own reckoning (S-MOVE, S-MOVE-NAV)."""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine import Destination, Expand, Fortify, GameRng, Move, Pass, Recruit, Reform, RuleViolation
from games.reading.previews import order_cost, preview_move_cost

POSITION: dict[str, Any] = {
    "players": {"athens": {"fp": 5, "blanks": 1}, "sparta": {"fp": 2}},
    "board": {
        "C3": {"owner": "athens", "phalanxes": 9, "king": True, "navigators": 2, "builders": 0},
        "E3": {"tile": "megara", "owner": "athens", "phalanxes": 1},
        "C5": {"tile": "delos", "phalanxes": 2},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    },
}


def move(*destinations: Destination, origin: str = "C3", **extra: Any) -> Move:
    return Move(player="athens", origin=origin, destinations=destinations, **extra)


def test_s_move_preview_is_units_over_four_rounded_up_times_the_farthest_distance() -> None:
    state = engine.scenario(POSITION)
    assert preview_move_cost(state, move(Destination("E3", phalanxes=5))) == 4  # ceil(5/4) × 2
    assert preview_move_cost(state, move(Destination("E3", phalanxes=4))) == 2  # ceil(4/4) × 2
    spread = move(Destination("E3", phalanxes=3), Destination("C5", phalanxes=2), battle_order=())
    assert preview_move_cost(state, spread) == 4  # 5 units, farthest 2 away


def test_s_move_free_the_king_rides_free_in_the_preview() -> None:
    state = engine.scenario(POSITION)
    with_king = move(Destination("E3", phalanxes=4, king=True))
    assert preview_move_cost(state, with_king) == preview_move_cost(
        state, move(Destination("E3", phalanxes=4))
    )


def test_s_move_nav_each_navigator_counts_as_a_unit_then_takes_one_fp_off() -> None:
    state = engine.scenario(POSITION)
    # 4 phalanxes + 2 Navigators = 6 units: ceil(6/4) × 2 = 4, less 2 for the Navigators.
    assert preview_move_cost(state, move(Destination("E3", phalanxes=4, navigators=2))) == 2


def test_s_move_preview_equals_the_fp_the_submitted_move_pays() -> None:
    state = engine.scenario(POSITION)
    order = move(Destination("E3", phalanxes=5, king=True, navigators=1))
    preview = preview_move_cost(state, order)
    (moved,) = [e for e in engine.decide(state, order, GameRng("seed", 0)) if e.type == "UnitsMoved"]
    assert preview == moved.payload["fp_paid"] == 3


def test_s_move_preview_of_an_illegal_move_is_the_rule_it_breaks_and_changes_nothing() -> None:
    state = engine.scenario(POSITION)
    before = state.to_dict()
    too_many = preview_move_cost(state, move(Destination("E3", phalanxes=10)))
    assert isinstance(too_many, RuleViolation) and too_many.rule == "S-MOVE"
    too_dear = preview_move_cost(state, move(Destination("G3", phalanxes=9, king=True)))  # 3 × 4 = 12 FP
    assert isinstance(too_dear, RuleViolation) and too_dear.rule == "S-MOVE"
    not_yours = preview_move_cost(state, move(Destination("C3", phalanxes=1), origin="G3"))
    assert isinstance(not_yours, RuleViolation) and not_yours.rule == "S-MOVE"
    assert state.to_dict() == before


def test_h_control_preview_refuses_a_king_left_alone() -> None:
    board = {**POSITION["board"], "C3": {"owner": "athens", "phalanxes": 2}}
    board["E3"] = {"tile": "megara", "owner": "athens", "phalanxes": 2, "king": True}
    state = engine.scenario({**POSITION, "board": board})
    lonely = preview_move_cost(state, move(Destination("C5", phalanxes=2), origin="E3"))
    assert isinstance(lonely, RuleViolation) and lonely.rule == "H-CONTROL"
    assert preview_move_cost(state, move(Destination("C5", phalanxes=2, king=True), origin="E3")) == 2


def test_h_order_preview_reads_the_json_form_with_the_submitted_orders_checks() -> None:
    state = engine.scenario(POSITION)
    raw = {
        "kind": "move",
        "player": "athens",
        "origin": "C3",
        "destinations": [{"space": "E3", "phalanxes": 4}],
    }
    assert preview_move_cost(state, raw) == 2
    malformed = preview_move_cost(state, {**raw, "destinations": "E3"})
    assert isinstance(malformed, RuleViolation) and malformed.rule == "H-ORDER"
    not_a_move = preview_move_cost(state, {"kind": "pass", "player": "athens"})
    assert isinstance(not_a_move, RuleViolation) and not_a_move.rule == "H-ORDER"
    stranger = preview_move_cost(state, {**raw, "player": "thebes"})
    assert isinstance(stranger, RuleViolation) and stranger.rule == "S-MOVE"


def test_h_faction_a_suggested_orders_cost_is_the_one_its_rules_charge() -> None:
    """The one-click suggestions say their price (games/reading/previews.py order_cost): H-ACTIONS Recruit
    1 AP a phalanx and Fortify 3 AP, H-FACTION Sparta 2 phalanxes per AP at home, H-HEROES 2 AP a
    Navigator, S-EXP-LINK +1 FP, S-MOVE; nothing for an order without a price."""
    state = engine.scenario(POSITION)
    assert order_cost(state, Recruit("athens", space="C3", phalanxes=3, navigators=1)) == (5, "AP")
    assert order_cost(state, Recruit("sparta", space="G3", phalanxes=5)) == (3, "AP")
    assert order_cost(state, Fortify("athens", space="C3", blanks=1)) == (3, "AP")  # before Blanks
    assert order_cost(state, Expand("athens", space="D4", link_from="C3")) == (1, "FP")
    assert order_cost(state, Expand("athens", space="D4", second_source="deck")) is None  # Athens: 0 FP
    assert order_cost(state, move(Destination("E3", phalanxes=5))) == (4, "FP")
    assert order_cost(state, Pass("athens")) is None
    assert order_cost(state, Reform("athens", government="tyranny")) is None

"""Reading orders from untrusted JSON, as examples: H-ORDER."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import (
    ChooseTile,
    CommitCoins,
    Destination,
    Expand,
    Fortify,
    GameRng,
    Move,
    Pass,
    Recruit,
    RuleViolation,
    command_from_dict,
    decide,
)

from .support import state_of

EXAMPLES = [
    Pass("athens"),
    Expand("athens", space="D4"),
    Expand("athens", space="D4", source="discard", second_source="deck", link_from="C3"),
    ChooseTile("athens", keep="elis"),
    ChooseTile("athens", discard_order=("elis", "pylos")),
    Move(
        "athens",
        origin="C3",
        destinations=(Destination("D4", 2, king=True), Destination("E5", 1)),
        battle_order=("E5", "D4"),
    ),
    Recruit("athens", space="C3", phalanxes=3),
    Fortify("athens", space="C3"),
    CommitCoins("athens", coins=(("owl", 2), ("turtle", 1)), blanks=1),
]


@pytest.mark.parametrize("command", EXAMPLES, ids=lambda c: c.kind)
def test_h_order_every_order_round_trips_through_plain_json(command: Any) -> None:
    import json

    as_json = json.loads(json.dumps(command.to_dict()))
    assert command_from_dict(as_json) == command


def test_h_order_coins_may_be_given_as_a_mapping() -> None:
    parsed = command_from_dict(
        {"kind": "commit_coins", "player": "athens", "coins": {"turtle": 1, "owl": 2, "shield": 0}}
    )
    assert parsed == CommitCoins("athens", coins=(("owl", 2), ("turtle", 1)))


@pytest.mark.parametrize(
    "raw",
    [
        None,
        [],
        "pass",
        {},
        {"kind": "dance", "player": "athens"},
        {"kind": "pass"},
        {"kind": "pass", "player": ""},
        {"kind": "pass", "player": 3},
        {"kind": "pass", "player": "athens", "extra": 1},
        {"kind": "expand", "player": "athens", "space": "Z9"},
        {"kind": "expand", "player": "athens", "space": "D4", "source": "hand"},
        {"kind": "expand", "player": "athens", "space": "D4", "link_from": 7},
        {"kind": "recruit", "player": "athens", "space": "C3", "phalanxes": 0},
        {"kind": "recruit", "player": "athens", "space": "C3", "phalanxes": -2},
        {"kind": "recruit", "player": "athens", "space": "C3", "phalanxes": "3"},
        {"kind": "recruit", "player": "athens", "space": "C3", "phalanxes": True},
        {"kind": "recruit", "player": "athens", "space": "C3", "phalanxes": 2.5},
        {"kind": "choose_tile", "player": "athens"},
        {"kind": "choose_tile", "player": "athens", "discard_order": ["elis"]},
        {"kind": "choose_tile", "player": "athens", "discard_order": "elis,pylos"},
        {"kind": "move", "player": "athens", "origin": "C3", "destinations": []},
        {
            "kind": "move",
            "player": "athens",
            "origin": "C3",
            "destinations": [{"space": s} for s in ("D4", "E5", "F6", "G7")],
        },
        {
            "kind": "move",
            "player": "athens",
            "origin": "C3",
            "destinations": [{"space": "D4", "phalanxes": -1}],
        },
        {
            "kind": "move",
            "player": "athens",
            "origin": "C3",
            "destinations": [{"space": "D4", "king": "yes"}],
        },
        {"kind": "move", "player": "athens", "origin": "C3", "destinations": [{"space": "D4", "horses": 2}]},
        {"kind": "move", "player": "athens", "origin": "C3", "destinations": ["D4"]},
        {
            "kind": "move",
            "player": "athens",
            "origin": "C3",
            "destinations": [{"space": "D4"}],
            "battle_order": ["X1"],
        },
        {"kind": "commit_coins", "player": "athens", "coins": {"drachma": 1}},
        {"kind": "commit_coins", "player": "athens", "coins": {"owl": -1}},
        {"kind": "commit_coins", "player": "athens", "coins": [["owl", 1], ["owl", 2]]},
        {"kind": "commit_coins", "player": "athens", "coins": "owl"},
        {"kind": "commit_coins", "player": "athens", "blanks": -1},
    ],
)
def test_h_order_a_malformed_order_is_refused_with_a_message(raw: Any) -> None:
    with pytest.raises(RuleViolation) as caught:
        command_from_dict(raw)
    assert caught.value.rule == "H-ORDER" and caught.value.message


def test_h_order_decide_applies_the_same_checks_to_a_command_built_in_code() -> None:
    state = state_of()
    before = state.to_dict()
    with pytest.raises(RuleViolation) as caught:
        decide(state, Recruit("athens", space="C3", phalanxes=-1), GameRng("s", 0))
    assert caught.value.rule == "H-ORDER" and state.to_dict() == before


def test_h_order_an_unknown_player_is_refused() -> None:
    state = state_of()
    with pytest.raises(RuleViolation) as caught:
        decide(state, Pass("thebes"), GameRng("s", 0))
    assert caught.value.rule == "H-ORDER"


def test_h_order_messages_carry_their_parameters_for_translation() -> None:
    with pytest.raises(RuleViolation) as caught:
        command_from_dict({"kind": "dance", "player": "athens"})
    assert caught.value.message_template == "Unknown kind of order: %(kind)s." and caught.value.params == {
        "kind": "dance"
    }


@pytest.mark.parametrize("kind", [["pass"], {"pass": 1}, 7, None])
def test_h_order_a_kind_that_is_not_a_word_is_refused_not_a_crash(kind) -> None:
    """A list or object as the kind (unhashable) raised TypeError: the JSON API answered 500."""
    with pytest.raises(RuleViolation) as caught:
        command_from_dict({"kind": kind, "player": "athens"})
    assert caught.value.rule == "H-ORDER"
    assert caught.value.message_template == "Unknown kind of order: %(kind)s."


# One well-formed order of every kind with all its required fields (H-ORDER).
COMPLETE = {
    "pass": {},
    "expand": {"space": "D4"},
    "choose_tile": {"keep": "elis"},
    "move": {"origin": "C3", "destinations": [{"space": "D4", "phalanxes": 1}]},
    "recruit": {"space": "C3"},
    "fortify": {"space": "C3"},
    "commit_coins": {},
    "reform": {"government": "tyranny"},
    "recruit_builder": {},
    "oracle": {"coin": "owl"},
    "neutral_trade": {},
    "offer_trade": {"to": "sparta"},
    "accept_offer": {"offer": 1},
    "decline_offer": {"offer": 1},
}
REQUIRED = [(kind, name) for kind, given in COMPLETE.items() for name in given if kind != "choose_tile"]


def test_h_order_every_kind_of_order_has_a_complete_example() -> None:
    from games.engine import COMMAND_TYPES

    assert set(COMPLETE) == set(COMMAND_TYPES)
    for kind, given in COMPLETE.items():
        assert command_from_dict({"kind": kind, "player": "athens", **given}).kind == kind


@pytest.mark.parametrize(("kind", "field"), REQUIRED, ids=lambda v: str(v))
def test_h_order_a_missing_required_field_is_refused_naming_it(kind: str, field: str) -> None:
    raw = {"kind": kind, "player": "athens", **COMPLETE[kind]}
    del raw[field]
    with pytest.raises(RuleViolation) as caught:
        command_from_dict(raw)
    assert caught.value.rule == "H-ORDER"
    assert caught.value.message_template == "The order is missing the field %(field)s."
    assert caught.value.params == {"field": field}
    assert caught.value.message == f"The order is missing the field {field}. (H-ORDER)"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"kind": "recruit", "player": "athens", "space": "C3", "phalanxes": "3"}, "phalanxes"),
        ({"kind": "fortify", "player": "athens", "space": 7}, "space"),
        ({"kind": "accept_offer", "player": "athens", "offer": None}, "offer"),
        ({"kind": "commit_coins", "player": "athens", "card_coins": "owl"}, "card_coins"),
        ({"kind": "commit_coins", "player": "athens", "coins": {"owl": "2"}}, "coins.owl"),
        ({"kind": "commit_coins", "player": "athens", "coins": {"drachma": 1}}, "coins.drachma"),
        ({"kind": "offer_trade", "player": "athens", "to": "sparta", "give": {"ap": -1}}, "give.ap"),
        ({"kind": "offer_trade", "player": "athens", "to": "sparta", "take": {"coins": 3}}, "take.coins"),
    ],
)
def test_h_order_a_mistyped_field_is_refused_naming_it(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        command_from_dict(raw)
    assert caught.value.rule == "H-ORDER" and caught.value.params["field"] == field


def test_h_order_an_extra_field_is_refused_naming_it() -> None:
    with pytest.raises(RuleViolation) as caught:
        command_from_dict({"kind": "fortify", "player": "athens", "space": "C3", "spaces": ["D4"]})
    assert caught.value.rule == "H-ORDER" and caught.value.params == {"fields": "spaces"}

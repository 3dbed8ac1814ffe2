"""Governments and faction data as examples: H-GOV (income bonus, Reform), H-FACTION, S-BLANK (Democracy)."""

from __future__ import annotations

import pytest

from games.engine import Reform, RuleViolation, command_from_dict, fold, legal_commands, new_game
from games.engine.data import FACTIONS, GOVERNMENTS

from .support import into_year, only, play, refused, state_of, types

BOARD = {
    "C3": {"owner": "athens", "phalanxes": 1},
    "G3": {"owner": "sparta", "phalanxes": 1},
    "C7": {"owner": "corinth", "phalanxes": 1},
}


def test_h_gov_starting_governments_come_from_the_data_file() -> None:
    state = fold(new_game({"factions": ["athens", "sparta", "corinth", "thebes"]}, "gov"))
    assert {f: p.government for f, p in state.players.items()} == {
        "athens": "democracy",
        "sparta": "oligarchy",
        "corinth": "oligarchy",
        "thebes": "oligarchy",
    }
    assert all(FACTIONS[f].starting_government in GOVERNMENTS for f in FACTIONS)


def test_h_gov_income_bonus_tyranny_ap_oligarchy_fp_democracy_blank() -> None:
    players = {
        "athens": {"government": "democracy"},
        "sparta": {"government": "tyranny"},
        "corinth": {"government": "oligarchy"},
    }
    events, after = into_year(429, players=players, board=BOARD)
    bonus = {e.payload["player"]: e.payload["bonus"] for e in events if e.type == "IncomeReceived"}
    assert bonus == {
        "athens": {"ap": 0, "fp": 0, "blanks": 1},
        "sparta": {"ap": 1, "fp": 0, "blanks": 0},
        "corinth": {"ap": 0, "fp": 1, "blanks": 0},
    }
    # printed: Athens 1 AP 3 FP, Sparta 3 AP 1 FP, Corinth 1 AP 1 FP; plus the bonus
    assert (after.players["athens"].ap, after.players["athens"].fp, after.players["athens"].blanks) == (
        1,
        3,
        1,
    )
    assert (after.players["sparta"].ap, after.players["sparta"].fp) == (4, 1)
    assert (after.players["corinth"].ap, after.players["corinth"].fp) == (1, 2)


def test_h_gov_no_bonus_in_a_year_without_income() -> None:
    events, after = into_year(430, players=["athens", "sparta"], board=BOARD | {"C7": {"tile": "elis"}})
    assert "IncomeReceived" not in types(events) and after.players["athens"].blanks == 0


def test_s_blank_democracy_creates_a_blank_at_every_income() -> None:
    events = new_game({"factions": ["athens", "sparta"]}, "democracy")
    assert fold(events).players["athens"].blanks == 1 and fold(events).players["sparta"].blanks == 0


def test_h_gov_reform_changes_the_government_for_the_action_alone() -> None:
    state = state_of(
        players={"athens": {"ap": 2, "fp": 2}, "sparta": {}}, board=BOARD | {"C7": {"tile": "elis"}}
    )
    events, after = play(state, Reform("athens", government="tyranny"))
    assert only(events, "GovernmentReformed").payload == {
        "player": "athens",
        "previous": "democracy",
        "government": "tyranny",
    }
    assert after.players["athens"].government == "tyranny"
    assert (after.players["athens"].ap, after.players["athens"].fp) == (2, 2)
    assert after.player_on_turn == "sparta"


def test_h_gov_a_reformed_government_pays_its_bonus_from_the_next_income() -> None:
    players = {"athens": {"government": "tyranny"}, "sparta": {}}
    events, after = into_year(429, players=players, board={k: BOARD[k] for k in ("C3", "G3")})
    assert (
        only([e for e in events if e.payload.get("player") == "athens"], "IncomeReceived").payload[
            "government"
        ]
        == "tyranny"
    )
    assert (after.players["athens"].ap, after.players["athens"].blanks) == (2, 0)


def test_h_gov_reform_must_change_the_government() -> None:
    state = state_of(players=["athens", "sparta"], board={k: BOARD[k] for k in ("C3", "G3")})
    refused(state, Reform("athens", government="democracy"), "H-GOV")
    with pytest.raises(RuleViolation) as caught:
        command_from_dict({"kind": "reform", "player": "athens", "government": "monarchy"})
    assert caught.value.rule == "H-ORDER"


def test_h_gov_reforms_are_offered_to_every_other_government() -> None:
    state = state_of(players=["athens", "sparta"], board={k: BOARD[k] for k in ("C3", "G3")})
    reforms = [c for c in legal_commands(state, "athens") if isinstance(c, Reform)]
    assert sorted(r.government for r in reforms) == ["oligarchy", "tyranny"]


def test_h_faction_asymmetries_live_in_the_data_file() -> None:
    assert FACTIONS["athens"].choice_cost_fp == 0 and FACTIONS["athens"].starting_navigators == 1
    assert FACTIONS["sparta"].recruit_per_ap_native == 2
    assert FACTIONS["corinth"].extra_actions == ("recruit_builder",)
    assert FACTIONS["thebes"].economy_coins == 1


def test_h_gov_a_scenario_names_only_a_known_government() -> None:
    from games.engine import ScenarioError

    with pytest.raises(ScenarioError, match="H-GOV"):
        state_of(players={"athens": {"government": "monarchy"}, "sparta": {}})

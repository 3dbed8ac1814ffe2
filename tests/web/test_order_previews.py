"""Every order kind's preview as JSON for the player's page (docs/order-loop.md "Previews"): the form's
fields in, the engine's cost and what the order does out, in the page's language; nothing changes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import RequestFactory

from games.models import Event
from games.services.game_setup import PlayerSpec, create_game
from games.web.seat_cookies import cookie_name
from games.web.views.board import move_cost
from tests.web.support import seat_cookie

SCENARIO: dict[str, Any] = {
    "players": {"athens": {"fp": 6, "ap": 4}, "sparta": {"fp": 2}},
    "seat_order": ["athens", "sparta"],
    "board": {
        "C3": {"owner": "athens", "phalanxes": 6, "king": True},
        "D4": {"tile": "megara", "phalanxes": 2},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
        "E3": {"tile": "elis"},
    },
}
PLAYERS = [
    PlayerSpec("Ana", "ana@example.com", "athens", language="en"),
    PlayerSpec("Ben", "ben@example.com", "sparta"),
]


def ask(seat, kind: str, **fields: str) -> dict[str, Any]:
    request = RequestFactory().get("/", {"kind": kind, **{f"{kind}-{k}": v for k, v in fields.items()}})
    request.COOKIES[cookie_name(seat.pk)] = seat_cookie(seat)
    response = move_cost(request, seat.game_id, seat.pk)
    assert response.status_code == 200
    return json.loads(response.content)


@pytest.fixture
def athens(db):
    game = create_game(PLAYERS, scenario=SCENARIO)
    return game.seats.get(faction="athens")


def test_s_move_order_the_preview_names_the_split_and_the_battles_in_their_order(athens) -> None:
    answer = ask(
        athens, "move", origin="C3", to1="E3", phalanxes1="3", to2="D4", phalanxes2="3",
        battle_order="D4", navigators1="0", navigators2="0", blanks="0",
    )  # fmt: skip
    assert "error" not in answer, answer
    assert answer["unit"] == "FP" and answer["cost"] > 0
    assert "3 phalanxes to E3; 3 phalanxes to D4" in answer["text"]
    assert "battles at D4" in answer["text"] and "E3" in answer["text"]


def test_s_exp_the_preview_says_what_is_founded_and_its_price_and_nothing_is_drawn(athens) -> None:
    events = Event.objects.filter(game=athens.game).count()
    answer = ask(athens, "expand", space="B2", source="deck", link_from="C3", blanks="0")
    assert (
        answer["cost"] == 1
        and "neutral Polis on B2" in answer["text"]
        and "trade link from C3" in answer["text"]
    )
    assert Event.objects.filter(game=athens.game).count() == events
    # H-TAKEBACK: said before the tap, as the take-back's refusal would say it after.
    assert answer["text"].endswith(
        "Once given, it cannot be taken back: a tile is drawn from the deck. (rule H-TAKEBACK)"
    )
    assert "cannot be taken back" not in ask(athens, "pass")["text"]
    refused = ask(athens, "expand", space="H8", source="deck", blanks="0")
    assert refused["rule"] == "S-EXP" and "cost" not in refused


@pytest.mark.django_db
def test_h_actions_recruit_fortify_and_pass_are_previewed_in_german() -> None:
    game = create_game(
        [PlayerSpec("Ana", "ana@example.com", "athens", language="de"), PLAYERS[1]], scenario=SCENARIO
    )
    seat = game.seats.get(faction="athens")
    recruit = ask(seat, "recruit", space="C3", phalanxes="2", navigators="0", blanks="0")
    assert recruit["unit"] == "AP" and "Phalangen in C3" in recruit["text"]
    fortify = ask(seat, "fortify", space="C3", blanks="0")
    assert fortify["unit"] == "AP" and "C3" in fortify["text"]
    assert ask(seat, "pass")["text"]


SPARTA_ON_TURN: dict[str, Any] = {**SCENARIO, "players": {"athens": {"fp": 2}, "sparta": {"ap": 5}}}
SPARTA_ON_TURN["seat_order"] = ["sparta", "athens"]


@pytest.mark.parametrize(
    ("language", "explained"),
    [
        (
            "en",
            "1 AP (you have 5); 1 phalanx in G3 (1 AP recruits 2 phalanxes here, H-FACTION: 1 more costs no",
        ),
        ("de", "(1 AP rekrutiert hier 2 Phalangen, H-FACTION: 1 weitere kostet kein AP mehr)"),
    ],
)
def test_h_faction_spartas_recruit_preview_says_why_one_phalanx_costs_a_whole_ap_in_its_native_polis(
    db, language, explained
) -> None:
    # H-FACTION: 2 phalanxes per AP in Sparta's Native Polis (G3), the cost rounded up: 1 phalanx is 1 AP.
    players = [PlayerSpec(p.name, p.email, p.faction, language=language) for p in PLAYERS]
    sparta = create_game(players, scenario=SPARTA_ON_TURN).seats.get(faction="sparta")
    one = ask(sparta, "recruit", space="G3", phalanxes="1", navigators="0", blanks="0")
    assert (one["cost"], one["unit"]) == (1, "AP")
    assert explained in one["text"], one
    two = ask(sparta, "recruit", space="G3", phalanxes="2", navigators="0", blanks="0")
    assert (two["cost"], two["unit"]) == (1, "AP") and "H-FACTION" not in two["text"], two


@pytest.mark.django_db
def test_s_move_order_left_empty_the_battles_are_fought_in_the_order_of_the_destinations() -> None:
    """S-MOVE-ORDER on the order form (and the board's taps, which fill it): the player lists their
    destinations in the order they mean to fight; a battle order typed in still decides."""
    rich = {**SCENARIO, "players": {"athens": {"fp": 10, "ap": 4}, "sparta": {"fp": 2}}}
    athens = create_game(PLAYERS, scenario=rich).seats.get(faction="athens")
    fields = {"origin": "C3", "phalanxes1": "3", "phalanxes2": "3", "navigators1": "0", "blanks": "0"}

    def battles(answer: dict[str, Any]) -> str:
        assert "error" not in answer, answer
        return answer["text"][answer["text"].index("battles at") :]

    as_listed = battles(ask(athens, "move", to1="G3", to2="D4", battle_order="", **fields))
    assert as_listed.index("G3") < as_listed.index("D4")
    other_way = battles(ask(athens, "move", to1="D4", to2="G3", battle_order="", **fields))
    assert other_way.index("D4") < other_way.index("G3")
    typed = battles(ask(athens, "move", to1="G3", to2="D4", battle_order="D4, G3", **fields))
    assert typed.index("D4") < typed.index("G3")

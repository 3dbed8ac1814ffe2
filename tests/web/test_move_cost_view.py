"""The Move cost preview as JSON for the player's page: the Move form's fields in, the cost out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import RequestFactory

from games.models import Event, Seat
from games.services.game_setup import PlayerSpec, create_game
from games.web.seat_cookies import cookie_name
from games.web.views.board import move_cost
from tests.web.support import seat_cookie

SCENARIO: dict[str, Any] = {
    "players": {"athens": {"fp": 3}, "sparta": {"fp": 2}},
    "seat_order": ["athens", "sparta"],
    "board": {
        "C3": {"owner": "athens", "phalanxes": 6, "king": True, "navigators": 1},
        "E3": {"tile": "megara", "owner": "athens", "phalanxes": 1},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    },
}
PLAYERS = [
    PlayerSpec("Ana", "ana@example.com", "athens", language="de"),
    PlayerSpec("Ben", "ben@example.com", "sparta"),
]


def ask(seat: Seat, cookie: str, **fields: str) -> tuple[int, dict[str, Any]]:
    """The preview as the page's script asks for it: at the seat's address, with `cookie` as its seat
    cookie."""
    form = {"move-phalanxes1": "0", "move-navigators1": "0", **{f"move-{k}": v for k, v in fields.items()}}
    request = RequestFactory().get("/", form)
    request.COOKIES[cookie_name(seat.pk)] = cookie
    response = move_cost(request, seat.game_id, seat.pk)
    return response.status_code, json.loads(response.content)


@pytest.mark.django_db
def test_s_move_the_page_is_told_the_engines_cost_and_nothing_changes() -> None:
    game = create_game(PLAYERS, scenario=SCENARIO)
    seat = game.seats.get(faction="athens")
    events = Event.objects.filter(game=game).count()
    # 5 phalanxes and the Navigator, 2 spaces: ceil(6/4) × 2 − 1 = 3 FP (S-MOVE, S-MOVE-NAV).
    status, answer = ask(seat, seat_cookie(seat), origin="C3", to1="E3", phalanxes1="5", navigators1="1")
    assert status == 200
    assert answer["cost"] == 3 and answer["fp"] == 3
    assert answer["text"]
    assert Event.objects.filter(game=game).count() == events


@pytest.mark.django_db
def test_s_move_an_illegal_move_is_answered_with_the_rule_it_breaks() -> None:
    game = create_game(PLAYERS, scenario=SCENARIO)
    seat = game.seats.get(faction="athens")
    cookie = seat_cookie(seat)
    status, answer = ask(seat, cookie, origin="C3", to1="G3", phalanxes1="6", king1="on")  # 2 × 4 = 8 FP
    assert status == 200 and answer["rule"] == "S-MOVE" and "(Regel S-MOVE)" in answer["error"]
    status, answer = ask(seat, cookie, origin="C3", to1="", phalanxes1="1")
    assert status == 200 and "cost" not in answer and answer["error"]


@pytest.mark.django_db
def test_a_forged_link_gets_no_preview() -> None:
    game = create_game(PLAYERS, scenario=SCENARIO)
    seat = game.seats.get(faction="athens")
    status, answer = ask(seat, "not-a-token", origin="C3", to1="E3", phalanxes1="1")
    assert status == 403 and "cost" not in answer

"""The board picture for the turn email (issue 8): the PNG of the seat's own view at the email's seq."""

from __future__ import annotations

import struct
from io import BytesIO

import pytest
from PIL import Image

from games.board import board_size, render_board_png
from games.board_email import board_cid, board_image
from games.engine import player_view
from games.orders import PlayerSpec, create_game
from games.situation import load_game

SCENARIO = {
    "players": {
        "athens": {"coins_behind_screen": {"owl": 3}},
        "sparta": {"coins_behind_screen": {"turtle": 2}},
    },
    "board": {
        "C3": {"owner": "athens", "phalanxes": 4, "king": True, "navigators": 1},
        "D4": {"tile": "megara", "owner": "athens", "phalanxes": 2, "fortification_hp": [3, 2]},
        "G3": {"owner": "sparta", "phalanxes": 6, "king": True},
        "E5": {"tile": "delos", "phalanxes": 1, "unminted_coins": {"turtle": 2}},
    },
    "trade_links": [["C3", "D4"]],
}


@pytest.mark.django_db
def test_h_screen_the_email_picture_is_the_seats_own_view_at_that_seq() -> None:
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=SCENARIO)
    seat = game.seats.get(faction="sparta")
    loaded = load_game(game)
    image = board_image(game.pk, loaded.seq, seat.pk, "de")
    assert image is not None
    assert image["Content-ID"] == f"<{board_cid(game.pk, loaded.seq, seat.pk)}>"
    assert image["Content-Disposition"].startswith("inline")
    assert image.get_content_type() == "image/png"
    png = image.get_payload(decode=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == board_size(player_view(loaded.state, "sparta"))
    assert Image.open(BytesIO(png)).size == board_size(player_view(loaded.state, "sparta"))
    assert png == render_board_png(player_view(loaded.state, "sparta"), "de")  # Sparta's view, not the state


@pytest.mark.django_db
def test_a_seat_of_another_game_gets_no_picture() -> None:
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    game = create_game(players, scenario=SCENARIO)
    other = create_game(players, scenario=SCENARIO)
    assert board_image(game.pk, 1, other.seats.first().pk, "en") is None

"""Helpers shared by the order-loop tests: a two-player game, links in emails, the seat on turn."""

from __future__ import annotations

import re

from django.conf import settings

from games.engine import Pass
from games.models import Game, Seat
from games.reading.situation import load_game, must_act
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order

ANA = PlayerSpec("Ana", "ana@example.com", "athens")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta")
LINK = re.compile(r"https?://\S+/play/\d+/[^/\s\"<>]+/")


def two_player_game(**kwargs) -> Game:
    return create_game([ANA, BEN], **kwargs)


def seats_to_act(game: Game) -> list[Seat]:
    factions = must_act(load_game(game).state)
    return [game.seats.get(faction=f) for f in factions]


def link_in(message) -> str:
    """The path of the (single) player link in an email; it must appear in both bodies."""
    (text_link,) = set(LINK.findall(message.body))
    html, _ = message.alternatives[0]
    assert text_link in html
    assert text_link.startswith(settings.SITE_URL)
    return text_link.removeprefix(settings.SITE_URL)


def play_until(game, phase: str) -> None:
    """Everyone passes until the game reaches `phase` (e.g. the first scoring winter's orders)."""
    while load_game(game).state.phase != phase:
        seat = seats_to_act(game)[0]
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)

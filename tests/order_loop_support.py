"""Helpers shared by the order-loop tests: a two-player game, links in emails, the seat on turn."""

from __future__ import annotations

import html
import json
import re

from django.conf import settings

from games.engine import CommitCoins, Pass
from games.models import Game, Seat
from games.reading.situation import load_game, must_act
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order

ANA = PlayerSpec("Ana", "ana@example.com", "athens")
BEN = PlayerSpec("Ben", "ben@example.com", "sparta")
SUGGESTED = re.compile(r'name="expected_seq" value="(\d+)">.*?name="command" value="([^"]+)"', re.S)
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


def score_first_winter(game) -> None:
    """Everyone passes to the first scoring winter, then seals no coins: the winter is scored (S-WINTER)."""
    play_until(game, "winter_orders")
    for seat in seats_to_act(game):
        submit_order(game, seat, CommitCoins(seat.faction), load_game(game).seq)


def suggested_orders(page: str) -> list[tuple[int, dict]]:
    """The one-click orders on a player page: (expected_seq, command) pairs."""
    return [(int(seq), json.loads(html.unescape(raw))) for seq, raw in SUGGESTED.findall(page)]


def choose(orders: list[tuple[int, dict]], turn: int) -> tuple[int, dict]:
    """Pass on even turns; otherwise a one-step action (Expand without a tile choice, Recruit)."""
    if turn % 2:
        for seq, command in orders:
            if command["kind"] == "recruit" or (command["kind"] == "expand" and not command["second_source"]):
                return seq, command
    return orders[0]

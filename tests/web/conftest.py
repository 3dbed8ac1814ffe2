"""Fixtures of tests/web/."""

from __future__ import annotations

import random

import pytest

from bench.simulate import SimulationReport, simulate_game
from games.models import Game, Seat


@pytest.fixture
def ended_game() -> tuple[Game, Seat]:
    """A whole simulated game (a few seconds) with a seat for Athens."""
    game = simulate_game(["athens", "sparta"], random.Random(7), SimulationReport())
    game.refresh_from_db()
    assert game.status == Game.Status.ENDED
    return game, Seat.objects.create(game=game, faction="athens", name="Ana", email="ana@example.com")

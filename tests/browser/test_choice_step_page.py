"""The Tile Choice's step on a phone (H-CHOICE-STEP, 390x844, both languages): the page shows what the
step needs (the tiles and the answers), not the costs of the actions, which do not apply to it.

Screenshots: test-artifacts/browser/choice-step/.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Expand
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from tests.browser.conftest import ARTIFACTS as BROWSER_ARTIFACTS
from tests.browser.conftest import link
from tests.browser.support import PHONE

ARTIFACTS = BROWSER_ARTIFACTS / "choice-step"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Corinth on turn in its Native Polis C7, with the discard pile to draw from.
SCENARIO: dict[str, Any] = {
    "players": {"corinth": {"ap": 6, "fp": 5}, "sparta": {"fp": 2}},
    "seat_order": ["corinth", "sparta"],
    "discard": ["elis", "pylos"],
    "board": {
        "C7": {"tile": "corinth", "owner": "corinth", "phalanxes": 6, "king": True},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    },
}
COSTS = {"en": "Costs:", "de": "Kosten:"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_h_choice_step_the_tile_choice_shows_no_costs_of_actions(live_server, browser, language) -> None:
    players = [
        PlayerSpec("Cy", "cy@example.com", "corinth", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language=language),
    ]
    game = create_game(players, scenario=SCENARIO)
    corinth = game.seats.get(faction="corinth")
    locale = {"en": "en-GB", "de": "de-DE"}[language]
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, locale=locale)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    page.goto(link(live_server, corinth))  # an action turn: the costs are shown beside the orders
    assert page.locator("#costs").inner_text().startswith(COSTS[language])

    step = Expand("corinth", space="D8", source="discard", choice_step=True)
    submit_order(game, corinth, step, load_game(game).seq)
    page.goto(link(live_server, corinth))
    cards = page.locator(".tile-card")
    cards.first.wait_for()
    cards.first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{language}-first-tile.png"), full_page=True)
    assert page.locator(".tile-answers button").count() >= 2
    assert page.locator("#costs").count() == 0
    assert COSTS[language] not in page.locator("#orders").inner_text()

"""The board's Move hint on a phone (390x844): shown only while the player may give a Move now, and in
the words of the other hints (a tap, not a click).

Screenshots: test-artifacts/browser/board-help/.
"""

from __future__ import annotations

import pytest

from games.services.game_setup import create_game
from tests.browser.conftest import ARTIFACTS as BROWSER_ARTIFACTS
from tests.browser.conftest import link
from tests.browser.support import PHONE, SCENARIO, ana_and_ben

ARTIFACTS = BROWSER_ARTIFACTS / "board-help"

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TAP = {"en": "To move, tap one of your Poleis", "de": "Für eine Bewegung tippe auf dem Brett"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_move_the_move_hint_shows_only_to_the_player_who_may_move_now_and_says_tap(
    live_server, browser, language
) -> None:
    game = create_game(ana_and_ben(language), scenario=SCENARIO)  # Athens on turn
    locale = {"en": "en-GB", "de": "de-DE"}[language]
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    waiting = context.new_page()
    waiting.goto(link(live_server, game.seats.get(faction="sparta")))
    waiting.locator(".board-picture-wrap svg").wait_for()
    waiting.screenshot(path=str(ARTIFACTS / f"{language}-not-on-turn.png"), full_page=True)
    assert waiting.locator(".board-help").count() == 0
    assert TAP[language] not in waiting.content()

    on_turn = context.new_page()
    on_turn.goto(link(live_server, game.seats.get(faction="athens")))
    help_text = on_turn.locator(".board-help")
    help_text.wait_for(state="visible")
    on_turn.screenshot(path=str(ARTIFACTS / f"{language}-on-turn.png"), full_page=True)
    assert help_text.inner_text().startswith(TAP[language])
    assert "click" not in help_text.inner_text().lower() and "klick" not in help_text.inner_text().lower()

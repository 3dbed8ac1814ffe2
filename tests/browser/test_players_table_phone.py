"""The Players table on a phone (390x844): its columns scroll inside its own box, which shows that it
scrolls, and no part of the page scrolls sideways.

Screenshots: test-artifacts/browser/players-table/.
"""

from __future__ import annotations

import pytest

from games.services.game_setup import create_game
from tests.browser.conftest import ARTIFACTS as BROWSER_ARTIFACTS
from tests.browser.conftest import link
from tests.browser.support import PHONE, ana_and_ben

ARTIFACTS = BROWSER_ARTIFACTS / "players-table"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_players_table_fits_a_phone_or_scrolls_in_its_own_box_and_the_page_never_sideways(
    live_server, browser, language
) -> None:
    game = create_game(ana_and_ben(language))
    locale = {"en": "en-GB", "de": "de-DE"}[language]
    page = browser.new_page(viewport=PHONE, device_scale_factor=2, locale=locale)
    page.goto(link(live_server, game.seats.get(faction="sparta")))
    players = page.locator("#players")
    players.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    players.screenshot(path=str(ARTIFACTS / f"{language}-players.png"))
    page.screenshot(path=str(ARTIFACTS / f"{language}-page.png"), full_page=True)

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways page
    box = players.locator(".table-scroll")
    region = box.bounding_box()
    assert region["x"] >= 0 and region["x"] + region["width"] <= PHONE["width"]
    # Its columns are wider than a phone: they scroll inside the box, whose edge shows a shadow down its
    # whole height (a gradient, not a radial one faded out away from the middle)...
    assert box.evaluate("r => r.scrollWidth > r.clientWidth && getComputedStyle(r).overflowX === 'auto'")
    assert "radial-gradient" not in box.evaluate("r => getComputedStyle(r).backgroundImage")
    # ...that the player's own row, tinted, does not paint over.
    own_row = players.locator("tr.me th").first.evaluate("c => getComputedStyle(c).backgroundColor")
    assert own_row.startswith("rgba(") or "/ " in own_row, own_row
    box.evaluate("r => { r.scrollLeft = r.scrollWidth; }")  # swiped to the end: the last column is there
    assert players.locator("th[scope='col']").last.is_visible()
    players.screenshot(path=str(ARTIFACTS / f"{language}-players-scrolled.png"))

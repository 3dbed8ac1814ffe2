"""The standings' link to every winter's scoring on a phone (390 x 844), in English and German: none
before a winter has been scored (the history has no scoreboard to land on yet), and after a scored
winter one tap leads to the history's scoreboard (S-WINTER, S-RANK).
Screenshots: test-artifacts/browser/<test name>/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services.game_setup import create_game
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, SCENARIO, ana_and_ben
from tests.order_loop_support import score_first_winter, seats_to_act

pytestmark = [pytest.mark.browser, pytest.mark.slow]
LOCALES = {"en": "en-GB", "de": "de-DE"}
SCOREBOARD = {"en": "Scoreboard", "de": "Wertungstafel"}


def standings_opened(browser, live_server, seat, language: str):
    page = browser.new_page(viewport=PHONE, locale=LOCALES[language])
    page.goto(link(live_server, seat))
    page.locator("#standings summary").click()
    expect(page.locator("#standings table")).to_be_visible()
    return page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_winter_the_standings_link_to_the_scoreboard_only_once_a_winter_is_scored(
    live_server, browser, language
) -> None:
    shots = ARTIFACTS / "test_s_winter_the_standings_link_to_the_scoreboard_only_once_a_winter_is_scored"
    shots.mkdir(parents=True, exist_ok=True)
    game = create_game(ana_and_ben(language), name="Scores", scenario=SCENARIO)
    link_to_scores = "#standings a[href='history/#scoreboard']"

    page = standings_opened(browser, live_server, seats_to_act(game)[0], language)
    expect(page.locator(link_to_scores)).to_have_count(0)
    # The table fits the phone, and its short headings are whole words on one line each ("Fraktion"
    # and "VP" were cut mid-word while "Münzprägestätten" took the width).
    table = page.locator("#standings table")
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    lines = page.locator("#standings thead th").evaluate_all(
        "ths => ths.map(th => { const r = document.createRange(); r.selectNodeContents(th);"
        " return new Set([...r.getClientRects()].map(rect => Math.round(rect.top))).size; })"
    )
    assert lines[:3] == [1, 1, 1], lines
    page.locator("#standings").screenshot(path=str(shots / f"{language}-before.png"))

    score_first_winter(game)
    page = standings_opened(browser, live_server, seats_to_act(game)[0], language)
    page.locator("#standings").screenshot(path=str(shots / f"{language}-after.png"))
    page.locator(link_to_scores).click()
    page.wait_for_load_state()
    scoreboard = page.locator("#scoreboard")
    expect(scoreboard.locator("h2")).to_have_text(SCOREBOARD[language])
    expect(scoreboard.locator("table").first).to_be_visible()
    assert page.url.endswith("history/#scoreboard")
    page.screenshot(path=str(shots / f"{language}-history.png"))

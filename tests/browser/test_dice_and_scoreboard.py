"""What happened, seen on a phone (390×844) and a desktop (1280×800) in English and German: a Move
into a garrison and the battle's dice under "Since your last turn" (S-COMBAT, S-FORT); a scored
winter as its scoreboard, and the standings one tap away (S-WINTER, S-RANK).

Screenshots: test-artifacts/browser/<test name>/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.reading.situation import load_game
from games.services.game_setup import create_game
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, SCENARIO, ana_and_ben, athens_link
from tests.order_loop_support import score_first_winter, seats_to_act

pytestmark = [pytest.mark.browser, pytest.mark.slow]
LOCALES = {"en": "en-GB", "de": "de-DE"}
SIZES = {"phone": PHONE, "desktop": {"width": 1280, "height": 800}}


def opened(browser, language: str, size: str):
    return browser.new_page(viewport=SIZES[size], device_scale_factor=2, locale=LOCALES[language])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_combat_a_battles_dice_are_visible_after_a_move(live_server, browser, language, size) -> None:
    shots = ARTIFACTS / "test_s_combat_a_battles_dice_are_visible_after_a_move"
    shots.mkdir(parents=True, exist_ok=True)
    page = opened(browser, language, size)
    page.goto(athens_link(live_server, language))
    page.locator("#details-move").evaluate("details => { details.open = true; }")  # open at either size
    form = page.locator("#order-move")
    form.locator("input[name='move-origin']").fill("C3")
    form.locator("input[name='move-to1']").fill("E5")
    form.locator("input[name='move-phalanxes1']").fill("4")
    form.locator("button[type='submit']").click()
    page.wait_for_load_state()

    battle = page.locator("#happenings .battle")
    expect(battle).to_be_visible()
    dice = battle.locator("svg.die")
    assert dice.count() >= 2  # the garrison's 2 dice, then Athens' (or the garrison's again)
    box = dice.first.bounding_box()
    assert box and box["width"] >= 20 and box["x"] + box["width"] <= SIZES[size]["width"]
    first_round = battle.locator(".round-words").first.inner_text()
    assert first_round.startswith("Round 1:" if language == "en" else "Runde 1:")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    battle.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{size}-{language}-battle.png"))
    page.screenshot(path=str(shots / f"{size}-{language}-page.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_winter_the_scoreboard_after_a_winter(live_server, browser, language, size) -> None:
    shots = ARTIFACTS / "test_s_winter_the_scoreboard_after_a_winter"
    shots.mkdir(parents=True, exist_ok=True)
    game = create_game(ana_and_ben(language), name="Scores", scenario=SCENARIO)
    score_first_winter(game)
    seat = seats_to_act(game)[0]

    page = opened(browser, language, size)
    page.goto(link(live_server, seat))
    table = page.locator("#winter-scored table.scores")
    expect(table).to_be_visible()
    title = "Winter of 430 BC: the scoring" if language == "en" else "Winter 430 v. Chr.: die Wertung"
    assert table.locator("caption").inner_text() == title
    assert table.locator("tbody tr").count() == 2
    state = load_game(game).state
    for row in table.locator("tbody tr").all():
        name = row.locator("th").inner_text()
        faction = {"Athens": "athens", "Athen": "athens", "Sparta": "sparta"}[name]
        assert row.locator(".score-total").inner_text() == str(state.players[faction].vp)
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{size}-{language}-scoreboard.png"))

    standings = page.locator("#standings")
    standings.locator("summary").click()
    expect(standings.locator("table")).to_be_visible()
    assert standings.locator("tbody tr").count() == 2
    standings.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{size}-{language}-standings.png"))

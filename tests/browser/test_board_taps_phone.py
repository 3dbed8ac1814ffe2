"""Taps on the board that a Move cannot take, on a phone (390 x 844), in English and German (S-MOVE).

A new player's walk: in Move mode a tap on an empty space, or on a Polis not theirs before choosing
where to move from, did nothing visible. The board says why now, right under itself (board.js, its
words from #board-modes in the page's language); without JavaScript nothing of it shows.

Screenshots: test-artifacts/browser/board-taps/.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.support import PHONE, athens_link, phone_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "board-taps"
WORDS = {
    "en": {
        "origin": "Nothing chosen: a Move starts from one of your Poleis. Tap one of them first.",
        "destination": "That space is not a destination you can reach: a Move ends in a Polis, "
        "and empty spaces are only crossed.",
        "expand": "Expand",
    },
    "de": {
        "origin": "Nichts gewählt: Eine Bewegung beginnt in einer deiner Poleis. "
        "Tippe zuerst eine von ihnen an.",
        "destination": "Dieses Feld ist kein Ziel, das du erreichen kannst: Eine Bewegung endet in einer "
        "Polis, leere Felder werden nur überquert.",
        "expand": "Expandieren",
    },
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_move_a_tap_the_move_cannot_take_says_why_under_the_board(live_server, browser, language):
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = WORDS[language]
    page = phone_page(browser, language)
    page.goto(athens_link(live_server, language))
    board = page.locator(".board-picture-wrap svg")
    refusal = page.locator(".board-refusal")
    form = page.locator("#order-move")
    origin = form.locator("input[name='move-origin']")
    first = form.locator("input[name='move-to1']")
    assert not refusal.is_visible()
    assert refusal.get_attribute("role") == "status"  # read out politely, not an alert

    # An empty space, nothing chosen yet: where a Move starts.
    board.locator(".space.empty[data-space='A1']").click()
    assert refusal.inner_text() == words["origin"]
    frame, said = page.locator(".board-frame").bounding_box(), refusal.bounding_box()
    assert 0 <= said["y"] - (frame["y"] + frame["height"]) < 20  # right under the board
    assert said["y"] + said["height"] <= PHONE["height"]  # on the screen the finger is on
    assert origin.input_value() == ""
    page.screenshot(path=str(SHOTS / f"{language}-1-from-where.png"))

    # Sparta's Polis, nothing chosen yet: the same words, and its panel opens as before.
    board.locator(".polis[data-space='G3']").click()
    assert refusal.inner_text() == words["origin"]
    assert page.locator("#polis-panel").is_visible()
    page.locator("#polis-panel .close").click()
    assert origin.input_value() == ""

    # One of one's Poleis: taken, and the words are gone.
    board.locator(".polis[data-space='C3']").click()
    assert origin.input_value() == "C3"
    assert not refusal.is_visible() and refusal.inner_text() == ""

    # An empty space as a destination: not one.
    board.locator(".space.empty[data-space='B5']").click()
    assert refusal.inner_text() == words["destination"]
    assert first.input_value() == ""
    page.screenshot(path=str(SHOTS / f"{language}-2-not-a-destination.png"))

    # A Polis as a destination: taken, the words gone.
    board.locator(".polis[data-space='D4']").click()
    assert first.input_value() == "D4"
    assert refusal.inner_text() == ""

    # Another order's button clears them too.
    board.locator(".space.empty[data-space='B5']").click()
    assert refusal.inner_text() == words["destination"]
    page.locator(".board-modes button", has_text=words["expand"]).click()
    assert refusal.inner_text() == ""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.django_db(transaction=True)
def test_s_move_without_javascript_no_refusal_shows_and_the_board_takes_no_tap(live_server, browser):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.goto(athens_link(live_server, "en"))
    refusal = page.locator(".board-refusal")
    assert refusal.inner_text() == "" and not refusal.is_visible()  # no room taken under the board
    page.locator(".board-picture-wrap svg .space.empty[data-space='A1']").click()
    assert not refusal.is_visible()
    assert not page.get_by_text(WORDS["en"]["origin"]).is_visible()  # the words on #board-modes stay unseen
    context.close()

"""A real browser on the board picture (docs/i18n.md): click Poleis to fill the Move form, read the engine's
cost, submit, see the board change; and the same order with JavaScript off.

Screenshots: test-artifacts/browser/board/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS as BROWSER_ARTIFACTS
from tests.browser.support import SCENARIO, athens_link, wait_for_cost

ARTIFACTS = BROWSER_ARTIFACTS / "board"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_move_choose_by_clicking_poleis_see_the_cost_submit_and_see_the_board_change(
    live_server, browser, language
) -> None:
    # A phone whose browser asks for the seat's language (the page follows Accept-Language).
    locale = {"en": "en-GB", "de": "de-DE"}[language]
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, locale=locale)
    page.goto(athens_link(live_server, language))
    board = page.locator(".board-picture-wrap svg")
    assert board.get_attribute("lang") == language
    assert page.locator(".board-help").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"{language}-1-start.png"), full_page=True)

    board.locator(".polis[data-space='C3']").click()
    board.locator(".polis[data-space='D4']").click()
    form = page.locator("#order-move")
    assert form.locator("input[name='move-origin']").input_value() == "C3"
    assert form.locator("input[name='move-to1']").input_value() == "D4"
    assert form.locator("input[name='move-phalanxes1']").input_value() == "6"  # all that stand in C3
    cost = page.locator("#move-cost")
    # ceil(6/4) × 1 = 2 FP (S-MOVE), as the engine reckons it; Athens has 3 FP.
    wait_for_cost(page, "2")
    assert "2" in cost.inner_text()
    assert "preview-cost" in cost.get_attribute("class")
    assert "chosen-origin" in board.locator(".polis[data-space='C3']").get_attribute("class")
    assert "chosen-destination" in board.locator(".polis[data-space='D4']").get_attribute("class")
    under_the_board = page.locator(".board-choice")
    assert under_the_board.inner_text() == f"C3 → D4: {cost.inner_text()}"
    page.screenshot(path=str(ARTIFACTS / f"{language}-2-chosen.png"), full_page=True)

    # With the Navigator: it counts as a unit (7 units: 2 FP) and then takes 1 FP off (S-MOVE-NAV).
    form.locator("input[name='move-navigators1']").fill("1")
    wait_for_cost(page, "1")
    # Too many: the engine's refusal, with its rule, before anything is sent.
    form.locator("input[name='move-phalanxes1']").fill("9")
    expect(cost).to_have_attribute("data-rule", "S-MOVE", timeout=10_000)
    rule = {"en": "(rule S-MOVE)", "de": "(Regel S-MOVE)"}[language]
    assert rule in cost.inner_text() and "preview-error" in cost.get_attribute("class")
    form.locator("input[name='move-phalanxes1']").fill("6")
    form.locator("input[name='move-navigators1']").fill("0")
    wait_for_cost(page, "2")

    form.locator("button[type='submit']").click()
    page.wait_for_load_state()
    conquered = page.locator(".board-picture-wrap svg .polis[data-space='D4']")
    assert "owner-athens" in conquered.get_attribute("class").split()
    assert conquered.locator(".phalanxes").text_content() == "6"
    assert page.locator(".board-picture-wrap svg .polis[data-space='C3'] .phalanxes").text_content() == "0"
    page.screenshot(path=str(ARTIFACTS / f"{language}-3-conquered.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_s_move_with_javascript_off_the_form_is_typed_by_hand_and_the_board_still_shows(
    live_server, browser
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1200, "height": 1400})
    page = context.new_page()
    page.goto(athens_link(live_server, "en"))
    assert not page.locator(".board-help").is_visible()
    assert page.locator(".board-picture-wrap svg .polis").count() == len(SCENARIO["board"])
    page.locator("#details-move > summary").click()  # the order forms are folded; a tap opens one
    form = page.locator("#order-move")
    form.locator("input[name='move-origin']").fill("C3")
    form.locator("input[name='move-to1']").fill("D4")
    form.locator("input[name='move-phalanxes1']").fill("5")
    form.locator("button[type='submit']").click()
    conquered = page.locator(".board-picture-wrap svg .polis[data-space='D4']")
    assert "owner-athens" in conquered.get_attribute("class").split()
    assert conquered.locator(".phalanxes").text_content() == "5"
    page.screenshot(path=str(ARTIFACTS / "no-javascript-conquered.png"), full_page=True)
    context.close()

"""The pages run under a Content-Security-Policy without 'unsafe-inline': their scripts and styles are
static files, and the board's click-to-choose still works with no violation reported in Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.support import athens_link, wait_for_cost

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def violations_reported(page: Any) -> list[str]:
    """What Chromium tells the console about the page breaking its CSP, from here on."""
    said: list[str] = []
    page.on(
        "console",
        lambda message: said.append(message.text) if "Content Security Policy" in message.text else None,
    )
    page.on("pageerror", lambda error: said.append(str(error)))
    return said


@pytest.mark.django_db(transaction=True)
def test_board_click_to_choose_works_under_a_csp_without_unsafe_inline(live_server, browser) -> None:
    """Finding: CSP allowed 'unsafe-inline' scripts, so any script injected into a page would run.
    The board's script and the order forms' are static files now and the policy is script-src
    'self' only; clicking Poleis still fills the Move form and shows the engine's cost."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    said = violations_reported(page)

    response = page.goto(athens_link(live_server, "en"))
    policy = response.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "unsafe-inline" not in policy
    board = page.locator(".board-picture-wrap svg")
    expect(page.locator(".board-help")).to_be_visible()  # the board's script ran
    board.locator(".polis[data-space='C3']").click()
    board.locator(".polis[data-space='D4']").click()

    form = page.locator("#order-move")
    assert form.locator("input[name='move-origin']").input_value() == "C3"
    assert form.locator("input[name='move-to1']").input_value() == "D4"
    wait_for_cost(page, "2")
    # The stylesheet's board rules apply: the chosen Polis is outlined (no inline <style> any more).
    origin_tile = board.locator(".polis[data-space='C3'] .tile").first
    assert origin_tile.evaluate("tile => getComputedStyle(tile).strokeWidth") == "8px"
    assert said == []

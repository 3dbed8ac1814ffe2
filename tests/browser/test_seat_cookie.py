"""The emailed link in Chromium: its token is exchanged for the seat cookie on the first visit and
never shows in the address bar, the browser's history or a Referer (games/web/seat_cookies.py).

Finding "tokens in URLs": the player's pages lived at /play/<game>/<token>/, so every page, its
history entry and each request its scripts made carried the token.
"""

from __future__ import annotations

import pytest

from games.reading.links import link_token
from tests.browser.conftest import ARTIFACTS, link
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_the_link_opens_a_page_whose_address_history_and_requests_carry_no_token(live_server, browser):
    game = two_player_game()
    seat = seats_to_act(game)[0]
    token = link_token(seat)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sent: list[str] = []
    page.on(
        "request", lambda request: sent.append(request.url + " " + (request.headers.get("referer") or ""))
    )
    page.goto(link(live_server, seat) + "#board")
    assert page.url == f"{live_server.url}/play/{game.pk}/{seat.pk}/#board"
    assert "It is your turn." in page.inner_text("#status")
    (cookie,) = [c for c in context.cookies() if c["name"] == f"aegea_seat_{seat.pk}"]
    assert (
        cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == f"/play/{game.pk}/{seat.pk}/"
    )
    assert page.evaluate("document.cookie").find("aegea_seat_") == -1  # no script can read it
    page.click("#history-link a")
    assert page.url.startswith(f"{live_server.url}/play/{game.pk}/{seat.pk}/history/")
    page.go_back()
    page.locator("#details-pass summary").click()
    page.locator("#order-pass button[type='submit']").click()
    assert "Your order was accepted." in page.inner_text(".messages")
    page.screenshot(path=str(ARTIFACTS / "seat-cookie-page.png"), full_page=True)
    after_first = sent[1:]  # the first request is the emailed link itself
    assert after_first and not [line for line in after_first if token in line]
    assert page.evaluate("history.length") >= 2 and token not in page.url
    context.close()

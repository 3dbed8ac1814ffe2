"""Signing out on a shared phone ends the seats' pages this browser holds (docs/front-door.md).

A new user's walk: signed in by the emailed link, they opened their seat from "Your games", tapped
"Sign out" and read "You are signed out.", yet /play/<game>/<seat>/ still showed their seat with
every order form: its seat cookie (games/web/seat_cookies.py) stayed. Now sign-out drops every seat
cookie the browser holds (also one opened from another address's email), the seat's page without
its token is the stranger's, and the emailed link opens it again.
Screenshots: test-artifacts/browser/test_sign_out_phone/.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.services.game_setup import PlayerSpec, create_game
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, signed_in_by_email
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import seats_to_act

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = ARTIFACTS / "test_sign_out_phone"


def _seat_cookies(context: Any) -> list[str]:
    return [c["name"] for c in context.cookies() if c["name"].startswith("aegea_seat")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_signing_out_on_a_phone_closes_the_seat_pages_this_browser_held(live_server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    game = create_game(
        [PlayerSpec("Ida", "ida@example.com", "athens"), PlayerSpec("Ben", "ben@example.com", "sparta")]
    )
    (seat,) = seats_to_act(game)  # Ida's or Ben's: the one who can order now signs in
    other = create_game(
        [PlayerSpec("Eve", "eve@example.com", "athens"), PlayerSpec("Cy", "cy@example.com", "sparta")]
    )
    (borrowed,) = seats_to_act(other)  # a friend's seat, opened from their email on this phone
    context = browser.new_context(locale="en", viewport=PHONE, timezone_id="UTC")
    page = context.new_page()
    page.goto(link(live_server, borrowed))
    signed_in_by_email(page, live_server, seat.email)
    page.click(f"main a[href='/your-seats/{seat.pk}/']")
    own_page = f"{live_server.url}/play/{game.pk}/{seat.pk}/"
    page.wait_for_url(own_page)
    assert page.locator("#details-pass").count() == 1  # the order forms
    assert len(_seat_cookies(context)) == 3  # two seats and the list of seats held
    page.screenshot(path=str(SHOTS / "01-seat-page-signed-in.png"), full_page=True)

    with page.expect_navigation():
        page.click("header button:has-text('Sign out')")
    said = page.inner_text("main [role=status]")
    page.screenshot(path=str(SHOTS / "02-signed-out.png"), full_page=True)
    assert "You are signed out." in said and "emailed links" in said
    assert _seat_cookies(context) == []

    stranger = browser.new_context(locale="en", viewport=PHONE).new_page()
    for address in (own_page, f"{live_server.url}/play/{other.pk}/{borrowed.pk}/"):
        page.goto(address)
        stranger.goto(address)
        assert page.locator("#details-pass").count() == 0
        assert page.inner_text("main") == stranger.inner_text("main")
    page.screenshot(path=str(SHOTS / "03-seat-page-after-sign-out.png"), full_page=True)

    page.goto(link(live_server, seat))  # the emailed link still opens the seat
    page.wait_for_url(own_page)
    assert page.locator("#details-pass").count() == 1
    stranger.context.close()
    context.close()

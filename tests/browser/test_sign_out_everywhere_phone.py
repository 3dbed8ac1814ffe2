"""Signing every browser out of a seat, from the seat's page on a phone (docs/front-door.md; the
grants: games/services/seat_grants.py), and the back button after it.

A player who opened their seat on a laptop that is not theirs taps "Sign out everywhere" on their
phone: the laptop's page is refused at its next request, the phone lands on the home page told so
in the player's language, its back button shows no seat, and the emailed link opens the seat
again. (This headless Chromium asks for the page again on "back" even without Cache-Control:
no-store; tests/web/test_seat_pages_no_store.py holds every seat answer to that header, which tells
every browser so.)
Screenshots: test-artifacts/browser/test_sign_out_everywhere_phone/.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import LOCALES, PHONE
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHOTS = ARTIFACTS / "test_sign_out_everywhere_phone"
SAID = {
    "en": ("Sign out everywhere", "Every browser that had opened your seat", "was signed out of this seat"),
    "de": ("Überall abmelden", "Jeder Browser, der deinen Platz", "wurde von diesem Platz abgemeldet"),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_sign_out_everywhere_on_a_phone_ends_the_laptops_page_and_the_back_buttons(
    live_server, browser, language
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    button, done, refused = SAID[language]
    game = two_player_game()
    seat = seats_to_act(game)[0]
    own_page = f"{live_server.url}/play/{game.pk}/{seat.pk}/"
    phone = browser.new_context(locale=LOCALES[language], viewport=PHONE).new_page()
    laptop = browser.new_context(locale=LOCALES[language]).new_page()
    for page in (phone, laptop):
        page.goto(link(live_server, seat))
        page.wait_for_url(own_page)
        assert page.locator("#details-pass").count() == 1

    form = phone.locator("#sign-out-everywhere")
    form.scroll_into_view_if_needed()
    phone.screenshot(path=str(SHOTS / f"01-{language}-the-button.png"))
    with phone.expect_navigation():
        form.get_by_role("button", name=button).click()
    assert phone.url == f"{live_server.url}/"
    assert done in phone.inner_text("main [role=status]")
    phone.screenshot(path=str(SHOTS / f"02-{language}-signed-out.png"), full_page=True)

    phone.go_back()
    assert phone.url == own_page and phone.locator("#details-pass").count() == 0
    laptop.reload()
    assert refused in laptop.inner_text("main") and laptop.locator("#details-pass").count() == 0
    laptop.screenshot(path=str(SHOTS / f"03-{language}-laptop-refused.png"), full_page=True)

    laptop.goto(link(live_server, seat))  # the emailed link still opens the seat
    laptop.wait_for_url(own_page)
    assert laptop.locator("#details-pass").count() == 1
    phone.context.close()
    laptop.context.close()

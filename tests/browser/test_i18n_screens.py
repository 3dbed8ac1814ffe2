"""The player's page on a phone and a desktop, in English and German, light and dark (docs/i18n.md).

Playwright drives Debian's headless Chromium with the browser's language set as a player's
would be; screenshots land in test-artifacts/browser/i18n/ for people to look at.
"""

from __future__ import annotations

import pytest

from games.models import Seat
from tests.browser.conftest import link
from tests.browser.support import I18N_SHOTS, PHONE, a_game_under_way

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP = {"width": 1280, "height": 800}


def open_page(browser, live_server, seat: Seat, locale: str, viewport: dict, scheme: str = "light"):
    context = browser.new_context(locale=locale, viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    page.goto(link(live_server, seat))
    return page


@pytest.mark.django_db(transaction=True)
def test_the_player_page_in_english_and_german_on_a_phone_and_a_desktop(live_server, browser):
    seat = a_game_under_way()
    I18N_SHOTS.mkdir(parents=True, exist_ok=True)

    english = open_page(browser, live_server, seat, "en-GB", PHONE)
    assert english.locator("html").get_attribute("lang") == "en"
    assert "It is your turn." in english.inner_text("#status")
    assert english.locator("#orders h2").inner_text() == "Your order"
    # The stylesheet is served and applied: the status is a coloured box, inputs are finger-sized.
    assert english.evaluate("getComputedStyle(document.querySelector('#status')).borderLeftWidth") == "5px"
    # On a phone the forms are folded; the suggestions come first.
    assert english.locator("details.order[open]").count() == 0
    assert english.locator(".suggestions button").first.is_visible()
    assert english.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    english.screenshot(path=str(I18N_SHOTS / "phone-en.png"), full_page=True)

    german = open_page(browser, live_server, seat, "de-DE", PHONE)
    assert german.locator("html").get_attribute("lang") == "de"
    assert "Du bist am Zug." in german.inner_text("#status")
    assert german.locator("#orders h2").inner_text() == "Dein Befehl"
    german.locator("#details-move summary").click()
    assert german.locator("label[for='id_move-origin']").inner_text().startswith("Aus deiner Polis")
    german.screenshot(path=str(I18N_SHOTS / "phone-de-move-open.png"), full_page=True)

    dark = open_page(browser, live_server, seat, "de-DE", PHONE, scheme="dark")
    background = dark.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(20, 24, 29)"  # the dark palette
    dark.screenshot(path=str(I18N_SHOTS / "phone-de-dark.png"), full_page=True)

    desktop = open_page(browser, live_server, seat, "en-US", DESKTOP)
    assert desktop.locator("details.order[open]").count() == desktop.locator("details.order").count()
    desktop.screenshot(path=str(I18N_SHOTS / "desktop-en.png"), full_page=True)
    desktop_de = open_page(browser, live_server, seat, "de-DE", DESKTOP, scheme="dark")
    assert "Vorgeschlagene Befehle" in desktop_de.inner_text("#orders")
    desktop_de.screenshot(path=str(I18N_SHOTS / "desktop-de-dark.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_a_player_switches_language_with_the_keyboard_and_the_choice_sticks(live_server, browser):
    seat = a_game_under_way()
    page = open_page(browser, live_server, seat, "en-US", PHONE)
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    assert skip.evaluate("el => el === document.activeElement") and skip.is_visible()
    page.locator(".language-switch button[value='de']").focus()
    with page.expect_navigation():  # the POST, then the redirect back to the page
        page.keyboard.press("Enter")
    assert "Du bist am Zug." in page.inner_text("#status")
    seat.refresh_from_db()
    assert (seat.language, seat.language_chosen) == ("de", True)
    # The browser still asks for English; the player's choice wins, on this page and the next.
    again = open_page(browser, live_server, seat, "en-US", DESKTOP)
    assert "Du bist am Zug." in again.inner_text("#status")
    pressed = again.locator(".language-switch button[aria-pressed='true']")
    assert pressed.inner_text() == "Deutsch"
    again.screenshot(path=str(I18N_SHOTS / "desktop-de-chosen.png"), full_page=True)

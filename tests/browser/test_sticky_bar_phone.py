"""The sticky supplies bar on a phone (390 x 844), in English and German: what a link within the page
reaches, and a focused field, lands below the bar, not under it.

A new player's walk: with coins of every design behind the screen the bar takes three lines and a
link (112 px), taller than the room left for it (6.5rem): a refused order's form (#details-move)
opened with its top under the bar. The room follows the bar's own height now.

Screenshots: test-artifacts/browser/sticky-bar/.
"""

from __future__ import annotations

import copy

import pytest

from games.services.game_setup import create_game
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, SCENARIO, ana_and_ben, phone_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "sticky-bar"
EVERY_COIN = {"owl": 2, "pegasus": 1, "shield": 3, "turtle": 1}


def athens_with_coins(live_server, language: str) -> str:
    """Athens' page, with coins of every design behind the screen: the bar's longest line."""
    scenario = copy.deepcopy(SCENARIO)
    scenario["players"]["athens"]["coins_behind_screen"] = EVERY_COIN
    game = create_game(ana_and_ben(language), scenario=scenario)
    return link(live_server, game.seats.get(faction="athens"))


def send_a_move_of_too_many(page) -> None:
    """60 phalanxes out of C3, where 6 stand: the page comes back at the refused form (S-MOVE)."""
    form = page.locator("#order-move")
    form.locator("input[name='move-origin']").fill("C3")
    form.locator("input[name='move-to1']").fill("D4")
    form.locator("input[name='move-phalanxes1']").fill("60")
    form.locator("button[type='submit']").click()
    page.wait_for_url("**#details-move")


def below_the_bar(page, selector: str) -> None:
    bar, target = page.locator(".supply-bar").bounding_box(), page.locator(selector).bounding_box()
    assert bar["y"] <= 0.5  # stuck at the top: the page was scrolled
    assert target["y"] >= bar["y"] + bar["height"], f"{selector} is under the sticky bar"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_link_within_the_page_and_a_focused_field_land_below_the_sticky_bar(live_server, browser, language):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = phone_page(browser, language)
    page.goto(athens_with_coins(live_server, language))
    bar = page.locator(".supply-bar")
    height = bar.bounding_box()["height"]
    assert height > 104  # three lines and the link: more than 6.5rem
    # The room kept at the top is the bar's own height (and a little), measured by open_target.js.
    padding = page.evaluate("parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop)")
    assert abs(padding - (height + 8)) < 1

    page.locator("#status a.jump").click()  # "Give your order"
    page.wait_for_url("**#orders")
    below_the_bar(page, "#orders")
    page.screenshot(path=str(SHOTS / f"{language}-orders.png"))
    for tab in page.locator(".page-tabs a[href^='#']").all():
        target = tab.get_attribute("href")
        page.evaluate("window.scrollTo(0, 0)")
        tab.click()
        page.wait_for_url(f"**{target}")
        below_the_bar(page, target)

    # A field reached by the keyboard from under the bar is scrolled out from under it.
    page.locator("#details-move > summary").click()
    origin = page.locator("#order-move input[name='move-origin']")
    origin.scroll_into_view_if_needed()
    page.evaluate(
        "window.scrollBy(0, document.querySelector('#order-move input[name=move-origin]')"
        ".getBoundingClientRect().top - 10)"
    )  # the field now sits under the bar
    page.locator("#details-move > summary").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "move-origin"
    below_the_bar(page, "#order-move input[name='move-origin']")

    # A refused order opens the page at its form (action="#details-move"): the form below the bar.
    send_a_move_of_too_many(page)
    assert page.locator("#details-move .order-error").is_visible()
    below_the_bar(page, "#details-move")
    page.screenshot(path=str(SHOTS / f"{language}-refused.png"))


@pytest.mark.django_db(transaction=True)
def test_without_javascript_a_refused_orders_form_lands_below_a_three_line_bar(live_server, browser):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE, locale="de-DE")
    page = context.new_page()
    page.goto(athens_with_coins(live_server, "de"))
    page.locator("#details-move > summary").click()
    send_a_move_of_too_many(page)
    below_the_bar(page, "#details-move")
    context.close()

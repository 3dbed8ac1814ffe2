"""A phone (390 x 844) in German and English: what a UX audit found too small or too long.

- The plain table board (nine columns, mostly empty) came after the board picture and pushed the
  order forms a screen further down; it is folded now, a tap away.
- "Vacation and emails" and the organiser's "Deadlines" were 24 px tall titles of folded parts,
  stuck to the button above them.
- The history numbered each event twice ("96. 96 ...") and its First / Previous / Next / Latest
  links were 19 px tall, scattered over three lines around the event field.

Screenshots: test-artifacts/browser/ux/.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import ARTIFACTS, link
from tests.browser.test_i18n_screens import a_game_under_way

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "ux"
PHONE = {"width": 390, "height": 844}
FINGER = 44  # px: the smallest comfortable target on a phone


def phone(browser, locale: str):
    return browser.new_context(locale=locale, viewport=PHONE).new_page()


def height(page, selector: str) -> float:
    return page.locator(selector).bounding_box()["height"]


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_orders_follow_the_board_picture_and_folded_parts_are_finger_sized(
    live_server, browser
):
    seat = a_game_under_way()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = phone(browser, "de-DE")
    page.goto(link(live_server, seat))

    table = page.locator("#board table.board")
    assert not table.is_visible()
    summary = page.locator("#board details.board-table > summary")
    assert summary.inner_text() == "Das Brett als Tabelle"
    assert height(page, "#board details.board-table > summary") >= FINGER
    # The order section starts less than a screen below the picture.
    picture_bottom = page.locator(".board-picture-wrap").bounding_box()
    orders_top = page.locator("#orders").bounding_box()["y"]
    assert orders_top - (picture_bottom["y"] + picture_bottom["height"]) < 200
    summary.click()
    assert table.is_visible()
    assert "Athen" in table.inner_text()  # the table board names owners in the reader's language

    vacation = page.locator("#long-game details > summary")
    assert vacation.inner_text() == "Urlaub und E-Mails"
    assert vacation.bounding_box()["height"] >= FINGER
    send = page.locator("#long-game form[action='message/'] button").bounding_box()
    assert vacation.bounding_box()["y"] >= send["y"] + send["height"] + 8  # not stuck to the button
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SHOTS / "player-de.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_history_numbers_each_event_once_and_its_steps_are_finger_sized(live_server, browser):
    seat = a_game_under_way()
    page = phone(browser, "en-GB")
    page.goto(link(live_server, seat) + "history/?since=all")

    events = page.locator("ol.history")
    assert events.evaluate("e => getComputedStyle(e).listStyleType") == "none"
    first = events.locator("li").first
    number = first.locator("a").first
    assert first.inner_text().startswith(number.inner_text() + " ")  # "1 The game began", not "1. 1 ..."
    assert number.get_attribute("aria-label") == f"The board after event {number.inner_text()}"
    assert number.bounding_box()["height"] >= 32

    steps = page.locator(".replay-steps a")
    assert steps.all_inner_texts() == ["First", "Previous", "Next", "Latest"]
    boxes = [steps.nth(i).bounding_box() for i in range(4)]
    assert all(box["height"] >= FINGER for box in boxes)
    assert len({round(box["y"]) for box in boxes}) == 1  # one row on a 390 px phone
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "history-en.png"), full_page=True)

    german = phone(browser, "de-DE")
    german.goto(link(live_server, seat) + "history/?since=all")
    steps = german.locator(".replay-steps a")
    assert steps.all_inner_texts() == ["Erstes", "Vorheriges", "Nächstes", "Neuestes"]
    assert len({round(steps.nth(i).bounding_box()["y"]) for i in range(4)}) == 1


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_organisers_deadlines_title_is_finger_sized(live_server, browser):
    get_user_model().objects.create_user("olga", password="secret-pass-1")
    page = phone(browser, "de-DE")
    page.goto(f"{live_server.url}/organiser/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", "secret-pass-1")
    page.click("main button[type=submit]")
    page.wait_for_url("**/organiser/")
    summary = page.locator("main details > summary")
    assert summary.inner_text().startswith("Fristen")
    assert summary.bounding_box()["height"] >= FINGER
    create = page.locator("main form button[type=submit]").last.bounding_box()
    assert create["y"] >= summary.bounding_box()["y"] + summary.bounding_box()["height"] + 8

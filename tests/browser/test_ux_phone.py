"""A phone (390 x 844) in German and English: what a UX audit found too small or too long.

- The plain table board (nine columns, mostly empty) came after the board picture and pushed the
  order forms a screen further down; it is folded now, a tap away.
- "Vacation and emails" and the organiser's "Deadlines" were 24 px tall titles of folded parts,
  stuck to the button above them.
- The history numbered each event twice ("96. 96 ...") and its First / Previous / Next / Latest
  links were 19 px tall, scattered over three lines around the event field.
- The history's "Back to the game" was a 19 px link at the top only, and its supplies table
  squeezed eight columns into 324 px: a player's Mission Cards wrapped inside their header's width,
  a row two to five lines tall with the cards a screen to the right.

Screenshots: test-artifacts/browser/ux/.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from games.words.names import faction_name
from tests.browser.conftest import link
from tests.browser.support import PHONE, UX_SHOTS, a_game_under_way

pytestmark = [pytest.mark.browser, pytest.mark.slow]

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
    UX_SHOTS.mkdir(parents=True, exist_ok=True)
    page = phone(browser, "de-DE")
    page.goto(link(live_server, seat))

    table = page.locator("#board table.board")
    assert not table.is_visible()
    summary = page.locator("#board details.board-table > summary")
    assert summary.inner_text() == "Das Brett als Tabelle"
    assert height(page, "#board details.board-table > summary") >= FINGER
    # The order section starts less than a screen below the picture (the anchors to the rest of the
    # page and "Since your last turn" stand between them).
    picture_bottom = page.locator(".board-picture-wrap").bounding_box()
    orders_top = page.locator("#orders").bounding_box()["y"]
    assert orders_top - (picture_bottom["y"] + picture_bottom["height"]) < 844
    summary.click()
    assert table.is_visible()
    assert "Athen" in table.inner_text()  # the table board names owners in the reader's language

    vacation = page.locator("#long-game details > summary")
    assert vacation.inner_text() == "Urlaub und E-Mails"
    assert vacation.bounding_box()["height"] >= FINGER
    send = page.locator("#long-game form[action='message/'] button").bounding_box()
    assert vacation.bounding_box()["y"] >= send["y"] + send["height"] + 8  # not stuck to the button
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(UX_SHOTS / "player-de.png"), full_page=True)


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
    UX_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(UX_SHOTS / "history-en.png"), full_page=True)

    german = phone(browser, "de-DE")
    german.goto(link(live_server, seat) + "history/?since=all")
    steps = german.locator(".replay-steps a")
    assert steps.all_inner_texts() == ["Erstes", "Vorheriges", "Nächstes", "Neuestes"]
    assert len({round(steps.nth(i).bounding_box()["y"]) for i in range(4)}) == 1


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_history_leads_back_to_the_game_top_and_bottom_and_each_players_supplies_are_a_card(
    live_server, browser
):
    seat = a_game_under_way()
    UX_SHOTS.mkdir(parents=True, exist_ok=True)
    for locale, back_words, cards_label in (
        ("de-DE", "Zurück zur Partie", "Auftragskarten"),
        ("en-GB", "Back to the game", "Mission Cards"),
    ):
        page = phone(browser, locale)
        page.goto(link(live_server, seat) + "history/?since=all")
        back = page.get_by_role("link", name=back_words)
        assert back.count() == 2  # at the top, and again under the board
        boxes = [back.nth(i).bounding_box() for i in range(2)]
        assert all(box["height"] >= FINGER for box in boxes)
        board_end = page.locator("#board").bounding_box()
        assert boxes[1]["y"] > board_end["y"] + board_end["height"]  # after the supplies, at the end

        rows = page.locator("table.supplies tbody tr")
        assert rows.count() == 2
        for i in range(2):
            row = rows.nth(i).bounding_box()
            assert row["x"] >= 0 and row["x"] + row["width"] <= PHONE["width"]  # no sideways scrolling
        with translation.override(locale[:2]):
            mine = rows.filter(has=page.locator("th", has_text=faction_name(seat.faction)))
        cards = mine.locator("td.line").last
        label = cards.evaluate("e => getComputedStyle(e, '::before').content")
        assert label == f'"{cards_label}: "'
        # The viewer's own three cards are named (H-SCREEN), on lines as wide as the card.
        assert cards.inner_text().count(",") == 2
        assert cards.bounding_box()["width"] >= mine.bounding_box()["width"] - 30
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.locator("#board").screenshot(path=str(UX_SHOTS / f"history-supplies-{locale[:2]}.png"))

    back.nth(1).click()
    page.wait_for_url(re.compile(rf"/play/{seat.game_id}/[^/]+/$"))  # the player page, not history/
    assert page.locator("#status").is_visible()


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

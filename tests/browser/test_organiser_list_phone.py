"""The organiser's games list on a phone (the organiser audit): its seven columns pushed "Must act",
"VP" and "Status" off the 390 px screen, and "428 v. Chr." wrapped over three lines. On a phone
each game is now a card whose lines name their column; a wide screen keeps the table."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import GameProgress
from games.services.game_setup import create_game
from tests.browser.support import PHONE, UX_SHOTS
from tests.order_loop_support import ANA, BEN

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP = {"width": 1280, "height": 800}
CASES = [
    ("en-GB", "428 BC", ["Game", "Players", "Year", "Phase", "Must act", "VP", "Status"]),
    ("de-DE", "428 v. Chr.", ["Partie", "Spieler", "Jahr", "Phase", "Muss handeln", "VP", "Status"]),
]


def signed_in_list(browser, live_server, locale: str, viewport: dict):
    page = browser.new_context(locale=locale, viewport=viewport).new_page()
    page.goto(f"{live_server.url}/organiser/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", "secret-pass-1")
    page.click("main button[type=submit]")
    page.wait_for_url("**/organiser/")
    return page


def lines(cell) -> int:
    """How many lines the cell's text takes (its own box may be as tall as its row)."""
    rects = "e => { const r = document.createRange(); r.selectNodeContents(e); return [...r.getClientRects()]"
    tops = cell.evaluate(rects + ".filter(b => b.width > 0).map(b => Math.round(b.top)); }")
    return len(set(tops))


def a_game_in_its_fourth_year(organiser) -> None:
    game = create_game([ANA, BEN], organiser=organiser, name="The long Aegean summer")
    GameProgress.objects.filter(game=game).update(
        year=428,
        phase="actions",
        action_round=2,
        must_act=["athens", "sparta"],
        vp={"athens": 14, "sparta": 11},
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("locale", "year", "columns"), CASES)
def test_on_a_phone_every_column_of_the_games_list_shows_without_sideways_scrolling(
    live_server, browser, locale, year, columns
):
    organiser = get_user_model().objects.create_user("olga", password="secret-pass-1")
    a_game_in_its_fourth_year(organiser)
    page = signed_in_list(browser, live_server, locale, PHONE)

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    card = page.locator("table.games-list tbody tr").first
    cells = card.locator("td")
    assert cells.count() == len(columns)
    for index, column in enumerate(columns):
        cell = cells.nth(index)
        box = cell.bounding_box()
        assert cell.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], column
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth"), column  # nothing cut off
        if index:  # each line but the game's name says which column it is ("Year: 428 BC")
            assert cell.get_attribute("data-label") == column
            assert cell.evaluate("e => getComputedStyle(e, '::before').content") != "none", column
    year_cell = cells.nth(2)
    assert year_cell.inner_text() == year
    assert lines(year_cell) == 1  # not three
    assert cells.nth(4).inner_text() == ("Athens, Sparta" if locale == "en-GB" else "Athen, Sparta")
    assert "14" in cells.nth(5).inner_text() and cells.nth(6).inner_text()
    UX_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(UX_SHOTS / f"organiser-list-{locale[:2]}.png"), full_page=True)


@pytest.mark.django_db(transaction=True)
def test_on_a_wide_screen_the_games_list_stays_a_table_with_its_headers(live_server, browser):
    organiser = get_user_model().objects.create_user("olga", password="secret-pass-1")
    a_game_in_its_fourth_year(organiser)
    page = signed_in_list(browser, live_server, "de-DE", DESKTOP)
    table = page.locator("table.games-list")
    assert table.evaluate("e => getComputedStyle(e).display") == "table"
    headers = page.locator("table.games-list thead th")
    assert [headers.nth(i).inner_text() for i in range(headers.count())] == CASES[1][2]
    assert all(headers.nth(i).is_visible() for i in range(headers.count()))
    year_cell = page.locator("table.games-list tbody td.year").first
    assert year_cell.inner_text() == "428 v. Chr."
    assert lines(year_cell) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]

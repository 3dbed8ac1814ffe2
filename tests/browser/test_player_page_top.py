"""The top of the player page on a phone (390 x 844), in English and German (Playwright, Debian's
headless Chromium). What a player on a phone found:

- Their deadline, and the one-tap "Show my times in Europe/Berlin" beside it, stood about 1000 px
  down the page, under the happenings, the history link and the Mission Cards: the most pressing
  fact of a turn was a screen and more below the status box saying it was their turn.
- Athens' Expand form offered "Draw a second tile to choose from (+FP)", though Athens' choice
  costs nothing (H-FACTION); the costs line above it said "+0 FP", and then the form "(+0 FP only if
  you do)": a price of nothing is now left out.
- The costs line said "a Builder: the action only" / "ein Baumeister: nur die Aktion" above the
  form "Recruit a Builder" / "Baumeister rekrutieren", and "a Navigator 2 AP" above the Recruit
  form's "Hire Navigators (2 AP each)".

Short page tests, so not marked slow. Screenshots: test-artifacts/browser/page-top/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.engine.commands import Pass
from games.models import Game, Seat, SeatClock
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import (
    PHONE,
    a_game_under_way,  # happenings, history link, Mission Cards
    shown,
)
from tests.order_loop_support import seats_to_act

pytestmark = [pytest.mark.browser]

SHOTS = ARTIFACTS / "page-top"
FINGER = 44  # px: the smallest comfortable target on a phone
WORDS = {
    "en-GB": {
        "turn": "It is your turn.",
        "deadline": "Your deadline",
        "zone": "Show my times in Europe/Berlin",
        "taken": "Your times are now shown in Europe/Berlin.",
        "expand": "Expand",
        "choice": "Draw a second tile to choose from",
        "builder": "Recruit a Builder",
        "navigators": "Hire Navigators",
    },
    "de-DE": {
        "turn": "Du bist am Zug.",
        "deadline": "Deine Frist",
        "zone": "Meine Zeiten in Europe/Berlin anzeigen",
        "taken": "Deine Zeiten werden jetzt in Europe/Berlin angezeigt.",
        "expand": "Expandieren",
        "choice": "Zweite Kachel zur Auswahl ziehen",
        "builder": "Baumeister rekrutieren",
        "navigators": "Navigatoren anheuern",
    },
}


def phone(browser: Any, locale: str) -> Any:
    context = browser.new_context(locale=locale, timezone_id="Europe/Berlin", viewport=PHONE)
    return context.new_page()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_deadline_and_its_zone_button_stand_in_the_status_box_on_the_first_screen(
    live_server, browser, locale
):
    seat = a_game_under_way()
    deadline = SeatClock.objects.get(game=seat.game, faction=seat.faction).deadline
    words = WORDS[locale]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = phone(browser, locale)
    page.goto(link(live_server, seat))

    status = page.locator("#status")
    assert words["turn"] in status.inner_text()
    assert status.locator("#deadline").count() == 1, "the deadline is not in the status box"
    # The deadline reads as a countdown; its exact time in the reader's zone on hover or tap.
    assert status.locator("#deadline").inner_text().startswith(f"{words['deadline']}: ")
    assert status.locator("#deadline .countdown").get_attribute("title") == shown(deadline, "UTC", locale)
    button = status.get_by_role("button", name=words["zone"])
    box = button.bounding_box()
    assert box is not None and box["height"] >= FINGER
    assert box["y"] + box["height"] <= PHONE["height"], "the zone button is below the first screen"
    assert page.locator("main").inner_text().count(shown(deadline, "UTC", locale)) == 0  # until tapped
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SHOTS / f"status-{locale[:2]}.png"))

    button.click()
    page.wait_for_load_state()
    assert words["taken"] in page.inner_text(".messages")
    berlin = shown(deadline, "Europe/Berlin", locale)
    assert status.locator("#deadline .countdown").get_attribute("title") == berlin
    status.locator("#deadline .countdown").focus()  # a tap shows the exact time, told once
    assert page.locator("main").inner_text().count(berlin) == 1
    assert page.locator("#zone-hint").count() == 0
    page.screenshot(path=str(SHOTS / f"status-taken-{locale[:2]}.png"))

    # The player waiting for them owes nothing: no deadline, no button, and the status says whom it waits for.
    other = seat.game.seats.exclude(pk=seat.pk).get()
    page.goto(link(live_server, other))
    assert page.locator("#deadline").count() == 0 and page.locator("#zone-hint").count() == 0


def seat_on_turn_as(game: Game, faction: str) -> Seat:
    """`faction`'s seat, after the seats before it in this round passed."""
    while (seat := seats_to_act(game)[0]).faction != faction:
        loaded = load_game(game)
        submit_order(game, seat, Pass(player=seat.faction), loaded.seq)
    return seat


def expand_form(page: Any) -> Any:
    page.locator("#details-expand summary").click()
    return page.locator("#order-expand")


def choice_label(page: Any) -> str:
    return page.locator("label[for='id_expand-second_source']").inner_text()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_h_faction_the_expand_form_names_the_factions_own_price_of_a_tile_choice(
    live_server, browser, locale
):
    """S-EXP-CHOICE costs 1 FP, Athens' 0 FP (H-FACTION): the form said "+FP" to both, then "+0 FP"
    to Athens."""
    words = WORDS[locale]
    SHOTS.mkdir(parents=True, exist_ok=True)
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Cy", "cy@example.com", "corinth")]
    game = create_game(players, name="Berlin – London")
    for faction, fp in (("athens", 0), ("corinth", 1)):
        seat = seat_on_turn_as(game, faction)
        page = phone(browser, locale)
        page.goto(link(live_server, seat))
        expand_form(page)
        # A choice that costs nothing says no price, rather than "+0 FP".
        assert choice_label(page) == (f"{words['choice']} (+{fp} FP)" if fp else words["choice"]), faction
        costs = page.inner_text("#costs")
        if fp:
            assert re.search(rf"{words['expand']} 0 FP, [^,;]* \+{fp} FP,", costs, re.IGNORECASE), costs
        assert "+0 FP" not in costs and "+0 FP" not in page.inner_text("#order-expand"), costs
        page.locator("#details-expand").screenshot(path=str(SHOTS / f"expand-{faction}-{locale[:2]}.png"))
        page.close()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_s_builder_the_costs_line_names_each_order_as_its_form_does(live_server, browser, locale):
    """The costs above the forms call the Builder's order and the Navigators by the forms' words."""
    words = WORDS[locale]
    SHOTS.mkdir(parents=True, exist_ok=True)
    players = [PlayerSpec("Ana", "ana@example.com", "athens"), PlayerSpec("Cy", "cy@example.com", "corinth")]
    seat = seat_on_turn_as(create_game(players, name="Berlin – London"), "corinth")
    page = phone(browser, locale)
    page.goto(link(live_server, seat))
    costs = page.inner_text("#costs")
    builder = page.locator("#details-recruit_builder summary").inner_text()
    assert builder == words["builder"]
    assert re.search(rf"; {builder}: ", costs, re.IGNORECASE), costs
    page.locator("#details-recruit summary").click()
    navigators = page.locator("label[for='id_recruit-navigators']").inner_text()
    assert navigators.startswith(words["navigators"]), navigators
    assert re.search(rf"; {words['navigators']} ", costs, re.IGNORECASE), costs
    for kind in ("expand", "move", "recruit", "fortify", "reform"):
        title = page.locator(f"#details-{kind} summary").inner_text()
        assert re.search(rf"(: |; ){title}\b", costs, re.IGNORECASE), (title, costs)
    page.locator("#orders").screenshot(path=str(SHOTS / f"costs-corinth-{locale[:2]}.png"))

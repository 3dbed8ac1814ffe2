"""The player page, board first (docs/architecture.md, "The player page"), on a phone (390 x 844)
and a desktop (1280 x 800), in English and German: the first screen holds whose turn it is, the
deadline as a countdown (its exact time on hover or tap), one's own supplies and the board; a
tapped Polis shows its facts in a panel (H-TILES, H-MINT, H-NEUTRAL, S-FORT, H-HEROES); the
history fits a phone (H-WINTER-ORDERS' 64-digit commitments). Screenshots:
test-artifacts/browser/<test name>/.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games.engine.commands import CommitCoins
from games.models import SeatClock
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from games.words.countdown import countdown_text
from games.words.names import coins_text
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, SCENARIO, a_game_under_way, shown
from tests.order_loop_support import play_until, seats_to_act, two_player_game

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
WORDS = {
    "en-GB": {
        "turn": "It is your turn.",
        "deadline": "Your deadline",
        "in": "in 1 day 23 h",
        "labels": ["AP", "FP", "Blanks", "VP", "Coins"],
        "fort": "Fortifications",
        "damage": "3 of 3 HP, 1 of 3 HP",
        "held": "Sparta",
        "unminted": "Unminted coins",
        "commitment": "Commitment:",
    },
    "de-DE": {
        "turn": "Du bist am Zug.",
        "deadline": "Deine Frist",
        "in": "in 1 Tag 23 Std.",
        "labels": ["AP", "FP", "Leermünzen", "VP", "Münzen"],
        "fort": "Festungsanlagen",
        "damage": "3 von 3 HP, 1 von 3 HP",
        "held": "Sparta",
        "unminted": "Ungeprägte Münzen",
        "commitment": "Festlegung:",
    },
}


def shots(name: str) -> Any:
    folder = ARTIFACTS / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def opened(browser: Any, locale: str, size: str, url: str, **options: Any) -> Any:
    context = browser.new_context(locale=locale, timezone_id="UTC", viewport=SIZES[size], **options)
    page = context.new_page()
    page.goto(url)
    return page


def on_first_screen(page: Any, selector: str, size: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size]["height"], f"{selector} is below {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"], f"{selector} is beside {box}"
    return box


def weight(browser: Any, url: str) -> dict[str, Any]:
    """The page's bytes (HTML, CSS, JavaScript) and its load time on a phone, for the record."""
    page = browser.new_context(viewport=PHONE).new_page()
    sizes: dict[str, int] = {}
    page.on("response", lambda response: sizes.__setitem__(response.url, len(response.body())))
    page.goto(url, wait_until="load")
    timing = json.loads(page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])"))
    return {"bytes": sum(sizes.values()), "files": sizes, "load_ms": timing["loadEventEnd"]}


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_the_first_screen_holds_the_turn_the_countdown_ones_own_supplies_and_the_board(
    live_server, browser, locale, size
):
    seat = a_game_under_way()
    deadline = SeatClock.objects.get(game=seat.game, faction=seat.faction).deadline
    words, folder = WORDS[locale], shots(f"first-screen-{size}-{locale[:2]}")
    page = opened(browser, locale, size, link(live_server, seat))

    on_first_screen(page, "#status", size)
    assert words["turn"] in page.inner_text("#status")
    countdown = page.locator("#deadline .countdown")
    on_first_screen(page, "#deadline .countdown", size)
    assert countdown.inner_text() in (words["in"], words["in"].replace("23", "22"))  # the minute may turn
    assert page.inner_text("#deadline").startswith(f"{words['deadline']}: ")
    assert countdown.get_attribute("title") == shown(deadline, "UTC", locale)  # the exact time on hover
    assert not page.locator(".deadline-exact").is_visible()
    countdown.focus()  # a tap focuses it: the exact time shows, without JavaScript
    # Beside the countdown, not in brackets around the zone's own: "in 1 day 23 h · 5 Dec 2026, 17:12 (UTC)".
    assert page.locator(".deadline-exact").inner_text().strip() == f"· {shown(deadline, 'UTC', locale)}"
    page.screenshot(path=str(folder / "countdown-tapped.png"))
    countdown.blur()

    bar = page.locator("#my-supplies")
    on_first_screen(page, "#my-supplies", size)
    labels = bar.locator("dt").all_inner_texts()
    assert labels == words["labels"]
    me = load_game(seat.game).state.players[seat.faction]
    values = bar.locator("dd").all_inner_texts()
    assert values[:4] == [str(me.ap), str(me.fp), str(me.blanks), str(me.vp)]
    board = on_first_screen(page, "#board svg", size)
    assert min(board["width"], board["height"]) >= 0.55 * min(SIZES[size].values())  # readable, not a stamp
    page.screenshot(path=str(folder / "first-screen.png"))

    # Scrolled far down, one's own supplies are still in sight (the bar is sticky).
    page.locator("#players").scroll_into_view_if_needed()
    on_first_screen(page, "#my-supplies", size)
    # The players table, wider than a phone, shows at its edge that it scrolls sideways.
    region = page.locator("#players .table-scroll")
    if region.evaluate("r => r.scrollWidth > r.clientWidth"):
        assert "gradient" in region.evaluate("r => getComputedStyle(r).backgroundImage")
        page.screenshot(path=str(folder / "players-scroll.png"))
    # The standings' marker sits beside its heading, not on a line of its own.
    summary_box = page.locator("#standings summary").bounding_box()
    heading_box = page.locator("#standings summary h2").bounding_box()
    assert summary_box and heading_box and heading_box["y"] - summary_box["y"] < heading_box["height"]
    # The standings are one tap away, opened (not a folded section a second tap away).
    assert not page.evaluate("document.getElementById('standings').open")
    bar.locator("a[href='#standings']").click()
    page.wait_for_function("document.getElementById('standings').open")
    assert page.locator("#standings table.standings-table").is_visible()
    on_first_screen(page, "#standings h2", size)
    bar_box, heading = bar.bounding_box(), page.locator("#standings h2").bounding_box()
    assert (
        bar_box and heading and heading["y"] >= bar_box["y"] + bar_box["height"]
    )  # not under the sticky bar
    page.screenshot(path=str(folder / "standings.png"))
    if size == "phone" and locale == "en-GB":
        (folder / "weight.json").write_text(json.dumps(weight(browser, link(live_server, seat)), indent=1))


@pytest.mark.django_db(transaction=True)
def test_the_status_bar_shows_ones_own_coins_and_never_another_players(live_server, browser):
    """H-SCREEN: the coins behind a player's screen are theirs to see; the rival's never appear."""
    seat = a_game_under_way()
    state = load_game(seat.game).state
    rival = next(f for f in state.players if f != seat.faction)
    assert any(state.players[rival].coins_behind_screen.values())
    page = opened(browser, "en-GB", "phone", link(live_server, seat))
    mine = page.locator("#my-supplies .coins dd").inner_text()
    assert mine == coins_text(state.players[seat.faction].coins_behind_screen)
    other = page.locator("#players tr", has_text="Sparta" if rival == "sparta" else "Athens")
    assert "hidden" in other.inner_text()


def scenario_link(live_server: Any, language: str) -> str:
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language=language),
    ]
    game = create_game(players, scenario=SCENARIO)
    seat = game.seats.get(faction="athens")
    return live_server.url + reverse("games:play", args=[game.pk, link_token(seat)])


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_a_tapped_polis_shows_its_printed_values_holder_units_fortifications_and_coins(
    live_server, browser, locale, size
):
    words, folder = WORDS[locale], shots(f"polis-panel-{size}-{locale[:2]}")
    page = opened(browser, locale, size, scenario_link(live_server, locale[:2]), has_touch=True)
    panel = page.locator("#polis-panel")
    assert not panel.is_visible()

    page.locator("#board svg .polis[data-space='G3']").tap()  # Sparta's, two Fortifications, one damaged
    assert panel.is_visible()
    on_first_screen(page, "#polis-panel", size)
    text = panel.inner_text()
    assert "G3" in text and words["held"] in text
    assert words["fort"] in text and words["damage"] in text
    page.screenshot(path=str(folder / "G3.png"))

    page.locator("#board svg .polis[data-space='D4']").tap()  # a neutral Polis with a treasure
    text = panel.inner_text()
    assert "D4" in text and "G3" not in text and words["unminted"] in text
    page.screenshot(path=str(folder / "D4.png"))
    panel.locator("button.close").click()
    assert not panel.is_visible()

    # A tap the order picker took (board.js calls preventDefault) opens no panel.
    page.evaluate(
        "document.querySelector(\"#board svg .polis[data-space='E5']\")"
        ".addEventListener('click', e => e.preventDefault())"
    )
    page.locator("#board svg .polis[data-space='E5']").tap()
    assert not panel.is_visible()


@pytest.mark.django_db(transaction=True)
def test_without_javascript_every_polis_is_told_in_the_list_below_the_board(live_server, browser):
    page = opened(browser, "de-DE", "phone", scenario_link(live_server, "de"), java_script_enabled=False)
    page.locator("#poleis summary").click()
    g3 = page.locator("#polis-G3")
    assert g3.is_visible()
    assert "3 von 3 HP, 1 von 3 HP" in g3.inner_text() and "Festungsanlagen" in g3.inner_text()
    assert "Ungeprägte Münzen" in page.locator("#polis-D4").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(shots("polis-list-no-javascript") / "list.png"), full_page=True)


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_h_winter_orders_the_history_with_commitments_is_no_wider_than_a_phone(live_server, browser, locale):
    game = two_player_game(name="Aegean")
    play_until(game, "winter_orders")
    first = seats_to_act(game)[0]
    submit_order(game, first, CommitCoins(first.faction), load_game(game).seq)
    page = opened(browser, locale, "phone", link(live_server, first) + "history/?since=all")
    commitment = page.locator("details.commitment").first
    assert WORDS[locale]["commitment"] in commitment.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    entries = page.locator("ol.history li")
    for i in range(entries.count()):
        box = entries.nth(i).bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"]
    commitment.locator("summary").click()  # the whole value, one tap away
    full = commitment.locator("code").inner_text()
    assert len(full) == 64
    box = commitment.locator("code").bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    commitment.scroll_into_view_if_needed()
    page.screenshot(path=str(shots(f"history-phone-{locale[:2]}") / "commitment.png"))
    # The history's board zooms as the player page's does, the page still no wider than the phone.
    whole = page.locator("#board svg").bounding_box()["width"]
    page.locator("#board button.board-zoom").click()
    assert page.locator("#board button.board-zoom").inner_text() == ZOOM[locale][1]
    assert page.locator("#board svg").bounding_box()["width"] >= 1.9 * whole
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_the_countdown_ticks_on_while_the_page_is_open_even_on_a_phone_whose_clock_is_wrong(
    live_server, browser, locale
):
    seat = a_game_under_way()
    context = browser.new_context(locale=locale, timezone_id="UTC", viewport=PHONE)
    page = context.new_page()
    # The phone's clock is years off: the countdown counts from the server's time all the same.
    page.clock.install(time="2001-01-01T08:00:00Z")
    page.goto(link(live_server, seat))
    countdown = page.locator("#deadline .countdown")
    start = countdown.inner_text()
    assert start in (WORDS[locale]["in"], WORDS[locale]["in"].replace("23", "22"))

    # What the server would write after each stretch of time, counted from when it wrote the page.
    written = datetime.fromtimestamp(int(countdown.get_attribute("data-written")), UTC)
    deadline = datetime.fromtimestamp(int(countdown.get_attribute("data-deadline")), UTC)
    left = deadline - written
    elapsed = timedelta()
    for stretch in (
        timedelta(hours=2),  # days and hours
        left - timedelta(hours=5, minutes=30) - timedelta(hours=2),  # hours and minutes
        timedelta(hours=5),  # minutes
        timedelta(hours=1),  # past the deadline
    ):
        page.clock.fast_forward(int(stretch.total_seconds() * 1000))
        elapsed += stretch
        with translation.override(locale[:2]):
            expected = {countdown_text(deadline, written + elapsed + timedelta(minutes=m)) for m in (0, 1)}
        assert countdown.inner_text() in expected, elapsed
    assert countdown.inner_text() == {"en-GB": "now", "de-DE": "jetzt"}[locale]
    page.screenshot(path=str(shots(f"countdown-ticks-{locale[:2]}") / "passed.png"))


ZOOM = {
    "en-GB": ("Zoom in on the board", "Show the whole board"),
    "de-DE": ("Brett vergrößern", "Ganzes Brett zeigen"),
}


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_board_zooms_to_twice_its_width_on_ones_own_poleis_and_back(
    live_server, browser, locale
):
    """The board's small print (tile names, the key) at 390 px, one tap from readable: twice as wide,
    scrolled in its frame to one's own Poleis (Athens, C3), a Polis still tappable for its panel;
    the page itself never wider than the phone. Not offered on a desktop, where all of it reads."""
    zoom_in, zoom_out = ZOOM[locale]
    folder = shots(f"board-zoom-{locale[:2]}")
    page = opened(browser, locale, "phone", scenario_link(live_server, locale[:2]), has_touch=True)
    button = page.locator("button.board-zoom")
    whole = page.locator("#board svg").bounding_box()
    assert button.inner_text() == zoom_in and button.get_attribute("aria-pressed") == "false"
    assert button.bounding_box()["y"] >= whole["y"] + whole["height"]  # under the board, not over it
    # The order buttons stay under the board, never inside the zoomed board's scrolling frame.
    assert (
        page.locator(".board-modes").count() == 1 and page.locator(".board-frame .board-modes").count() == 0
    )
    page.screenshot(path=str(folder / "whole.png"))

    button.tap()
    assert button.inner_text() == zoom_out and button.get_attribute("aria-pressed") == "true"
    frame = page.locator("#board .board-frame").bounding_box()
    zoomed = page.locator("#board svg").bounding_box()
    assert zoomed["width"] >= 1.9 * whole["width"]  # twice the size: a name 6 px high is 12
    assert frame["width"] <= PHONE["width"] and frame["height"] <= 0.8 * PHONE["height"] + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    athens = page.locator("#board svg .polis[data-space='C3']").bounding_box()
    centre = (athens["x"] + athens["width"] / 2, athens["y"] + athens["height"] / 2)
    assert frame["x"] <= centre[0] <= frame["x"] + frame["width"], "one's own Polis is in view"
    assert frame["y"] <= centre[1] <= frame["y"] + frame["height"], "one's own Polis is in view"
    page.screenshot(path=str(folder / "zoomed.png"))
    page.locator("#board svg .polis[data-space='D4']").tap()  # scrolled to within the frame
    assert page.locator("#polis-panel").is_visible() and "D4" in page.locator("#polis-panel").inner_text()
    page.locator("#polis-panel button.close").click()

    button.tap()
    assert button.inner_text() == zoom_in and button.get_attribute("aria-pressed") == "false"
    assert page.locator("#board svg").bounding_box()["width"] == pytest.approx(whole["width"], abs=1)

    desktop = opened(browser, locale, "desktop", scenario_link(live_server, locale[:2]))
    assert not desktop.locator("button.board-zoom").is_visible()

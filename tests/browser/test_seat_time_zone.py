"""A real browser: a London player in a Berlin game picks Europe/London among their preferences
and reads their deadline in London time from then on (Playwright, Debian's headless Chromium).

Short page-and-form tests, so not marked slow: they run with the everyday suite. The one-tap
offer of the browser's zone beside the deadline: its German, its tap, and no offer when it is not needed.
"""

from __future__ import annotations

import pytest

from games.models import DeadlineSettings, Seat, SeatClock
from games.words.clock import recompute_deadlines
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import shown
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [pytest.mark.browser]


@pytest.mark.django_db(transaction=True)
def test_a_player_picks_europe_london_and_reads_their_deadline_in_london_time(live_server, browser):
    game = two_player_game(name="Aegean")
    DeadlineSettings.objects.create(game=game, time_zone="Europe/Berlin")
    recompute_deadlines(game)
    (seat,) = seats_to_act(game)
    deadline = SeatClock.objects.get(game=game, faction=seat.faction).deadline

    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(link(live_server, seat))
    assert page.get_attribute("#deadline .countdown", "title") == shown(deadline, "Europe/Berlin", "en")

    page.locator("#long-game summary").click()  # "Vacation and emails" is folded
    zone = page.locator("select[name='time_zone']")
    assert zone.locator("option:checked").inner_text() == "the game's time zone (Europe/Berlin)"
    zone.select_option("Europe/London")
    page.get_by_role("button", name="Save email preferences").click()

    assert "Your email preferences were saved." in page.inner_text(".messages")
    assert page.get_attribute("#deadline .countdown", "title") == shown(deadline, "Europe/London", "en")
    page.screenshot(path=str(ARTIFACTS / "time-zone-london.png"), full_page=True)
    assert Seat.objects.get(pk=seat.pk).time_zone == "Europe/London"


def utc_game_seat() -> tuple[Seat, object]:
    """The seat on turn in a game whose organiser left the zone at UTC, and its deadline."""
    game = two_player_game(name="Aegean")
    DeadlineSettings.objects.create(game=game)
    recompute_deadlines(game)
    (seat,) = seats_to_act(game)
    return seat, SeatClock.objects.get(game=game, faction=seat.faction).deadline


@pytest.mark.django_db(transaction=True)
def test_a_berlin_phone_in_german_is_offered_its_zone_beside_the_deadline_and_takes_it_with_one_tap(
    live_server, browser
):
    """Before, "Deine Frist: … (UTC)" stood there until the player found the zone in the folded
    "Urlaub und E-Mails"; now the browser's zone is one tap away, and the player confirms it."""
    seat, deadline = utc_game_seat()
    context = browser.new_context(
        locale="de-DE", timezone_id="Europe/Berlin", viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    page.goto(link(live_server, seat))
    assert page.get_attribute("#deadline .countdown", "title") == shown(deadline, "UTC", "de")
    offer = page.get_by_role("button", name="Meine Zeiten in Europe/Berlin anzeigen")
    assert offer.is_visible()
    box, under = offer.bounding_box(), page.locator("#deadline").bounding_box()
    assert box is not None and under is not None
    assert box["height"] >= 44 and 0 <= box["y"] - (under["y"] + under["height"]) <= 24  # beside the deadline
    offer.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "time-zone-offer-de.png"))
    assert Seat.objects.get(pk=seat.pk).time_zone == ""  # shown, not guessed

    offer.click()
    assert "Deine Zeiten werden jetzt in Europe/Berlin angezeigt." in page.inner_text(".messages")
    assert page.get_attribute("#deadline .countdown", "title") == shown(deadline, "Europe/Berlin", "de")
    assert page.locator("#zone-hint").count() == 0
    page.screenshot(path=str(ARTIFACTS / "time-zone-offer-de-taken.png"))
    assert Seat.objects.get(pk=seat.pk).time_zone == "Europe/Berlin"


@pytest.mark.django_db(transaction=True)
def test_no_offer_when_the_browser_reads_the_zone_shown_or_runs_no_javascript(live_server, browser):
    seat, deadline = utc_game_seat()
    same = browser.new_context(timezone_id="UTC", viewport={"width": 390, "height": 844}).new_page()
    same.goto(link(live_server, seat))
    assert same.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == "UTC"
    assert same.get_attribute("#deadline .countdown", "title") == shown(deadline, "UTC", "en")
    assert not same.locator("#zone-hint").is_visible()

    # Without JavaScript the page works as before: no offer, the zone is chosen among the preferences.
    plain = browser.new_context(
        java_script_enabled=False, timezone_id="Europe/London", viewport={"width": 390, "height": 844}
    ).new_page()
    plain.goto(link(live_server, seat))
    assert not plain.locator("#zone-hint").is_visible()
    plain.locator("#long-game summary").click()
    plain.locator("select[name='time_zone']").select_option("Europe/London")
    plain.get_by_role("button", name="Save email preferences").click()
    assert plain.get_attribute("#deadline .countdown", "title") == shown(deadline, "Europe/London", "en")
    plain.screenshot(path=str(ARTIFACTS / "time-zone-no-javascript.png"))

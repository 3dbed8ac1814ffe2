"""A real browser: a London player in a Berlin game picks Europe/London among their preferences
and reads their deadline in London time from then on (Playwright, Debian's headless Chromium).

One short page-and-form test, so not marked slow: it runs with the everyday suite.
"""

from __future__ import annotations

import zoneinfo

import pytest

from games.deadlines import recompute_deadlines
from games.models import DeadlineSettings, Seat, SeatClock
from tests.browser.conftest import ARTIFACTS, link
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [pytest.mark.browser]


def shown(deadline, zone: str) -> str:
    return f"{deadline.astimezone(zoneinfo.ZoneInfo(zone)):%Y-%m-%d %H:%M} ({zone})"


@pytest.mark.django_db(transaction=True)
def test_a_player_picks_europe_london_and_reads_their_deadline_in_london_time(live_server, browser):
    game = two_player_game(name="Aegean")
    DeadlineSettings.objects.create(game=game, time_zone="Europe/Berlin")
    recompute_deadlines(game)
    (seat,) = seats_to_act(game)
    deadline = SeatClock.objects.get(game=game, faction=seat.faction).deadline

    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(link(live_server, seat))
    assert page.inner_text("#deadline") == f"Your deadline: {shown(deadline, 'Europe/Berlin')}"

    page.locator("#long-game summary").click()  # "Vacation and emails" is folded
    zone = page.locator("select[name='time_zone']")
    assert zone.locator("option:checked").inner_text() == "the game's time zone (Europe/Berlin)"
    zone.select_option("Europe/London")
    page.get_by_role("button", name="Save email preferences").click()

    assert "Your email preferences were saved." in page.inner_text(".messages")
    assert page.inner_text("#deadline") == f"Your deadline: {shown(deadline, 'Europe/London')}"
    page.screenshot(path=str(ARTIFACTS / "time-zone-london.png"), full_page=True)
    assert Seat.objects.get(pk=seat.pk).time_zone == "Europe/London"

"""The one-tap time zone beside the deadline (templates/games/_deadline.html, web/views/table.py "time-zone").

A player who chose no zone reads their deadline in the game's ("Deine Frist: 3.12.2026, 10:00
(UTC)"); their browser's zone, when it is another one of the list, is offered beside it with one
button ("Show my times in Europe/Berlin"), saved by the preferences service (set_time_zone) and
checked as the preference form checks it. What the script shows is tested in a real browser
(tests/browser/test_seat_time_zone.py); here, what the server gives and takes.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from games.models import DeadlineSettings, NotificationPreference, Seat
from games.reading.links import link_token
from games.services.substitutes import set_time_zone, unsubscribe
from games.words.clock import recompute_deadlines
from tests.browser_like_client import BrowserLikeClient
from tests.order_loop_support import seats_to_act, two_player_game

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # the deadline: 48 h later, 2026-12-03 10:00 UTC
UNKNOWN = "Unknown time zone; choose one from the list, e.g. Europe/London."


def utc_game_seat() -> Seat:
    """The seat on turn in a game whose organiser left the zone at its default, UTC."""
    with time_machine.travel(T0, tick=False):
        game = two_player_game(name="Aegean")
        DeadlineSettings.objects.create(game=game)
        recompute_deadlines(game)
    (seat,) = seats_to_act(game)
    return seat


def page(client: BrowserLikeClient, seat: Seat) -> str:
    return client.get(f"/play/{seat.game_id}/{link_token(seat)}/").content.decode()


def tap(client: BrowserLikeClient, seat: Seat, zone: str) -> str:
    """What the button posts: only the zone (and the CSRF token, which the test client skips)."""
    url = f"/play/{seat.game_id}/{link_token(seat)}/time-zone/"
    return client.post(url, {"time_zone": zone}, follow=True).content.decode()


@pytest.mark.django_db
def test_a_seat_on_the_games_zone_gets_the_hidden_one_tap_form_beside_its_deadline_in_both_languages(
    client,
):
    seat = utc_game_seat()
    shown = page(client, seat)
    assert "3 Dec 2026, 10:00 (UTC)" in shown
    assert (
        '<form method="post" action="time-zone/" id="zone-hint" class="zone-hint" data-shown="UTC" hidden>'
        in (shown)
    )  # hidden: only the script, knowing the browser's zone, shows it
    assert 'data-label="Show my times in {zone}"' in shown
    assert "csrfmiddlewaretoken" in shown.split('id="zone-hint"')[1].split("</form>")[0]

    seat.language, seat.language_chosen = "de", True
    seat.save()
    assert 'data-label="Meine Zeiten in {zone} anzeigen"' in page(client, seat)

    set_time_zone(seat, "Europe/London")  # a zone of its own: nothing to offer
    assert 'id="zone-hint"' not in page(client, seat)


@pytest.mark.django_db
def test_the_tap_saves_the_zone_and_nothing_else_of_the_preferences(client):
    seat = utc_game_seat()
    unsubscribe(seat)  # a player who wants no emails stays so: the tap is about times only
    told = tap(client, seat, "Europe/Berlin")
    assert "Your times are now shown in Europe/Berlin." in told
    deadline = told.split('id="deadline"')[1].split("</p>")[0]  # a countdown, the exact time beside it
    assert "Your deadline:</strong>" in deadline and " · 3 Dec 2026, 11:00 (Europe/Berlin)<" in deadline
    assert 'id="zone-hint"' not in told
    seat.refresh_from_db()
    assert seat.time_zone == "Europe/Berlin"
    assert NotificationPreference.objects.get(seat=seat).unsubscribed

    seat.language, seat.language_chosen = "de", True
    seat.save()
    assert "Deine Zeiten werden jetzt in Europe/London angezeigt." in tap(client, seat, "Europe/London")


@pytest.mark.django_db
def test_a_zone_the_list_does_not_offer_is_refused_as_by_the_preference_form_and_changes_nothing(client):
    seat = utc_game_seat()
    for bogus in ("Mars/Olympus_Mons", "localtime", "europe/berlin", "W-SU", "Etc/GMT+1", "Factory"):
        told = tap(client, seat, bogus)
        assert UNKNOWN in told
        assert "Your times are now shown" not in told
    seat.language, seat.language_chosen = "de", True
    seat.save()
    assert "Unbekannte Zeitzone; wähle eine aus der Liste, z. B. Europe/London." in tap(client, seat, "GB")
    seat.refresh_from_db()
    assert seat.time_zone == ""
    with pytest.raises(ValueError, match="unknown time zone"):  # the service refuses it too
        set_time_zone(seat, "localtime")
    assert Seat.objects.get(pk=seat.pk).time_zone == ""


@pytest.mark.django_db
def test_the_tap_needs_the_pages_csrf_token():
    seat = utc_game_seat()
    guarded = BrowserLikeClient(enforce_csrf_checks=True)
    url = f"/play/{seat.game_id}/{link_token(seat)}/time-zone/"
    assert guarded.post(url, {"time_zone": "Europe/Berlin"}).status_code == 403
    assert Seat.objects.get(pk=seat.pk).time_zone == ""

    page(guarded, seat)  # the page sets the cookie its forms' tokens go with
    token = guarded.cookies["csrftoken"].value
    response = guarded.post(url, {"time_zone": "Europe/Berlin", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert Seat.objects.get(pk=seat.pk).time_zone == "Europe/Berlin"

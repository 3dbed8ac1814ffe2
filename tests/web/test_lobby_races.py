"""The lobby's last seats taken at once (docs/front-door.md "Open games and the lobby"): two browsers
posting "Take a seat" for the one seat left, and one person posting it from two tabs, on real
PostgreSQL connections through the lobby's own page. The gathering's row lock puts the two one
after the other: one is seated, the other told why on the page, and the game begins with exactly
its seats (H-SETUP: one address per seat)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

import games.services.invitations as invitations
from games.models import Event, Game, Invitation, Seat
from games.services.invitations import gather_game, take_open_seat
from tests.race_support import captured, race

pytestmark = [pytest.mark.postgresql, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BEGUN = "This game has begun; its seats are taken."


def signed_in(name: str) -> Client:
    browser = Client()
    browser.force_login(get_user_model().objects.create_user(name, email=f"{name}@example.com"))
    return browser


def one_seat_left() -> Game:
    """An open two-seat game whose first seat Ana took in the lobby."""
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = gather_game(olga, "Delos", "en", 2, published=True)
    take_open_seat(
        game, get_user_model().objects.create_user("ana", email="ana@example.com"), "Ana", "en", ""
    )
    return game


def take(browser: Client, game: Game, name: str):
    return lambda: browser.post(f"/lobby/{game.pk}/", {"name": name, "language": "en", "time_zone": ""})


def paused_holding_the_gathering(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The seat check, run under the gathering's row lock, sets `held` and waits for `release`."""
    held, release = threading.Event(), threading.Event()
    real = invitations._check_seat

    def pausing(*args: Any, **kwargs: Any) -> Any:
        held.set()
        assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(invitations, "_check_seat", pausing)
    return held, release


def test_two_people_taking_the_last_seat_at_once_one_is_seated_and_the_other_told_it_is_taken(
    monkeypatch,
):
    """Keeps out a game with more players than seats (or a lost taker's seat silently dropped):
    the second taker waits for the first, then reads that the game began with its seats taken."""
    game = one_seat_left()
    held, release = paused_holding_the_gathering(monkeypatch)
    outcomes: dict[str, Any] = {}
    race(
        captured(outcomes, "ben", take(signed_in("ben"), game, "Ben")),
        captured(outcomes, "cy", take(signed_in("cy"), game, "Cy")),
        held,
        release,
    )
    assert outcomes["ben"].status_code == 200, outcomes
    assert "You have a seat" in outcomes["ben"].content.decode()
    assert outcomes["cy"].status_code == 400 and BEGUN in outcomes["cy"].content.decode(), outcomes
    assert sorted(Seat.objects.filter(game=game).values_list("name", flat=True)) == ["Ana", "Ben"]
    assert not Invitation.objects.filter(game=game, email="cy@example.com").exists()
    assert Event.objects.filter(game=game, type="GameStarted").count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_at_the_same_instant_exactly_one_of_two_takers_gets_the_last_seat(attempt):
    """Keeps out two people both told they hold the last seat."""
    game = one_seat_left()
    outcomes: dict[str, Any] = {}
    takers = [captured(outcomes, n, take(signed_in(n), game, n.title())) for n in ("ben", "cy")]
    start = threading.Barrier(2)
    threads = [threading.Thread(target=lambda t=t: (start.wait(), t())) for t in takers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    codes = sorted(outcome.status_code for outcome in outcomes.values())
    assert codes == [200, 400], outcomes
    (lost,) = [o for o in outcomes.values() if o.status_code == 400]
    assert BEGUN in lost.content.decode()
    assert Seat.objects.filter(game=game).count() == 2
    assert Invitation.objects.filter(game=game, status=Invitation.Status.ACCEPTED).count() == 2


def test_one_person_posting_take_a_seat_from_two_tabs_at_once_gets_one_seat(monkeypatch):
    """Keeps out one address holding two seats of a game (H-SETUP): both tabs passed the page's
    "you have a seat" check before either was written; the second is refused under the lock."""
    olga = get_user_model().objects.create_user("olga", email="olga@example.com")
    game = gather_game(olga, "Delos", "en", 3, published=True)
    zoe = get_user_model().objects.create_user("zoe", email="zoe@example.com")
    tabs = [Client(), Client()]
    for tab in tabs:
        tab.force_login(zoe)
    held, release = paused_holding_the_gathering(monkeypatch)
    outcomes: dict[str, Any] = {}
    race(
        captured(outcomes, "first", take(tabs[0], game, "Zoe")),
        captured(outcomes, "second", take(tabs[1], game, "Zoe the second")),
        held,
        release,
    )
    assert outcomes["first"].status_code == 200, outcomes
    assert outcomes["second"].status_code == 400, outcomes
    assert "zoe@example.com is invited already." in outcomes["second"].content.decode()
    assert list(Invitation.objects.filter(game=game).values_list("name", flat=True)) == ["Zoe"]

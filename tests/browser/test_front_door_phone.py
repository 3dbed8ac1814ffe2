"""The whole front door on a phone (docs/front-door.md): an organiser signs in by an emailed link,
creates a game and invites three addresses; two accept (one in German), one declines; a fourth is
invited and accepts; the game begins and the first turn's email arrives. Then a stranger signs in
and takes an open seat in a published game. Screenshots: test-artifacts/browser/<test name>/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail

from games.models import Event, Game, Invitation, Seat
from tests.browser.conftest import ARTIFACTS
from tests.browser.support import PHONE, email_on_a_phone, publish_an_open_table
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import link_in, seats_to_act

pytestmark = [pytest.mark.browser, pytest.mark.slow]
AXE = Axe()
FOUND: list[str] = []  # axe's serious and critical violations on the pages met, one line each


def _audit(page: Any, where: str) -> None:
    """axe-core's audit of the page as it is now: a serious or critical violation fails the test."""
    for v in AXE.run(page).response["violations"]:
        if v["impact"] in ("serious", "critical"):
            FOUND.append(f"{v['impact']} {v['id']} on {where}: {v['help']}")


def _link(to: str, path: str) -> str:
    """The path of the last link to `path` mailed to `to` (the outbox is delivered as it commits)."""
    email = [m for m in mail.outbox if m.to == [to] and f"/{path}/" in m.body][-1]
    return re.search(rf"https?://[^/\s]+(/{path}/\S+/)", email.body)[1]


def _phone(browser: Any, language: str = "en", zone: str = "UTC") -> Any:
    return browser.new_context(locale=language, viewport=PHONE, timezone_id=zone).new_page()


def _sign_in(page: Any, live_server: Any, email: str, shots: Any = None) -> None:
    page.goto(f"{live_server.url}/sign-in/")
    page.fill("#id_email", email)
    page.click("main button[type=submit]")
    page.wait_for_selector("main [role=status]")
    if shots:
        page.screenshot(path=str(shots / "1-sign-in-sent.png"), full_page=True)
    page.goto(live_server.url + _link(email, "sign-in"))
    page.click("main button[type=submit]")
    page.wait_for_url("**/organiser/")


def _answer(browser: Any, live_server: Any, email: str, locale: str, shots: Any, **seat: str) -> None:
    page = _phone(browser, locale, seat.get("time_zone") or "UTC")
    page.goto(live_server.url + _link(email, "invitation"))
    name = email.split("@")[0]
    page.screenshot(path=str(shots / f"invitation-{name}.png"), full_page=True)
    _audit(page, f"the invitation page ({locale})")
    if seat:
        page.fill("#id_name", seat["name"])
        page.select_option("#id_language", seat.get("language", "en"))
        # The field starts with the browser's own zone (frontdoor.js), which the player keeps.
        assert page.input_value("#id_time_zone") == (seat.get("time_zone") or "UTC")
        page.click(".frontdoor-form button[type=submit]")
    else:  # a decline cannot be undone: it is asked again before it counts
        page.click(".frontdoor-decline button[type=submit]")
        page.click(".frontdoor-decline-confirm button[type=submit]")
    page.wait_for_selector("main [role=status]")
    page.screenshot(path=str(shots / f"answered-{name}.png"), full_page=True)
    page.context.close()


def _invite(page: Any, email: str, faction: str = "") -> None:
    page.fill("#id_email", email)
    page.select_option("#id_faction", faction)
    with page.expect_navigation():
        page.click(".frontdoor-form button[type=submit]")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_front_door_friends_find_their_game_on_a_phone(live_server, browser):
    shots = ARTIFACTS / "test_front_door_friends_find_their_game_on_a_phone"
    shots.mkdir(parents=True, exist_ok=True)
    olga = _phone(browser)
    _sign_in(olga, live_server, "olga@example.com", shots)
    olga.screenshot(path=str(shots / "2-organiser.png"), full_page=True)

    olga.click("text=A new game by invitation")
    assert olga.input_value("#id_organiser_name") == ""  # signed in by email: asked, not her address
    olga.fill("#id_organiser_name", "Olga")
    olga.fill("#id_name", "Friends")
    olga.select_option("#id_seats", "3")
    olga.click("main button[type=submit]")
    olga.wait_for_url("**/players/")
    _invite(olga, "ana@example.com", "athens")
    _invite(olga, "ben@example.com")
    _invite(olga, "cy@example.com")
    olga.screenshot(path=str(shots / "3-invited.png"), full_page=True)
    _audit(olga, "the organiser's invitations")
    invitation = next(m for m in mail.outbox if m.to == ["ana@example.com"])
    assert "Olga invites you to play AEGEAPOLIS" in invitation.body and "olga@" not in invitation.body
    email_on_a_phone(browser, invitation, "en").screenshot(path=str(shots / "invitation-email.png"))

    _answer(browser, live_server, "ana@example.com", "en", shots, name="Ana", time_zone="Europe/Lisbon")
    _answer(
        browser,
        live_server,
        "ben@example.com",
        "de-DE",
        shots,
        name="Ben",
        language="de",
        time_zone="Europe/Berlin",
    )
    _answer(browser, live_server, "cy@example.com", "en", shots)
    olga.reload()
    assert "Declined" in olga.inner_text("table.invitations")
    olga.screenshot(path=str(shots / "4-one-declined.png"), full_page=True)
    game = Game.objects.get(name="Friends")
    assert not Event.objects.filter(game=game).exists()  # two of three seats: not yet

    _invite(olga, "dan@example.com")
    _answer(browser, live_server, "dan@example.com", "en", shots, name="Dan")
    assert sorted(Seat.objects.filter(game=game).values_list("name", flat=True)) == ["Ana", "Ben", "Dan"]
    assert Seat.objects.get(game=game, name="Ben").language == "de"
    assert Seat.objects.get(game=game, name="Ana").time_zone == "Europe/Lisbon"
    (on_turn,) = seats_to_act(game)
    (first_turn,) = [m for m in mail.outbox if m.to == [on_turn.email] and "/play/" in m.body]
    assert ("Du bist am Zug." if on_turn.language == "de" else "It is your turn.") in first_turn.body
    ben_welcome = next(m for m in mail.outbox if m.to == ["ben@example.com"] and "/play/" in m.body)
    assert "Hallo Ben" in ben_welcome.body
    player = _phone(browser, on_turn.language)
    player.goto(live_server.url + link_in(first_turn))
    player.screenshot(path=str(shots / "5-first-turn.png"), full_page=True)
    olga.goto(f"{live_server.url}/organiser/games/{game.pk}/")
    olga.screenshot(path=str(shots / "6-organiser-game-begun.png"), full_page=True)
    # No invitation link reached anyone but its own invitee: the organiser's pages show none.
    assert "/invitation/" not in olga.content()

    # An open game: the organiser publishes it; a stranger signs in and takes a seat in the lobby.
    publish_an_open_table(olga, live_server)
    stranger = _phone(browser)
    stranger.goto(f"{live_server.url}/lobby/")
    assert "Open table" in stranger.inner_text("main")
    stranger.screenshot(path=str(shots / "7-lobby.png"), full_page=True)
    _audit(stranger, "the lobby")
    _sign_in(stranger, live_server, "zoe@example.com")
    stranger.goto(f"{live_server.url}/lobby/")
    stranger.click("text=Take a seat")
    stranger.fill("#id_name", "Zoe")
    stranger.click("main button[type=submit]")
    stranger.wait_for_selector("main [role=status]")
    stranger.screenshot(path=str(shots / "8-seat-taken.png"), full_page=True)
    taken = Invitation.objects.get(game__name="Open table")
    assert (taken.email, taken.name, taken.status) == ("zoe@example.com", "Zoe", "accepted")
    olga.reload()
    assert "Zoe" in olga.inner_text("table.invitations")
    olga.screenshot(path=str(shots / "9-organiser-sees-zoe.png"), full_page=True)
    olga.click("text=Your games")
    olga.click("text=Your record")
    assert olga.inner_text("dl.reliability dd.played") == "0"  # an organiser who plays in none
    olga.screenshot(path=str(shots / "10-record.png"), full_page=True)
    _audit(olga, "the record")
    olga.goto(f"{live_server.url}/sign-in/")
    _audit(olga, "the sign-in page")
    assert FOUND == []

"""The front door walked again on a phone (docs/front-door.md), where a new user found it wanting:
an invitation in German for one friend and English for another; the German one accepts from an
English browser and is thanked in German; the other declines, asked again first; two strangers tap
"Take a seat" in the lobby, are asked to sign in (and told why), and the emailed link brings each
back to that seat; the first is told she has a seat instead of being offered another and signs
out to the home page in German; the last seat's taker is told the game began and opens her page
from "Your games". Screenshots: test-artifacts/browser/<test name>/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core import mail

from games.models import Game, Invitation, Seat
from tests.browser.conftest import ARTIFACTS
from tests.browser.support import PHONE, publish_an_open_table
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]
AXE = Axe()
SHOTS = ARTIFACTS / "test_front_door_return_phone"


def _audit(page: Any, where: str, found: list[str]) -> None:
    for v in AXE.run(page).response["violations"]:
        if v["impact"] in ("serious", "critical"):
            found.append(f"{v['impact']} {v['id']} on {where}: {v['help']}")


def _mailed(to: str, path: str) -> Any:
    return [m for m in mail.outbox if m.to == [to] and f"/{path}/" in m.body][-1]


def _link(to: str, path: str) -> str:
    return re.search(rf"https?://[^/\s]+(/{path}/\S+/)", _mailed(to, path).body)[1]


def _phone(browser: Any, language: str = "en") -> Any:
    return browser.new_context(locale=language, viewport=PHONE, timezone_id="UTC").new_page()


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _ask_and_follow(page: Any, live_server: Any, email: str) -> None:
    """On the sign-in page: ask for a link for `email`, then follow the emailed link and sign in."""
    page.fill("#id_email", email)
    page.click("main button[type=submit]")
    page.wait_for_selector("main [role=status]")
    page.goto(live_server.url + _link(email, "sign-in"))
    with page.expect_navigation():
        page.click("main button[type=submit]")


def _take_the_seat_from_the_lobby(page: Any, live_server: Any, email: str, name: str, shot: str) -> str:
    """A stranger taps "Take a seat", signs in by the emailed link, lands on that seat, takes it;
    returns the thanks."""
    page.goto(f"{live_server.url}/lobby/")
    page.click("main a.button[href^='/lobby/']")
    page.wait_for_url(re.compile(r"/sign-in/\?next=(/|%2F)lobby(/|%2F)\d+"))
    reason = page.inner_text("main .sign-in-reason")
    _shot(page, f"{shot}-1-sign-in-why")
    _ask_and_follow(page, live_server, email)
    assert re.search(r"/lobby/\d+/$", page.url), page.url  # the seat chosen, not the organiser's page
    page.fill("#id_name", name)
    page.click("main button[type=submit]")
    page.wait_for_selector("main [role=status]")
    _shot(page, f"{shot}-2-seat-taken")
    return reason + "\n" + page.inner_text("main [role=status]")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("anymail_outbox")
def test_the_front_door_leads_each_person_where_they_were_going_on_a_phone(live_server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: list[str] = []
    olga = _phone(browser)
    olga.goto(f"{live_server.url}/sign-in/")
    _ask_and_follow(olga, live_server, "olga@example.com")
    assert olga.url.endswith("/organiser/")
    olga.click("text=A new game by invitation")
    olga.fill("#id_name", "Friends")
    olga.select_option("#id_seats", "3")
    olga.click("main button[type=submit]")
    olga.wait_for_url("**/players/")
    for email, language in (("ben@example.com", "de"), ("cy@example.com", "en")):
        olga.fill("#id_email", email)
        olga.select_option("#id_language", language)  # each friend's own language
        with olga.expect_navigation():
            olga.click(".frontdoor-form button[type=submit]")
    _shot(olga, "01-invited-per-language")
    assert "Einladung" in _mailed("ben@example.com", "invitation").subject
    assert "invites you" in _mailed("cy@example.com", "invitation").body

    ben = _phone(browser, "en-US")  # an English browser; Ben reads German
    ben.goto(live_server.url + _link("ben@example.com", "invitation"))
    assert ben.input_value("#id_language") == "de"  # the invitation's language, to start
    ben.fill("#id_name", "Ben")
    ben.click(".frontdoor-form button[type=submit]")
    ben.wait_for_selector("main [role=status]")
    _shot(ben, "02-thanks-in-german")
    assert ben.get_attribute("html", "lang") == "de" and ben.inner_text("main h1") == "Danke"

    cy = _phone(browser)
    cy.goto(live_server.url + _link("cy@example.com", "invitation"))
    cy.click(".frontdoor-decline button[type=submit]")
    cy.wait_for_selector("text=Yes, decline")
    _shot(cy, "03-decline-asked-again")
    _audit(cy, "the decline's confirmation", found)
    assert Invitation.objects.get(email="cy@example.com").status == Invitation.Status.PENDING
    cy.click("text=No, back to the invitation")  # thinks again: nothing changed
    cy.click(".frontdoor-decline button[type=submit]")
    cy.click("text=Yes, decline")
    cy.wait_for_selector("main [role=status]")
    assert Invitation.objects.get(email="cy@example.com").status == Invitation.Status.DECLINED

    # An open game of two seats, taken by two strangers from the lobby.
    publish_an_open_table(olga, live_server)
    ana = _phone(browser, "de-DE")
    said = _take_the_seat_from_the_lobby(ana, live_server, "ana@example.com", "Ana", "04-ana")
    assert "melde dich zuerst an" in said and "Du hast einen Platz, Ana." in said
    ana.goto(f"{live_server.url}/lobby/")
    assert "Du hast einen Platz in dieser Partie." in ana.inner_text("main")
    assert ana.locator("main a.button[href^='/lobby/']").count() == 0  # no second seat offered
    _shot(ana, "05-lobby-seat-held")
    _audit(ana, "the lobby with a seat held", found)
    ana.click("header button:has-text('Abmelden')")
    ana.wait_for_selector("main .messages")
    assert ana.url == f"{live_server.url}/" and "Du bist abgemeldet." in ana.inner_text("main")
    assert "Django" not in ana.content()
    _shot(ana, "06-signed-out")

    zoe = _phone(browser)
    said = _take_the_seat_from_the_lobby(zoe, live_server, "zoe@example.com", "Zoe", "07-zoe")
    assert "To take the seat you chose in the lobby" in said
    assert "the game has begun" in said and "The game begins when every seat is taken" not in said
    game = Game.objects.get(name="Open table")
    assert sorted(Seat.objects.filter(game=game).values_list("name", flat=True)) == ["Ana", "Zoe"]
    told = _mailed_subjects("olga@example.com")
    assert "Zoe took an open seat · Open table" in told
    assert not any("Zoe accepted" in subject for subject in told)
    zoe.click("header >> text=Your games")
    assert "You have no games yet" not in zoe.inner_text("main")
    assert "Open table" in zoe.inner_text("main table.played")
    _shot(zoe, "08-your-games")
    _audit(zoe, "Your games with a game played", found)
    zoe.click("main table.played >> text=Open your page")
    zoe.wait_for_url(f"**/play/{game.pk}/{Seat.objects.get(game=game, name='Zoe').pk}/")
    _shot(zoe, "09-her-page")
    assert found == []


def _mailed_subjects(to: str) -> list[str]:
    return [m.subject for m in mail.outbox if m.to == [to]]

"""Shared helpers of tests/browser/ (and of the tests elsewhere that need them), so that no test
imports another test module.
"""

from __future__ import annotations

import base64
import re
import zoneinfo
from email.mime.base import MIMEBase
from typing import Any

from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from playwright.sync_api import expect

from games.engine import legal_commands
from games.models import Seat
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from games.services.orders import submit_order
from tests.browser.conftest import ARTIFACTS
from tests.order_loop_support import ANA, BEN, seats_to_act

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "de": "de-DE"}  # the browser's locale that asks for each language
I18N_SHOTS = ARTIFACTS / "i18n"  # the pages in both languages, and the organiser's forms
UX_SHOTS = ARTIFACTS / "ux"  # the phone's pages and lists

# Athens on turn with 6 phalanxes in its Native Polis; D4 is a neutral Polis whose garrison has
# fallen, with a treasure on it: a Move there conquers it without combat (S-COMBAT-EMPTY, S-LOOT).
SCENARIO: dict[str, Any] = {
    "players": {"athens": {"fp": 3}, "sparta": {"fp": 2}},
    "seat_order": ["athens", "sparta"],
    "board": {
        "C3": {"owner": "athens", "phalanxes": 6, "king": True, "navigators": 1},
        "D4": {"tile": "megara", "phalanxes": 0, "unminted_coins": {"turtle": 1}},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True, "fortification_hp": [3, 1]},
        "E5": {"tile": "delos", "phalanxes": 2},
    },
}


def phone_page(browser: Any, language: str) -> Any:
    """A new page on a 390 x 844 phone whose browser asks for `language` ("en" or "de")."""
    return browser.new_context(locale=LOCALES[language], viewport=PHONE).new_page()


def wait_for_cost(page: Any, cost: str) -> None:
    # expect() polls from Playwright's side: the page's CSP forbids the eval wait_for_function needs.
    expect(page.locator("#move-cost")).to_have_attribute("data-cost", cost, timeout=10_000)


def ana_and_ben(language: str) -> list[PlayerSpec]:
    """Ana as Athens and Ben as Sparta, both reading `language`."""
    return [
        PlayerSpec("Ana", "ana@example.com", "athens", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language=language),
    ]


def athens_game(live_server, language: str) -> tuple[Any, str]:
    """A game of SCENARIO, and Athens' link to its page on the live test server."""
    game = create_game(ana_and_ben(language), scenario=SCENARIO)
    seat = game.seats.get(faction="athens")
    return game, live_server.url + reverse("games:play", args=[game.pk, link_token(seat)])


def athens_link(live_server, language: str) -> str:
    return athens_game(live_server, language)[1]


def a_game_under_way() -> Seat:
    """A two-player game after an Expand, so the page has events, a neutral Polis and a turn."""
    game = create_game([ANA, BEN], name="Aegean test")
    first = seats_to_act(game)[0]
    loaded = load_game(game)
    expand = next(c for c in legal_commands(loaded.state, first.faction) if c.kind == "expand")
    submit_order(game, first, expand, loaded.seq)
    return seats_to_act(game)[0]


def email_on_a_phone(browser: Any, message: Any, language: str) -> Any:
    """The sent HTML body at 390 px, its inline board picture (cid:) shown as a mail app would."""
    html, _ = message.alternatives[0]
    for part in message.attachments:
        if isinstance(part, MIMEBase) and part["Content-ID"]:
            data = base64.b64encode(part.get_payload(decode=True)).decode()
            html = html.replace(f"cid:{part['Content-ID'].strip('<>')}", f"data:image/png;base64,{data}")
    page = browser.new_context(locale=language, viewport=PHONE).new_page()
    page.set_content(html)
    return page


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def shown(deadline, zone: str, language: str) -> str:
    """A deadline as the page writes it in `language` ("en", "de" or a locale such as "de-DE"):
    "5 Dec 2026, 19:17 (UTC)", "5.12.2026, 19:17 (UTC)"."""
    at = deadline.astimezone(zoneinfo.ZoneInfo(zone))
    if language[:2] == "de":
        return f"{at.day}.{at.month}.{at.year}, {at:%H:%M} ({zone})"
    return f"{at.day} {MONTHS[at.month - 1]} {at.year}, {at:%H:%M} ({zone})"


def publish_an_open_table(organiser: Any, live_server: Any) -> None:
    """The signed-in organiser's page gathers a game of two open seats, "Open table", and publishes
    it in the lobby (docs/front-door.md "Open games and the lobby")."""
    organiser.goto(f"{live_server.url}/organiser/games/gather/")
    organiser.fill("#id_name", "Open table")
    organiser.select_option("#id_seats", "2")
    organiser.check("#id_published")
    organiser.click("main button[type=submit]")
    organiser.wait_for_url("**/players/")


ORGANISER = ("olga", "secret-pass-1")


def signed_in_organiser(
    browser: Any, live_server: Any, locale: str, path: str, viewport: dict = PHONE
) -> Any:
    """A new browser of `locale` opens the organiser page at `path` and signs in there with the
    password of the ORGANISER account (made here), landing back on `path`."""
    username, password = ORGANISER
    get_user_model().objects.create_user(username, password=password)
    page = browser.new_context(locale=locale, viewport=viewport).new_page()
    page.goto(f"{live_server.url}{path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{path}")
    return page


def signed_in_by_email(page: Any, live_server: Any, email: str) -> None:
    """Ask for a sign-in link for `email`, then open the emailed link and sign in (the test needs
    the emails delivered to django.core.mail.outbox: tests/notifications/celery_fixtures.anymail_outbox)."""
    page.goto(f"{live_server.url}/sign-in/")
    page.fill("#id_email", email)
    page.click("main button[type=submit]")
    page.wait_for_selector("main [role=status]")
    body = [m for m in mail.outbox if m.to == [email] and "/sign-in/" in m.body][-1].body
    page.goto(live_server.url + re.search(r"https?://[^/\s]+(/sign-in/\S+/)", body)[1])
    with page.expect_navigation():
        page.click("main button[type=submit]")

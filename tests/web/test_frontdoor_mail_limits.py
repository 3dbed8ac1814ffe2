"""Sign-in links and password resets are limited per (address asked for, client), per client and,
as a ceiling, per address (docs/front-door.md "Sign-in", aegea_pbem/rate_limits.py
`mailing_an_address`): a stranger's asks spend the stranger's allowance, never the owner's, and a
household behind one address (a NAT) shares a client's allowance of 20 an hour, not 5."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import caches
from django.urls import reverse

from aegea_pbem.security_config import parse_trusted_proxies
from notifications.models import Outbox
from notifications.services import deliver_outbox
from tests.browser_like_client import BrowserLikeClient

pytestmark = pytest.mark.django_db

# The defaults (aegea_pbem/settings.py RATE_LIMITS; tests/aegea_pbem/test_settings.py reads them).
DEFAULTS = {"mailbox": (5, 3600), "signins": (20, 3600), "resets": (20, 3600), "mailbox_day": (30, 86400)}
STRANGER, OWNER = "203.0.113.66", "198.51.100.7"
REFUSED = {
    "mailbox": {
        "en": "Too many emails were asked for this address from your connection, so no email was sent.",
        "de": (
            "Von deinem Anschluss aus wurden zu viele E-Mails an diese Adresse angefordert, darum wurde"
            " keine E-Mail verschickt."
        ),
    },
    "signins": {
        "en": (
            "Too many sign-in links were asked from your connection (everyone on your network shares it),"
            " so no email was sent."
        ),
        "de": (
            "Von deinem Anschluss aus (alle in deinem Netz teilen ihn) wurden zu viele Anmeldelinks"
            " angefordert, darum wurde keine E-Mail verschickt."
        ),
    },
    "mailbox_day": {
        "en": (
            "This address has already been sent the most sign-in and password emails it may get in a day,"
            " so no email was sent."
        ),
        "de": (
            "An diese Adresse gingen binnen eines Tages schon so viele Anmelde- und Passwort-E-Mails, wie"
            " sie bekommen darf, darum wurde keine E-Mail verschickt."
        ),
    },
}
TRY_AGAIN_IN = {"en": "Try again in", "de": "Versuch es in"}


@pytest.fixture(autouse=True)
def default_limits(settings):
    settings.RATE_LIMITS = DEFAULTS
    caches["ratelimit"].clear()
    # One window of every limit, whenever the test runs (django-ratelimit's windows are fixed).
    with time_machine.travel(datetime(2026, 12, 3, 10, 0, tzinfo=UTC), tick=False):
        yield
    caches["ratelimit"].clear()


def ask(client, email: str, language: str = "en") -> tuple[int, str]:
    """A sign-in link asked for `email`: the status and the page's text."""
    response = client.post("/sign-in/", {"email": email}, HTTP_ACCEPT_LANGUAGE=language)
    return response.status_code, response.content.decode()


def links_mailed(email: str) -> int:
    return Outbox.objects.filter(kind="signin", to_email=email).count()


def test_a_stranger_spending_a_players_allowance_does_not_block_the_player_from_their_own_client():
    """Finding: anyone could spend a victim's sign-in allowance (5 an hour per address), blocking
    their email sign-in. Now a stranger's asks for ana@ spend the stranger's (address, client)
    allowance; Ana asking from her own connection still gets her link, and her password reset."""
    get_user_model().objects.create_user("ana", "ana@example.com", "a-long-password")
    stranger, owner = BrowserLikeClient(REMOTE_ADDR=STRANGER), BrowserLikeClient(REMOTE_ADDR=OWNER)

    asked = [ask(stranger, "ana@example.com")[0] for _ in range(5)]
    status, page = ask(stranger, "ana@example.com")
    reset_by_stranger = stranger.post(reverse("password_reset"), {"email": "ana@example.com"})

    assert asked == [200] * 5 and status == 429 and REFUSED["mailbox"]["en"] in page
    assert reset_by_stranger.status_code == 429  # one allowance for both kinds of email
    assert REFUSED["mailbox"]["en"] in reset_by_stranger.content.decode()
    assert ask(owner, "ana@example.com")[0] == 200
    assert owner.post(reverse("password_reset"), {"email": "ana@example.com"}).status_code == 302
    assert links_mailed("ana@example.com") == 6


def test_behind_a_trusted_proxy_the_forwarded_client_is_counted_and_a_forged_one_is_not(settings):
    """The client is `client_address`'s: behind TRUSTED_PROXIES the forwarded address, so the
    stranger and the owner behind one proxy are counted apart; a client talking directly cannot
    choose another bucket by an X-Forwarded-For of its own."""
    settings.TRUSTED_PROXIES = parse_trusted_proxies("10.0.0.1")
    stranger = BrowserLikeClient(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=STRANGER)
    owner = BrowserLikeClient(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=OWNER)
    forging = BrowserLikeClient(REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_FOR=OWNER)

    asked = [ask(stranger, "ana@example.com")[0] for _ in range(6)]

    assert asked == [200] * 5 + [429]
    assert ask(forging, "ana@example.com")[0] == 429  # still the stranger's own address
    assert ask(owner, "ana@example.com")[0] == 200


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_household_behind_one_address_shares_twenty_links_an_hour(language):
    """Finding: a player sharing a household's address (a NAT) with others was refused after five
    emails from it, whoever asked. Now each address asked for gets 5 an hour from that client and
    the client 20: Ana's sixth is refused, Ben's five are not; two people sharing one address share
    its 5; only past 20 links from the household is the household refused, told why."""
    home = BrowserLikeClient(REMOTE_ADDR="192.0.2.10")

    ana = [ask(home, "ana@example.com", language) for _ in range(6)]
    ben = [ask(home, "ben@example.com", language)[0] for _ in range(5)]
    shared = [ask(home, "family@example.com", language)[0] for _ in range(5)]
    cleo = [ask(home, "cleo@example.com", language)[0] for _ in range(5)]
    status, page = ask(home, "dan@example.com", language)

    assert [s for s, _ in ana] == [200] * 5 + [429] and REFUSED["mailbox"][language] in ana[-1][1]
    assert ben == shared == cleo == [200] * 5
    assert ask(home, "family@example.com", language)[0] == 429  # two people, one address: its 5
    assert status == 429 and REFUSED["signins"][language] in page and TRY_AGAIN_IN[language] in page
    assert Outbox.objects.filter(kind="signin").count() == 20


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_address_gets_at_most_thirty_a_day_from_all_clients_and_refused_asks_spend_none(language):
    """What keeps one address from being mail-bombed from many clients: 30 emails a day at most.
    Asks a client's own allowance refused do not count toward it, so one stranger cannot use
    up the address's day with refused asks."""
    first = BrowserLikeClient(REMOTE_ADDR="198.18.0.1")
    asked = [ask(first, "ana@example.com", language)[0] for _ in range(10)]
    others = [BrowserLikeClient(REMOTE_ADDR=f"198.18.0.{n}") for n in range(2, 7)]
    sent = [ask(client, "ana@example.com", language)[0] for client in others for _ in range(5)]

    status, page = ask(BrowserLikeClient(REMOTE_ADDR="198.18.0.7"), "ana@example.com", language)

    assert asked == [200] * 5 + [429] * 5 and sent == [200] * 25
    assert links_mailed("ana@example.com") == 30
    assert status == 429 and REFUSED["mailbox_day"][language] in page
    hours = {"en": "hours.", "de": "Stunden noch einmal."}[language]
    assert TRY_AGAIN_IN[language] in page and hours in page  # the day's window: in hours


def test_strangers_using_up_an_addresss_day_do_not_lock_its_owner_out_of_the_browser_she_signed_in_with():
    """The ceiling is the one allowance strangers can spend together (six connections asking five
    times each, or one for six hours). The browser that signed in with a link for the address
    before is not held to it: Ana still gets her link there. A browser she never signed in with is
    refused until the day's window ends. The mark it keeps names no address."""
    ana = BrowserLikeClient(REMOTE_ADDR=OWNER)
    assert ask(ana, "ana@example.com")[0] == 200
    mail.outbox = []
    deliver_outbox()
    (link,) = re.findall(r"https?://\S+?(/sign-in/\S+/)", mail.outbox[0].body)
    assert ana.post(link).status_code == 302
    strangers = [BrowserLikeClient(REMOTE_ADDR=f"198.18.0.{n}") for n in range(1, 7)]
    asked = [ask(stranger, "ana@example.com")[0] for stranger in strangers for _ in range(5)]

    status, page = ask(BrowserLikeClient(REMOTE_ADDR="192.0.2.99"), "ana@example.com")

    assert asked == [200] * 29 + [429] and links_mailed("ana@example.com") == 30
    assert status == 429 and REFUSED["mailbox_day"]["en"] in page  # a browser she never signed in with
    assert ask(ana, "ana@example.com")[0] == 200  # her own: her (address, client) allowance only
    assert links_mailed("ana@example.com") == 31
    assert "ana" not in ana.cookies["aegea_known_mailboxes"].value

"""In Chromium, as a player meets them: the unsubscribe link of a player whose seat was handed over
(games/services/unsubscribing.py), in English and German, and the key-free link of a message email
(mail_keys.keys_signed). Every link is taken from an email actually sent."""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import NotificationPreference
from games.services.messages import send_message
from games.services.substitutes import hand_over_seat
from notifications.services import deliver_outbox
from tests.browser.conftest import ARTIFACTS
from tests.order_loop_support import LINK, two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def mails_to(address: str) -> list:
    deliver_outbox()
    return [m for m in mail.outbox if m.to == [address]]


@pytest.fixture
def game(settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.INBOUND_DOMAIN = "play.example.com"
    mail.outbox = []
    return two_player_game(name="Corfu")


@pytest.mark.parametrize(
    ("language", "heading", "told"),
    [
        ("en", "This link no longer applies", "the seat was handed over to another player"),
        ("de", "Dieser Link gilt nicht mehr", "Der Platz wurde an einen anderen Spieler übergeben"),
    ],
)
@pytest.mark.django_db(transaction=True)
def test_a_former_players_unsubscribe_link_says_it_no_longer_applies(
    live_server, browser, game, language, heading, told
):
    ana = game.seats.get(faction="athens")
    (welcome,) = mails_to(ana.email)
    link = welcome.extra_headers["List-Unsubscribe"].strip("<>")
    hand_over_seat(ana, "Sue", "sue@example.com")
    page = browser.new_context(locale=language).new_page()

    response = page.goto(link.replace("http://127.0.0.1:8000", live_server.url))

    assert response.status == 410
    assert page.inner_text("h1") == heading and told in page.inner_text("#state")
    assert page.locator("button").count() == 0  # nothing to press
    page.screenshot(path=str(ARTIFACTS / f"unsubscribe-withdrawn-{language}.png"), full_page=True)
    assert not NotificationPreference.objects.filter(seat=ana, unsubscribed=True).exists()


@pytest.mark.django_db(transaction=True)
def test_a_message_emails_link_opens_the_page_where_the_player_opened_their_link_before(
    live_server, browser, game
):
    ben = game.seats.get(faction="sparta")
    (welcome,) = mails_to(ben.email)
    site = "http://127.0.0.1:8000"
    send_message(game.seats.get(faction="athens"), "sparta", "Shall we split Delos?")
    (message,) = [m for m in mails_to(ben.email) if "sent you a message" in m.subject]
    (key_free,) = set(LINK.findall(message.body))
    assert key_free == f"{site}/play/{game.pk}/{ben.pk}/"

    phone = browser.new_context().new_page()
    phone.goto(LINK.findall(welcome.body)[0].replace(site, live_server.url))  # the seat cookie
    phone.goto(key_free.replace(site, live_server.url))
    assert "Shall we split Delos?" in phone.inner_text("body")
    phone.screenshot(path=str(ARTIFACTS / "message-link-with-cookie.png"), full_page=True)

    elsewhere = browser.new_context().new_page()
    response = elsewhere.goto(key_free.replace(site, live_server.url))
    assert response.status == 403 and "open that link again" in elsewhere.inner_text("body")
    assert elsewhere.locator("input[name='email']").count() == 1  # a new link by email

"""Sign-in by email (docs/front-door.md "Sign-in"): a one-time link, good for a while and once."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import caches
from django.test import override_settings
from django.utils import timezone

from games.models import SignInRequest
from games.web.views.frontdoor import too_many_sign_ins
from notifications.models import Outbox
from notifications.services import deliver_outbox

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_limits():
    """No counts of other tests in this process's rate-limit cache, and none of this one's left to them."""
    caches["ratelimit"].clear()
    yield
    caches["ratelimit"].clear()


def _mailed_link() -> str:
    deliver_outbox()
    (email,) = mail.outbox
    match = re.search(r"https?://\S+/sign-in/(\S+)/", email.body)
    assert match, email.body
    return f"/sign-in/{match[1]}/"


def test_a_new_organiser_signs_in_with_the_emailed_link_once(client):
    response = client.post("/sign-in/", {"email": "Nora@Example.com"})
    assert response.status_code == 200 and "Nora@Example.com" in response.content.decode()
    link = _mailed_link()
    assert mail.outbox[0].to == ["Nora@Example.com"]
    # The link's token is never stored: the outbox row names only the request.
    row = Outbox.objects.get(kind="signin")
    assert link.split("/")[2] not in str(row.context)
    page = client.get(link)  # a mail scanner's GET spends nothing
    assert page.status_code == 200 and "Sign in now" in page.content.decode()
    signed_in = client.post(link)
    assert signed_in.status_code == 302 and signed_in["Location"] == "/organiser/"
    user = get_user_model().objects.get(email="Nora@Example.com")
    assert not user.has_usable_password()
    assert client.get("/organiser/").status_code == 200
    client.logout()
    again = client.post(link)
    assert again.status_code == 410 and "used already" in again.content.decode()


def test_an_expired_or_forged_link_signs_nobody_in(client):
    client.post("/sign-in/", {"email": "ida@example.com"})
    link = _mailed_link()
    SignInRequest.objects.update(expires=timezone.now() - timedelta(seconds=1))
    expired = client.post(link)
    assert expired.status_code == 410 and "expired" in expired.content.decode()
    forged = client.post("/sign-in/1:forged/")
    assert forged.status_code == 410
    assert not get_user_model().objects.filter(email="ida@example.com").exists()


def test_a_known_address_signs_in_to_its_own_account(client):
    olga = get_user_model().objects.create_user("olga", email="olga@example.com", password="secret-pass-1")
    client.post("/sign-in/", {"email": "OLGA@example.com"})
    client.post(_mailed_link())
    assert int(client.session["_auth_user_id"]) == olga.pk


def test_the_sign_in_page_and_email_are_german_for_a_german_reader(client):
    page = client.get("/sign-in/", HTTP_ACCEPT_LANGUAGE="de")
    assert "Anmelde" in page.content.decode()
    client.post("/sign-in/", {"email": "jan@example.com"}, HTTP_ACCEPT_LANGUAGE="de")
    _mailed_link()
    assert "Anmelde" in mail.outbox[0].subject


def test_a_bad_address_is_told_and_mails_nothing(client):
    response = client.post("/sign-in/", {"email": "not an address"})
    assert response.status_code == 400
    assert not Outbox.objects.exists()


@override_settings(RATE_LIMITS={"mailbox": (2, 3600)})
def test_asking_for_links_is_rate_limited_per_address_and_client(client, fresh_limits):
    """An address asked for too often from one client is refused there; the same address asked
    for from another client is not (docs/front-door.md "Sign-in": tests/web/test_frontdoor_mail_limits.py)."""
    for _ in range(2):
        assert client.post("/sign-in/", {"email": "eve@example.com"}).status_code == 200
    refused = client.post("/sign-in/", {"email": "EVE@example.com "})
    assert refused.status_code == 429 and refused["Retry-After"]
    assert client.post("/sign-in/", {"email": "eve@example.com"}, REMOTE_ADDR="10.0.0.9").status_code == 200
    assert Outbox.objects.filter(kind="signin").count() == 3


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "Too many sign-in links were asked from your connection (everyone on your network shares"
            " it), so no email was sent. Try again in {minutes} minutes.",
        ),
        (
            "de",
            "Von deinem Anschluss aus (alle in deinem Netz teilen ihn) wurden zu viele Anmeldelinks"
            " angefordert, darum wurde keine E-Mail verschickt. Versuch es in {minutes} Minuten noch einmal.",
        ),
    ],
)
@time_machine.travel(datetime(2026, 12, 3, 10, 0, tzinfo=UTC), tick=False)  # one wait, whenever it runs
def test_the_sign_in_page_says_no_link_was_sent_and_the_minutes_to_wait(
    client, settings, fresh_limits, language, said
):
    settings.RATE_LIMITS = {"signins": (1, 3600)}
    client.post("/sign-in/", {"email": "adam@example.com"}, HTTP_ACCEPT_LANGUAGE=language)
    asked = {"email": "eve@example.com"}
    refused = client.post("/sign-in/", asked, HTTP_ACCEPT_LANGUAGE=language)
    assert refused.status_code == 429
    # The wait said is the rest of the limit's window, in minutes rounded up (django-ratelimit's
    # windows start at an offset of each bucket's own, so it is read here, not known).
    wait = int(refused["Retry-After"])
    minutes = math.ceil(wait / 60)
    assert 0 < wait <= 3600 and minutes > 1
    page = refused.content.decode()
    assert f'<p class="error" role="alert">{said.format(minutes=minutes)}</p>' in page
    assert f'<html lang="{language}">' in page
    assert 'value="eve@example.com"' in page  # the form again, the address kept, to try later
    assert Outbox.objects.filter(kind="signin").count() == 1


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(1, "1 minute."), (60, "1 minute."), (61, "2 minutes."), (5400, "90 minutes."), (5401, "2 hours.")],
)
def test_the_wait_is_said_in_whole_minutes_rounded_up(rf, seconds, said):
    response = too_many_sign_ins(rf.post("/sign-in/", {"email": "eve@example.com"}), seconds, "signins")
    assert response.status_code == 429
    assert f"Try again in {said}</p>" in response.content.decode()

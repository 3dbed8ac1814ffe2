"""The local mailbox in Chromium: a new user reads the turn email as it would arrive and answers it."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from games.models import Event
from tests.browser.conftest import ARTIFACTS
from tests.order_loop_support import seats_to_act, two_player_game

SHOTS = ARTIFACTS.parent / "dev-mailbox"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_new_user_answers_the_turn_email_from_the_local_mailbox(live_server, browser, settings, tmp_path):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.INBOUND_DOMAIN = "aegeapolis.localhost"
    mail.outbox = []
    game = two_player_game(name="Corfu")
    (seat,) = seats_to_act(game)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)

    page.goto(live_server.url + reverse("games:mailbox"))
    page.get_by_role("link", name=f"You play {seat.faction.capitalize()} · Corfu").click()
    page.wait_for_load_state()
    html = page.frame_locator("iframe.mail-html")
    assert "It is your turn" in html.locator("body").inner_text()
    assert "It is your turn" in page.inner_text(".mail-text")
    page.screenshot(path=str(SHOTS / "turn-email.png"), full_page=True)

    page.fill("#reply", "pass")
    page.get_by_role("button", name="Reply to this email").click()
    page.wait_for_load_state()
    assert "Your reply was received as if by email" in page.inner_text(".messages")
    page.screenshot(path=str(SHOTS / "after-reply.png"), full_page=True)
    assert Event.objects.filter(game=game, type="PlayerPassed", actor=seat.faction).exists()
    assert violations == []

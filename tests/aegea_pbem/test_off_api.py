"""Sessions, CSRF, the signed-in user and messages do not run under /api/ (aegea_pbem/off_api.py);
every other path keeps them, and the API keeps its security headers."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Event
from games.reading.links import link_token
from games.reading.situation import load_game
from tests.browser_like_client import BrowserLikeClient
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db


def test_an_api_order_loads_no_session_and_sets_no_cookie_but_keeps_the_security_headers():
    """A browser's cookies (a session, a CSRF cookie) sent with an API order change nothing: the
    token alone is the seat's key, and the answer sets no cookie and does not vary by cookie."""
    game = two_player_game()
    seat = seats_to_act(game)[0]
    client = BrowserLikeClient(enforce_csrf_checks=True)
    client.cookies["sessionid"] = "not-a-session"
    client.cookies["csrftoken"] = "x" * 32
    body = json.dumps({"expected_seq": load_game(game).seq, "command": {"kind": "pass"}})
    response = client.post(
        reverse("games:api-orders", args=[game.pk]),
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}",
    )
    assert response.status_code == 201
    request = response.wsgi_request
    assert not hasattr(request, "session") and not hasattr(request, "user")
    assert not hasattr(request, "_messages")
    assert not response.cookies
    assert "Cookie" not in response.headers.get("Vary", "")
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_page_form_without_its_csrf_token_is_still_refused():
    """Off the API the CSRF check runs as before: the player's order form posted without the
    token is refused and writes nothing."""
    game = two_player_game()
    seat = seats_to_act(game)[0]
    client = BrowserLikeClient(enforce_csrf_checks=True)
    before = Event.objects.filter(game=game).count()
    response = client.post(
        reverse("games:play", args=[game.pk, link_token(seat)]),
        {"expected_seq": load_game(game).seq, "kind": "pass"},
    )
    assert response.status_code == 403
    assert hasattr(response.wsgi_request, "session") and hasattr(response.wsgi_request, "user")
    assert Event.objects.filter(game=game).count() == before


def test_the_page_middleware_is_still_found_by_the_checks_that_ask_for_it():
    """admin.E408 to E410 ask for the session, user and messages middleware (or subclasses)."""
    call_command("check", fail_level="ERROR")

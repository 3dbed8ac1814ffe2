"""Security: response headers, CSRF on every form, rate limits on order and link endpoints, and
no secret (seed, link token, SECRET_KEY) in the logs of a played game."""

from __future__ import annotations

import io
import json
import logging
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import caches
from django.urls import reverse

from aegea_pbem.security import RedactLinkTokens, redact_tokens
from games.engine import Pass
from games.mail.keys import reply_token
from games.models import Event
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.orders import submit_order
from tests.browser_like_client import BrowserLikeClient, seat_page
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def play_url(seat) -> str:
    return reverse("games:play", args=[seat.game_id, link_token(seat)])


def test_pages_carry_the_security_headers(client):
    game = two_player_game()
    seat = seats_to_act(game)[0]
    for response in (client.get("/"), client.get(play_url(seat))):
        assert response["Referrer-Policy"] == "same-origin"  # links carry tokens; forms need an Origin
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["X-Frame-Options"] == "DENY"
        csp = response["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "object-src 'none'" in csp


# Forms posting to views that are csrf_exempt on purpose, and why.
CSRF_EXEMPT_FORMS = {
    # RFC 8058 one-click unsubscribe: mail clients post it; its signed token is the key.
    "games/unsubscribe.html",
}


def test_every_post_form_in_the_templates_carries_the_csrf_token():
    forms = 0
    for path in TEMPLATES.rglob("*.html"):
        if str(path.relative_to(TEMPLATES)) in CSRF_EXEMPT_FORMS:
            continue
        for form in re.findall(r"<form\b[^>]*>.*?</form>", path.read_text(), flags=re.S | re.I):
            if re.search(r"method=[\"']?post", form, flags=re.I):
                forms += 1
                assert "{% csrf_token %}" in form, (
                    f"{path.relative_to(TEMPLATES)}: POST form without csrf_token"
                )
    assert forms >= 3


def test_an_order_posted_without_the_csrf_token_is_refused_and_changes_nothing():
    game = two_player_game()
    seat = seats_to_act(game)[0]
    seq = load_game(game).seq
    client = BrowserLikeClient(enforce_csrf_checks=True)
    client.get(play_url(seat))  # the page sets the CSRF cookie; the post below leaves the token out
    response = client.post(play_url(seat), {"kind": "pass", "expected_seq": seq})
    assert response.status_code == 403
    assert load_game(game).seq == seq


# The limits count in fixed minutes: a run that crossed into the next minute was counted afresh
# there (one got six pages without a 429). The clock stands still inside one minute here.
@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)
def test_order_endpoints_are_rate_limited_with_a_clear_429_and_nothing_changes(client, settings):
    settings.RATE_LIMITS = {"orders": (3, 60), "links": (5, 60)}
    caches["ratelimit"].clear()
    game = two_player_game()
    seat = seats_to_act(game)[0]
    api = reverse("games:api-orders", args=[game.pk])
    auth = {"HTTP_AUTHORIZATION": f"Bearer {link_token(seat)}"}
    body = json.dumps({"expected_seq": 0, "command": {"kind": "pass"}})  # stale: answered 409
    statuses = [client.post(api, body, content_type="application/json", **auth).status_code for _ in range(4)]
    assert statuses == [409, 409, 409, 429]
    limited = client.post(api, body, content_type="application/json", **auth)
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert int(limited["Retry-After"]) > 0
    seq = load_game(game).seq
    opened = seat_page(client, game.pk, link_token(seat))  # the emailed link counts once
    pages = [client.get(opened).status_code for _ in range(5)]
    assert pages == [200] * 4 + [429]
    page = client.get(play_url(seat))
    assert page.status_code == 429 and b"Too many requests" in page.content
    assert load_game(game).seq == seq


def test_no_secret_appears_in_the_logs_of_a_played_game(caplog, client):
    caplog.set_level(logging.DEBUG)
    game = two_player_game()
    tokens = set()
    for _ in range(6):
        seat = seats_to_act(game)[0]
        tokens.add(link_token(seat))
        client.get(play_url(seat))
        submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    client.post(reverse("games:api-orders", args=[game.pk]), "{bad json", content_type="application/json")
    text = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert caplog.records  # the game did log something at DEBUG
    assert game.seed not in text
    assert settings.SECRET_KEY not in text
    assert not [token for token in tokens if token in text]
    assert Event.objects.filter(game=game).exists()


def test_rate_limits_let_requests_through_when_their_cache_is_unavailable(client, settings):
    settings.RATE_LIMITS = {"links": (1, 60)}
    settings.CACHES = {
        **settings.CACHES,
        "ratelimit": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
    }
    game = two_player_game()
    seat = seats_to_act(game)[0]
    assert [client.get(play_url(seat)).status_code for _ in range(2)] == [200, 200]


def test_link_tokens_in_the_paths_django_logs_are_redacted(caplog, settings):
    """Django logs the path of every 4xx answer: a refused order ("Bad Request: /play/1/<token>/"),
    a CSRF refusal, a valid token opened on another game's address. The token in it was a seat's key
    for weeks, written to the logs (docs/operations.md says they never carry one)."""
    caplog.set_level(logging.DEBUG)
    game, other = two_player_game(), two_player_game()
    seat = seats_to_act(game)[0]
    token = link_token(seat)
    console = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    written = io.StringIO()
    old_stream = console.setStream(written)
    try:
        client = BrowserLikeClient()
        refused = client.post(play_url(seat), {"kind": "fortify", "space": "I9", "expected_seq": 1})
        not_found = client.get(f"/play/{other.pk}/{token}/")
        csrf = BrowserLikeClient(enforce_csrf_checks=True).post(
            play_url(seat), {"kind": "pass", "expected_seq": 1}
        )
        export = client.get(f"/games/{other.pk}/export.json?token={token}")
        logging.getLogger("games").warning("a reply to orders+%s@x", reply_token(seat, "o", 3))
    finally:
        console.setStream(old_stream)
    assert (refused.status_code, not_found.status_code, csrf.status_code, export.status_code) == (
        400,
        404,
        403,
        404,
    )
    logged = caplog.text + written.getvalue()
    assert "Bad Request: /play/" in logged and "Not Found: /play/" in logged and "Forbidden (" in logged
    assert "[token]" in written.getvalue()
    assert token not in logged and token.rsplit(":", 1)[1] not in logged
    assert reply_token(seat, "o", 3) not in logged


def test_the_redaction_keeps_the_rest_of_a_message():
    record = logging.LogRecord(
        "django.server", logging.INFO, "", 0, '"%s" %s', ("GET /play/7/a:b:c/ HTTP/1.1", 200), None
    )
    assert RedactLinkTokens().filter(record)
    assert record.getMessage() == '"GET /play/7/[token]/ HTTP/1.1" 200'
    assert redact_tokens("/organiser/games/7/history/?at=3") == "/organiser/games/7/history/?at=3"
    assert redact_tokens("GET /play/7/15/history/ 200") == "GET /play/7/15/history/ 200"  # a seat, no token
    assert redact_tokens("/mail/unsubscribe/x:y:z/ and /api/games/7/state?token=x:y") == (
        "/mail/unsubscribe/[token]/ and /api/games/7/state?token=[token]"
    )


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)
@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)  # inside one window
def test_messages_and_the_pages_under_a_link_are_rate_limited_too(client, settings):
    """Only the link itself and the API were limited: a message posted to /play/<id>/<token>/message/
    (an event and an email to every rival each) could be sent without limit, and the history, the
    Move cost preview and the export opened without limit."""
    settings.RATE_LIMITS = {"orders": (3, 60), "links": (4, 60)}
    caches["ratelimit"].clear()
    game = two_player_game()
    seat = seats_to_act(game)[0]
    page = seat_page(client, game.pk, link_token(seat))
    message = page + "message/"
    posted = [client.post(message, {"to": "all", "text": f"hello {n}"}).status_code for n in range(4)]
    assert posted == [302, 302, 302, 429]
    assert Event.objects.filter(game=game, type="MessageSent").count() == 3
    caches["ratelimit"].clear()
    history, move_cost = page + "history/", page + "move-cost"
    export = reverse("games:export", args=[game.pk]) + f"?token={link_token(seat)}"
    opened = [client.get(url).status_code for url in (history, move_cost, export, history)]
    assert opened == [200, 200, 200, 200]
    refused = client.get(export)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert client.get(move_cost).json()["error"].startswith("Too many requests.")  # the preview shows it
    assert client.get(history).status_code == 429


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)  # inside one window
def test_sign_ins_are_rate_limited_so_an_organisers_password_cannot_be_guessed_at_speed(client, settings):
    settings.RATE_LIMITS = {"orders": (3, 60), "links": (4, 60), "logins": (3, 300)}
    caches["ratelimit"].clear()
    login = reverse("login")
    guesses = [
        client.post(login, {"username": "olga", "password": f"guess {n}"}).status_code for n in range(4)
    ]
    assert guesses == [200, 200, 200, 429]  # a wrong password shows the form again (200)
    assert client.post("/admin/login/", {"username": "olga", "password": "x"}).status_code == 429
    assert client.get(login).status_code == 200  # reading the form is not a guess


@time_machine.travel(datetime(2026, 11, 30, 12, 0, 5, tzinfo=UTC), tick=False)  # inside one window
def test_password_resets_are_limited_per_address_and_client_and_per_client(settings, mailoutbox):
    """Finding: password reset is unthrottled. Its form mailed an organiser's address as often as
    anyone posted it. Now an address asked for from one client ("mailbox"), and each client
    ("resets"), are limited; another client's asks for the same address are its own (a stranger's
    asks cannot block the owner: tests/web/test_frontdoor_mail_limits.py)."""
    settings.RATE_LIMITS = {"mailbox": (2, 3600), "resets": (3, 3600)}
    caches["ratelimit"].clear()
    User.objects.create_user("olga", "olga@example.com", "pw")
    User.objects.create_user("otto", "otto@example.com", "pw")
    reset = reverse("password_reset")
    one, other = BrowserLikeClient(REMOTE_ADDR="192.0.2.1"), BrowserLikeClient(REMOTE_ADDR="192.0.2.2")
    asked = [one.post(reset, {"email": "olga@example.com"}).status_code for _ in range(3)]
    assert asked == [302, 302, 429]
    assert len(mailoutbox) == 2
    assert other.post(reset, {"email": "OLGA@example.com "}).status_code == 302  # its own allowance
    assert one.post(reset, {"email": "otto@example.com"}).status_code == 302  # the client's 3rd
    refused = one.post(reset, {"email": "someone@example.com"}, HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 429
    assert "zu viele neue Passwörter angefordert, darum wurde keine E-Mail verschickt." in (
        refused.content.decode()
    )
    assert len(mailoutbox) == 4
    assert one.get(reset).status_code == 200  # reading the form is not an ask

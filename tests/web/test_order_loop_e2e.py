"""The order loop (docs/order-loop.md), end to end: a two-player game played only through the emailed links.

PostgreSQL, Redis and a real Celery worker: every email is delivered by the worker from the
outbox and read from anymail's test backend; every order is given on the page the email's
link opens (Django's test client), until a winter scoring has been played.
"""

from __future__ import annotations

import json
import re
import threading

import pytest
from django.core import mail
from django.db import connection
from django.urls import reverse

from games.models import Event, GameProgress
from games.reading.links import link_token
from games.reading.situation import load_game
from notifications.models import Outbox
from tests.browser_like_client import BrowserLikeClient
from tests.notifications.celery_fixtures import anymail_outbox, celery_worker, wait_for_mail, wait_until  # noqa: F401
from tests.order_loop_support import choose, link_in, seats_to_act, suggested_orders, two_player_game

MAX_ORDERS = 40


def delivered() -> bool:
    """Every outbox row written so far has been sent by the worker (and nothing else was)."""
    sent = Outbox.objects.filter(status=Outbox.Status.SENT).count()
    return not Outbox.objects.filter(status=Outbox.Status.PENDING).exists() and len(mail.outbox) == sent


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # the worker thread needs the committed rows of a real database
@pytest.mark.usefixtures("celery_worker")
def test_two_players_play_by_email_links_until_a_winter_scoring(client):
    game = two_player_game()
    welcomes = wait_for_mail(2)
    wait_until(delivered, what="the welcome emails")
    assert sorted(m.to[0] for m in welcomes) == ["ana@example.com", "ben@example.com"]
    queue = [m for m in welcomes if "It is your turn." in m.body]
    assert len(queue) == 1, "exactly one player is told to start"
    read = len(mail.outbox)
    kinds_played: list[str] = []

    while not Event.objects.filter(game=game, type="RankingScored").exists():
        assert queue, "nobody was mailed to act, but the game waits"
        assert len(kinds_played) < MAX_ORDERS
        message = queue.pop(0)
        path = link_in(message)
        page = client.get(path)
        assert page.status_code == 200
        text = page.content.decode()
        assert "Your order" in text
        seq, command = choose(suggested_orders(text), len(kinds_played))
        response = client.post(
            path, {"expected_seq": seq, "kind": "suggested", "command": json.dumps(command)}
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        assert "Your order was accepted." in client.get(path).content.decode()
        kinds_played.append(command["kind"])

        wait_until(delivered, what="the emails of this order")
        new = mail.outbox[read:]
        read = len(mail.outbox)
        for email in new:
            assert re.fullmatch(rf"\w+: your (turn|sealed winter order) — .+ · {game.name}", email.subject)
            assert email.alternatives[0][1] == "text/html"
        queue += new

    assert {"pass", "commit_coins"} <= set(kinds_played)
    assert {"expand", "recruit"} & set(kinds_played)
    # The sealed winter orders went to both players at once, and scoring gave out VP.
    winter = [m for m in mail.outbox if "your sealed winter order — 430 BC" in m.subject]
    assert sorted(m.to[0] for m in winter) == ["ana@example.com", "ben@example.com"]
    progress = GameProgress.objects.get(game=game)
    assert progress.year == 429 and progress.phase == "actions"
    assert sum(progress.vp.values()) >= 5  # 2 players: 3 + 2 in the Poleis ranking at least
    # The next year's first player got an email whose link works and tells them the scores.
    (next_turn,) = queue
    assert "your turn — 429 BC, round 1 of 3" in next_turn.subject
    assert "Winter of 430 BC: the scoring" in next_turn.body  # the scoreboard (S-WINTER)
    assert "Your order" in client.get(link_in(next_turn)).content.decode()
    # Exactly one email per player per turn: the outbox keys never repeat.
    keys = [m.extra_headers["X-Aegea-Notification"] for m in mail.outbox]
    assert len(keys) == len(set(keys))


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # two web requests racing need two real connections
@pytest.mark.usefixtures("celery_worker")
def test_same_order_posted_twice_at_once_over_the_api_gives_one_event_and_one_email():
    game = two_player_game()
    wait_for_mail(2)
    wait_until(delivered, what="the welcome emails")
    (seat,) = seats_to_act(game)
    seq = load_game(game).seq
    url = reverse("games:api-orders", args=[game.pk])
    body = json.dumps({"expected_seq": seq, "command": {"kind": "pass"}})
    start = threading.Barrier(2)
    statuses: list[int] = []

    def post() -> None:
        start.wait()
        try:
            response = BrowserLikeClient().post(
                url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {link_token(seat)}"
            )
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200, 201]  # H-ORDER: the second is told it was already accepted
    wait_until(delivered, what="the next player's email")
    assert Event.objects.filter(game=game, type="PlayerPassed").count() == 1
    turn_mails = [m for m in mail.outbox if "your turn" in m.subject]
    assert len(turn_mails) == 1
    assert turn_mails[0].to != [seat.email]

"""Published heads (docs/operations.md "Published heads"): once a day the head of every game whose log
moved is appended to the public /log-heads/ list, which nothing rewrites, and sent to the operator's
webhook and email address, so that a third party keeps copies."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.core import mail
from django.db import DatabaseError, connection, transaction

from games.engine import Pass
from games.models import Event, PublishedHead
from games.reading.export import chain_pin
from games.reading.situation import load_game
from games.services import published_heads
from games.services.orders import submit_order
from tests.notifications.celery_fixtures import anymail_outbox  # noqa: F401
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = pytest.mark.django_db
MONDAY, TUESDAY, WEDNESDAY = date(2026, 12, 7), date(2026, 12, 8), date(2026, 12, 9)


def head_line(game, day: date) -> str:
    seq = load_game(game).seq
    pin = chain_pin(game.seed, Event.objects.get(game=game, seq=seq).hash)
    return f"{day.isoformat()} game={game.pk}; seq={seq}; pin={pin}"


def test_each_day_appends_the_head_of_every_game_whose_log_moved(client) -> None:
    game, quiet = two_player_game(), two_player_game()
    monday = [head_line(game, MONDAY), head_line(quiet, MONDAY)]
    assert [row.line() for row in published_heads.publish_heads(MONDAY)] == monday
    assert [row.line() for row in published_heads.publish_heads(MONDAY)] == monday  # once a day
    (seat,) = seats_to_act(game)
    submit_order(game, seat, Pass(seat.faction), load_game(game).seq)
    tuesday = [head_line(game, TUESDAY)]  # the quiet game's head did not move: nothing new to keep
    assert [row.line() for row in published_heads.publish_heads(TUESDAY)] == tuesday
    assert published_heads.publish_heads(WEDNESDAY) == []

    page = client.get("/log-heads/")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/plain")
    assert page.content.decode().splitlines() == monday + tuesday  # oldest first: an append-only list
    assert client.get("/log-heads/?since=2026-12-08").content.decode().splitlines() == tuesday
    refused = client.get("/log-heads/?since=yesterday")
    assert refused.status_code == 400 and b"nothing was listed" in refused.content


@pytest.mark.usefixtures("anymail_outbox")
def test_the_days_heads_go_to_the_operators_webhook_and_address(settings, monkeypatch) -> None:
    settings.LOG_HEADS_WEBHOOK_URL = "https://copies.example.org/aegeapolis"
    settings.LOG_HEADS_EMAIL = "notary@example.org"
    posted = []

    class Answer:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(
        published_heads.urllib.request, "urlopen", lambda request, timeout: posted.append(request) or Answer()
    )
    game = two_player_game()
    published_heads.publish_heads(MONDAY)
    (request,) = posted
    assert request.full_url == settings.LOG_HEADS_WEBHOOK_URL and request.get_method() == "POST"
    assert json.loads(request.data) == {"day": "2026-12-07", "heads": [head_line(game, MONDAY)]}
    (sent,) = [m for m in mail.outbox if m.to == ["notary@example.org"]]
    assert sent.body == head_line(game, MONDAY) + "\n"


def test_a_failing_webhook_loses_no_head(settings, monkeypatch) -> None:
    settings.LOG_HEADS_WEBHOOK_URL = "https://copies.example.org/aegeapolis"

    def down(request, timeout):
        raise OSError("connection refused")

    monkeypatch.setattr(published_heads.urllib.request, "urlopen", down)
    game = two_player_game()
    assert [row.line() for row in published_heads.publish_heads(MONDAY)] == [head_line(game, MONDAY)]
    assert PublishedHead.objects.count() == 1


def test_the_published_list_is_append_only() -> None:
    """On PostgreSQL (the product's database) a trigger refuses UPDATE and DELETE, as for the log."""
    two_player_game()
    (row,) = published_heads.publish_heads(MONDAY)
    for statement in ("UPDATE games_publishedhead SET seq = 1", "DELETE FROM games_publishedhead"):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement)
    assert PublishedHead.objects.get().line() == row.line()

"""Shared fixtures: games with a few events, and the database the suite runs on.

Tests marked `postgresql` use what only PostgreSQL has (the append-only trigger, row locks
between real connections). CI always runs on PostgreSQL and refuses anything else; a
developer's run on SQLite reports them as skipped, with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from games.eventstore.store import append_events
from games.models import Event, Game
from tests.browser_like_client import BrowserLikeClient

ON_POSTGRESQL = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("CI") and not ON_POSTGRESQL:
        raise pytest.UsageError("CI runs the suite on PostgreSQL: set DATABASE_URL to a postgres:// URL")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if ON_POSTGRESQL:
        return
    needs = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL); CI always runs it")
    for item in items:
        if "postgresql" in item.keywords:
            item.add_marker(needs)


@pytest.fixture
def client() -> BrowserLikeClient:
    """pytest-django's `client`, opening emailed links as a browser does (tests/browser_like_client.py)."""
    return BrowserLikeClient()


@pytest.fixture(autouse=True)
def default_language() -> None:
    """Each test starts in the site's default language: a request in German (LocaleMiddleware
    activates the reader's language in the test's thread and leaves it) must not make a later
    test's English messages German."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@dataclass(frozen=True)
class Fact:
    """An engine-style event (type, payload) that needs no engine: the store accepts any such object."""

    type: str
    payload: dict[str, Any] = field(default_factory=dict)


def facts(*types: str, **payload: Any) -> list[Fact]:
    return [Fact(event_type, dict(payload)) for event_type in types]


T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def game(db) -> Game:
    return Game.objects.create(name="Test game")


@pytest.fixture
def append() -> Callable[..., list[Event]]:
    """append(game, *types, actor=..., at=minutes after T0): append events at the log's head."""

    def do(game: Game, *types: str, actor: str = "test", at: int = 0, **payload: object) -> list[Event]:
        last = Event.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True).first() or 0
        return append_events(
            game, last, facts(*types, **payload), actor=actor, now=T0 + timedelta(minutes=at)
        )

    return do


def tamper(sql: str, params: list[object]) -> None:
    """Run an UPDATE/DELETE on games_event behind the store's back (the trigger is off meanwhile)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Deferred foreign-key checks of this test's inserts must fire before the table is altered.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
        cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")


@pytest.fixture
def organiser(client):
    """A signed-in organiser (the organiser's pages)."""
    user = get_user_model().objects.create_user("olga", password="secret-pass-1")
    client.force_login(user)
    return user

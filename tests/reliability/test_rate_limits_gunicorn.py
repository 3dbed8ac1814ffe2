"""Rate limits as production runs them: gunicorn (2 workers sharing the count in Redis) behind a
proxy that forwards the client's address, trusted by TRUSTED_PROXIES=127.0.0.1.

The proxy here is the test itself: it connects from 127.0.0.1 and sends X-Forwarded-For as nginx's
`$proxy_add_x_forwarded_for` would. A connection from 127.0.0.2 (another loopback address, not
trusted) is a client talking to gunicorn directly, whose X-Forwarded-For must be ignored.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from bench.http_load import free_port, start_gunicorn
from games.models import Game
from games.reading.links import link_token
from games.reading.situation import load_game
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [pytest.mark.slow, pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/15"
JUNK_SENDER, PLAYER = "203.0.113.66", "198.51.100.7"


def database_url() -> str:
    """The test database (pytest-django's, where this test's game is committed) as a URL."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def server(tmp_path: Path, settings) -> Iterator[int]:
    """gunicorn with limits on: 3 orders an hour per bucket (an hour: no window ends mid-test). It
    runs with DEBUG=0, as in production, so with a key of its own, which this test signs links with."""
    settings.SECRET_KEY = "gunicorn-test-" + "k" * 40
    store = redis.Redis.from_url(REDIS_URL)
    for key in store.scan_iter(":1:rl:*"):  # counts left by an earlier run (the "ratelimit" cache)
        store.delete(key)
    port = free_port()
    environment = {
        "DATABASE_URL": database_url(),
        "REDIS_URL": REDIS_URL,
        "SECRET_KEY": settings.SECRET_KEY,
        "RATE_LIMITS": "orders=3/3600,links=100/3600",
        "TRUSTED_PROXIES": "127.0.0.1",
    }
    process = start_gunicorn(port, 2, tmp_path, environment)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        store.delete("celery")  # the turn emails gunicorn queued for a worker that never ran


def order(port: int, game: Game, token: str, forwarded: str, source: str = "127.0.0.1") -> int:
    """POST a pass to the JSON API from `source`, X-Forwarded-For `forwarded`: the answer's status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    body = json.dumps({"expected_seq": load_game(game).seq, "command": {"kind": "pass"}})
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "X-Forwarded-For": forwarded,
    }
    try:
        connection.request("POST", f"/api/games/{game.pk}/orders", body, headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_behind_the_proxy_junk_is_limited_by_its_own_address_and_players_still_order(server):
    """Finding: rate limits block everyone behind a reverse proxy. Behind nginx REMOTE_ADDR is the
    proxy's: junk from one address locked out every player's order."""
    game = two_player_game()
    assert [order(server, game, "junk", JUNK_SENDER) for _ in range(4)] == [403, 403, 403, 429]
    assert order(server, game, "junk", PLAYER) == 403  # another client's address: not limited
    first = seats_to_act(game)[0]
    assert order(server, game, link_token(first), PLAYER) == 201  # a real player's order
    second = seats_to_act(game)[0]
    assert second != first
    assert order(server, game, link_token(second), JUNK_SENDER) == 201  # a seat from the junk address
    assert order(server, game, "junk", JUNK_SENDER) == 429


def test_x_forwarded_for_from_an_untrusted_peer_cannot_escape_the_limit(server):
    """The guard on the fix for "rate limits block everyone behind a reverse proxy": believing
    X-Forwarded-For must not let a client name its own address. A client connecting directly
    (127.0.0.2, not a trusted proxy) that sends a new X-Forwarded-For each time is still counted by
    its own address."""
    game = two_player_game()
    spoofed = [order(server, game, "junk", f"192.0.2.{n}", source="127.0.0.2") for n in range(4)]
    assert spoofed == [403, 403, 403, 429]
    assert order(server, game, "junk", JUNK_SENDER) == 403  # the proxy's clients are counted apart

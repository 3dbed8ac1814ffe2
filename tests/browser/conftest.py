"""What every browser test shares: Debian's headless Chromium, launched once per test by Playwright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from django.urls import reverse

from games.reading.links import link_token

CHROMIUM = "/usr/bin/chromium"
# Without these Chromium tries the network (updates, sync, QUIC) and hangs on this machine.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


def link(live_server: Any, seat: Any) -> str:
    """The seat's signed link to its page on the live test server."""
    return live_server.url + reverse("games:play", args=[seat.game_id, link_token(seat)])


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Debian's Chromium; each test opens its pages or contexts (language, size, colour scheme)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # still plain synchronous code, so Django's guard against async contexts is lifted here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
            # The test's ORM calls ran in Playwright's context, which has its own connection.
            connections.close_all()

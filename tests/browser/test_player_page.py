"""A real browser on the player page (issue 4): Playwright driving Debian's headless Chromium.

A player opens their link, is refused an illegal Expand with the engine's message next to the
form, expands, and the next player moves; screenshots land in test-artifacts/browser/.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections
from django.urls import reverse

from games.engine import Move, legal_commands
from games.links import link_token
from games.models import Event
from games.situation import load_game
from tests.order_loop_support import seats_to_act, two_player_game

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

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def page(monkeypatch) -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # still plain synchronous code, so Django's guard against async contexts is lifted here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser.new_page(viewport={"width": 1200, "height": 1400})
        finally:
            browser.close()
            # The test's ORM calls ran in Playwright's context, which has its own connection.
            connections.close_all()


def link(live_server, seat) -> str:
    return live_server.url + reverse("games:play", args=[seat.game_id, link_token(seat)])


@pytest.mark.django_db(transaction=True)
def test_player_expands_and_moves_through_the_forms_and_reads_the_engines_error(live_server, page):
    game = two_player_game()
    first = seats_to_act(game)[0]
    second = game.seats.exclude(pk=first.pk).get()
    state = load_game(game).state
    space = next(c.space for c in legal_commands(state, first.faction) if c.kind == "expand")

    page.goto(link(live_server, first))
    assert "It is your turn." in page.inner_text("#status")

    # An Expand the rules refuse: I9 is next to none of the player's Poleis (S-EXP).
    expand = page.locator("#order-expand")
    expand.locator("input[name='expand-space']").fill("I9")
    expand.locator("select[name='expand-source']").select_option("deck")
    expand.locator("button[type='submit']").click()
    error = page.locator("#order-expand .order-error")
    assert "(S-EXP)" in error.inner_text()
    page.screenshot(path=str(ARTIFACTS / "1-expand-refused.png"), full_page=True)

    page.locator("#order-expand input[name='expand-space']").fill(space)
    page.locator("#order-expand button[type='submit']").click()
    assert "Your order was accepted." in page.inner_text(".messages")
    assert f"expanded to {space}: a neutral Polis" in page.inner_text(".messages")
    assert space in page.inner_text("#board")
    page.screenshot(path=str(ARTIFACTS / "2-expanded.png"), full_page=True)

    # The next player moves, out of the moves the engine lists as legal.
    state = load_game(game).state
    move = next(
        c for c in legal_commands(state, second.faction) if isinstance(c, Move) and len(c.destinations) == 1
    )
    (destination,) = move.destinations
    page.goto(link(live_server, second))
    form = page.locator("#order-move")
    form.locator("input[name='move-origin']").fill(move.origin)
    form.locator("input[name='move-to1']").fill(destination.space)
    form.locator("input[name='move-phalanxes1']").fill(str(destination.phalanxes))
    form.locator("input[name='move-navigators1']").fill(str(destination.navigators))
    if destination.king:
        form.locator("input[name='move-king1']").check()
    form.locator("button[type='submit']").click()
    messages = page.inner_text(".messages")
    assert "Your order was accepted." in messages
    assert f"moved from {move.origin} to {destination.space}" in messages
    page.screenshot(path=str(ARTIFACTS / "3-moved.png"), full_page=True)
    assert Event.objects.filter(game=game, type="UnitsMoved", actor=second.faction).count() == 1

"""A real browser on the player page (docs/order-loop.md): Playwright driving Debian's headless Chromium.

A player opens their link, is refused an illegal Expand with the engine's message next to the
form, expands, and the next player moves; screenshots land in test-artifacts/browser/.
"""

from __future__ import annotations

import pytest

from games.engine import Move, legal_commands
from games.models import Event
from games.reading.situation import load_game
from tests.browser.conftest import ARTIFACTS, link
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def page(browser) -> object:
    return browser.new_page(viewport={"width": 1200, "height": 1400})


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
    assert "(rule S-EXP)" in error.inner_text()
    page.screenshot(path=str(ARTIFACTS / "1-expand-refused.png"), full_page=True)

    page.locator("#order-expand input[name='expand-space']").fill(space)
    page.locator("#order-expand button[type='submit']").click()
    assert "Your order was accepted." in page.inner_text(".messages")
    assert f"expanded to {space}: a neutral Polis" in page.inner_text(".messages")
    # The board picture shows the new Polis (the table board under it is folded on a phone).
    assert page.locator(f"#board svg .polis[data-space='{space}']").count() == 1
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


@pytest.mark.django_db(transaction=True)
def test_h_order_the_same_order_tapped_again_on_a_second_screen_is_told_it_was_already_accepted(
    live_server, browser
):
    """The player's phone and laptop both show the page; they tap the same suggested order on each.
    The second tap is told the order was already accepted, not that the game moved on."""
    game = two_player_game()
    seat = seats_to_act(game)[0]
    phone, laptop = (browser.new_page(viewport={"width": 390, "height": 844}) for _ in range(2))
    for page in (phone, laptop):
        page.goto(link(live_server, seat))
    suggestion = phone.locator("form.suggestion button").first.inner_text()
    phone.locator("form.suggestion button").first.click()
    assert "Your order was accepted." in phone.inner_text(".messages")
    laptop.get_by_role("button", name=suggestion, exact=True).first.click()
    told = laptop.inner_text(".messages")
    assert "Your order was already accepted; it was not given a second time." in told
    assert "moved on" not in told
    laptop.screenshot(path=str(ARTIFACTS / "4-already-accepted.png"), full_page=True)
    assert Event.objects.filter(game=game, type="OrderGiven", actor=seat.faction).count() == 1

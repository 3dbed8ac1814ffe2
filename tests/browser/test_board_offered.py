"""The spaces the board marks in each order mode on a phone (390 x 844), in a real game at its first
turn: Recruit and Fortify mark only the Poleis where the engine allows them, Expand only the empty
spaces (and the Poleis to link from) it allows (H-ACTIONS, S-EXP); a tap on a space not marked fills
nothing. Screenshots: test-artifacts/browser/<test name>/.
"""

from __future__ import annotations

import pytest

from games.engine import legal_commands
from games.reading.situation import load_game
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE
from tests.order_loop_support import seats_to_act, two_player_game

pytestmark = [pytest.mark.browser]


def marked(page) -> set[str]:
    return set(
        page.locator(".board-picture-wrap svg [data-space].offered").evaluate_all(
            "els => els.map(e => e.dataset.space)"
        )
    )


@pytest.mark.django_db(transaction=True)
def test_h_actions_each_order_mode_marks_only_the_spaces_the_engine_allows(live_server, browser) -> None:
    shots = ARTIFACTS / "test_h_actions_each_order_mode_marks_only_the_spaces_the_engine_allows"
    shots.mkdir(parents=True, exist_ok=True)
    game = two_player_game()
    seat = seats_to_act(game)[0]
    legal = legal_commands(load_game(game).state, seat.faction)

    def allowed(kind: str, *attributes: str) -> set[str]:
        return {getattr(c, a) for c in legal if c.kind == kind for a in attributes if getattr(c, a, None)}

    page = browser.new_context(locale="en-GB", viewport=PHONE).new_page()
    page.goto(link(live_server, seat))
    expand_only = allowed("expand", "space") - allowed("recruit", "space")
    assert allowed("recruit", "space") and expand_only  # the first turn: the Native Polis, the spaces around
    modes = {"recruit": ("space",), "fortify": ("space",), "expand": ("space", "link_from")}
    for kind, attributes in modes.items():
        if not allowed(kind, "space"):
            continue
        page.locator(f".board-modes button[data-kind='{kind}']").click()
        assert marked(page) == allowed(kind, *attributes), kind
        page.screenshot(path=str(shots / f"{kind}.png"))
        if kind != "expand":
            # A tap on an empty space where one may only Expand leaves this order's form empty.
            page.locator(f".board-picture-wrap svg [data-space='{sorted(expand_only)[0]}']").click()
            assert page.locator(f"[name='{kind}-space']").input_value() == ""

"""A Move and an Expand given by taps on a phone (390 x 844), in English and German (S-MOVE, S-EXP,
H-TAKEBACK).

A new player's walk: after tapping their own Polis in Move mode the preview read "C3: Destination 1:
This field is required." (a form error for a Move half made); Move mode marked no space (Expand's
marks the engine's offered spaces); and the order's send button sat some 2,000 px below the board.
Now the half-made Move says what to tap next, the board marks the player's Poleis a Move can start
from and then the Poleis a Move from the chosen one reaches (the engine's legal Moves, as the Move
form lists them), and a send button for the order being built sits right under its preview, which
keeps its "cannot be taken back" warning. Without JavaScript no such button is added.

Screenshots: test-artifacts/browser/board-move/.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.engine import legal_commands
from games.engine.commands import Expand, Move
from games.models import Event
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import create_game
from tests.browser.conftest import ARTIFACTS
from tests.browser.support import PHONE, SCENARIO, ana_and_ben, athens_game, phone_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "board-move"
WORDS = {
    "en": {
        "next": "From C3: now tap where the phalanxes go, one of the marked Poleis.",
        "send_move": "Give the order: Move (C3 → D4)",
        "expand": "Expand",
        "send_expand": "Give the order: Expand ({space})",
        "stands": "Once given, it cannot be taken back: a tile is drawn from the deck.",
        "form_error": "required",
        "rule": "rule",
    },
    "de": {
        "next": "Von C3 aus: Tippe jetzt an, wohin die Phalangen ziehen – eine der markierten Poleis.",
        "send_move": "Befehl geben: Bewegen (C3 → D4)",
        "expand": "Expandieren",
        "send_expand": "Befehl geben: Expandieren ({space})",
        "stands": "Einmal gegeben, kann dieser Befehl nicht zurückgenommen werden: "
        "Eine Kachel wird vom Polisstapel gezogen.",
        "form_error": "erforderlich",
        "rule": "Regel",
    },
}


def marked(page: Any) -> set[str]:
    spaces = page.locator(".board-picture-wrap svg .offered").evaluate_all(
        "els => els.map(e => e.dataset.space)"
    )
    return set(spaces)


def the_engines(game: Any, kind: type) -> list[Any]:
    return [c for c in legal_commands(load_game(game).state, "athens") if isinstance(c, kind)]


def on_screen(box: dict[str, float]) -> bool:
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_move_by_taps_marks_where_it_may_go_says_what_next_and_is_sent_by_the_board(
    live_server, browser, language
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = WORDS[language]
    game, url = athens_game(live_server, language)
    moves = the_engines(game, Move)
    page = phone_page(browser, language)
    page.goto(url)
    board = page.locator(".board-picture-wrap svg")
    choice = page.locator(".board-choice")
    send = page.locator(".board-send")
    page.screenshot(path=str(SHOTS / f"{language}-1-move-mode.png"))

    # Before the origin: the player's Poleis a Move can start from, and only those.
    assert marked(page) == {m.origin for m in moves} == {"C3"}
    assert not send.is_visible()

    # The origin: what to tap next, no form error; the Poleis a Move from C3 reaches are marked.
    board.locator(".polis[data-space='C3']").click()
    expect(choice).to_have_text(words["next"], timeout=10_000)
    page.screenshot(path=str(SHOTS / f"{language}-2-origin.png"))
    assert "preview-error" not in choice.get_attribute("class")
    assert words["form_error"] not in page.locator("#move-cost").inner_text()
    reach = {d.space for m in moves if m.origin == "C3" for d in m.destinations}
    assert reach and marked(page) == reach
    assert not send.is_visible()  # nothing to send yet

    # A destination: the engine's preview, and right under it the button that sends this Move.
    board.locator(".polis[data-space='D4']").click()
    expect(send).to_be_visible(timeout=10_000)
    assert send.inner_text() == words["send_move"]
    assert marked(page) == reach - {"D4"}  # the chosen one is drawn as chosen, not offered
    said, button = choice.bounding_box(), send.bounding_box()
    assert 0 <= button["y"] - (said["y"] + said["height"]) < 20  # right under the preview
    assert on_screen(said) and on_screen(button)  # where the finger is, without scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SHOTS / f"{language}-3-destination.png"))

    # It sends the Move form itself: the board changes as after the form's own button.
    send.click()
    page.wait_for_load_state()
    conquered = page.locator(".board-picture-wrap svg .polis[data-space='D4']")
    assert "owner-athens" in conquered.get_attribute("class").split()
    assert load_game(game).state.board["D4"].owner == "athens"
    page.screenshot(path=str(SHOTS / f"{language}-4-sent.png"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_h_takeback_the_boards_send_button_sits_under_the_preview_that_warns(live_server, browser, language):
    words = WORDS[language]
    game, url = athens_game(live_server, language)
    space = sorted({c.space for c in the_engines(game, Expand)})[0]
    page = phone_page(browser, language)
    page.goto(url)
    page.locator(".board-modes button", has_text=words["expand"]).click()
    page.locator(f".board-picture-wrap svg [data-space='{space}']").click()
    send = page.locator(".board-send")
    expect(send).to_be_visible(timeout=10_000)
    choice = page.locator(".board-choice")
    assert send.inner_text() == words["send_expand"].format(space=space)
    # The warning, right above the button.
    assert choice.inner_text().endswith(f"{words['stands']} ({words['rule']} H-TAKEBACK)")
    said, button = choice.bounding_box(), send.bounding_box()
    assert 0 <= button["y"] - (said["y"] + said["height"]) < 20
    assert on_screen(said) and on_screen(button)
    page.screenshot(path=str(SHOTS / f"{language}-5-expand.png"))

    # A refused one: no button, the refusal says why (the space taken back by a second tap).
    page.locator(f".board-picture-wrap svg [data-space='{space}']").click()
    expect(send).to_be_hidden(timeout=10_000)


@pytest.mark.django_db(transaction=True)
def test_without_javascript_the_board_adds_no_send_button(live_server, browser):
    context = browser.new_context(java_script_enabled=False, viewport=PHONE, locale="en-GB")
    page = context.new_page()
    page.goto(athens_game(live_server, "en")[1])
    assert page.locator(".board-send").count() == 0
    assert page.locator("#order-move button[type='submit']").count() == 1  # the form's own, as before
    context.close()


NO_MOVE_OFFERED = {
    "en": "No Move from D4 is offered now: tap another of your marked Poleis, or tap a destination",
    "de": "Von D4 aus wird jetzt keine Bewegung angeboten: Tippe eine andere deiner markierten Poleis",
}


def move_field(page: Any, name: str) -> str:
    return page.locator(f"#order-move [name='move-{name}']").input_value()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_move_a_destination_tapped_away_leaves_no_gap_in_the_moves_rows(live_server, browser, language):
    """S-MOVE: of two destinations tapped, the first tapped again: the row after it moves up (the
    form requires its first row), and the emptied row gets the form's first values again."""
    game, url = athens_game(live_server, language)
    reach = {d.space for m in the_engines(game, Move) if m.origin == "C3" for d in m.destinations}
    assert reach == {"D4", "E5"}
    page = phone_page(browser, language)
    page.goto(url)
    board = page.locator(".board-picture-wrap svg")
    default = page.locator("#order-move [name='move-phalanxes2']").evaluate("f => f.defaultValue")
    board.locator(".polis[data-space='C3']").click()
    board.locator(".polis[data-space='D4']").click()
    board.locator(".polis[data-space='E5']").click()
    assert [move_field(page, "to1"), move_field(page, "to2")] == ["D4", "E5"]
    shares = [int(move_field(page, "phalanxes1")), int(move_field(page, "phalanxes2"))]
    assert sum(shares) == 6 and all(share > 0 for share in shares)  # C3's 6 split between the two

    board.locator(".polis[data-space='D4']").click()
    assert [move_field(page, "to1"), move_field(page, "to2")] == ["E5", ""]
    assert [move_field(page, "phalanxes1"), move_field(page, "phalanxes2")] == [str(shares[1]), default]
    send = page.locator(".board-send")
    # Still a Move to send, C3 to E5: the button's words follow the preview the page fetches again.
    expect(send).to_contain_text("E5", timeout=10_000)
    expect(send).not_to_contain_text("D4", timeout=10_000)
    page.screenshot(path=str(SHOTS / f"{language}-6-gap-closed.png"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_move_from_a_polis_without_phalanxes_no_move_is_offered_and_the_page_says_so(
    live_server, browser, language
):
    """S-MOVE: a Move starts from a Polis with phalanxes. Athens' D4 has none: it is not marked, and
    tapped as the origin all the same, the page says no Move from it is offered, no form error."""
    scenario = {**SCENARIO, "board": {**SCENARIO["board"], "D4": {"tile": "megara", "owner": "athens"}}}
    game = create_game(ana_and_ben(language), scenario=scenario)
    seat = game.seats.get(faction="athens")
    assert {m.origin for m in the_engines(game, Move)} == {"C3"}
    page = phone_page(browser, language)
    page.goto(live_server.url + reverse("games:play", args=[game.pk, link_token(seat)]))
    assert marked(page) == {"C3"}

    page.locator(".board-picture-wrap svg .polis[data-space='D4']").click()
    choice = page.locator(".board-choice")
    expect(choice).to_contain_text(NO_MOVE_OFFERED[language], timeout=10_000)
    assert WORDS[language]["form_error"] not in choice.inner_text()
    assert not page.locator(".board-send").is_visible()
    assert marked(page) == set()  # nothing a Move from D4 reaches
    page.screenshot(path=str(SHOTS / f"{language}-7-no-move-offered.png"))


BATTLES_IN_TAPPED_ORDER = {
    "en": "Give the order: Move (C3 → G3, E5)",
    "de": "Befehl geben: Bewegen (C3 → G3, E5)",
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
def test_s_move_order_two_battles_tapped_are_fought_in_the_order_tapped(live_server, browser, language):
    """S-MOVE-ORDER: a Move tapped to two defended Poleis could not be sent from the board (the walk:
    "Give the order of your battles", no button, the order to be typed into the form far below). The
    order of the taps is the battle order now, as the form says of its empty field."""
    rich = {**SCENARIO, "players": {"athens": {"fp": 10}, "sparta": {"fp": 2}}}
    game = create_game(ana_and_ben(language), scenario=rich)
    seat = game.seats.get(faction="athens")
    page = phone_page(browser, language)
    page.goto(live_server.url + reverse("games:play", args=[game.pk, link_token(seat)]))
    board = page.locator(".board-picture-wrap svg")
    for space in ("C3", "G3", "E5"):
        board.locator(f".polis[data-space='{space}']").click()
    send = page.locator(".board-send")
    expect(send).to_have_text(BATTLES_IN_TAPPED_ORDER[language], timeout=10_000)
    said = page.locator(".board-choice").inner_text()
    assert "S-MOVE-ORDER" not in said and said.index("G3", said.index("→")) < said.rindex("E5")
    page.screenshot(path=str(SHOTS / f"{language}-8-two-battles.png"))

    send.click()
    page.wait_for_load_state()
    fought = [
        e.payload["space"] for e in Event.objects.filter(game=game, type="BattleFought").order_by("seq")
    ]
    assert fought == ["G3", "E5"]

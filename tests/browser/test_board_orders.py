"""Every order kind given on the board in a real browser, at 390×844 and 1280×800, in English and German:
the order's button above the board, a tap on the board where the order needs a place, the engine's
preview shown before sending (docs/order-loop.md "Previews"), then the order sent and recorded; and
the Tile Choice in steps (H-CHOICE-STEP, S-EXP-CHOICE). Screenshots: test-artifacts/browser/<test>/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Event
from games.reading.links import link_token
from games.reading.situation import load_game
from games.services.game_setup import PlayerSpec, create_game
from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LOCALES = {"en": "en-GB", "de": "de-DE"}
# Corinth on turn in its Native Polis C7: D6 a neutral Polis without garrison (taken without a
# battle), E5 one with two phalanxes (a battle), empty spaces around C7 to expand to.
SCENARIO: dict[str, Any] = {
    "players": {"corinth": {"ap": 6, "fp": 5, "coins_behind_screen": {"owl": 2}}, "sparta": {"fp": 2}},
    "seat_order": ["corinth", "sparta"],
    "discard": ["elis", "pylos"],
    "board": {
        "C7": {"tile": "corinth", "owner": "corinth", "phalanxes": 6, "king": True},
        "D6": {"tile": "megara", "phalanxes": 0},
        "E5": {"tile": "delos", "phalanxes": 2},
        "G3": {"owner": "sparta", "phalanxes": 4, "king": True},
    },
}


def corinth_page(live_server, browser, size: str, language: str) -> tuple[Any, Any]:
    players = [
        PlayerSpec("Cleo", "cleo@example.com", "corinth", language=language),
        PlayerSpec("Ben", "ben@example.com", "sparta", language=language),
    ]
    game = create_game(players, scenario=SCENARIO)
    seat = game.seats.get(faction="corinth")
    page = browser.new_page(viewport=SIZES[size], locale=LOCALES[language])
    page.goto(live_server.url + reverse("games:play", args=[game.pk, link_token(seat)]))
    return game, page


def tap(page: Any, space: str) -> None:
    page.locator(f".board-picture-wrap svg [data-space='{space}']").click()


def given_on_the_board(page: Any, kind: str) -> None:
    """Pick the order's button, tap the board where the order needs a place, fill what remains."""
    page.locator(f".board-modes button[data-kind='{kind}']").click()
    form = page.locator(f"#order-{kind}")
    if kind == "expand":
        tap(page, "D8")
        assert form.locator("[name='expand-space']").input_value() == "D8"
        assert "offered" in page.locator("svg [data-space='C8']").get_attribute("class")
    elif kind in ("recruit", "fortify"):
        tap(page, "C7")
        assert form.locator(f"[name='{kind}-space']").input_value() == "C7"
    elif kind == "move":
        tap(page, "C7")
        tap(page, "D6")
        sent = form.locator("[name='move-phalanxes1']").input_value()
        tap(page, "E5")
        # The second tap splits the phalanxes: half of the first share, not 0 and a refusal.
        shares = [int(form.locator(f"[name='move-phalanxes{n}']").input_value()) for n in (1, 2)]
        assert shares[0] > 0 and shares[1] > 0 and sum(shares) == int(sent), (sent, shares)
        form.locator("[name='move-phalanxes1']").fill("3")
        form.locator("[name='move-phalanxes2']").fill("3")
        # Drawn as a split from one origin: a line from C7 to each destination, not a path.
        assert page.locator("svg .move-split line").count() == 2
        assert {page.locator("svg .move-split line").nth(i).get_attribute("data-to") for i in (0, 1)} == {
            "D6",
            "E5",
        }
    elif kind == "offer_trade":
        form.locator("[name='offer_trade-give_ap']").fill("1")
        form.locator("[name='offer_trade-take_fp']").fill("1")


PREVIEWS = {  # what the engine's preview says, in words of each language
    "move": {"en": "battles at E5", "de": "Kämpfe in E5"},
    "expand": {"en": "D8", "de": "D8"},
    "recruit": {"en": "C7", "de": "C7"},
    "fortify": {"en": "C7", "de": "C7"},
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_order_kind_is_given_on_the_board_with_the_engines_preview_first(
    live_server, browser, size, language
) -> None:
    shots = ARTIFACTS / "test_every_order_kind_is_given_on_the_board_with_the_engines_preview_first"
    shots.mkdir(parents=True, exist_ok=True)
    kinds = [
        "expand",
        "recruit",
        "fortify",
        "move",
        "offer_trade",
        "reform",
        "oracle",
        "recruit_builder",
        "pass",
    ]
    for kind in kinds:
        game, page = corinth_page(live_server, browser, size, language)
        before = Event.objects.filter(game=game).count()
        given_on_the_board(page, kind)
        output = page.locator("#move-cost" if kind == "move" else f"#preview-{kind}")
        expect(output).to_have_class(re.compile("preview-cost"), timeout=10_000)
        # The pick of the kind asks for a preview before the tap does; the page shows the last answer.
        expect(output).to_contain_text(PREVIEWS.get(kind, {}).get(language, ""), timeout=10_000)
        text = output.inner_text()
        assert text and PREVIEWS.get(kind, {}).get(language, "") in text, text
        assert Event.objects.filter(game=game).count() == before  # a preview changes nothing
        page.locator(".board-picture-wrap").screenshot(
            path=str(shots / f"{size}-{language}-{kind}-0-board.png")
        )
        output.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"{size}-{language}-{kind}-1-preview.png"))
        page.locator(f"#order-{kind} button[type='submit']").click()
        page.wait_for_load_state()
        given = Event.objects.filter(game=game, type="OrderGiven").order_by("seq").last()
        assert given is not None and given.payload["command"]["kind"] == kind
        page.screenshot(path=str(shots / f"{size}-{language}-{kind}-2-given.png"))
        page.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_h_choice_step_see_the_first_tile_then_pay_for_a_second_and_keep_one_by_name(
    live_server, browser, size, language
) -> None:
    shots = ARTIFACTS / "test_h_choice_step_see_the_first_tile_then_pay_for_a_second_and_keep_one_by_name"
    shots.mkdir(parents=True, exist_ok=True)
    game, page = corinth_page(live_server, browser, size, language)
    given_on_the_board(page, "expand")
    page.locator("[name='expand-source']").select_option("discard")
    page.locator("[name='expand-choice_step']").check()
    expect(page.locator("#preview-expand")).to_have_class(re.compile("preview-cost"), timeout=10_000)
    page.locator("#order-expand button[type='submit']").click()
    page.wait_for_load_state()
    # The first tile alone (the discard pile's top, Pylos), printed values in picture and words.
    cards = page.locator(".tile-card")
    expect(cards).to_have_count(1)
    first = load_game(game).state.pending_choice.tiles[0]
    assert first == "pylos" and cards.first.get_attribute("data-tile") == "pylos"
    assert "AP" in cards.first.inner_text() and "FP" in cards.first.inner_text()
    answers = page.locator(".tile-answers button")
    assert answers.count() == 3  # keep Pylos, or a second tile from the deck or the discard pile
    assert not page.locator(".tile-answers button[aria-pressed='true']").count()  # no default
    cards.first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{size}-{language}-1-first-tile.png"))
    page.locator(".tile-answers button[value='discard']").click()
    page.wait_for_load_state()
    expect(page.locator(".tile-card")).to_have_count(2)
    state = load_game(game).state
    assert state.pending_choice.tiles == ["pylos", "elis"] and state.players["corinth"].fp == 4
    keep = page.locator(".tile-answers button[name='choose_tile-keep'][value='elis']")
    assert "Elis" in keep.inner_text()  # the button is named after its tile
    neither = page.locator(".tile-answers button[name='choose_tile-discard_order']")
    assert neither.count() == 2 and neither.nth(0).inner_text() != neither.nth(1).inner_text()
    page.locator(".tile-card").first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{size}-{language}-2-both-tiles.png"))
    keep.click()
    page.wait_for_load_state()
    assert load_game(game).state.board["D8"].tile_id == "elis"
    page.screenshot(path=str(shots / f"{size}-{language}-3-kept.png"))

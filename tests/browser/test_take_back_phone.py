"""H-TAKEBACK on a phone (390 x 844) in German: a wrong tap taken back, and a sealed winter order
sealed again while the other player reads only that it changed. Screenshots:
test-artifacts/browser/<test name>/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Event
from games.services.game_setup import PlayerSpec, create_game
from tests.browser.conftest import ARTIFACTS, link
from tests.browser.support import PHONE, SCENARIO

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WINTER = {
    "players": {"athens": {"coins_behind_screen": {"owl": 2, "shield": 1}}, "sparta": {}},
    "seat_order": ["athens", "sparta"],
    "year": 430,
    "phase": "winter_orders",
}


def german_game(scenario: dict[str, Any]):
    players = [
        PlayerSpec("Ana", "ana@example.com", "athens", "de"),
        PlayerSpec("Ben", "ben@example.com", "sparta", "de"),
    ]
    game = create_game(players, scenario=scenario, language="de", name="Delos")
    return game.seats.get(faction="athens"), game.seats.get(faction="sparta")


def phone(browser: Any) -> Any:
    return browser.new_context(locale="de-DE", viewport=PHONE).new_page()


def shot(page: Any, test: str, name: str) -> None:
    folder = ARTIFACTS / test
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


def suggestion(page: Any, kind: str) -> Any:
    """The one-tap suggested order of that kind (its command's JSON names the kind)."""
    return page.locator("form.suggestion").filter(
        has=page.locator(f"input[name='command'][value*='\"{kind}\"']")
    )


def test_h_takeback_a_wrong_tap_is_taken_back_on_a_phone_in_german(browser, live_server):
    test = "test_h_takeback_a_wrong_tap_is_taken_back_on_a_phone_in_german"
    athens, sparta = german_game(SCENARIO)
    page = phone(browser)
    page.goto(link(live_server, athens))
    suggestion(page, "pass").first.locator("button").click()  # the wrong tap
    offer = page.locator("#take-back")
    expect(offer).to_contain_text("Falsch getippt?")
    expect(offer.locator("button")).to_have_text("Zurücknehmen")
    box = offer.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], "not on the phone's first screen"
    shot(page, test, "1-after-the-order")

    offer.locator("button").click()

    expect(page.locator("body")).to_contain_text("Dein Befehl wurde zurückgenommen.")
    expect(page.locator("#status")).to_contain_text("Du bist am Zug.")
    expect(page.locator("#take-back")).to_have_count(0)
    shot(page, test, "2-taken-back")
    assert Event.objects.filter(game=athens.game, type="OrderTakenBack").count() == 1

    other = phone(browser)
    other.goto(link(live_server, sparta))
    expect(other.locator("body")).to_contain_text("Athen hat seinen Befehl zurückgenommen: Passen.")
    shot(other, test, "3-the-other-player")


def test_h_takeback_a_sealed_winter_order_is_sealed_again_on_a_phone_in_german(browser, live_server):
    test = "test_h_takeback_a_sealed_winter_order_is_sealed_again_on_a_phone_in_german"
    athens, sparta = german_game(WINTER)
    page = phone(browser)
    page.goto(link(live_server, athens))
    suggestion(page, "commit_coins").first.locator("button").click()
    expect(page.locator("#take-back")).to_contain_text("kannst du ihn unten neu versiegeln")
    shot(page, test, "1-sealed")

    suggestion(page, "commit_coins").last.locator("button").click()  # another order: sealed again

    expect(page.locator("body")).to_contain_text("Du hast deinen versiegelten Winterbefehl geändert")
    shot(page, test, "2-sealed-again")
    first, again = Event.objects.filter(game=athens.game, type="WinterOrderSealed").order_by("seq")
    assert again.payload["supersedes"] == first.payload["commitment"]

    other = phone(browser)
    other.goto(link(live_server, sparta))
    expect(other.locator("body")).to_contain_text("Athen hat seinen versiegelten Befehl geändert.")
    body = other.locator("#happenings").inner_text()
    assert "Eule" not in body and "Schild" not in body  # never what it says
    shot(other, test, "3-the-other-player")

"""A refused order's rule code opens the rulebook at that rule, on a phone (390 x 844), in German
(H-ORDER: a refusal names the rule it breaks; docs/rules.de.md is the German rulebook).

Screenshots: test-artifacts/browser/<test name>/.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.support import PHONE, athens_link

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def on_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 200) <= PHONE["height"]


@pytest.mark.django_db(transaction=True)
def test_h_order_s_move_a_refused_moves_rule_code_opens_the_german_rulebook_at_that_rule(
    live_server, browser
) -> None:
    shots = ARTIFACTS / "test_h_order_s_move_a_refused_moves_rule_code_opens_the_german_rulebook_at_that_rule"
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(locale="de-DE", viewport=PHONE, device_scale_factor=2)
    page = context.new_page()
    page.goto(athens_link(live_server, "de"))

    # More phalanxes than stand in C3 (S-MOVE): refused, next to the form.
    page.locator("#details-move > summary").click()
    form = page.locator("#order-move")
    form.locator("input[name='move-origin']").fill("C3")
    form.locator("input[name='move-to1']").fill("D4")
    form.locator("input[name='move-phalanxes1']").fill("40")
    form.locator("button[type='submit']").click()
    page.wait_for_load_state()
    link = page.locator("#order-move .order-error a.rule-link")
    expect(link).to_have_text("S-MOVE")
    assert link.get_attribute("href") == "/rules/de/#S-MOVE"
    assert "(Regel S-MOVE)" in page.locator("#order-move .order-error").inner_text()
    link.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "1-refused.png"))

    # The rule opens in a tab of its own: the refused page (a posted order) stays as it was.
    with context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == f"{live_server.url}/rules/de/#S-MOVE"
    assert rules.locator("html").get_attribute("lang") == "de"
    rule = rules.locator("p#S-MOVE")
    expect(rule).to_contain_text("Bewege Phalangen (und Helden) aus EINER Polis")
    assert on_screen(rules, "p#S-MOVE"), "the page did not open at the rule"
    # Nothing on the page is wider than the phone.
    assert rules.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    rules.screenshot(path=str(shots / "2-rule.png"))
    audit = Axe().run(rules).response["violations"]
    serious = [f"{v['id']}: {v['help']}" for v in audit if v["impact"] in ("serious", "critical")]
    assert not serious, serious

    # The contents are one tap away from anywhere, and lead to every section and rule.
    rules.locator("a.to-contents").click()
    expect(rules.locator("#contents summary")).to_have_text("Inhalt")
    assert on_screen(rules, "#contents")
    rules.screenshot(path=str(shots / "3-contents.png"))
    rules.locator("#contents a[href='#section-6']").click()
    expect(rules.locator("h2#section-6")).to_have_text("6. Kampf")
    assert on_screen(rules, "h2#section-6")
    rules.locator("#contents").scroll_into_view_if_needed()
    rules.locator("#contents a[href='#S-FORT']").click()
    assert on_screen(rules, "p#S-FORT")
    rules.screenshot(path=str(shots / "4-from-the-contents.png"))

    # The same rule in English, from the header.
    rules.locator(".rules-languages a[hreflang='en']").click()
    rules.wait_for_load_state()
    assert rules.url == f"{live_server.url}/rules/en/"
    expect(rules.locator("#contents summary")).to_have_text("Contents")
    rules.screenshot(path=str(shots / "5-english-top.png"))
    context.close()

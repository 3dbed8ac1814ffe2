"""The organiser's forms show each refusal under its own field (the organiser audit): before, Django's
as_p put it above the label, so that "Ensure this value is greater than or equal to 1." sat under
the "Deadlines" legend, reading like the whole group's."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.browser.support import I18N_SHOTS, signed_in_organiser

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_a_refused_deadline_field_shows_its_error_under_that_field_in_german(live_server, browser):
    page = signed_in_organiser(browser, live_server, "de-DE", "/organiser/games/new/")
    page.fill("#id_players", "Ana <ana@example.com>:athens\nBen <ben@example.com>:sparta")
    page.fill("#id_deadlines-turn_hours", "0")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert not Game.objects.exists()
    field = page.locator(".field", has=page.locator("#id_deadlines-turn_hours"))
    error = field.locator(".errorlist")
    assert error.inner_text() == "Dieser Wert muss größer oder gleich 1 sein."
    assert error.bounding_box()["y"] > page.locator("#id_deadlines-turn_hours").bounding_box()["y"]
    assert page.locator(".errorlist").count() == 1  # no other field is blamed
    I18N_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(I18N_SHOTS / "organiser-field-error-de.png"), full_page=True)

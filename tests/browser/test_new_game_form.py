"""The organiser creates a game with its deadlines in a German browser (docs/long-games.md): a wrong time
zone is refused next to its field in German, nothing is created, the corrected form creates the
game with the chosen deadlines."""

from __future__ import annotations

import pytest

from games.models import DeadlineSettings, Game
from tests.browser.support import I18N_SHOTS, signed_in_organiser

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.django_db(transaction=True)
def test_an_organiser_sets_the_deadlines_of_a_new_game_in_german(live_server, browser):  # noqa: F811
    page = signed_in_organiser(browser, live_server, "de-DE", "/organiser/games/new/")  # sign-in first
    assert page.locator("fieldset legend").inner_text() == "Fristen"

    page.fill("#id_name", "Langsame Partie")
    page.fill("#id_players", "Ana <ana@example.com>:athens\nBen <ben@example.com>:sparta")
    page.fill("#id_deadlines-turn_hours", "24")
    page.fill("#id_deadlines-time_zone", "Berlin")
    page.check("#id_deadlines-skip_weekends")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    errors = page.locator(".errorlist").all_inner_texts()
    assert errors == ["Unbekannte Zeitzone; schreib z. B. Europe/Berlin oder UTC."]
    assert not Game.objects.exists()
    I18N_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(I18N_SHOTS / "new-game-deadlines-de.png"), full_page=True)

    # What was typed is kept; only the wrong field needs changing.
    assert page.input_value("#id_deadlines-turn_hours") == "24"
    page.fill("#id_deadlines-time_zone", "Europe/Berlin")
    page.click("main button[type=submit]")
    page.wait_for_url("**/organiser/games/*/")
    game = Game.objects.get(name="Langsame Partie")
    row = DeadlineSettings.objects.get(game=game)
    assert (row.turn_hours, row.time_zone, row.skip_weekends) == (24, "Europe/Berlin", True)

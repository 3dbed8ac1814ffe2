"""The organiser's players' lines on a phone, in English and German (docs/order-loop.md "Creating a game").

A new user's walk: `Jonas <jonas@example.de>:Athens` was refused as if the line were malformed
("Write a player as …") and `:athen` as an unknown faction. A faction is read in any case, by its id
or its name in either language (H-SETUP); a line that cannot be read says what is wrong with it.
"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.browser.support import I18N_SHOTS, signed_in_organiser

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CASES = {
    "en": (
        "en-GB",
        [
            'Line 1: Name the faction after the address and a colon: "Name <email>:faction", not'
            " Jonas <jonas@example.de>.",
            'Line 2: Put the email address in angle brackets: "Name <email>:faction", not'
            " Mia mia@example.de:sparta.",
            "Line 3: Unknown faction Rom; choose from Athens, Sparta, Corinth, Thebes.",
        ],
        "Jonas <jonas@example.de>:Athens\nMia <mia@example.de>:Korinth\nLeo <leo@example.de>:THEBES",
    ),
    "de": (
        "de-DE",
        [
            "Zeile 1: Nenne die Fraktion nach der Adresse und einem Doppelpunkt: „Name <E-Mail>:Fraktion“,"
            " nicht Jonas <jonas@example.de>.",
            "Zeile 2: Setz die E-Mail-Adresse in spitze Klammern: „Name <E-Mail>:Fraktion“, nicht"
            " Mia mia@example.de:sparta.",
            "Zeile 3: Unbekannte Fraktion Rom; wähle aus Athen, Sparta, Korinth, Theben.",
        ],
        "Jonas <jonas@example.de>:athen\nMia <mia@example.de>:Corinth\nLeo <leo@example.de>:Theben",
    ),
}


@pytest.mark.parametrize("language", CASES)
@pytest.mark.django_db(transaction=True)
def test_factions_by_name_in_any_case_and_malformed_lines_say_what_is_wrong(live_server, browser, language):
    locale, refusals, corrected = CASES[language]
    page = signed_in_organiser(browser, live_server, locale, "/organiser/games/new/")

    page.fill("#id_players", "Jonas <jonas@example.de>\nMia mia@example.de:sparta\nLeo <leo@example.de>:Rom")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    field = page.locator(".field", has=page.locator("#id_players"))
    assert field.locator(".errorlist li").all_inner_texts() == refusals
    assert not Game.objects.exists()
    I18N_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(I18N_SHOTS / f"organiser-player-lines-{language}.png"), full_page=True)

    page.fill("#id_players", corrected)
    page.click("main button[type=submit]")
    page.wait_for_url("**/organiser/games/*/")
    game = Game.objects.get()
    assert dict(game.seats.values_list("name", "faction")) == {
        "Jonas": "athens",
        "Mia": "corinth",
        "Leo": "thebes",
    }
